/**
 * Static (model2vec-format) embeddings without onnxruntime: a sentence vector is the mean of its
 * tokens' rows of one matrix, L2-normalised. A folder holds
 *   - `embeddings.safetensors` (model2vec names it `model.safetensors`; either is read): tensor `embeddings` [vocab, dims] in F32, F16 or I8. I8 rows are
 *     multiplied by `scales` (F32, [vocab] per row or [1] global; absent: 1). Optional as in
 *     model2vec: `weights` [vocab] (a factor per token) and `mapping` [vocab] (I32/I64, token id →
 *     row, for a quantised vocabulary).
 *   - `tokenizer.json` (any Hugging Face tokenizer; read by @huggingface/tokenizers, no network)
 *     and `config.json` (`normalize`, default true; `max_length` in tokens, default 512).
 * Tokens are encoded without special tokens and the unknown token is dropped, as model2vec does.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Embedder } from '../core/interfaces';
import { cancelled, unavailable } from '../core/errors';
import { STATIC_WEIGHTS } from './folders';
import { FastWordPiece } from './fastWordPiece';


export interface SafeTensor {
  dtype: string;
  shape: number[];
  /** The raw little-endian bytes (a view into the file's buffer). */
  bytes: Uint8Array;
}

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

/** Parses a safetensors file: 8-byte little-endian header length, JSON header, raw tensor bytes. */
export function parseSafetensors(buf: Uint8Array, name = 'safetensors file'): Map<string, SafeTensor> {
  const bad = (why: string) => unavailable(`${name} is not a valid safetensors file: ${why}`);
  if (buf.length < 8) throw bad('shorter than its 8-byte header length');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const len = Number(view.getBigUint64(0, true));
  if (len <= 1 || 8 + len > buf.length) throw bad(`header length ${len} does not fit in ${buf.length} bytes`);
  let header: Record<string, { dtype?: string; shape?: number[]; data_offsets?: [number, number] }>;
  try {
    header = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + 8, len).toString('utf8'));
  } catch {
    throw bad('its header is not JSON');
  }
  if (!header || typeof header !== 'object') throw bad('its header is not an object');
  const base = 8 + len;
  const out = new Map<string, SafeTensor>();
  for (const [key, t] of Object.entries(header)) {
    if (key === '__metadata__') continue;
    const size = DTYPE_BYTES[t?.dtype ?? ''];
    if (!size) throw bad(`tensor ${key} has unsupported dtype ${t?.dtype}`);
    if (!Array.isArray(t.shape) || !t.shape.every((d) => Number.isInteger(d) && d >= 0)) throw bad(`tensor ${key} has no valid shape`);
    const [a, b] = t.data_offsets ?? [];
    const count = t.shape.reduce((x, y) => x * y, 1);
    if (!Number.isInteger(a) || !Number.isInteger(b) || b! - a! !== count * size || base + b! > buf.length) {
      throw bad(`tensor ${key} (${t.dtype} ${JSON.stringify(t.shape)}) does not fit its data offsets`);
    }
    out.set(key, { dtype: t.dtype!, shape: t.shape, bytes: buf.subarray(base + a!, base + b!) });
  }
  return out;
}

function f16ToF32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

/** A tensor's values as numbers (copied out: the bytes need not be aligned). */
function toFloat32(t: SafeTensor): Float32Array<ArrayBuffer> {
  const n = t.shape.reduce((x, y) => x * y, 1);
  const out = new Float32Array(n);
  const v = new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  // Whole-array copies where a typed view can be laid on the bytes (int8 always; float32 when aligned).
  if (t.dtype === 'I8') {
    out.set(new Int8Array(t.bytes.buffer, t.bytes.byteOffset, n));
    return out;
  }
  if (t.dtype === 'F32' && t.bytes.byteOffset % 4 === 0 && isLittleEndian()) {
    out.set(new Float32Array(t.bytes.buffer, t.bytes.byteOffset, n));
    return out;
  }
  switch (t.dtype) {
    case 'F32': for (let i = 0; i < n; i++) out[i] = v.getFloat32(i * 4, true); break;
    case 'F64': for (let i = 0; i < n; i++) out[i] = v.getFloat64(i * 8, true); break;
    case 'F16': for (let i = 0; i < n; i++) out[i] = f16ToF32(v.getUint16(i * 2, true)); break;
    case 'BF16': for (let i = 0; i < n; i++) out[i] = new Float32Array(new Uint32Array([v.getUint16(i * 2, true) << 16]).buffer)[0]!; break;
    case 'I8': for (let i = 0; i < n; i++) out[i] = v.getInt8(i); break;
    case 'U8': for (let i = 0; i < n; i++) out[i] = v.getUint8(i); break;
    case 'I32': for (let i = 0; i < n; i++) out[i] = v.getInt32(i * 4, true); break;
    case 'I64': for (let i = 0; i < n; i++) out[i] = Number(v.getBigInt64(i * 8, true)); break;
    default: throw unavailable(`tensor dtype ${t.dtype} cannot be read as numbers`);
  }
  return out;
}

export interface StaticConfig {
  normalize?: boolean;
  max_length?: number;
}

/** Sentence embeddings from a static token matrix (model2vec format). */
export class StaticEmbedder implements Embedder {
  private disposed = false;

  private constructor(
    readonly modelId: string,
    readonly dims: number,
    private readonly tokenizer: Tokenizer,
    /**
     * Every row as float32, scales and weights applied, in one typed array: int8 rows are widened
     * at load (30k × 256 → 31 MB) because pooling then costs a float add per value, half the time
     * of scaling int8 on the fly.
     */
    private readonly mat: Float32Array,
    private readonly rows: number,
    private readonly mapping: Int32Array | null,
    private readonly unkId: number | undefined,
    private readonly normalize: boolean,
    readonly maxTokens: number,
    private readonly fast: FastWordPiece | null,
    readonly version: string,
  ) {}

  /** Loads a folder; a missing or malformed file is an `unavailable` error that names it. */
  static async load(modelId: string, dir: string): Promise<StaticEmbedder> {
    const read = async (f: string): Promise<Buffer> => {
      try {
        return await fs.readFile(path.join(dir, f));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw unavailable(`static embedding model ${dir}: ${f} ${code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? (e as Error).message})`}`);
      }
    };
    const json = async (f: string, optional = false): Promise<Record<string, unknown>> => {
      if (optional && !(await fs.stat(path.join(dir, f)).catch(() => null))) return {};
      try {
        const v = JSON.parse((await read(f)).toString('utf8')) as unknown;
        if (!v || typeof v !== 'object') throw new Error('not an object');
        return v as Record<string, unknown>;
      } catch (e) {
        if ((e as { kind?: string }).kind) throw e;
        throw unavailable(`static embedding model ${dir}: ${f} is not valid JSON`);
      }
    };
    const config = (await json('config.json')) as StaticConfig;
    const tokJson = await json('tokenizer.json');
    const tokConfig = await json('tokenizer_config.json', true);
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(tokJson, tokConfig);
    } catch (e) {
      throw unavailable(`static embedding model ${dir}: tokenizer.json cannot be used (${(e as Error).message})`);
    }
    // askcode's own name first, then model2vec's (a folder downloaded from the hub).
    let weights = STATIC_WEIGHTS[0]!;
    for (const w of STATIC_WEIGHTS) {
      if (await fs.stat(path.join(dir, w)).catch(() => null)) {
        weights = w;
        break;
      }
    }
    const weightBytes = await read(weights);
    const tensors = parseSafetensors(weightBytes, path.join(dir, weights));
    const emb = tensors.get('embeddings') ?? (tensors.size === 1 ? [...tensors.values()][0] : undefined);
    if (!emb || emb.shape.length !== 2) throw unavailable(`static embedding model ${dir}: ${weights} has no 2-D 'embeddings' tensor`);
    const [rows, dims] = emb.shape as [number, number];
    if (!rows || !dims) throw unavailable(`static embedding model ${dir}: the embeddings tensor is empty`);
    const mat = toFloat32(emb);
    let scales: Float32Array<ArrayBuffer> = new Float32Array(rows).fill(1);
    if (emb.dtype === 'I8') {
      const s = tensors.get('scales');
      if (s) {
        const sv = toFloat32(s);
        if (sv.length === rows) scales = sv;
        else if (sv.length === 1) scales.fill(sv[0]!);
        else throw unavailable(`static embedding model ${dir}: 'scales' has ${sv.length} values for ${rows} rows`);
      }
    }
    const w = tensors.get('weights');
    if (w) {
      const wv = toFloat32(w);
      if (wv.length !== rows) throw unavailable(`static embedding model ${dir}: 'weights' has ${wv.length} values for ${rows} rows`);
      for (let r = 0; r < rows; r++) scales[r]! *= wv[r]!;
    }
    for (let r = 0; r < rows; r++) {
      const f = scales[r]!;
      if (f !== 1) for (let k = 0; k < dims; k++) mat[r * dims + k]! *= f;
    }
    const m = tensors.get('mapping');
    const mapping = m ? Int32Array.from(toFloat32(m)) : null;
    if (mapping && mapping.some((r) => r < 0 || r >= rows)) throw unavailable(`static embedding model ${dir}: 'mapping' points outside the ${rows} rows`);
    let maxId = -1;
    for (const id of tokenizer.get_vocab(true).values()) if (id > maxId) maxId = id;
    const width = mapping ? mapping.length : rows;
    if (maxId >= width) throw unavailable(`static embedding model ${dir}: the tokenizer has token ids up to ${maxId} but the matrix only ${width} rows`);
    const unkToken = (tokJson.model as { unk_token?: string } | undefined)?.unk_token;
    const unkId = unkToken ? tokenizer.token_to_id(unkToken) : undefined;
    const maxTokens = typeof config.max_length === 'number' && config.max_length > 0 ? config.max_length : 512;
    // The weights and the vocabulary decide every vector (a few milliseconds for 8 MB).
    const version = createHash('sha256').update(weightBytes).update(JSON.stringify(tokJson.model ?? {})).digest('hex').slice(0, 16);
    return new StaticEmbedder(modelId, dims, tokenizer, mat, rows, mapping, unkId, config.normalize !== false, maxTokens, FastWordPiece.from(tokJson), version);
  }

  /** Token ids as embedded: no special tokens, no unknown token, at most `maxTokens`. */
  tokenIds(text: string): number[] {
    // Texts are cut before tokenizing (a token is rarely under 2 characters of code), so one
    // huge chunk costs no more than a normal one.
    const ids = this.encode(text.length > this.maxTokens * 8 ? text.slice(0, this.maxTokens * 8) : text);
    const out: number[] = [];
    for (const id of ids) {
      if (id === this.unkId) continue;
      out.push(id);
      if (out.length >= this.maxTokens) break;
    }
    return out;
  }

  countTokens(text: string): number {
    return this.encode(text).length;
  }

  /** All token ids, without special tokens (the fast path where it applies, else the library). */
  encode(text: string): number[] {
    return this.fast?.encode(text, this.libraryEncode) ?? this.libraryEncode(text);
  }

  /** The library's ids, for checking the fast path. */
  readonly libraryEncode = (text: string): number[] => this.tokenizer.encode(text, { add_special_tokens: false }).ids;

  /** Occurrences per row of the text being embedded (reused: one text at a time). */
  private counts = new Float32Array(0);

  /** The vector of one text (zero vector when no token is known). */
  embedOne(text: string): Float32Array {
    const d = this.dims;
    // Summed in float64: four rows per pass over the sum halve the time of one row at a time.
    const acc = new Float64Array(d);
    const ids = this.tokenIds(text);
    if (this.counts.length !== this.rows) this.counts = new Float32Array(this.rows);
    const counts = this.counts;
    // Code repeats its tokens: each distinct row is added once, times its count.
    const distinct: number[] = [];
    for (const id of ids) {
      const r = this.mapping ? this.mapping[id]! : id;
      if (r === undefined || r >= this.rows) continue;
      if (counts[r] === 0) distinct.push(r);
      counts[r]!++;
    }
    const m = this.mat;
    let j = 0;
    for (; j + 3 < distinct.length; j += 4) {
      const r0 = distinct[j]!;
      const r1 = distinct[j + 1]!;
      const r2 = distinct[j + 2]!;
      const r3 = distinct[j + 3]!;
      const c0 = counts[r0]!;
      const c1 = counts[r1]!;
      const c2 = counts[r2]!;
      const c3 = counts[r3]!;
      counts[r0] = counts[r1] = counts[r2] = counts[r3] = 0;
      const o0 = r0 * d;
      const o1 = r1 * d;
      const o2 = r2 * d;
      const o3 = r3 * d;
      for (let k = 0; k < d; k++) acc[k]! += c0 * m[o0 + k]! + c1 * m[o1 + k]! + c2 * m[o2 + k]! + c3 * m[o3 + k]!;
    }
    for (; j < distinct.length; j++) {
      const r = distinct[j]!;
      const c = counts[r]!;
      counts[r] = 0;
      const o = r * d;
      for (let k = 0; k < d; k++) acc[k]! += c * m[o + k]!;
    }
    let norm = 0;
    for (let k = 0; k < d; k++) norm += acc[k]! * acc[k]!;
    // Mean then normalise = normalise the sum; without normalisation the mean is what model2vec returns.
    const div = this.normalize ? Math.sqrt(norm) : ids.length;
    const out = new Float32Array(d);
    if (div > 0) for (let k = 0; k < d; k++) out[k] = acc[k]! / div;
    return out;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.disposed) throw new Error('the embedding model was unloaded');
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      // Thousands of texts a second: yield now and then so a query is not held behind a batch.
      if (i % 256 === 255) {
        if (signal?.aborted) throw cancelled('embedding cancelled');
        await new Promise((r) => setImmediate(r));
      }
      out.push(this.embedOne(texts[i]!));
    }
    return out;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}
