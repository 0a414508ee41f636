import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as path from 'node:path';
import { createCore, type Core } from '../core/core';
import { stderrLogger, type LogLevel } from '../core/logger';
import { resolveDataDir, resolveModelsDir, type EmbeddingOptions } from '../core/options';
import { statSync } from 'node:fs';
import { invalid, notFound } from '../core/errors';
import type { Core as CoreT } from '../core/core';
import { IndexProgressNotification, type IndexProgress } from '../protocol/workspace';
import { describeSkips } from '../index/skips';

/** parseArgs with strict checking; bad options become a usage error (exit 2). */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    throw invalid((e as Error).message);
  }
}

/** A core for one CLI run: data dir from --data-dir, ASKCODE_DATA_DIR or ~/.askcode. */
export async function openCore(opts: { dataDir?: string; folders?: string[]; autoIndex?: boolean; logLevel?: LogLevel; embedding?: EmbeddingOptions }): Promise<Core> {
  return createCore({
    dataDir: opts.dataDir ? path.resolve(opts.dataDir) : resolveDataDir(),
    modelsDir: resolveModelsDir(),
    folders: (opts.folders ?? []).map((f) => path.resolve(f)),
    log: stderrLogger(opts.logLevel ?? ((process.env.ASKCODE_LOG_LEVEL as LogLevel) || 'warn')),
    autoIndex: opts.autoIndex ?? false,
    embedding: opts.embedding,
    secrets: async (key) => process.env[key] ?? null,
  });
}

/** A folder to index or serve: a missing path or a file is refused with a clear error (exit 3 / 2). */
export function requireFolder(p: string, what = 'folder'): string {
  const abs = path.resolve(p);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw notFound(`${abs} does not exist: give the ${what} to index`, 'path');
  }
  if (!st.isDirectory()) throw invalid(`${abs} is a file, not a folder: give the folder that holds it (askcode indexes folders)`, 'path');
  return abs;
}

export const progressLine = (p: IndexProgress) =>
  // Before the walk has counted the files ("0/0 files, 3536 chunks, 0 embedded" read as if the
  // last run's index were gone).
  p.state === 'indexing' && !p.filesTotal ? `indexing: looking for files${p.chunks ? ` (${p.chunks} chunks from the last run)` : ''}` :
  `${p.state}: ${p.files}/${p.filesTotal} files, ${p.chunks} chunks, ${p.embedded} embedded${p.eta !== undefined ? `, ~${p.eta} s left` : ''}${p.bm25Only ? ' (keyword search only: no embedding model)' : ''}` +
  (p.skipped ? `; ${describeSkips(p.skipped)}` : '');

/**
 * Index progress on stderr while `run` goes: one line rewritten in place on a terminal, at most a
 * line every 2 s otherwise (logs stay short). stdout is left to the command's own output.
 */
export async function withProgress<T>(core: CoreT, run: () => Promise<T>, prefix = 'askcode: '): Promise<T> {
  const tty = !!process.stderr.isTTY;
  let last = 0;
  let shown = false;
  const off = core.service.onBroadcast((method, p) => {
    if (method !== IndexProgressNotification.method) return;
    const now = Date.now();
    if (!tty && now - last < 2000) return;
    last = now;
    shown = true;
    process.stderr.write(tty ? `\r${prefix}${progressLine(p as IndexProgress)}\x1b[K` : `${prefix}${progressLine(p as IndexProgress)}\n`);
  });
  try {
    return await run();
  } finally {
    off();
    if (tty && shown) process.stderr.write('\r\x1b[K');
  }
}
