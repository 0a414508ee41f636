import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { invalid } from '../core/errors';
import { locate, readInside, type SkipReason } from '../core/safePath';
import type { FileEvent, IndexProgress } from '../protocol/workspace';
import type { ChunkRow } from './store';
import { chunkText } from './chunker';
import { extractDefinitions, type FileSymbol } from './symbols';
import { languageOf, isCode } from './languages';
import { walk, unindexableReason, skippedByName, isBuiltScript } from './walker';
import { decodeText } from './decode';
import { walkSettings, type IndexContext } from './context';
import { chunkId, recordOf, type Catalog, type Root } from './catalog';
import type { Progress } from './progress';

const WRITE_BATCH_FILES = 200;

/**
 * The indexer: one job at a time (a lexical pass over a folder, a file event, a rebuild) on one
 * queue, pausable between files. A lexical pass walks a folder, chunks what changed into the
 * engine and the store, and then starts the embedding queue.
 */
export class Indexer {
  private queue: Promise<unknown> = Promise.resolve();
  private paused = false;
  private resumeWaiters: (() => void)[] = [];
  /** Set by the index once the embedding queue exists: called after each lexical pass and event batch. */
  afterPass: () => void = () => {};

  constructor(
    private readonly ctx: IndexContext,
    private readonly catalog: Catalog,
    private readonly progress: Progress,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Runs `fn` after everything queued before it (one indexing job at a time on 2 cores). */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    this.progress.jobs++;
    const run = this.queue.then(fn).finally(() => {
      this.progress.jobs--;
      this.progress.settle();
    });
    this.queue = run.catch((e) => this.ctx.log.warn(`index job failed: ${String(e)}`));
    return run;
  }

  /** Resolves once every queued job, and whatever `also()` returns after it, is done. */
  async whenIdle(also: () => Promise<unknown> | undefined): Promise<void> {
    await this.ctx.opened;
    for (;;) {
      const q = this.queue;
      await q;
      await also();
      if (q === this.queue) return;
    }
  }

  /** Queues a lexical pass over a folder (then embeddings). */
  indexRoot(root: Root): Promise<void> {
    const p = this.enqueue(async () => {
      await this.ctx.opened;
      await root.loaded;
      await this.lexicalPass(root);
      this.afterPass();
    });
    root.indexed = p;
    return p;
  }

  /** Waits while indexing is paused. */
  async gate(): Promise<void> {
    while (this.paused && !this.ctx.disposed) await new Promise<void>((r) => this.resumeWaiters.push(r));
  }

  pause(): IndexProgress {
    this.paused = true;
    this.progress.emit(true);
    return this.progress.status();
  }

  resume(): IndexProgress {
    this.paused = false;
    for (const w of this.resumeWaiters.splice(0)) w();
    if (this.progress.state === 'paused') this.progress.state = 'indexing';
    this.progress.emit(true);
    return this.progress.status();
  }

  /** Lets every waiter go and waits for the job in progress (the index is being disposed). */
  async drain(): Promise<void> {
    for (const w of this.resumeWaiters.splice(0)) w();
    await this.queue.catch(() => {});
  }

  private async lexicalPass(root: Root): Promise<void> {
    const { engine, skips, store } = this.ctx;
    const counts = this.progress.counts;
    if (this.ctx.disposed) return;
    this.progress.setState('indexing');
    const t0 = Date.now();
    skips.reset(root.folder);
    const found = await walk(root.folder, {
      ...walkSettings(this.ctx),
      allowed: this.catalog.folders(),
      onSkip: (rel, reason, detail) => skips.note(root.folder, rel, reason, detail),
    });
    const { changed, removed } = this.catalog.changes(root, found);
    counts.filesTotal = found.length;
    counts.files = found.length - changed.length;
    this.progress.emit(true);
    const table = await root.table;
    if (removed.length) {
      for (const rel of removed) {
        engine.removeFile(path.join(root.folder, rel));
        root.files.delete(rel);
      }
      await store!.replacePaths(table, removed, []);
    }
    let batchPaths: string[] = [];
    let batchRows: ChunkRow[] = [];
    const flush = async () => {
      if (!batchPaths.length) return;
      await store!.replacePaths(table, batchPaths, batchRows);
      batchPaths = [];
      batchRows = [];
    };
    for (const f of changed) {
      if (this.ctx.disposed) return;
      await this.gate();
      const rows = await this.chunkFile(root, f.abs, f.rel, f.mtimeMs, f.size);
      batchPaths.push(f.rel);
      batchRows.push(...rows);
      if (rows.length) root.files.set(f.rel, { mtime: f.mtimeMs, size: f.size });
      else root.files.delete(f.rel);
      counts.files++;
      counts.chunks = engine.chunkCount;
      this.progress.emit();
      if (batchPaths.length >= WRITE_BATCH_FILES) await flush();
    }
    await flush();
    engine.trim();
    if (changed.length || removed.length) await store!.compact(table);
    // Every file of an older format's tables is now chunked again (or gone): they go.
    if (root.older.length) await store!.dropTables(root.older.splice(0));
    counts.chunks = engine.chunkCount;
    this.ctx.log.info(`indexed ${root.folder}: ${found.length} files (${changed.length} changed, ${removed.length} removed), ${engine.chunkCount} chunks in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // "ready" when this job ends, unless more work is queued behind it (Progress.settle).
  }

  /** Reads and chunks one file into the engine; returns the rows to store. */
  private async chunkFile(root: Root, abs: string, rel: string, mtime: number, size: number): Promise<ChunkRow[]> {
    const text = await this.readText(abs, (reason, detail) => this.ctx.skips.note(root.folder, rel, reason, detail));
    if (text === null) {
      this.ctx.engine.removeFile(abs);
      return [];
    }
    this.ctx.skips.clear(root.folder, rel);
    return this.chunkInto(root.folder, abs, rel, text, mtime, size);
  }

  /** A file's text through the one path check (inside the opened folders, a regular file), or why not. */
  async readText(abs: string, skipped: (reason: SkipReason, detail?: string) => void, folders = this.catalog.folders()): Promise<string | null> {
    const r = await readInside(folders, abs, walkSettings(this.ctx).maxFileSize);
    if (!r.ok) {
      if (r.reason !== 'missing') skipped(r.reason, r.real);
      return null;
    }
    const why = unindexableReason(r.buf, abs);
    if (why) {
      skipped(why);
      return null;
    }
    const decoded = decodeText(r.buf);
    if (!decoded) skipped('encoding');
    return decoded?.text ?? null;
  }

  /** Chunks `text` into the engine under `key` (with its definitions); returns the rows to store. */
  async chunkInto(scope: string, key: string, rel: string, text: string, mtime: number, size: number): Promise<ChunkRow[]> {
    const lang = languageOf(rel);
    let chunks;
    let defs: FileSymbol[] = [];
    try {
      chunks = await chunkText(text, lang, (root, lines, firstLine) => (defs = extractDefinitions(root, lines, firstLine)));
    } catch (e) {
      this.ctx.log.warn(`could not chunk ${rel}: ${String(e)}`);
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
    this.ctx.engine.setFile(key, rel, rows.map((r) => ({ ...recordOf(scope, r), file: key })));
    if (rows.length) this.ctx.symbols.setFile(key, rel, lang.id, defs, this.ctx.engine.isTest(key));
    return rows;
  }

  /** File events from the editor, applied in order without a rebuild. */
  async fileEvents(events: FileEvent[]): Promise<void> {
    await this.ctx.opened;
    for (const ev of events) await this.enqueue(() => this.applyEvent(ev));
    this.afterPass();
  }

  /** Unsaved contents of an open file (`null`: closed or saved, the disk is the truth again). */
  async buffer(file: string, text: string | null): Promise<void> {
    await this.ctx.opened;
    const abs = path.resolve(file);
    const root = this.catalog.rootOf(abs);
    if (text === null) {
      if (root) await this.enqueue(() => this.applyEvent({ type: 'changed', path: abs }));
      else this.ctx.engine.removeFile(abs);
      return;
    }
    // Editor text under a path whose real place is outside the opened folders is not searched.
    if ('outside' in (await locate(this.catalog.folders(), abs))) return;
    const rel = root ? path.relative(root.folder, abs).split(path.sep).join('/') : path.basename(abs);
    await this.chunkInto(root?.folder ?? path.dirname(abs), abs, rel, text, 0, text.length);
  }

  /** A single file outside every indexed folder: searched in memory, not stored. */
  async indexLooseFile(abs: string, mtime: number, size: number): Promise<void> {
    if (size > walkSettings(this.ctx).maxFileSize) throw invalid(`file is larger than askcode.maxFileSize: ${abs}`, 'paths');
    let why: SkipReason | undefined;
    // Outside every indexed folder, the file's own folder is the limit: a link out of it is refused.
    const text = await this.readText(abs, (reason) => (why = reason), [...this.catalog.folders(), path.dirname(abs)]);
    if (text === null) throw invalid(`not indexed: ${abs} (${why ?? 'unreadable'})`, 'paths');
    await this.chunkInto(path.dirname(abs), abs, path.basename(abs), text, mtime, size);
  }

  /** Drops every stored chunk and indexes each folder again (in the background). */
  async rebuild(): Promise<void> {
    await this.ctx.opened;
    for (const r of this.catalog.roots.values()) {
      const removal = this.enqueue(async () => {
        // "indexing" from here until the walk queued behind it is done (Progress.settle).
        this.progress.setState('indexing');
        for (const rel of r.files.keys()) this.ctx.engine.removeFile(path.join(r.folder, rel));
        r.files.clear();
        await (await r.table).delete('true');
      });
      void this.indexRoot(r).catch(() => {});
      await removal;
    }
  }

  /** One file event, applied without a rebuild. */
  private async applyEvent(ev: FileEvent): Promise<void> {
    const { engine, skips, store } = this.ctx;
    const abs = path.resolve(ev.path);
    if (ev.type === 'renamed') {
      await this.applyEvent({ type: 'deleted', path: ev.oldPath });
      await this.applyEvent({ type: 'created', path: ev.path });
      return;
    }
    const root = this.catalog.rootOf(abs);
    if (!root) return;
    await root.loaded;
    const table = await root.table;
    if (ev.type === 'deleted') {
      const prefix = abs + path.sep;
      const gone = [...engine.fileKeys()].filter((k) => k === abs || k.startsWith(prefix));
      const rels = gone.map((k) => path.relative(root.folder, k).split(path.sep).join('/'));
      for (const k of gone) engine.removeFile(k);
      for (const r of rels) root.files.delete(r);
      skips.clear(root.folder, path.relative(root.folder, abs).split(path.sep).join('/'));
      if (rels.length) await store!.replacePaths(table, rels, []);
      return;
    }
    const rel = path.relative(root.folder, abs).split(path.sep).join('/');
    // The one path check: a link out of the opened folders is not followed, a FIFO is never opened.
    const where = await locate(this.catalog.folders(), abs);
    if ('missing' in where) return this.applyEvent({ type: 'deleted', path: abs });
    if ('outside' in where) {
      await this.applyEvent({ type: 'deleted', path: abs });
      return skips.note(root.folder, rel, 'outside', where.outside);
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
      return skips.note(root.folder, rel, 'special');
    }
    // A link to a file indexed under its own name is not indexed twice.
    if (where.real !== abs && engine.hasFile(where.real)) return this.applyEvent({ type: 'deleted', path: abs });
    const { maxFileSize } = walkSettings(this.ctx);
    if (skippedByName(rel) || st.size > maxFileSize) {
      await this.applyEvent({ type: 'deleted', path: abs });
      if (st.size > maxFileSize) skips.note(root.folder, rel, 'too_large');
      return;
    }
    if (await isBuiltScript(abs)) {
      await this.applyEvent({ type: 'deleted', path: abs });
      return skips.note(root.folder, rel, 'built');
    }
    const rows = await this.chunkFile(root, abs, rel, Math.floor(st.mtimeMs), st.size);
    await store!.replacePaths(table, [rel], rows);
    if (rows.length) root.files.set(rel, { mtime: Math.floor(st.mtimeMs), size: st.size });
    else root.files.delete(rel);
    this.progress.counts.chunks = engine.chunkCount;
  }
}
