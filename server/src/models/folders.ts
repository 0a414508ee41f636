import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { ModelUsageEnum } from '../protocol/wire';

/** transformers.js dtype → ONNX file-name suffix (`onnx/model<suffix>.onnx`). */
export const DTYPE_SUFFIX: Record<string, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

/** Preference when a folder holds several variants: smallest that runs well on a CPU first. */
const DTYPE_PREFERENCE = ['q8', 'q4', 'int8', 'uint8', 'q4f16', 'fp32', 'fp16', 'bnb4'];
const GRAPH_NAMES = ['model', 'decoder_model_merged'];

export interface FolderFacts {
  name: string;
  dir: string;
  usage: ModelUsageEnum;
  dtype: string;
  /** Files (relative, `/`-separated) that make up the model at that dtype. */
  files: string[];
  bytes: number;
  config: Record<string, unknown>;
  maxPositions?: number;
  hasChatTemplate: boolean;
}

/** A stable UUID-shaped id from a name, so a folder keeps its id across runs and machines. */
export function stableId(kind: string, name: string): string {
  const h = createHash('sha1').update(`askcode:${kind}:${name}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function usageFromConfig(config: Record<string, unknown>): ModelUsageEnum {
  const archs = Array.isArray(config.architectures) ? config.architectures.map(String) : [];
  if (archs.some((a) => /ForCausalLM$|LMHeadModel$|ForConditionalGeneration$/.test(a))) return 'CODE_CONVERSATION';
  const type = String(config.model_type ?? '');
  if (archs.some((a) => /^(Bert|Roberta|XLMRoberta|MPNet|DistilBert|Nomic|JinaBert|ModernBert)Model$/.test(a))) return 'TEXT_EMBEDDING';
  if (/^(bert|roberta|xlm-roberta|mpnet|distilbert|nomic_bert|modernbert)$/.test(type)) return 'TEXT_EMBEDDING';
  if (/^(llama|qwen2|qwen3|mistral|phi3?|gemma\d?|gpt2|gpt_neox|smollm3|granite|olmo2?)$/.test(type)) return 'CODE_CONVERSATION';
  return 'UNKNOWN';
}

async function statSize(p: string): Promise<number> {
  try {
    return (await fs.stat(p)).size;
  } catch {
    return 0;
  }
}

/**
 * Reads a transformers.js model folder (config.json + onnx/); null when it is not one.
 * `dtype` asks for a variant; otherwise the config's `transformers.js_config.dtype`, else the
 * first present in {@link DTYPE_PREFERENCE}.
 */
export async function inspectFolder(dir: string, dtype?: string): Promise<FolderFacts | null> {
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(await fs.readFile(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    if (!config || typeof config !== 'object') return null;
  } catch {
    return null;
  }
  let onnxFiles: string[];
  try {
    onnxFiles = await fs.readdir(path.join(dir, 'onnx'));
  } catch {
    return null;
  }
  const has = (d: string) => GRAPH_NAMES.some((g) => onnxFiles.includes(`${g}${DTYPE_SUFFIX[d]}.onnx`));
  const jsConfig = (config['transformers.js_config'] ?? {}) as { dtype?: unknown };
  const wanted = dtype ?? (typeof jsConfig.dtype === 'string' ? jsConfig.dtype : undefined);
  const chosen = wanted && wanted in DTYPE_SUFFIX && has(wanted) ? wanted : DTYPE_PREFERENCE.find(has);
  if (!chosen) return null;
  const suffix = DTYPE_SUFFIX[chosen]!;
  const graphs = onnxFiles.filter((f) =>
    GRAPH_NAMES.some((g) => f === `${g}${suffix}.onnx` || f.startsWith(`${g}${suffix}.onnx_data`)),
  );
  const top = (await fs.readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && !e.name.startsWith('.') && /\.(json|txt|model|jinja)$/.test(e.name))
    .map((e) => e.name);
  const files = [...top, ...graphs.map((g) => `onnx/${g}`)];
  let bytes = 0;
  for (const f of files) bytes += await statSize(path.join(dir, f));
  let hasChatTemplate = false;
  try {
    const tc = JSON.parse(await fs.readFile(path.join(dir, 'tokenizer_config.json'), 'utf8')) as { chat_template?: unknown };
    hasChatTemplate = !!tc.chat_template || top.includes('chat_template.jinja');
  } catch {
    /* no tokenizer config */
  }
  const maxPositions = typeof config.max_position_embeddings === 'number' ? config.max_position_embeddings : undefined;
  return { name: path.basename(dir), dir, usage: usageFromConfig(config), dtype: chosen, files, bytes, config, maxPositions, hasChatTemplate };
}

/** Every model folder directly inside `root` (unreadable or non-model folders are skipped). */
export async function scanModelsDir(root: string): Promise<FolderFacts[]> {
  let entries: string[];
  try {
    entries = (await fs.readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
  const out: FolderFacts[] = [];
  for (const name of entries.sort()) {
    const facts = (await inspectFolder(path.join(root, name))) ?? (await inspectStaticFolder(path.join(root, name)));
    if (facts && facts.usage !== 'UNKNOWN') out.push(facts);
  }
  return out;
}

/** Total size of the regular files under a folder (0 when absent). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += await statSize(p);
  }
  return total;
}

/** The weights file of a static (model2vec) folder: the name askcode ships, else model2vec's own. */
export const STATIC_WEIGHTS = ['embeddings.safetensors', 'model.safetensors'];

/**
 * Reads a static-embedding (model2vec) folder: config.json saying `model_type: model2vec` (or a
 * StaticModel architecture), or tokenizer.json beside a weights file and no onnx/. dtype 'static'.
 * Files may still be broken: loading says which.
 */
export async function inspectStaticFolder(dir: string): Promise<FolderFacts | null> {
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(await fs.readFile(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    /* missing or broken: decided by the files below */
  }
  const present = async (f: string) => (await fs.stat(path.join(dir, f)).catch(() => null))?.isFile() ?? false;
  const weights = [];
  for (const w of STATIC_WEIGHTS) if (await present(w)) weights.push(w);
  const declared = config.model_type === 'model2vec' || (Array.isArray(config.architectures) && config.architectures.includes('StaticModel'));
  if (!declared && !(weights.length && (await present('tokenizer.json')) && !(await present('onnx')))) return null;
  if (!declared && (await fs.stat(path.join(dir, 'onnx')).catch(() => null))) return null;
  const files: string[] = [];
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', ...weights.slice(0, 1)]) if (await present(f)) files.push(f);
  let bytes = 0;
  for (const f of files) bytes += await statSize(path.join(dir, f));
  return { name: path.basename(dir), dir, usage: 'TEXT_EMBEDDING', dtype: 'static', files, bytes, config, hasChatTemplate: false };
}
