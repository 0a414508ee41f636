/** The chat page (built `webview/`) served at `/`, under a strict Content-Security-Policy. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/**
 * Where the build puts the page: `dist/` holds `webview.js` (and `webview.css`) and `dist/webview/`
 * the static files. In the bundle `__dirname` is `dist/`; under tsx (tests) it is this folder.
 */
export function defaultWebRoot(): string {
  const candidates = [__dirname, path.resolve(__dirname, '..', '..', '..', 'dist')];
  return candidates.find((d) => fs.existsSync(path.join(d, 'webview.js'))) ?? candidates[0];
}

/** The page's policy: only our own scripts, styles and socket; no inline script, no framing. */
export function pageCsp(host: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://${host}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export class StaticFiles {
  constructor(private readonly root: string) {}

  /** The file for a request path, or null; never anything outside the page's own files. */
  resolve(pathname: string): string | null {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (rel.includes('\0')) return null;
    const candidates: string[] = [];
    if (rel === '/' || rel === '/index.html') candidates.push(path.join(this.root, 'webview', 'index.html'));
    else if (/^\/webview\.(js|css)(\.map)?$/.test(rel)) candidates.push(path.join(this.root, rel.slice(1)));
    else {
      const pageDir = path.join(this.root, 'webview');
      const file = path.resolve(pageDir, '.' + path.posix.normalize(rel));
      if (file.startsWith(pageDir + path.sep)) candidates.push(file);
    }
    for (const c of candidates) {
      try {
        if (fs.statSync(c).isFile()) return c;
      } catch {
        /* absent */
      }
    }
    return null;
  }

  serve(file: string, host: string, res: ServerResponse): void {
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    let body: Buffer;
    try {
      body = fs.readFileSync(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': body.length,
      'Content-Security-Policy': pageCsp(host),
      'Cache-Control': 'no-cache',
    });
    res.end(body);
  }
}
