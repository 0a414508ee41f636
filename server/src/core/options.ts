import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from './logger';
import type { WorkerSettings } from '../protocol/workspace';
import type { ClientLm } from '../models/vscodeLmGenerator';

export interface CoreOptions {
  /** Everything askcode keeps: registry, conversations, index tables, model cache. */
  dataDir: string;
  /**
   * `ASKCODE_MODELS_DIR`: a folder of local model folders. When set, models load from it and
   * remote loading is off (tests, CI, air-gapped machines).
   */
  modelsDir?: string;
  /** Workspace folders to index. */
  folders: string[];
  log: Logger;
  /** Secret look-up (VS Code SecretStorage in the worker; environment in the CLI). */
  secrets?: (key: string) => Promise<string | null>;
  settings?: WorkerSettings;
  /** VS Code's language models through the client (the worker in VS Code only). */
  clientLm?: ClientLm;
  /** Start indexing the folders at once (the worker and `serve`); tests may turn it off. */
  autoIndex?: boolean;
  /** How the embedding queue runs; the product leaves it unset (`askcode bench index` samples with it). */
  embedding?: EmbeddingOptions;
}

/**
 * How the index's embedding queue runs: a cap per run and a listener for what got embedded.
 */
export interface EmbeddingOptions {
  /** Embed at most this many chunks per run, spread evenly over the cheapest-first order. */
  limit?: number;
  /** The content hashes of each embedded batch. */
  onEmbedded?: (hashes: string[]) => void;
}

/** ASKCODE_DATA_DIR, else the given default, else ~/.askcode. */
export function resolveDataDir(fallback?: string): string {
  const env = process.env.ASKCODE_DATA_DIR;
  if (env) return path.resolve(env);
  if (fallback) return fallback;
  return path.join(os.homedir(), '.askcode');
}

export function resolveModelsDir(): string | undefined {
  const env = process.env.ASKCODE_MODELS_DIR;
  return env ? path.resolve(env) : undefined;
}
