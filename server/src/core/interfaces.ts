/**
 * The contracts between the core's areas (models/, index/, qgpt/), so each can be built and
 * tested on its own. Implementations live in their folders; `createCore` wires them together.
 */
import type { SnippetInfo } from '../protocol/wire';

// ---- provided by models/ ---------------------------------------------------------------

export interface Embedder {
  readonly modelId: string;
  readonly dims: number;
  /**
   * What the vectors depend on beyond the model id, when the files behind one id can change (a
   * digest of a static model's weights and vocabulary): stored vectors are kept per id and version,
   * so an updated model never compares its query vectors with the old model's.
   */
  readonly version?: string;
  /** Unit-length sentence vectors, one per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Token count with the model's own tokenizer (for budgets and batching). */
  countTokens(text: string): number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
}

export interface Generator {
  readonly modelId: string;
  /** Context window in tokens (prompt + completion). */
  readonly contextTokens: number;
  countTokens(text: string): Promise<number>;
  /** Text deltas, in order; ends early (without throwing) when `signal` aborts. */
  generate(messages: ChatMessage[], opts?: GenerateOptions): AsyncIterable<string>;
}

export interface ModelHub {
  /** The embedding model, loading it on first use; null when none can be had (BM25 only). */
  getEmbedder(): Promise<Embedder | null>;
  /**
   * The generator for a CODE_CONVERSATION model id (or the default one); null means the built-in
   * extractive answerer. Throws not_found for an unknown id, unavailable when it cannot load.
   */
  getGenerator(modelId?: string): Promise<Generator | null>;
  /** The name a person knows a model by, when the id is known. */
  modelName?(id: string): string | undefined;
  /** The id of the model that answers when the input names none. */
  defaultConversationModelId(): string;
  /** The built-in extractive answerer's model id. */
  readonly extractiveModelId: string;
}

// ---- provided by index/ ----------------------------------------------------------------

export interface Snippet {
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  language?: string;
  symbol?: string;
  info?: SnippetInfo;
}

/** What qgpt/ needs of the index (search itself goes through `WorkspaceIndex.search`, called by ops/). */
export interface Retriever {
  /** A snippet returned by an earlier search (or a saved asset), by id. */
  snippet(id: string): Promise<Snippet | null>;
  /** Where a fragment lives in the workspace (for persons-related from a seed). */
  locate(fragment: string, signal?: AbortSignal): Promise<{ path: string; startLine: number; endLine: number }[]>;
  /** The workspace folders being indexed. */
  folders(): string[];
  /** Whether a workspace file defines `name` (a follow-up's subject is preferably the project's own). */
  defines(name: string): boolean;
  /**
   * Where a qualified name (`ILogger.Write`) is defined, as the symbols resolve it: its own
   * definitions; a class's method that the class does not define itself, through its bases
   * (`via: 'inherits'`: `Sanic.run` → `StartupMixin.run` in `sanic/mixins/startup.py`); and where
   * what implements an interface defines its method (`via: 'implements'`: `Ctx.JSON` →
   * `DefaultRes.JSON`). [] for a plain name.
   */
  definitionsOf(name: string): { path: string; startLine: number; endLine: number; qualifiedName: string; via?: 'inherits' | 'implements' }[];
}
