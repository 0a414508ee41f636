import type { Embedder, Generator, ChatMessage, GenerateOptions } from '../core/interfaces';
import type { OnnxEmbedder } from './embedder';
import type { StaticEmbedder } from './staticEmbedder';
import type { OnnxGenerator } from './onnxGenerator';

/** A handle that survives `models/unload`: the next call loads the model again. */
export class ManagedEmbedder implements Embedder {
  constructor(
    readonly modelId: string,
    readonly dims: number,
    private readonly tokenizerOwner: OnnxEmbedder | StaticEmbedder,
    private readonly acquire: () => Promise<OnnxEmbedder | StaticEmbedder>,
  ) {}

  countTokens(text: string): number {
    return this.tokenizerOwner.countTokens(text);
  }

  get version(): string | undefined {
    return 'version' in this.tokenizerOwner ? this.tokenizerOwner.version : undefined;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    try {
      return await (await this.acquire()).embed(texts, signal);
    } catch (e) {
      // Unloaded between acquiring and running: one retry loads it again.
      if (/unloaded/.test((e as Error).message)) return (await this.acquire()).embed(texts, signal);
      throw e;
    }
  }
}

export class ManagedGenerator implements Generator {
  constructor(
    readonly modelId: string,
    readonly contextTokens: number,
    private readonly tokenizerOwner: OnnxGenerator,
    private readonly acquire: () => Promise<OnnxGenerator>,
  ) {}

  countTokens(text: string): Promise<number> {
    return this.tokenizerOwner.countTokens(text);
  }

  async *generate(messages: ChatMessage[], opts?: GenerateOptions): AsyncIterable<string> {
    const g = await this.acquire();
    yield* g.generate(messages, opts);
  }
}

