import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as path from 'node:path';
import { createCore, type Core } from '../core/core';
import { stderrLogger, type LogLevel } from '../core/logger';
import { resolveDataDir, resolveModelsDir, type EmbeddingOptions } from '../core/options';
import { invalid } from '../core/errors';

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
