import type { Table } from '@lancedb/lancedb';
import type { Embedder, ModelHub } from '../core/interfaces';
import type { EmbeddingOptions } from '../core/options';
import type { ChunkRecord } from './searchEngine';
import type { IndexContext } from './context';
import type { Progress } from './progress';

const EMBED_BATCH = 32;
/** Vectors per LanceDB write (each write is a version; fewer, larger ones are cheaper). */
const WRITE_BATCH = 1024;

/** The text a chunk is embedded as: its symbol names the code better than its first line. */
export function embedText(c: ChunkRecord): string {
  return (c.symbol ? c.symbol + '\n' : '') + c.text;
}

/** `limit` items spread evenly over `order` (so a sample has typical lengths). */
export function sampleEvenly<T>(order: T[], limit = Infinity): T[] {
  if (order.length <= limit) return order;
  const step = order.length / limit;
  return Array.from({ length: limit }, (_, i) => order[Math.floor(i * step)]!);
}

/**
 * The embedding queue: fills in vectors behind the lexical index, cheapest chunks first, one run
 * at a time, and keeps them in a table per embedding model (a content hash is embedded once).
 */
export class EmbeddingQueue {
  /** The run in progress, if any. */
  run?: Promise<void>;
  private embedder?: Embedder | null;
  private vectorsTable?: Promise<Table>;
  private vectorsLoadedFor?: string;
  private saidBm25Only = false;
  private dense = true;

  constructor(
    private readonly ctx: IndexContext,
    private readonly hub: ModelHub,
    private readonly progress: Progress,
    /** Waits while indexing is paused. */
    private readonly gate: () => Promise<void>,
    private readonly tuning: EmbeddingOptions = {},
  ) {}

  /** Turns the dense signal on or off (BM25-only measurements, `askcode index --no-embed`). */
  setDense(on: boolean): void {
    this.dense = on;
    this.progress.denseOff = !on;
  }

  /** Starts a run over what is pending, unless one is running. */
  start(): void {
    if (this.run || this.ctx.disposed || !this.dense) return;
    this.progress.embedding = true;
    this.run = this.embedPending()
      .catch((e) => this.ctx.log.warn(`embedding stopped: ${String(e)}`))
      .finally(() => {
        this.run = undefined;
        this.progress.embedding = false;
        this.progress.settle();
      });
  }

  /** Embeds what is pending now (the index does this by itself after each lexical pass). */
  async now(): Promise<void> {
    this.start();
    await this.run;
  }

  /** The query's vector, when there are vectors to compare it with. */
  async queryVector(query: string, signal?: AbortSignal): Promise<Float32Array | null> {
    if (!this.dense || !this.ctx.engine.vectorCount || !this.embedder) return null;
    try {
      return (await this.embedder.embed([query.slice(0, 2000)], signal))[0] ?? null;
    } catch {
      return null;
    }
  }

  private async getEmbedder(): Promise<Embedder | null> {
    if (!this.dense) return null;
    const e = await this.hub.getEmbedder().catch(() => null);
    if (!e) {
      this.progress.bm25Only = true;
      if (!this.saidBm25Only) {
        this.saidBm25Only = true;
        // The models area says why, once per data folder; this is the index's side of it.
        this.ctx.log.debug('no embedding model: relevance runs on BM25 alone');
      }
      return null;
    }
    this.progress.bm25Only = false;
    const key = e.version ? `${e.modelId}@${e.version}` : e.modelId;
    if (this.vectorsLoadedFor !== key) {
      const { engine, store } = this.ctx;
      this.vectorsLoadedFor = key;
      engine.clearVectors();
      if (e.version) {
        const dropped = await store!.dropOtherVersions(e.modelId, e.dims, e.version);
        if (dropped.length) this.ctx.log.info(`the embedding model ${e.modelId} changed: its old vectors were dropped, the workspace is embedded again`);
      }
      this.vectorsTable = store!.vectorsTable(e.modelId, e.dims, e.version);
      const rows = await store!.readAll<{ hash: string; vector: { toArray(): Float32Array } }>(await this.vectorsTable);
      for (const r of rows) engine.setVector(r.hash, r.vector.toArray());
      engine.trim();
    }
    this.embedder = e;
    return e;
  }

  private async embedPending(): Promise<void> {
    const e = await this.getEmbedder();
    const { engine, store } = this.ctx;
    const counts = this.progress.counts;
    if (!e || this.ctx.disposed) {
      this.progress.emit(true);
      return;
    }
    const pending = new Map<string, string>();
    for (const c of engine.allChunks()) {
      if (!engine.hasVector(c.hash) && !pending.has(c.hash)) pending.set(c.hash, embedText(c));
    }
    counts.embedTotal = engine.vectorCount + pending.size;
    counts.embedded = engine.vectorCount;
    if (!pending.size) {
      this.progress.emit(true);
      return;
    }
    // Cheapest first: short chunks are many answers' worth of vectors per second.
    const order = sampleEvenly([...pending].sort((a, b) => a[1].length - b[1].length), this.tuning.limit);
    this.progress.setState('indexing');
    counts.startedEmbed = Date.now();
    const startCount = counts.embedded;
    const table = await this.vectorsTable!;
    let toWrite: { hash: string; vector: Float32Array }[] = [];
    // One write in flight while the next batches are embedded: LanceDB writes on its own threads.
    let writing: Promise<void> = Promise.resolve();
    let writeError: unknown;
    const flush = async () => {
      await writing;
      if (writeError) throw writeError;
      const rows = toWrite;
      toWrite = [];
      writing = store!.addVectors(table, rows).catch((err: unknown) => {
        writeError = err;
      });
    };
    for (let i = 0; i < order.length; i += EMBED_BATCH) {
      await this.gate();
      if (this.ctx.disposed) break;
      const batch = order.slice(i, i + EMBED_BATCH);
      const vecs = await e.embed(batch.map(([, t]) => t));
      batch.forEach(([h], j) => {
        engine.setVector(h, vecs[j]!);
        toWrite.push({ hash: h, vector: vecs[j]! });
      });
      this.tuning.onEmbedded?.(batch.map(([h]) => h));
      counts.embedded = startCount + i + batch.length;
      if (toWrite.length >= WRITE_BATCH) await flush();
      this.progress.emit();
    }
    await flush();
    await writing;
    if (writeError) throw writeError;
    await store!.compact(table);
    engine.trim();
    this.ctx.log.info(`embedded ${counts.embedded - startCount} chunks with ${e.modelId}`);
  }
}
