import type { CoreOptions } from '../core/options';
import type { Logger } from '../core/logger';
import type { IndexStore } from './store';
import type { SearchEngine } from './searchEngine';
import type { SymbolIndex } from './symbols';
import type { Skips } from './skips';
import { DEFAULT_MAX_FILE_SIZE } from './walker';

/**
 * What the parts of one workspace index share (catalog, indexer, embedding queue, assets,
 * progress, retriever): the in-memory engine that answers queries, the LanceDB store behind it,
 * and the index's life (opened, disposed). Built once by `WorkspaceIndex`.
 */
export interface IndexContext {
  readonly options: CoreOptions;
  readonly log: Logger;
  /** The search engine: every chunk, BM25 and the vectors, in memory. */
  readonly engine: SearchEngine;
  /** Definitions of the indexed files, replaced and dropped with them. */
  readonly symbols: SymbolIndex;
  /** Files not indexed, by reason (shown in the status). */
  readonly skips: Skips;
  /** The LanceDB store: set once `opened` resolves. */
  store?: IndexStore;
  opened: Promise<void>;
  disposed: boolean;
}

/** The walk limits in force now (settings apply without a restart). */
export function walkSettings(ctx: IndexContext): { exclude: string[]; maxFileSize: number } {
  return { exclude: ctx.options.settings?.exclude ?? [], maxFileSize: ctx.options.settings?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE };
}
