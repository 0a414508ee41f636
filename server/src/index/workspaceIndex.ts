import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { Table } from '@lancedb/lancedb';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Retriever, Snippet, Embedder } from '../core/interfaces';
import type { IndexProgress, IndexState, FileEvent, AssetSummary } from '../protocol/workspace';
import { invalid, notFound } from '../core/errors';
import { IndexStore, sqlString, type ChunkRow, type AssetRow } from './store';
import { SearchEngine, type ChunkRecord, type Hit, type RankParams } from './searchEngine';
import { chunkText, parseText } from './chunker';
import { SymbolIndex, extractDefinitions, findReferences, type FileSymbol, type FoundSymbol } from './symbols';
import { terms } from './tokens';
import type { SymbolKind, SymbolReference } from '../protocol/symbols';
import { languageOf, languageOfExt, isCode } from './languages';
import { walk, unindexableReason, skippedByName, DEFAULT_MAX_FILE_SIZE } from './walker';
import { locate, readInside, type SkipReason } from '../core/safePath';
import { decodeText } from './decode';
import { Skips } from './skips';

/** Exactly one query space per search. */
export type Space =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'seeds'; seeds: { text: string; ext?: string }[] }
  | { kind: 'assets'; ids: string[] }
  | { kind: 'database' };

/** What to save as an asset: a fragment of text, or lines of a file. */
export type AssetSource =
  | { name?: string; fragment: { text: string; ext?: string } }
  | { name?: string; path: string; startLine?: number; endLine?: number };

interface Root {
  folder: string;
  /** A workspace folder (vs. a folder named in a `paths` query and indexed on demand). */
  workspace: boolean;
  table: Promise<Table>;
  /** What the table holds per file: the change check of an incremental run. */
  files: Map<string, { mtime: number; size: number }>;
  loaded: Promise<void>;
  /** Resolves when the last requested lexical pass over this folder is done. */
  indexed?: Promise<void>;
}

const WRITE_BATCH_FILES = 200;
const EMBED_BATCH = 32;
const PROGRESS_EVERY_MS = 250;

function chunkId(scope: string, rel: string, start: number, hash: string): string {
  return 'c' + createHash('sha1').update(`${scope}\0${rel}\0${start}\0${hash}`).digest('hex').slice(0, 24);
}

/**
 * The workspace index: walks folders, chunks by syntax, keeps chunks in LanceDB and in an
 * in-memory BM25 engine (answers at once), and fills in embeddings behind it.
 */
export class WorkspaceIndex implements Retriever {
  private store?: IndexStore;
  private readonly engine = new SearchEngine();
  /** Definitions of the indexed files, replaced and dropped with them. */
  readonly symbols = new SymbolIndex();
  /** Symbol rebuilds from stored chunks (at start) still running. */
  private symbolLoads: Promise<void>[] = [];
  private readonly roots = new Map<string, Root>();
  private workspaceFolders: string[];
  private readonly ephemeral = new Map<string, Snippet>();
  private assetsTable?: Promise<Table>;
  private readonly assets = new Map<string, AssetRow>();
  private readonly opened: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private paused = false;
  private resumeWaiters: (() => void)[] = [];
  private state: IndexState = 'idle';
  private progress = { files: 0, filesTotal: 0, chunks: 0, embedded: 0, embedTotal: 0, startedEmbed: 0 };
  private bm25Only = false;
  private denseEnabled = true;
  private saidBm25Only = false;
  private lastProgress = 0;
  private lastMessage?: string;
  private embedder?: Embedder | null;
  private vectorsTable?: Promise<Table>;
  private vectorsLoadedFor?: string;
  private embedRun?: Promise<void>;
  private readonly skips: Skips;
  /** Ranking overrides (benchmarks only). */
  rankParams: Partial<RankParams> = {};
  /** Embeds counted since start: what `bench index` reports as re-embedded on a rerun. */
  embeddedThisProcess = 0;
  /** Content hashes embedded by this process (benchmarks compare two runs). */
  readonly embeddedHashes = new Set<string>();
  /** Benchmarks only: embed at most this many chunks per run (a sample of the throughput). */
  embedLimit = Infinity;

  private constructor(readonly options: CoreOptions, readonly hub: ModelHub, private readonly onProgress: (p: IndexProgress) => void) {
    this.workspaceFolders = options.folders.map((f) => path.resolve(f));
    this.skips = new Skips(options.log);
    this.engine.onFileRemoved = (key) => this.symbols.removeFile(key);
    this.opened = this.open();
    this.opened.catch((e) => options.log.error(`index failed to open: ${String(e)}`));
  }

  static async create(options: CoreOptions, hub: ModelHub, onProgress: (p: IndexProgress) => void = () => {}): Promise<WorkspaceIndex> {
    const index = new WorkspaceIndex(options, hub, onProgress);
    if (options.autoIndex) void index.opened.then(() => index.indexAll()).catch(() => {});
    return index;
  }

  folders(): string[] {
    return [...this.workspaceFolders];
  }

  /** Turns the dense signal off (BM25-only measurements). */
  setDense(on: boolean): void {
    this.denseEnabled = on;
  }

  private get log() {
    return this.options.log;
  }

  private async open(): Promise<void> {
    this.store = await IndexStore.open(this.options.dataDir, this.log);
    this.assetsTable = this.store.assetsTable();
    for (const row of await this.store.readAll<AssetRow>(await this.assetsTable)) {
      this.assets.set(row.id, row);
      await this.engineAddAsset(row);
    }
    for (const f of this.workspaceFolders) this.root(f, true);
    await Promise.all([...this.roots.values()].map((r) => r.loaded));
  }

  // ---- roots and their stored rows --------------------------------------------------------

  private root(folder: string, workspace: boolean): Root {
    let r = this.roots.get(folder);
    if (r) {
      if (workspace) r.workspace = true;
      return r;
    }
    const table = this.store!.chunksTable(folder);
    const root: Root = { folder, workspace, table, files: new Map(), loaded: Promise.resolve() };
    root.loaded = (async () => {
      const rows = await this.store!.readAll<ChunkRow>(await table);
      const byPath = new Map<string, ChunkRow[]>();
      for (const row of rows) {
        let list = byPath.get(row.path);
        if (!list) byPath.set(row.path, (list = []));
        list.push(row);
      }
      for (const [rel, list] of byPath) {
        list.sort((a, b) => a.start - b.start);
        root.files.set(rel, { mtime: list[0]!.mtime, size: list[0]!.size });
        this.engine.setFile(path.join(folder, rel), rel, list.map((row) => this.recordOf(folder, row)));
      }
      this.progress.chunks = this.engine.chunkCount;
      // Definitions are not stored: they are re-read from the stored chunks behind the load.
      const rebuild = this.rebuildSymbols(folder, byPath);
      this.symbolLoads.push(rebuild);
      void rebuild.finally(() => (this.symbolLoads = this.symbolLoads.filter((p) => p !== rebuild)));
    })();
    root.table.catch(() => {});
    root.loaded.catch((e) => this.log.error(`index of ${folder} failed to load: ${String(e)}`));
    this.roots.set(folder, root);
    return root;
  }

  /**
   * Re-parses each stored file's text (its chunks cover every line) for its definitions: on vite
   * this costs the figure `bench index` prints as "symbols rebuilt", and runs behind the load
   * (queries wait for it only when they need symbols).
   */
  private async rebuildSymbols(folder: string, byPath: Map<string, ChunkRow[]>): Promise<void> {
    const t0 = Date.now();
    let n = 0;
    for (const [rel, list] of byPath) {
      if (this.disposed) return;
      const lang = languageOf(rel);
      if (!lang.grammar) continue;
      const key = path.join(folder, rel);
      const lines: string[] = [];
      for (const row of list) {
        while (lines.length < row.start - 1) lines.push('');
        lines.push(...row.text.split('\n'));
      }
      let defs: FileSymbol[] = [];
      await parseText(lines.join('\n'), lang, (root, ls) => (defs = extractDefinitions(root, ls)));
      // The file may have been re-indexed (with its own definitions) while this ran.
      if (this.engine.chunksOf(key)[0]?.hash === list[0]?.hash) this.symbols.setFile(key, rel, lang.id, defs);
      if (++n % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    if (n) this.log.info(`symbols of ${folder}: ${this.symbols.size} definitions from ${n} stored files in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  /** Resolves once the symbol index covers every loaded file. */
  async symbolsReady(): Promise<void> {
    await this.opened;
    while (this.symbolLoads.length) await Promise.all(this.symbolLoads);
  }

  private recordOf(folder: string, row: ChunkRow): ChunkRecord {
    return {
      id: row.id,
      file: path.join(folder, row.path),
      rel: row.path,
      startLine: row.start,
      endLine: row.end,
      text: row.text,
      symbol: row.symbol || undefined,
      hash: row.hash,
      language: row.lang,
      ext: row.ext,
      code: row.code,
    };
  }

  private rootOf(abs: string): Root | undefined {
    let best: Root | undefined;
    for (const r of this.roots.values()) {
      if ((abs === r.folder || abs.startsWith(r.folder + path.sep)) && (!best || r.folder.length > best.folder.length)) best = r;
    }
    return best;
  }

  // ---- indexing -------------------------------------------------------------------------

  private settings() {
    return { exclude: this.options.settings?.exclude ?? [], maxFileSize: this.options.settings?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE };
  }

  /** Runs `fn` after everything queued before it (one indexing job at a time on 2 cores). */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch((e) => this.log.warn(`index job failed: ${String(e)}`));
    return run;
  }

  /** Lexical pass over every workspace folder, then embeddings. */
  async indexAll(): Promise<void> {
    await this.opened;
    await Promise.all(this.workspaceFolders.map((f) => this.indexRoot(this.root(f, true))));
  }

  /** Resolves once every queued index job (and the embedding run it started) is done. */
  async whenIdle(): Promise<void> {
    await this.opened;
    for (;;) {
      const q = this.queue;
      await q;
      await this.embedRun;
      if (q === this.queue) return;
    }
  }

  private indexRoot(root: Root): Promise<void> {
    const p = this.enqueue(async () => {
      await this.opened;
      await root.loaded;
      await this.lexicalPass(root);
      this.startEmbedding();
    });
    root.indexed = p;
    return p;
  }

  private async gate(): Promise<void> {
    while (this.paused && !this.disposed) await new Promise<void>((r) => this.resumeWaiters.push(r));
  }

  private async lexicalPass(root: Root): Promise<void> {
    if (this.disposed) return;
    this.setState('indexing');
    const t0 = Date.now();
    this.skips.reset(root.folder);
    const found = await walk(root.folder, {
      ...this.settings(),
      allowed: [...this.roots.keys()],
      onSkip: (rel, reason, detail) => this.skips.note(root.folder, rel, reason, detail),
    });
    const seen = new Set(found.map((f) => f.rel));
    const changed = found.filter((f) => {
      const old = root.files.get(f.rel);
      return !old || old.mtime !== f.mtimeMs || old.size !== f.size;
    });
    const removed = [...root.files.keys()].filter((rel) => !seen.has(rel));
    this.progress.filesTotal = found.length;
    this.progress.files = found.length - changed.length;
    this.emitProgress(true);
    const table = await root.table;
    if (removed.length) {
      for (const rel of removed) {
        this.engine.removeFile(path.join(root.folder, rel));
        root.files.delete(rel);
      }
      await this.store!.replacePaths(table, removed, []);
    }
    let batchPaths: string[] = [];
    let batchRows: ChunkRow[] = [];
    const flush = async () => {
      if (!batchPaths.length) return;
      await this.store!.replacePaths(table, batchPaths, batchRows);
      batchPaths = [];
      batchRows = [];
    };
    for (const f of changed) {
      if (this.disposed) return;
      await this.gate();
      const rows = await this.chunkFile(root, f.abs, f.rel, f.mtimeMs, f.size);
      batchPaths.push(f.rel);
      batchRows.push(...rows);
      if (rows.length) root.files.set(f.rel, { mtime: f.mtimeMs, size: f.size });
      else root.files.delete(f.rel);
      this.progress.files++;
      this.progress.chunks = this.engine.chunkCount;
      this.emitProgress();
      if (batchPaths.length >= WRITE_BATCH_FILES) await flush();
    }
    await flush();
    if (changed.length || removed.length) await this.store!.compact(table);
    this.progress.chunks = this.engine.chunkCount;
    this.log.info(`indexed ${root.folder}: ${found.length} files (${changed.length} changed, ${removed.length} removed), ${this.engine.chunkCount} chunks in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    this.setState('ready');
  }

  /** Reads and chunks one file into the engine; returns the rows to store. */
  private async chunkFile(root: Root, abs: string, rel: string, mtime: number, size: number): Promise<ChunkRow[]> {
    const text = await this.readText(abs, (reason, detail) => this.skips.note(root.folder, rel, reason, detail));
    if (text === null) {
      this.engine.removeFile(abs);
      return [];
    }
    this.skips.clear(root.folder, rel);
    return this.chunkInto(root.folder, abs, rel, text, mtime, size);
  }

  /** A file's text through the one path check (inside the opened folders, a regular file), or why not. */
  private async readText(abs: string, skipped: (reason: SkipReason, detail?: string) => void, folders = [...this.roots.keys()]): Promise<string | null> {
    const r = await readInside(folders, abs, this.settings().maxFileSize);
    if (!r.ok) {
      if (r.reason !== 'missing') skipped(r.reason, r.real);
      return null;
    }
    const why = unindexableReason(r.buf);
    if (why) {
      skipped(why);
      return null;
    }
    const decoded = decodeText(r.buf);
    if (!decoded) skipped('encoding');
    return decoded?.text ?? null;
  }

  private async chunkInto(scope: string, key: string, rel: string, text: string, mtime: number, size: number): Promise<ChunkRow[]> {
    const lang = languageOf(rel);
    let chunks;
    let defs: FileSymbol[] = [];
    try {
      chunks = await chunkText(text, lang, (root, lines) => (defs = extractDefinitions(root, lines)));
    } catch (e) {
      this.log.warn(`could not chunk ${rel}: ${String(e)}`);
      return [];
    }
    const rows: ChunkRow[] = chunks.map((c) => ({
      id: chunkId(scope, rel, c.startLine, c.hash),
      path: rel,
      start: c.startLine,
      end: c.endLine,
      symbol: c.symbol ?? '',
      hash: c.hash,
      lang: lang.id,
      ext: lang.ext,
      code: isCode(lang),
      text: c.text,
      mtime,
      size,
    }));
    this.engine.setFile(key, rel, rows.map((r) => ({ ...this.recordOf(scope, r), file: key })));
    if (rows.length) this.symbols.setFile(key, rel, lang.id, defs);
    return rows;
  }

  /** One file event, applied without a rebuild. */
  private async applyEvent(ev: FileEvent): Promise<void> {
    const abs = path.resolve(ev.path);
    if (ev.type === 'renamed') {
      await this.applyEvent({ type: 'deleted', path: ev.oldPath });
      await this.applyEvent({ type: 'created', path: ev.path });
      return;
    }
    const root = this.rootOf(abs);
    if (!root) return;
    await root.loaded;
    const table = await root.table;
    if (ev.type === 'deleted') {
      const prefix = abs + path.sep;
      const gone = [...this.engine.fileKeys()].filter((k) => k === abs || k.startsWith(prefix));
      const rels = gone.map((k) => path.relative(root.folder, k).split(path.sep).join('/'));
      for (const k of gone) this.engine.removeFile(k);
      for (const r of rels) root.files.delete(r);
      this.skips.clear(root.folder, path.relative(root.folder, abs).split(path.sep).join('/'));
      if (rels.length) await this.store!.replacePaths(table, rels, []);
      return;
    }
    const rel = path.relative(root.folder, abs).split(path.sep).join('/');
    // The one path check: a link out of the opened folders is not followed, a FIFO is never opened.
    const where = await locate([...this.roots.keys()], abs);
    if ('missing' in where) return this.applyEvent({ type: 'deleted', path: abs });
    if ('outside' in where) {
      await this.applyEvent({ type: 'deleted', path: abs });
      return this.skips.note(root.folder, rel, 'outside', where.outside);
    }
    let st;
    try {
      st = await fs.stat(where.real);
    } catch {
      return this.applyEvent({ type: 'deleted', path: abs });
    }
    if (st.isDirectory()) {
      await this.lexicalPass(root);
      return;
    }
    if (!st.isFile()) {
      await this.applyEvent({ type: 'deleted', path: abs });
      return this.skips.note(root.folder, rel, 'special');
    }
    // A link to a file indexed under its own name is not indexed twice.
    if (where.real !== abs && this.engine.hasFile(where.real)) return this.applyEvent({ type: 'deleted', path: abs });
    if (skippedByName(rel) || st.size > this.settings().maxFileSize) {
      await this.applyEvent({ type: 'deleted', path: abs });
      if (st.size > this.settings().maxFileSize) this.skips.note(root.folder, rel, 'too_large');
      return;
    }
    const rows = await this.chunkFile(root, abs, rel, Math.floor(st.mtimeMs), st.size);
    await this.store!.replacePaths(table, [rel], rows);
    if (rows.length) root.files.set(rel, { mtime: Math.floor(st.mtimeMs), size: st.size });
    else root.files.delete(rel);
    this.progress.chunks = this.engine.chunkCount;
  }

  // ---- embeddings -----------------------------------------------------------------------

  /** Benchmarks: the texts the next embedding run would embed, in its order. */
  pendingEmbedTexts(): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const c of this.engine.allChunks()) {
      if (this.engine.hasVector(c.hash) || seen.has(c.hash)) continue;
      seen.add(c.hash);
      out.push(embedText(c));
    }
    return this.sample(out.sort((a, b) => a.length - b.length));
  }

  /** `embedLimit` chunks spread evenly over the cheapest-first order (so a sample has typical lengths). */
  private sample<T>(order: T[]): T[] {
    if (order.length <= this.embedLimit) return order;
    const step = order.length / this.embedLimit;
    return Array.from({ length: this.embedLimit }, (_, i) => order[Math.floor(i * step)]!);
  }

  /** Embeds what is pending now (the index does this by itself after each lexical pass). */
  async embedNow(): Promise<void> {
    this.startEmbedding();
    await this.embedRun;
  }

  private startEmbedding(): void {
    if (this.embedRun || this.disposed || !this.denseEnabled) return;
    this.embedRun = this.embedPending()
      .catch((e) => this.log.warn(`embedding stopped: ${String(e)}`))
      .finally(() => {
        this.embedRun = undefined;
      });
  }

  private async getEmbedder(): Promise<Embedder | null> {
    if (!this.denseEnabled) return null;
    const e = await this.hub.getEmbedder().catch(() => null);
    if (!e) {
      this.bm25Only = true;
      if (!this.saidBm25Only) {
        this.saidBm25Only = true;
        this.log.warn('no embedding model: relevance runs on BM25 alone');
      }
      return null;
    }
    this.bm25Only = false;
    if (this.vectorsLoadedFor !== e.modelId) {
      this.vectorsLoadedFor = e.modelId;
      this.engine.clearVectors();
      this.vectorsTable = this.store!.vectorsTable(e.modelId, e.dims);
      const rows = await this.store!.readAll<{ hash: string; vector: { toArray(): Float32Array } }>(await this.vectorsTable);
      for (const r of rows) this.engine.setVector(r.hash, Float32Array.from(r.vector.toArray()));
    }
    this.embedder = e;
    return e;
  }

  private async embedPending(): Promise<void> {
    const e = await this.getEmbedder();
    if (!e || this.disposed) {
      this.emitProgress(true);
      return;
    }
    const pending = new Map<string, string>();
    for (const c of this.engine.allChunks()) {
      if (!this.engine.hasVector(c.hash) && !pending.has(c.hash)) pending.set(c.hash, embedText(c));
    }
    this.progress.embedTotal = this.engine.vectorCount + pending.size;
    this.progress.embedded = this.engine.vectorCount;
    if (!pending.size) {
      this.emitProgress(true);
      return;
    }
    // Cheapest first: short chunks are many answers' worth of vectors per second.
    const order = this.sample([...pending].sort((a, b) => a[1].length - b[1].length));
    this.setState('indexing');
    this.progress.startedEmbed = Date.now();
    const startCount = this.progress.embedded;
    const table = await this.vectorsTable!;
    let toWrite: { hash: string; vector: Float32Array }[] = [];
    for (let i = 0; i < order.length; i += EMBED_BATCH) {
      await this.gate();
      if (this.disposed) break;
      const batch = order.slice(i, i + EMBED_BATCH);
      const vecs = await e.embed(batch.map(([, t]) => t));
      batch.forEach(([h], j) => {
        this.engine.setVector(h, vecs[j]!);
        this.embeddedHashes.add(h);
        toWrite.push({ hash: h, vector: vecs[j]! });
      });
      this.embeddedThisProcess += batch.length;
      this.progress.embedded = startCount + i + batch.length;
      if (toWrite.length >= 256) {
        await this.store!.addVectors(table, toWrite);
        toWrite = [];
      }
      this.emitProgress();
    }
    await this.store!.addVectors(table, toWrite);
    await this.store!.compact(table);
    this.log.info(`embedded ${this.progress.embedded - startCount} chunks with ${e.modelId}`);
    this.setState('ready');
  }

  // ---- progress ---------------------------------------------------------------------------

  private setState(s: IndexState): void {
    if (this.paused && s !== 'error') s = 'paused';
    this.state = s;
    this.emitProgress(true);
  }

  status(): IndexProgress {
    const p = this.progress;
    let eta: number | undefined;
    if (this.state === 'indexing' && p.startedEmbed && p.embedded < p.embedTotal) {
      const rate = (p.embedded - 0.0001) / Math.max(1, (Date.now() - p.startedEmbed) / 1000);
      if (rate > 0) eta = Math.round((p.embedTotal - p.embedded) / rate);
    }
    return {
      state: this.paused ? 'paused' : this.state,
      files: p.files,
      filesTotal: p.filesTotal,
      chunks: this.engine.chunkCount,
      embedded: this.embeddedChunks(),
      eta,
      bm25Only: this.bm25Only || !this.denseEnabled,
      message: this.bm25Only ? 'no embedding model: relevance runs on BM25 alone' : this.lastMessage,
      skipped: this.skips.counts(),
    };
  }

  /** The status once the stored index has been opened. */
  async currentStatus(): Promise<IndexProgress> {
    await this.opened;
    return this.status();
  }

  /**
   * Benchmarks only: `n` more chunks copied from the indexed ones under synthetic paths, with
   * random unit vectors when `dims` is given, so the real query path can be timed at scale.
   */
  addSyntheticChunks(n: number, dims?: number): void {
    const real = [...this.engine.allChunks()];
    if (!real.length) return;
    const perFile = 8;
    for (let f = 0; f * perFile < n; f++) {
      const key = path.join('/synthetic', String(f));
      const recs: ChunkRecord[] = [];
      for (let j = 0; j < perFile && f * perFile + j < n; j++) {
        const src = real[(f * perFile + j) % real.length]!;
        const hash = createHash('sha1').update(`synthetic${f}:${j}`).digest('hex');
        recs.push({ ...src, id: 'x' + hash.slice(0, 24), file: key, rel: `synthetic/${f}/${src.rel}`, hash });
        if (dims) {
          const v = new Float32Array(dims);
          let norm = 0;
          for (let i = 0; i < dims; i++) norm += (v[i] = Math.random() - 0.5) ** 2;
          for (let i = 0; i < dims; i++) v[i]! /= Math.sqrt(norm);
          this.engine.setVector(hash, v);
        }
      }
      this.engine.setFile(key, `synthetic/${f}/${recs[0]!.rel}`, recs);
    }
  }

  /** Chunks whose content has a vector (identical chunks share one). */
  private embeddedChunks(): number {
    if (!this.engine.vectorCount) return 0;
    let n = 0;
    for (const c of this.engine.allChunks()) if (this.engine.hasVector(c.hash)) n++;
    return n;
  }

  private emitProgress(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    this.onProgress(this.status());
  }

  // ---- Retriever ------------------------------------------------------------------------

  private assetOf(c: ChunkRecord): string | undefined {
    return c.file.startsWith('asset:') ? c.file.slice(6) : undefined;
  }

  /** The hits for a query over one space, best first. */
  async search(query: string, space: Space, signal?: AbortSignal, limit = 20): Promise<Hit[]> {
    await this.opened;
    if (space.kind === 'seeds') return this.searchSeeds(query, space.seeds, limit);
    let filter: ((key: string) => boolean) | undefined;
    if (space.kind === 'paths') {
      const targets = await this.preparePaths(space.paths);
      filter = (k) => targets.some((t) => k === t || k.startsWith(t + path.sep));
    } else if (space.kind === 'assets') {
      const keys = new Set<string>();
      space.ids.forEach((id, i) => {
        if (!this.assets.has(id)) throw notFound(`no saved asset with id ${id}`, `assets.iterable[${i}].id`);
        keys.add('asset:' + id);
      });
      filter = (k) => keys.has(k);
    }
    const queryVector = await this.queryVector(query, signal);
    return this.engine.search(query, { limit, filter, queryVector, params: this.rankParams }).hits;
  }

  private async queryVector(query: string, signal?: AbortSignal): Promise<Float32Array | null> {
    if (!this.denseEnabled || !this.engine.vectorCount || !this.embedder) return null;
    try {
      return (await this.embedder.embed([query.slice(0, 2000)], signal))[0] ?? null;
    } catch {
      return null;
    }
  }

  /** Absolute paths of the `paths` space: they must exist; folders outside the workspace are indexed now. */
  private async preparePaths(paths: string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < paths.length; i++) {
      const abs = path.resolve(paths[i]!);
      let st;
      try {
        st = await fs.stat(abs);
      } catch {
        throw notFound(`path does not exist: ${paths[i]}`, `paths[${i}]`);
      }
      if (!st.isFile() && !st.isDirectory()) throw invalid(`not a regular file or folder: ${paths[i]}`, `paths[${i}]`);
      const root = this.rootOf(abs);
      if (root) {
        await root.loaded;
        // A folder never indexed in this process and with nothing stored is indexed now.
        if (!root.indexed && !root.files.size) await this.indexRoot(root);
        if (!root.workspace || !this.engine.hasFile(abs)) await root.indexed;
        if (st.isFile() && !this.engine.hasFile(abs)) await this.indexLooseFile(abs, st.mtimeMs, st.size);
      } else if (st.isDirectory()) {
        const r = this.root(abs, false);
        await this.indexRoot(r);
      } else {
        await this.indexLooseFile(abs, st.mtimeMs, st.size);
      }
      out.push(abs);
    }
    return out;
  }

  /** A single file outside every indexed folder: searched in memory, not stored. */
  private async indexLooseFile(abs: string, mtime: number, size: number): Promise<void> {
    if (size > this.settings().maxFileSize) throw invalid(`file is larger than askcode.maxFileSize: ${abs}`, 'paths');
    let why: SkipReason | undefined;
    // Outside every indexed folder, the file's own folder is the limit: a link out of it is refused.
    const text = await this.readText(abs, (reason) => (why = reason), [...this.roots.keys(), path.dirname(abs)]);
    if (text === null) throw invalid(`not indexed: ${abs} (${why ?? 'unreadable'})`, 'paths');
    await this.chunkInto(path.dirname(abs), abs, path.basename(abs), text, mtime, size);
  }

  private async searchSeeds(query: string, seeds: { text: string; ext?: string }[], limit: number): Promise<Hit[]> {
    const engine = new SearchEngine();
    for (let i = 0; i < seeds.length; i++) {
      const s = seeds[i]!;
      const lang = languageOfExt(s.ext);
      const chunks = await chunkText(s.text, lang);
      const key = `seed:${i}`;
      engine.setFile(key, `seed-${i + 1}.${lang.ext}`, chunks.map((c) => ({
        id: 's' + createHash('sha1').update(`seed\0${c.hash}\0${c.startLine}`).digest('hex').slice(0, 24),
        file: key, rel: `seed-${i + 1}.${lang.ext}`, startLine: c.startLine, endLine: c.endLine, text: c.text,
        symbol: c.symbol, hash: c.hash, language: lang.id, ext: lang.ext, code: isCode(lang),
      })));
    }
    let hits = engine.search(query, { limit, params: { ...this.rankParams, floor: 0 } }).hits;
    // Snippets the user handed in are the context by definition: none is dropped for sharing no word.
    if (!hits.length) {
      hits = [...engine.allChunks()].slice(0, limit).map((chunk, i) => ({ chunk, score: 0, matched: [], fileRank: i + 1 }));
    }
    for (const h of hits) this.remember(h.chunk, undefined);
    return hits;
  }

  private remember(c: ChunkRecord, p: string | undefined): void {
    if (this.ephemeral.size > 5000) this.ephemeral.delete(this.ephemeral.keys().next().value!);
    this.ephemeral.set(c.id, { id: c.id, path: p ?? c.rel, startLine: c.startLine, endLine: c.endLine, text: c.text, language: c.language, symbol: c.symbol });
  }

  /** A chunk returned by an earlier search (or a saved asset), by id: what `qgpt/question` quotes when sent only ids. */
  async snippet(id: string): Promise<Snippet | null> {
    await this.opened.catch(() => {});
    const c = this.engine.chunk(id);
    if (c) {
      const asset = this.assetOf(c);
      return {
        id, path: asset ? this.assets.get(asset)?.path || c.rel : c.file, startLine: c.startLine, endLine: c.endLine,
        text: c.text, language: c.language, symbol: c.symbol,
      };
    }
    const a = this.assets.get(id);
    if (a) return { id, path: a.path || a.name, startLine: a.start, endLine: a.end, text: a.text, language: a.lang };
    return this.ephemeral.get(id) ?? null;
  }

  async locate(fragment: string): Promise<{ path: string; startLine: number; endLine: number }[]> {
    await this.opened;
    const needle = fragment.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!needle.length) return [];
    const { hits } = this.engine.search(fragment.slice(0, 4000), { limit: 30 });
    const out: { path: string; startLine: number; endLine: number }[] = [];
    for (const h of hits) {
      if (h.chunk.file.startsWith('asset:')) continue;
      const lines = h.chunk.text.split('\n');
      const at = lines.findIndex((l) => l.trim() === needle[0]);
      if (at < 0) continue;
      const startLine = h.chunk.startLine + at;
      out.push({ path: h.chunk.file, startLine, endLine: startLine + needle.length - 1 });
    }
    return out;
  }

  // ---- symbols ---------------------------------------------------------------------------

  /** Definitions matching a name, best first (SymbolsFind). */
  async findSymbols(name: string, opts: { kind?: SymbolKind; limit?: number } = {}): Promise<FoundSymbol[]> {
    await this.symbolsReady();
    return this.symbols.find(name, opts);
  }

  /** Occurrences of a name outside its definitions, call sites first (SymbolsReferences). */
  async findReferences(name: string, opts: { callsOnly?: boolean; limit?: number } = {}): Promise<SymbolReference[]> {
    await this.symbolsReady();
    return findReferences(name, this.referencePieces(name), this.symbols, opts);
  }

  /** The chunks that can hold a name: those with its whole-identifier term, else with its one word. */
  private *referencePieces(name: string): IterableIterator<ChunkRecord> {
    const plain = name.trim().replace(/::|#/g, '.').replace(/\(\)$/, '').split('.').filter(Boolean).pop() ?? '';
    const ts = terms(plain);
    const term = ts.find((t) => t.startsWith('=')) ?? (ts.length === 1 ? ts[0] : undefined);
    for (const c of this.engine.chunksWithTerm(term)) if (c.code && !c.file.startsWith('asset:')) yield c;
  }

  // ---- assets ----------------------------------------------------------------------------

  private async engineAddAsset(a: AssetRow): Promise<void> {
    const lang = languageOfExt(a.ext);
    const chunks = await chunkText(a.text, lang);
    const key = 'asset:' + a.id;
    this.engine.setFile(key, a.name, chunks.map((c) => ({
      id: chunkId(key, a.name, c.startLine, c.hash), file: key, rel: a.path || a.name,
      startLine: c.startLine + a.start - 1, endLine: c.endLine + a.start - 1, text: c.text, symbol: c.symbol,
      hash: c.hash, language: lang.id, ext: lang.ext, code: isCode(lang),
    })));
  }

  private summary(a: AssetRow): AssetSummary {
    return { id: a.id, name: a.name, path: a.path || undefined, language: a.lang, created: a.created, preview: a.text.slice(0, 200) };
  }

  async saveAsset(p: AssetSource): Promise<AssetSummary> {
    await this.opened;
    let text: string;
    let ext: string;
    let file = '';
    let start = 1;
    if ('fragment' in p) {
      text = p.fragment.text;
      ext = languageOfExt(p.fragment.ext).ext;
    } else {
      file = path.resolve(p.path);
      if (!(await fs.stat(file).catch(() => null))) throw notFound(`path does not exist: ${p.path}`, 'path');
      let why: SkipReason | undefined;
      const content = await this.readText(file, (reason) => (why = reason), [...this.roots.keys(), path.dirname(file)]);
      if (content === null) throw invalid(`cannot save ${p.path}: ${why ?? 'unreadable'}`, 'path');
      const lines = content.split(/\r?\n/);
      const s = p.startLine ?? 1;
      const e = p.endLine ?? lines.length;
      if (!Number.isInteger(s) || s < 1 || s > lines.length) throw invalid(`startLine must be between 1 and ${lines.length}`, 'startLine');
      if (!Number.isInteger(e) || e < s || e > lines.length) throw invalid(`endLine must be between startLine and ${lines.length}`, 'endLine');
      text = lines.slice(s - 1, e).join('\n');
      start = s;
      ext = languageOf(file).ext;
    }
    if (!text.trim()) throw invalid('the selection is empty', 'fragment' in p ? 'seed' : 'path');
    const name = typeof p.name === 'string' && p.name.trim() ? p.name.trim().slice(0, 200) : file ? `${path.basename(file)}:${start}` : text.split('\n')[0]!.trim().slice(0, 60);
    const row: AssetRow = {
      id: randomUUID(), name, path: file, lang: (file ? languageOf(file) : languageOfExt(ext)).id, ext, start,
      end: start + text.split('\n').length - 1, created: new Date().toISOString(), text,
    };
    await (await this.assetsTable!).add([row as unknown as Record<string, unknown>]);
    this.assets.set(row.id, row);
    await this.engineAddAsset(row);
    this.startEmbedding();
    return this.summary(row);
  }

  async deleteAsset(id: string): Promise<void> {
    await this.opened;
    if (!this.assets.has(id)) throw notFound(`no saved asset with id ${id}`, 'id');
    await (await this.assetsTable!).delete(`id = ${sqlString(id)}`);
    this.assets.delete(id);
    this.engine.removeFile('asset:' + id);
  }

  async listAssets(): Promise<AssetSummary[]> {
    await this.opened;
    return [...this.assets.values()].sort((a, b) => (a.created < b.created ? 1 : -1)).map((a) => this.summary(a));
  }

  // ---- the workspace ------------------------------------------------------------------------

  /** The folders to index: dropped ones leave the index, new ones are indexed in the background. */
  async setFolders(folders: string[]): Promise<void> {
    await this.opened;
    const next = folders.map((f) => path.resolve(f));
    for (const [i, f] of next.entries()) {
      const st = await fs.stat(f).catch(() => null);
      if (!st?.isDirectory()) throw notFound(`folder does not exist: ${folders[i]}`, `folders[${i}]`);
    }
    for (const old of this.workspaceFolders) {
      if (next.includes(old)) continue;
      const r = this.roots.get(old);
      if (r) {
        for (const rel of r.files.keys()) this.engine.removeFile(path.join(old, rel));
        this.roots.delete(old);
        this.skips.drop(old);
      }
    }
    this.workspaceFolders = next;
    for (const f of next) void this.indexRoot(this.root(f, true)).catch(() => {});
  }

  /** File events from the editor, applied in order without a rebuild. */
  async fileEvents(events: FileEvent[]): Promise<void> {
    await this.opened;
    for (const ev of events) await this.enqueue(() => this.applyEvent(ev));
    this.startEmbedding();
  }

  /** Unsaved contents of an open file (`null`: closed or saved, the disk is the truth again). */
  async buffer(file: string, text: string | null): Promise<void> {
    await this.opened;
    const abs = path.resolve(file);
    const root = this.rootOf(abs);
    if (text === null) {
      if (root) await this.enqueue(() => this.applyEvent({ type: 'changed', path: abs }));
      else this.engine.removeFile(abs);
      return;
    }
    // Editor text under a path whose real place is outside the opened folders is not searched.
    if ('outside' in (await locate([...this.roots.keys()], abs))) return;
    const rel = root ? path.relative(root.folder, abs).split(path.sep).join('/') : path.basename(abs);
    await this.chunkInto(root?.folder ?? path.dirname(abs), abs, rel, text, 0, text.length);
  }

  /** Drops every stored chunk and indexes each folder again (in the background). */
  async rebuild(): Promise<void> {
    await this.opened;
    for (const r of this.roots.values()) {
      await this.enqueue(async () => {
        for (const rel of r.files.keys()) this.engine.removeFile(path.join(r.folder, rel));
        r.files.clear();
        await (await r.table).delete('true');
      });
      void this.indexRoot(r).catch(() => {});
    }
  }

  pause(): IndexProgress {
    this.paused = true;
    this.emitProgress(true);
    return this.status();
  }

  resume(): IndexProgress {
    this.paused = false;
    for (const w of this.resumeWaiters.splice(0)) w();
    if (this.state === 'paused') this.state = 'indexing';
    this.emitProgress(true);
    return this.status();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const w of this.resumeWaiters.splice(0)) w();
    await this.queue.catch(() => {});
    await this.embedRun?.catch(() => {});
    this.store?.close();
  }
}

function embedText(c: ChunkRecord): string {
  return (c.symbol ? c.symbol + '\n' : '') + c.text;
}
