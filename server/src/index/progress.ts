import type { IndexProgress, IndexState } from '../protocol/workspace';
import type { IndexContext } from './context';

const PROGRESS_EVERY_MS = 250;

/**
 * The index's state and counters as `askcode/indexProgress` reports them: pushed at most every
 * 250 ms while work runs, at once on a change of state.
 */
export class Progress {
  state: IndexState = 'idle';
  readonly counts = { files: 0, filesTotal: 0, chunks: 0, embedded: 0, embedTotal: 0, startedEmbed: 0 };
  /** No embedding model could be had: relevance runs on BM25 alone. */
  bm25Only = false;
  /** The dense signal is switched off (`askcode index --no-embed`, BM25-only measurements). */
  denseOff = false;
  lastMessage?: string;
  private lastPush = 0;

  constructor(
    private readonly ctx: IndexContext,
    private readonly isPaused: () => boolean,
    private readonly onProgress: (p: IndexProgress) => void,
  ) {}

  /** Lexical jobs queued or running (the indexer's queue), and whether an embedding run is under way. */
  jobs = 0;
  embedding = false;

  /**
   * After a job or an embedding run ends: "ready" only when no lexical job and no embedding run is
   * left (one finishing must not report ready over another's work: a rebuild's walk queued behind
   * its removal, an edit's pass behind a run of embeddings).
   */
  settle(): void {
    if (this.state === 'indexing' && !this.jobs && !this.embedding) this.setState('ready');
  }

  setState(s: IndexState): void {
    if (this.isPaused() && s !== 'error') s = 'paused';
    this.state = s;
    this.emit(true);
  }

  /** Chunks whose content has a vector (identical chunks share one). */
  private embeddedChunks(): number {
    const engine = this.ctx.engine;
    if (!engine.vectorCount) return 0;
    let n = 0;
    for (const c of engine.allChunks()) if (engine.hasVector(c.hash)) n++;
    return n;
  }

  status(): IndexProgress {
    const p = this.counts;
    let eta: number | undefined;
    if (this.state === 'indexing' && p.startedEmbed && p.embedded < p.embedTotal) {
      const rate = (p.embedded - 0.0001) / Math.max(1, (Date.now() - p.startedEmbed) / 1000);
      if (rate > 0) eta = Math.round((p.embedTotal - p.embedded) / rate);
    }
    return {
      state: this.isPaused() ? 'paused' : this.state,
      files: p.files,
      filesTotal: p.filesTotal,
      chunks: this.ctx.engine.chunkCount,
      embedded: this.embeddedChunks(),
      eta,
      bm25Only: this.bm25Only || this.denseOff,
      message: this.bm25Only ? 'no embedding model: relevance runs on BM25 alone' : this.lastMessage,
      skipped: this.ctx.skips.counts(),
    };
  }

  emit(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastPush < PROGRESS_EVERY_MS) return;
    this.lastPush = now;
    this.onProgress(this.status());
  }
}
