import type { Embedder } from '../core/interfaces';
import { cancelled } from '../core/errors';
import { transformers, serialLoad } from './transformers';

/** What askcode uses of a loaded tokenizer / encoder (transformers.js types are far wider). */
interface Tok {
  (texts: string | string[], opts?: Record<string, unknown>): Record<string, unknown> & { attention_mask: unknown };
  encode(text: string, opts?: Record<string, unknown>): number[];
  model_max_length?: number;
}
interface Encoder {
  (inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
  dispose(): Promise<unknown>;
}
interface TensorLike {
  dims: number[];
  data: Float32Array;
  normalize(p?: number, dim?: number): TensorLike;
  dispose?(): void;
}

/**
 * Batches stay small and length-sorted: on 2 cores 216-token chunks embed at ~43/s one at a time
 * and ~30/s in batches of 32, because padding to the longest text costs more than batching saves.
 */
const MAX_BATCH = 8;
const MAX_BATCH_TOKENS = 2048;

/** Sentence embeddings (mean pooling, unit length) with a local ONNX encoder. */
export class OnnxEmbedder implements Embedder {
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  private constructor(
    readonly modelId: string,
    readonly dims: number,
    private readonly tokenizer: Tok,
    private model: Encoder | null,
    private readonly maxTokens: number,
  ) {}

  /** Loads from a folder (absolute path) holding config.json, tokenizer files and onnx/. */
  static async load(modelId: string, dir: string, dtype: string, maxTokens?: number): Promise<OnnxEmbedder> {
    const t = await transformers();
    return serialLoad(async () => {
      const tokenizer = (await t.AutoTokenizer.from_pretrained(dir)) as unknown as Tok;
      const model = (await t.AutoModel.from_pretrained(dir, { dtype: dtype as never, device: 'cpu' })) as unknown as Encoder;
      const config = (model as unknown as { config?: { hidden_size?: number } }).config;
      const limit = Math.min(maxTokens ?? 512, tokenizer.model_max_length && tokenizer.model_max_length < 1e6 ? tokenizer.model_max_length : 512);
      const e = new OnnxEmbedder(modelId, config?.hidden_size ?? 0, tokenizer, model, limit);
      if (!e.dims) (e as { dims: number }).dims = (await e.embed(['dimension probe']))[0]!.length;
      return e;
    });
  }

  countTokens(text: string): number {
    return this.tokenizer.encode(text).length;
  }

  /** Calls are serialised: one ONNX session, and concurrent runs on 2 cores only thrash. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const run = this.queue.then(() => this.embedNow(texts, signal));
    this.queue = run.catch(() => {});
    return run;
  }

  private async embedNow(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.disposed) throw new Error('the embedding model was unloaded');
    const t = await transformers();
    const lengths = texts.map((s) => Math.min(this.maxTokens, this.countTokens(s)));
    const order = texts.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
    const out: Float32Array[] = new Array(texts.length);
    let i = 0;
    while (i < order.length) {
      if (signal?.aborted) throw cancelled('embedding cancelled');
      if (this.disposed) throw new Error('the embedding model was unloaded');
      const batch: number[] = [];
      // Sorted ascending, so the last index of a batch is its longest: that is what all pad to.
      while (i < order.length && batch.length < MAX_BATCH && (batch.length + 1) * lengths[order[i]!]! <= MAX_BATCH_TOKENS) batch.push(order[i++]!);
      if (!batch.length) batch.push(order[i++]!);
      const inputs = this.tokenizer(batch.map((k) => texts[k]!), { padding: true, truncation: true, max_length: this.maxTokens });
      if (!this.model) throw new Error('the embedding model was unloaded');
      const result = await this.model(inputs);
      const hidden = (result.last_hidden_state ?? result.token_embeddings ?? Object.values(result)[0]) as TensorLike;
      const pooled = t.mean_pooling(hidden as never, inputs.attention_mask as never) as unknown as TensorLike;
      const normed = pooled.normalize(2, -1);
      const dims = normed.dims[1]!;
      batch.forEach((k, row) => {
        out[k] = Float32Array.from(normed.data.subarray(row * dims, (row + 1) * dims));
      });
      for (const x of [hidden, pooled, normed, ...Object.values(inputs)] as TensorLike[]) x?.dispose?.();
    }
    return out;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.queue;
    const model = this.model;
    // Dropping the reference lets the ONNX graph bytes (held by the session wrapper) be collected:
    // handles to this object (token counting) outlive the unload.
    this.model = null;
    await model?.dispose();
  }
}
