import type { Model, ModelUsageEnum } from '../protocol/wire';

/**
 * The built-in models. Ids are fixed UUIDs so that a conversation or a setting that names a model
 * keeps working across installs and registry rebuilds.
 */
export interface CatalogEntry {
  id: string;
  /** The model hub repository the weights come from (transformers.js layout: config, tokenizer, onnx/). */
  hubId?: string;
  /** Folder name under the models cache (one folder per model). */
  folder?: string;
  /** transformers.js dtype: selects `onnx/model<suffix>.onnx`. */
  dtype?: string;
  /** Files fetched from the hub besides the ONNX graph (static models: all of them); `?` marks files a repository may lack. */
  files?: string[];
  /** A model shipped inside the extension: its folder under the package's `models/`. */
  bundled?: string;
  /** The wire record minus what is computed (id, created, downloaded, loaded). */
  model: Omit<Model, 'id' | 'created' | 'downloaded' | 'loaded' | 'downloading'>;
}

export const EXTRACTIVE_MODEL_ID = '3b9f5c0e-6d0a-4f6e-9a47-0c1f5e2a7b01';
export const MINILM_MODEL_ID = '14df9408-0574-4094-ab88-4ca0f8980851';
export const QWEN_05B_MODEL_ID = '89f59f73-1458-4950-be96-c029256d2caf';
export const QWEN_15B_MODEL_ID = 'bf2f3a2e-2e90-49cc-9421-c9476e84bab2';
export const ASKCODE_STATIC_MODEL_ID = '7d0c2a53-6f1e-4b8e-9c3d-5a1f0e7b2c64';
export const POTION_CODE_MODEL_ID = 'c1e4b9a6-2d7f-4a30-8e55-91b3f6d0a7e2';
/**
 * The embedder used when `askcode.embeddingModel` is empty (chosen on the dev sets: see
 * scripts/train-static/README.md).
 */
export const DEFAULT_EMBEDDING_MODEL_ID = ASKCODE_STATIC_MODEL_ID;
/** The folder of askcode's own static code embedding under the package's `models/`. */
export const ASKCODE_STATIC_FOLDER = 'askcode-code-static';

const GB = 1e9;
const MB = 1e6;

export function readableBytes(n: number): string {
  if (n >= GB) return `${(n / GB).toFixed(2)} GB`;
  if (n >= MB) return `${(n / MB).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

export const bytesOf = (n: number) => ({ value: Math.round(n), readable: readableBytes(n) });

const TOKENIZER_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json?'];

const codeCapabilities = { temporal: false, images: false, videos: false, documents: true, codebases: true, assets: true, websites: false };

/** Qwen2.5-Coder Instruct from the onnx-community conversions, 4-bit weights (q4f16). */
function qwenCoder(id: string, size: string, billions: number, diskGb: number, ramGb: number, type: 'SPEED' | 'BALANCED', description: string): CatalogEntry {
  const hubId = `onnx-community/Qwen2.5-Coder-${size}-Instruct`;
  return {
    id,
    hubId,
    folder: hubId.replace('/', '--'),
    dtype: 'q4f16',
    files: [...TOKENIZER_FILES, 'generation_config.json?', 'vocab.json?', 'merges.txt?'],
    model: {
      version: '2.5',
      name: `Qwen2.5-Coder ${size} Instruct`,
      description,
      cloud: false,
      type,
      usage: 'CODE_CONVERSATION',
      bytes: bytesOf(diskGb * GB),
      ram: bytesOf(ramGb * GB),
      quantization: 'q4f16',
      foundation: 'QWEN_CODER_LATEST',
      unique: hubId,
      parameters: billions,
      provider: 'UNKNOWN',
      cpu: true,
      maxTokens: { total: 32768, input: 30720, output: 2048 },
      custom: false,
      capabilities: codeCapabilities,
    },
  };
}

/**
 * Sizes are those of the hub files (ONNX graph + tokenizer) at the quantisation we load; once a
 * model is downloaded the registry reports the size measured in the cache instead.
 */
export const CATALOG: CatalogEntry[] = [
  {
    id: ASKCODE_STATIC_MODEL_ID,
    bundled: ASKCODE_STATIC_FOLDER,
    dtype: 'static',
    model: {
      version: '1',
      name: 'askcode code embeddings (static)',
      description: 'Static code embeddings (256 dimensions, int8) trained by askcode on docstrings, commit messages and docs of permissively licensed repositories; ships with askcode, no download, thousands of chunks a second on a CPU.',
      cloud: false,
      type: 'SPEED',
      usage: 'TEXT_EMBEDDING',
      bytes: bytesOf(7.8 * MB),
      ram: bytesOf(12 * MB),
      quantization: 'int8',
      unique: 'askcode/code-static',
      provider: 'UNKNOWN',
      cpu: true,
      maxTokens: { total: 512, input: 512, output: 0 },
      custom: false,
    },
  },
  {
    id: POTION_CODE_MODEL_ID,
    hubId: 'minishlab/potion-code-16M',
    folder: 'minishlab--potion-code-16M',
    dtype: 'static',
    // model2vec's layout: the matrix is `model.safetensors`.
    files: ['config.json', 'tokenizer.json', 'model.safetensors'],
    model: {
      version: '1',
      name: 'potion-code-16M',
      description: 'Static code embeddings (256 dimensions, MIT) distilled by Minish from CodeRankEmbed, model2vec format; downloaded once (about 64 MB).',
      cloud: false,
      type: 'SPEED',
      usage: 'TEXT_EMBEDDING',
      bytes: bytesOf(64 * MB),
      ram: bytesOf(70 * MB),
      quantization: 'fp32',
      unique: 'minishlab/potion-code-16M',
      parameters: 0.016,
      provider: 'HUGGING_FACE',
      cpu: true,
      maxTokens: { total: 512, input: 512, output: 0 },
      custom: false,
    },
  },
  {
    id: MINILM_MODEL_ID,
    hubId: 'Xenova/all-MiniLM-L6-v2',
    folder: 'Xenova--all-MiniLM-L6-v2',
    dtype: 'q8',
    files: [...TOKENIZER_FILES, 'vocab.txt?'],
    model: {
      version: 'v2',
      name: 'all-MiniLM-L6-v2',
      description: 'Sentence embeddings (384 dimensions) for semantic code search; int8 ONNX via transformers.js. Fetched automatically on first use (23 MB).',
      cloud: false,
      type: 'SPEED',
      usage: 'TEXT_EMBEDDING',
      bytes: bytesOf(23.5 * MB),
      ram: bytesOf(90 * MB),
      quantization: 'q8',
      unique: 'Xenova/all-MiniLM-L6-v2',
      parameters: 0.0227,
      provider: 'HUGGING_FACE',
      cpu: true,
      // Trained on 128-token pairs; sentence-transformers truncates at 256, the graph accepts 512.
      maxTokens: { total: 256, input: 256, output: 0 },
      custom: false,
    },
  },
  qwenCoder(QWEN_05B_MODEL_ID, '0.5B', 0.49, 0.49, 1.0, 'SPEED',
    'Small local code chat model (ONNX, 4-bit weights) that a laptop CPU runs; downloaded on request.'),
  qwenCoder(QWEN_15B_MODEL_ID, '1.5B', 1.54, 1.26, 2.3, 'BALANCED',
    'Local code chat model (ONNX, 4-bit weights); better answers than 0.5B at about three times the cost. Downloaded on request.'),
  {
    id: EXTRACTIVE_MODEL_ID,
    model: {
      version: '1',
      name: 'askcode extractive answerer',
      description: 'Built in, no weights: answers by quoting the most relevant snippets with their locations and scores, and says that no language model was used.',
      cloud: false,
      type: 'SPEED',
      usage: 'CODE_CONVERSATION',
      bytes: bytesOf(0),
      ram: bytesOf(0),
      unique: 'askcode-extractive',
      provider: 'UNKNOWN',
      cpu: true,
      maxTokens: { total: null },
      custom: false,
      capabilities: codeCapabilities,
    },
  },
];

export const usageIsLlm = (u: ModelUsageEnum) => u === 'CODE_CONVERSATION' || u === 'CODE_GENERATION';
