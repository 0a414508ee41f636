import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { Table } from '@lancedb/lancedb';
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Retriever, QuestionAnswerer, Snippet, Embedder } from '../core/interfaces';
import type { QGPTRelevanceInput, RelevantQGPTSeed } from '../protocol/wire';
import {
  WorkspaceSetFolders, WorkspaceFileEvents, WorkspaceBuffer, IndexProgressNotification, IndexStatus, IndexRebuild,
  IndexPause, IndexResume, AssetsSave, AssetsList, AssetsDelete,
  type IndexProgress, type IndexState, type FileEvent, type AssetSummary, type SaveAssetParams,
} from '../protocol/workspace';
import { invalid, notFound } from '../core/errors';
import { IndexStore, sqlString, type ChunkRow, type AssetRow } from './store';
import { SearchEngine, type ChunkRecord, type Hit, type RankParams } from './searchEngine';
import { chunkText } from './chunker';
import { languageOf, languageOfExt, isCode } from './languages';
import { walk, looksIndexable, skippedByName, DEFAULT_MAX_FILE_SIZE } from './walker';
import { registerRelevance, validateRelevance, hitToSeed, fragmentOf, type Space } from './relevance';

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
  private answerer?: QuestionAnswerer;
  private store?: IndexStore;
  private readonly engine = new SearchEngine();
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
  /** Ranking overrides (benchmarks only). */
  rankParams: Partial<RankParams> = {};
  /** Embeds counted since start: what `bench index` reports as re-embedded on a rerun. */
  embeddedThisProcess = 0;
  /** Content hashes embedded by this process (benchmarks compare two runs). */
  readonly embeddedHashes = new Set<string>();
  /** Benchmarks only: embed at most this many chunks per run (a sample of the throughput). */
  embedLimit = Infinity;

  private constructor(readonly options: CoreOptions, readonly service: Service, readonly hub: ModelHub) {
    this.workspaceFolders = options.folders.map((f) => path.resolve(f));
    this.opened = this.open();
    this.opened.catch((e) => options.log.error(`index failed to open: ${String(e)}`));
  }

  static async create(options: CoreOptions, service: Service, hub: ModelHub): Promise<WorkspaceIndex> {
    const index = new WorkspaceIndex(options, service, hub);
    index.register();
    if (options.autoIndex) void index.opened.then(() => index.indexAll()).catch(() => {});
    return index;
  }

  setAnswerer(a: QuestionAnswerer): void {
    this.answerer = a;
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
    })();
    root.table.catch(() => {});
    root.loaded.catch((e) => this.log.error(`index of ${folder} failed to load: ${String(e)}`));
    this.roots.set(folder, root);
    return root;
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
    const found = await walk(root.folder, this.settings());
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
    let buf: Buffer;
    try {
      buf = await fs.readFile(abs);
    } catch {
      this.engine.removeFile(abs);
      return [];
    }
    if (!looksIndexable(buf)) {
      this.engine.removeFile(abs);
      return [];
    }
    return this.chunkInto(root.folder, abs, rel, buf.toString('utf8'), mtime, size);
  }

  private async chunkInto(scope: string, key: string, rel: string, text: string, mtime: number, size: number): Promise<ChunkRow[]> {
    const lang = languageOf(rel);
    let chunks;
    try {
      chunks = await chunkText(text, lang);
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
      if (rels.length) await this.store!.replacePaths(table, rels, []);
      return;
    }
    let st;
    try {
      st = await fs.stat(abs);
    } catch {
      return this.applyEvent({ type: 'deleted', path: abs });
    }
    if (st.isDirectory()) {
      await this.lexicalPass(root);
      return;
    }
    const rel = path.relative(root.folder, abs).split(path.sep).join('/');
    if (skippedByName(rel) || st.size > this.settings().maxFileSize) {
      return this.applyEvent({ type: 'deleted', path: abs });
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

  /** Benchmarks: the embedding text of every distinct chunk. */
  allEmbedTexts(): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const c of this.engine.allChunks()) {
      if (seen.has(c.hash)) continue;
      seen.add(c.hash);
      out.push(embedText(c));
    }
    return out;
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
    this.service.broadcast(IndexProgressNotification, this.status());
  }

  // ---- Retriever ------------------------------------------------------------------------

  async relevance(input: QGPTRelevanceInput, signal?: AbortSignal): Promise<RelevantQGPTSeed[]> {
    const { query, space } = validateRelevance(input);
    return (await this.search(query, space, signal)).map((h) => hitToSeed(h, this.assetOf(h.chunk)));
  }

  private assetOf(c: ChunkRecord): string | undefined {
    return c.file.startsWith('asset:') ? c.file.slice(6) : undefined;
  }

  /** The hits for a validated query space (also what the benchmarks call). */
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
    const buf = await fs.readFile(abs);
    if (!looksIndexable(buf)) throw invalid(`not a text file: ${abs}`, 'paths');
    await this.chunkInto(path.dirname(abs), abs, path.basename(abs), buf.toString('utf8'), mtime, size);
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

  async getSnippet(id: string): Promise<Snippet | null> {
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

  async saveAsset(p: SaveAssetParams): Promise<AssetSummary> {
    await this.opened;
    if (!p || typeof p !== 'object') throw invalid('params must be an object with a seed or a path', 'params');
    let text: string;
    let ext: string;
    let file = '';
    let start = 1;
    if (p.seed !== undefined) {
      const frag = fragmentOf(p.seed, 'seed');
      text = frag.text;
      ext = languageOfExt(frag.ext).ext;
    } else if (typeof p.path === 'string' && p.path) {
      file = path.resolve(p.path);
      let buf: Buffer;
      try {
        buf = await fs.readFile(file);
      } catch {
        throw notFound(`path does not exist: ${p.path}`, 'path');
      }
      if (!looksIndexable(buf)) throw invalid(`not a text file: ${p.path}`, 'path');
      const lines = buf.toString('utf8').split(/\r?\n/);
      const s = p.startLine ?? 1;
      const e = p.endLine ?? lines.length;
      if (!Number.isInteger(s) || s < 1 || s > lines.length) throw invalid(`startLine must be between 1 and ${lines.length}`, 'startLine');
      if (!Number.isInteger(e) || e < s || e > lines.length) throw invalid(`endLine must be between startLine and ${lines.length}`, 'endLine');
      text = lines.slice(s - 1, e).join('\n');
      start = s;
      ext = languageOf(file).ext;
    } else {
      throw invalid('give a seed (with a fragment) or a path to save', 'seed');
    }
    if (!text.trim()) throw invalid('the selection is empty', p.seed ? 'seed' : 'path');
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

  async deleteAsset(id: unknown): Promise<void> {
    await this.opened;
    if (typeof id !== 'string' || !id) throw invalid('id must be a non-empty string', 'id');
    if (!this.assets.has(id)) throw notFound(`no saved asset with id ${id}`, 'id');
    await (await this.assetsTable!).delete(`id = ${sqlString(id)}`);
    this.assets.delete(id);
    this.engine.removeFile('asset:' + id);
  }

  // ---- protocol ---------------------------------------------------------------------------

  private register(): void {
    const s = this.service;
    s.register(WorkspaceSetFolders, async (p) => {
      if (!p || !Array.isArray(p.folders) || p.folders.some((f) => typeof f !== 'string' || !f)) {
        throw invalid('folders must be an array of folder paths', 'folders');
      }
      await this.opened;
      const next = p.folders.map((f) => path.resolve(f));
      for (const [i, f] of next.entries()) {
        const st = await fs.stat(f).catch(() => null);
        if (!st?.isDirectory()) throw notFound(`folder does not exist: ${p.folders[i]}`, `folders[${i}]`);
      }
      for (const old of this.workspaceFolders) {
        if (next.includes(old)) continue;
        const r = this.roots.get(old);
        if (r) {
          for (const rel of r.files.keys()) this.engine.removeFile(path.join(old, rel));
          this.roots.delete(old);
        }
      }
      this.workspaceFolders = next;
      for (const f of next) void this.indexRoot(this.root(f, true)).catch(() => {});
      return null;
    });
    s.register(WorkspaceFileEvents, async (p) => {
      if (!p || !Array.isArray(p.events)) throw invalid('events must be an array', 'events');
      await this.opened;
      for (const ev of p.events) {
        if (!ev || typeof ev.path !== 'string' || !['created', 'changed', 'deleted', 'renamed'].includes(ev.type)) continue;
        if (ev.type === 'renamed' && typeof ev.oldPath !== 'string') continue;
        await this.enqueue(() => this.applyEvent(ev));
      }
      this.startEmbedding();
    });
    s.register(WorkspaceBuffer, async (p) => {
      if (!p || typeof p.path !== 'string') throw invalid('path must be a string', 'path');
      await this.opened;
      const abs = path.resolve(p.path);
      const root = this.rootOf(abs);
      if (p.text === null || p.text === undefined) {
        if (root) await this.enqueue(() => this.applyEvent({ type: 'changed', path: abs }));
        else this.engine.removeFile(abs);
        return;
      }
      if (typeof p.text !== 'string') throw invalid('text must be a string or null', 'text');
      const rel = root ? path.relative(root.folder, abs).split(path.sep).join('/') : path.basename(abs);
      await this.chunkInto(root?.folder ?? path.dirname(abs), abs, rel, p.text, 0, p.text.length);
    });
    s.register(IndexStatus, async () => {
      await this.opened;
      return this.status();
    });
    s.register(IndexRebuild, async () => {
      await this.opened;
      for (const r of this.roots.values()) {
        await this.enqueue(async () => {
          for (const rel of r.files.keys()) this.engine.removeFile(path.join(r.folder, rel));
          r.files.clear();
          await (await r.table).delete('true');
        });
        void this.indexRoot(r).catch(() => {});
      }
      return null;
    });
    s.register(IndexPause, async () => {
      this.paused = true;
      this.emitProgress(true);
      return this.status();
    });
    s.register(IndexResume, async () => {
      this.paused = false;
      for (const w of this.resumeWaiters.splice(0)) w();
      if (this.state === 'paused') this.state = 'indexing';
      this.emitProgress(true);
      return this.status();
    });
    s.register(AssetsSave, (p) => this.saveAsset(p));
    s.register(AssetsList, async () => {
      await this.opened;
      return [...this.assets.values()].sort((a, b) => (a.created < b.created ? 1 : -1)).map((a) => this.summary(a));
    });
    s.register(AssetsDelete, async (p) => {
      await this.deleteAsset(p?.id);
      return null;
    });
    registerRelevance(s, this, () => this.answerer);
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
