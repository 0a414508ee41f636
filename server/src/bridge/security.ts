/**
 * What keeps the bridge safe on loopback without credentials: the Host check (DNS rebinding),
 * the Origin check (a web page must not read your code through it) and the size caps.
 */
import type { IncomingHttpHeaders } from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskcodeError, invalid, tooLarge } from '../core/errors';

export interface BridgeLimits {
  /** Largest request body (HTTP) in bytes: 413 above it. */
  bodyBytes: number;
  /** Deepest JSON nesting accepted in a body or a WebSocket frame. */
  jsonDepth: number;
  /** Longest request target (path + query) in characters: 414 above it. */
  urlLength: number;
  /** Largest WebSocket frame in bytes: the socket is closed with 1009 above it. */
  wsFrameBytes: number;
  /** Streams (or JSON-RPC requests) running at once on one socket. */
  streamsPerSocket: number;
  /** WebSocket connections open at once on the whole bridge. */
  sockets: number;
  /** Bytes queued to a slow WebSocket reader before it is dropped. */
  wsBacklogBytes: number;
}

// Seeds in relevance/question bodies carry whole files; 8 MiB leaves room for a large source
// file in base64 while keeping a single request from taking the worker's memory.
export const DEFAULT_LIMITS: BridgeLimits = {
  bodyBytes: 8 * 1024 * 1024,
  jsonDepth: 64,
  urlLength: 4096,
  wsFrameBytes: 8 * 1024 * 1024,
  streamsPerSocket: 16,
  sockets: 128,
  wsBacklogBytes: 32 * 1024 * 1024,
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The authority a request may name: a loopback name with the bridge's own port, or an extra host the user allowed. */
export class Authority {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(readonly port: number, extraHosts: string[] = []) {
    const names = [...LOOPBACK_NAMES, ...extraHosts.map(bracketIPv6)];
    this.hosts = new Set(names.map((n) => `${n}:${port}`.toLowerCase()));
    this.origins = new Set(names.map((n) => `http://${n}:${port}`.toLowerCase()));
  }

  /** A Host header naming anything else is a DNS-rebinding attempt (or a misdirected request). */
  hostAllowed(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /**
   * Browsers send Origin on every WebSocket upgrade and every cross-origin request; non-browser
   * clients (the SDK in Node, curl) send none. Only our own page may talk to us: a
   * `vscode-webview://` origin can be any extension's webview (askcode's own panel talks to the
   * worker by messages, never through the bridge).
   */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    return this.origins.has(origin.toLowerCase());
  }

  /** The request's verdict: null when allowed, else the status and why. */
  check(headers: IncomingHttpHeaders, navigation = false): { status: number; message: string } | null {
    if (!this.hostAllowed(headers.host)) {
      return { status: 421, message: `refused: Host '${headers.host ?? ''}' is not this bridge's loopback address` };
    }
    const origin = single(headers.origin);
    if (!this.originAllowed(origin)) {
      return { status: 403, message: `refused: Origin '${origin}' may not use this bridge` };
    }
    // A cross-site request without Origin (older browsers, no-cors GETs) is still a browser acting for
    // another site; only a plain navigation to the chat page is let through.
    if (origin === undefined && single(headers['sec-fetch-site']) === 'cross-site' && !navigation) {
      return { status: 403, message: 'refused: cross-site request' };
    }
    return null;
  }
}

function bracketIPv6(h: string): string {
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** JSON.parse with a nesting cap checked on the text first, so a deep body never reaches the parser's recursion. */
export function parseJson(text: string, maxDepth: number, what = 'body'): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) throw tooLarge(`${what} nests deeper than ${maxDepth} levels`, what);
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw invalid(`${what} is not valid JSON: ${(e as Error).message}`, what);
  }
}

/**
 * `paths` in a relevance input may only name files inside the served folders: the bridge answers
 * any local process (and our page), so it must not become a way to read the rest of the disk.
 * Symlinks are resolved so a link inside a folder cannot point out of it.
 */
export function checkPathsInside(paths: unknown, folders: string[], field: string): void {
  if (paths === undefined || paths === null) return;
  if (!Array.isArray(paths)) throw invalid(`${field} must be an array of paths`, field);
  paths.forEach((p, i) => checkPathInside(p, folders, `${field}[${i}]`));
}

export function checkPathInside(p: unknown, folders: string[], field: string): void {
  if (typeof p !== 'string' || p.length === 0) throw invalid(`${field} must be a non-empty string`, field);
  if (p.includes('\0')) throw invalid(`${field} contains a NUL character`, field);
  const roots = folders.map((f) => realOrResolved(f));
  const abs = path.isAbsolute(p) ? p : roots.length > 0 ? path.resolve(roots[0], p) : path.resolve(p);
  const real = realOrResolved(abs);
  if (!roots.some((r) => real === r || real.startsWith(r.endsWith(path.sep) ? r : r + path.sep))) {
    throw new AskcodeError('forbidden', `${field} '${p}' is outside the folders this bridge serves`, field);
  }
}

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // A path that does not exist yet: resolve its nearest existing parent so `..` and links still count.
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(realOrResolved(parent), path.basename(p));
  }
}
