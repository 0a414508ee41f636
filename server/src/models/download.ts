import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cancelled, offline, unavailable } from '../core/errors';

export type ProgressFn = (done: number, total: number) => void;

export interface FileSpec {
  /** Relative, `/`-separated. */
  name: string;
  optional: boolean;
}

const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

function checkAbort(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled('download cancelled');
}

function meter(onBytes: (n: number) => void, signal: AbortSignal): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (signal.aborted) return cb(cancelled('download cancelled'));
      onBytes(chunk.length);
      cb(null, chunk);
    },
  });
}

/** Copies model files from a local folder (ASKCODE_MODELS_DIR or a custom model's folder). */
export async function copyFiles(srcDir: string, files: string[], destDir: string, signal: AbortSignal, progress: ProgressFn): Promise<void> {
  let total = 0;
  for (const f of files) total += (await fs.stat(path.join(srcDir, f))).size;
  let done = 0;
  progress(0, total);
  for (const f of files) {
    checkAbort(signal);
    const dest = path.join(destDir, f);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    await pipeline(
      createReadStream(path.join(srcDir, f)),
      meter((n) => progress((done += n), total), signal),
      createWriteStream(dest),
    );
  }
  progress(total, total);
}

function networkError(e: unknown, base: string): Error {
  if ((e as Error)?.name === 'AbortError') return cancelled('download cancelled');
  const cause = (e as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  // Happy-eyeballs connects fail with an AggregateError whose members carry the codes.
  const code = cause?.code ?? cause?.errors?.find((x) => x.code)?.code ?? (e as { code?: string }).code;
  if (code && NETWORK_CODES.has(code)) {
    return offline(`cannot reach the model hub at ${new URL(base).host} (${code}): this machine looks offline. Set ASKCODE_MODELS_DIR to a folder of local model folders to work offline.`);
  }
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * Fetches a hub repository's files over HTTPS (`<base>/<repo>/resolve/main/<file>`). Sizes come
 * from HEAD requests first so that the percentage is over the whole model.
 */
export async function fetchFiles(base: string, repo: string, files: FileSpec[], destDir: string, signal: AbortSignal, progress: ProgressFn): Promise<void> {
  const url = (f: string) => `${base.replace(/\/+$/, '')}/${repo}/resolve/main/${f.split('/').map(encodeURIComponent).join('/')}`;
  const present: { spec: FileSpec; size: number }[] = [];
  for (const spec of files) {
    checkAbort(signal);
    let res: Response;
    try {
      res = await fetch(url(spec.name), { method: 'HEAD', signal, redirect: 'follow' });
    } catch (e) {
      throw networkError(e, base);
    }
    if (res.status === 404 && spec.optional) continue;
    if (!res.ok) throw unavailable(`the model hub answered ${res.status} for ${repo}/${spec.name}`);
    present.push({ spec, size: Number(res.headers.get('content-length') ?? 0) || 0 });
  }
  const total = present.reduce((s, p) => s + p.size, 0);
  let done = 0;
  progress(0, total);
  for (const { spec } of present) {
    checkAbort(signal);
    let res: Response;
    try {
      res = await fetch(url(spec.name), { signal, redirect: 'follow' });
    } catch (e) {
      throw networkError(e, base);
    }
    if (!res.ok || !res.body) throw unavailable(`the model hub answered ${res.status} for ${repo}/${spec.name}`);
    const dest = path.join(destDir, spec.name);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    try {
      await pipeline(
        Readable.fromWeb(res.body as never),
        meter((n) => progress((done += n), Math.max(total, done)), signal),
        createWriteStream(dest),
      );
    } catch (e) {
      throw networkError(e, base);
    }
  }
  progress(done, done);
}
