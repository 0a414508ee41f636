import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CoreOptions, EmbeddingOptions } from '../core/options';
import type { ModelHub, Retriever as RetrieverContract, Snippet } from '../core/interfaces';
import type { IndexProgress, FileEvent, AssetSummary } from '../protocol/workspace';
import type { SymbolKind, SymbolReference } from '../protocol/symbols';
import { notFound } from '../core/errors';
import { IndexStore, type ChunkRow } from './store';
import { SearchEngine, type ChunkRecord, type Hit } from './searchEngine';
import { isComponent, parseText } from './chunker';
import { SymbolIndex, extractDefinitions, findReferences, type FileSymbol, type FoundSymbol, type ReferenceOptions } from './symbols';
import { terms } from './tokens';
import { languageOf } from './languages';
import { Skips } from './skips';
import type { IndexContext } from './context';
import { Progress } from './progress';
import { Catalog } from './catalog';
import { Indexer } from './indexer';
import { EmbeddingQueue } from './embeddings';
import { Assets, type AssetSource } from './assets';
import { Retriever, type Space } from './retriever';

export type { Space } from './retriever';
export type { AssetSource } from './assets';

/** How long {@link WorkspaceIndex.whenReady} takes an index that has not started as one that will not. */
const IDLE_GRACE_MS = 1_500;
const READY_POLL_MS = 200;

/**
 * The workspace index, a facade over its parts (see README.md): the catalog of folders and files,
 * the indexer (queue, file events, pause), the embedding queue, saved assets, progress and the
 * retriever, all around one in-memory search engine backed by LanceDB.
 */
export class WorkspaceIndex implements RetrieverContract {
  private readonly ctx: IndexContext;
  private readonly progress: Progress;
  private readonly catalog: Catalog;
  private readonly indexer: Indexer;
  private readonly embeddings: EmbeddingQueue;
  private readonly assets: Assets;
  private readonly retriever: Retriever;
  private symbolLoads: Promise<void>[] = [];

  private constructor(options: CoreOptions, hub: ModelHub, onProgress: (p: IndexProgress) => void, embedding?: EmbeddingOptions) {
    const ctx: IndexContext = (this.ctx = {
      options,
      log: options.log,
      engine: new SearchEngine(),
      symbols: new SymbolIndex(),
      skips: new Skips(options.log),
      opened: Promise.resolve(),
      disposed: false,
    });
    ctx.engine.onFileRemoved = (key) => ctx.symbols.removeFile(key);
    ctx.engine.symbols = ctx.symbols;
    this.progress = new Progress(ctx, () => this.indexer.isPaused, onProgress);
    this.catalog = new Catalog(ctx, this.progress, (folder, byPath) => this.loadSymbols(folder, byPath));
    this.indexer = new Indexer(ctx, this.catalog, this.progress);
    this.embeddings = new EmbeddingQueue(ctx, hub, this.progress, () => this.indexer.gate(), embedding);
    this.indexer.afterPass = () => this.embeddings.start();
    this.assets = new Assets(ctx, (abs, skipped, folders) => this.indexer.readText(abs, skipped, folders), () => this.catalog.folders(), () => this.embeddings.start());
    this.retriever = new Retriever(ctx, this.catalog, this.indexer, this.assets, this.embeddings);
    ctx.opened = this.open();
    ctx.opened.catch((e) => options.log.error(`index failed to open: ${String(e)}`));
  }

  static async create(options: CoreOptions, hub: ModelHub, onProgress: (p: IndexProgress) => void = () => {}): Promise<WorkspaceIndex> {
    const index = new WorkspaceIndex(options, hub, onProgress, options.embedding);
    if (options.autoIndex) void index.ctx.opened.then(() => index.indexAll()).catch(() => {});
    return index;
  }

  private async open(): Promise<void> {
    this.ctx.store = await IndexStore.open(this.ctx.options.dataDir, this.ctx.log);
    await this.assets.load();
    for (const f of this.catalog.workspaceFolders) this.catalog.root(f, true);
    await Promise.all([...this.catalog.roots.values()].map((r) => r.loaded));
  }

  /** The in-memory search engine (benchmarks time the real query path on it). */
  get engine(): SearchEngine {
    return this.ctx.engine;
  }

  folders(): string[] {
    return [...this.catalog.workspaceFolders];
  }

  /** Turns the dense signal off (`askcode index --no-embed`, BM25-only measurements). */
  setDense(on: boolean): void {
    this.embeddings.setDense(on);
  }

  // ---- indexing -----------------------------------------------------------------------------

  /** Lexical pass over every workspace folder, then embeddings. */
  async indexAll(): Promise<void> {
    await this.ctx.opened;
    await Promise.all(this.catalog.workspaceFolders.map((f) => this.indexer.indexRoot(this.catalog.root(f, true))));
  }

  /** Resolves once every queued index job (and the embedding run it started) is done. */
  async whenIdle(): Promise<void> {
    await this.indexer.whenIdle(() => this.embeddings.run);
    await this.symbolsReady();
  }

  /**
   * Waits, at most `maxMs`, until the index has caught up with the folders: state ready (the
   * lexical pass and its embeddings done), paused or failed, or idle with nothing started within
   * a moment of opening (a face that does not index). For callers that start answering as soon
   * as they start (an MCP client calling a tool right after launching `askcode mcp`), so that an
   * index half built does not answer "no definition named X". True when caught up; false when
   * `maxMs` passed or `signal` aborted first. `onWait` sees the progress every poll while waiting.
   */
  async whenReady(maxMs: number, signal?: AbortSignal, onWait?: (p: IndexProgress) => void): Promise<boolean> {
    await this.ctx.opened;
    const t0 = Date.now();
    for (;;) {
      const st = this.status();
      if (st.state === 'ready' || st.state === 'paused' || st.state === 'error') return true;
      if (st.state === 'idle' && (!this.catalog.workspaceFolders.length || Date.now() - t0 >= IDLE_GRACE_MS)) return true;
      if (Date.now() - t0 >= maxMs || signal?.aborted) return false;
      onWait?.(st);
      await new Promise((r) => setTimeout(r, READY_POLL_MS));
    }
  }

  /** Embeds what is pending now (the index does this by itself after each lexical pass). */
  embedNow(): Promise<void> {
    return this.embeddings.now();
  }

  /** The folders to index: dropped ones leave the index, new ones are indexed in the background. */
  async setFolders(folders: string[]): Promise<void> {
    await this.ctx.opened;
    const next = folders.map((f) => path.resolve(f));
    for (const [i, f] of next.entries()) {
      const st = await fs.stat(f).catch(() => null);
      if (!st?.isDirectory()) throw notFound(`folder does not exist: ${folders[i]}`, `folders[${i}]`);
    }
    for (const old of this.catalog.workspaceFolders) if (!next.includes(old)) this.catalog.drop(old);
    this.catalog.workspaceFolders = next;
    for (const f of next) void this.indexer.indexRoot(this.catalog.root(f, true)).catch(() => {});
  }

  fileEvents(events: FileEvent[]): Promise<void> {
    return this.indexer.fileEvents(events);
  }

  buffer(file: string, text: string | null): Promise<void> {
    return this.indexer.buffer(file, text);
  }

  rebuild(): Promise<void> {
    return this.indexer.rebuild();
  }

  pause(): IndexProgress {
    return this.indexer.pause();
  }

  resume(): IndexProgress {
    return this.indexer.resume();
  }

  status(): IndexProgress {
    return this.progress.status();
  }

  /** The status once the stored index has been opened. */
  async currentStatus(): Promise<IndexProgress> {
    await this.ctx.opened;
    return this.progress.status();
  }

  // ---- retrieval ----------------------------------------------------------------------------

  search(query: string, space: Space, signal?: AbortSignal, limit = 20): Promise<Hit[]> {
    return this.retriever.search(query, space, signal, limit);
  }

  snippet(id: string): Promise<Snippet | null> {
    return this.retriever.snippet(id);
  }

  locate(fragment: string): Promise<{ path: string; startLine: number; endLine: number }[]> {
    return this.retriever.locate(fragment);
  }

  defines(name: string): boolean {
    return this.retriever.defines(name);
  }

  definitionsOf(name: string): ReturnType<RetrieverContract['definitionsOf']> {
    return this.retriever.definitionsOf(name);
  }

  // ---- assets -------------------------------------------------------------------------------

  saveAsset(p: AssetSource): Promise<AssetSummary> {
    return this.assets.save(p);
  }

  deleteAsset(id: string): Promise<void> {
    return this.assets.delete(id);
  }

  listAssets(): Promise<AssetSummary[]> {
    return this.assets.list();
  }

  // ---- symbols ------------------------------------------------------------------------------

  private loadSymbols(folder: string, byPath: Map<string, ChunkRow[]>): void {
    // Definitions are not stored: they are re-read from the stored chunks behind the load.
    const rebuild = this.rebuildSymbols(folder, byPath);
    this.symbolLoads.push(rebuild);
    void rebuild.finally(() => (this.symbolLoads = this.symbolLoads.filter((p) => p !== rebuild)));
  }

  /**
   * Re-parses each stored file's text (its chunks cover every line) for its definitions: on vite
   * this costs the figure `bench index` prints as "symbols rebuilt", and runs behind the load
   * (queries wait for it only when they need symbols).
   */
  private async rebuildSymbols(folder: string, byPath: Map<string, ChunkRow[]>): Promise<void> {
    const { engine, symbols, log } = this.ctx;
    const t0 = Date.now();
    let n = 0;
    for (const [rel, list] of byPath) {
      if (this.ctx.disposed) return;
      const lang = languageOf(rel);
      if (!lang.grammar && !isComponent(lang)) continue;
      const key = path.join(folder, rel);
      const lines: string[] = [];
      for (const row of list) {
        while (lines.length < row.start - 1) lines.push('');
        lines.push(...row.text.split('\n'));
      }
      let defs: FileSymbol[] = [];
      await parseText(lines.join('\n'), lang, (root, ls, firstLine) => (defs = extractDefinitions(root, ls, firstLine)));
      // The file may have been re-indexed (with its own definitions) while this ran.
      if (engine.chunksOf(key)[0]?.hash === list[0]?.hash) symbols.setFile(key, rel, lang.id, defs, engine.isTest(key));
      if (++n % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    if (n) log.info(`symbols of ${folder}: ${symbols.size} definitions from ${n} stored files in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  /** Resolves once the symbol index covers every loaded file. */
  async symbolsReady(): Promise<void> {
    await this.ctx.opened;
    while (this.symbolLoads.length) await Promise.all(this.symbolLoads);
  }

  /** Definitions matching a name, best first (SymbolsFind). */
  async findSymbols(name: string, opts: { kind?: SymbolKind; limit?: number } = {}): Promise<FoundSymbol[]> {
    await this.symbolsReady();
    return this.ctx.symbols.find(name, opts);
  }

  /** Occurrences of a name outside its definitions, call sites first (SymbolsReferences). */
  async findReferences(name: string, opts: ReferenceOptions = {}): Promise<SymbolReference[]> {
    await this.symbolsReady();
    return findReferences(name, this.referencePieces(name), this.ctx.symbols, opts);
  }

  /** The chunks that can hold a name: those with its whole-identifier term, else with its one word. */
  private *referencePieces(name: string): IterableIterator<ChunkRecord> {
    const plain = name.trim().replace(/::|#/g, '.').replace(/\(\)$/, '').split('.').filter(Boolean).pop() ?? '';
    const ts = terms(plain);
    const term = ts.find((t) => t.startsWith('=')) ?? (ts.length === 1 ? ts[0] : undefined);
    for (const c of this.ctx.engine.chunksWithTerm(term)) if (c.code && !c.file.startsWith('asset:')) yield c;
  }

  async dispose(): Promise<void> {
    if (this.ctx.disposed) return;
    this.ctx.disposed = true;
    await this.indexer.drain();
    await this.embeddings.run?.catch(() => {});
    this.ctx.store?.close();
  }
}
