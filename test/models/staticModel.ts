/** Writes small model2vec-format folders (safetensors + tokenizer.json + config.json) for tests. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type StaticDtype = 'F32' | 'F16' | 'I8';

function f32ToF16(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = u & 0x7fffff;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | Math.round(mant / 8192);
}

/** A safetensors file: 8-byte LE header length, JSON header, tensors back to back. */
export function safetensors(tensors: { name: string; dtype: string; shape: number[]; data: Uint8Array }[]): Buffer {
  const header: Record<string, unknown> = {};
  let off = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [off, off + t.data.length] };
    off += t.data.length;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8) json += ' ';
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, Buffer.from(json), ...tensors.map((t) => Buffer.from(t.data))]);
}

export function wordPieceTokenizer(vocab: string[]): Record<string, unknown> {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])) },
  };
}

/**
 * A model whose token `vocab[i]` has row `rows[i]` (vocab[0] must be `[UNK]`), stored as `dtype`;
 * I8 stores per-row scales so the rows come back within 1/127 of their largest value.
 */
export function writeStaticModel(dir: string, vocab: string[], rows: number[][], dtype: StaticDtype = 'F32'): string {
  fs.mkdirSync(dir, { recursive: true });
  const dims = rows[0]!.length;
  const flat = rows.flat();
  const tensors: { name: string; dtype: string; shape: number[]; data: Uint8Array }[] = [];
  if (dtype === 'F32') tensors.push({ name: 'embeddings', dtype, shape: [rows.length, dims], data: new Uint8Array(Float32Array.from(flat).buffer) });
  else if (dtype === 'F16') tensors.push({ name: 'embeddings', dtype, shape: [rows.length, dims], data: new Uint8Array(Uint16Array.from(flat.map(f32ToF16)).buffer) });
  else {
    const scales = rows.map((r) => Math.max(1e-12, ...r.map(Math.abs)) / 127);
    const q = Int8Array.from(rows.flatMap((r, i) => r.map((x) => Math.round(x / scales[i]!))));
    tensors.push({ name: 'embeddings', dtype: 'I8', shape: [rows.length, dims], data: new Uint8Array(q.buffer) });
    tensors.push({ name: 'scales', dtype: 'F32', shape: [rows.length], data: new Uint8Array(Float32Array.from(scales).buffer) });
  }
  fs.writeFileSync(path.join(dir, 'embeddings.safetensors'), safetensors(tensors));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizer(vocab)));
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'model2vec', architectures: ['StaticModel'], hidden_dim: dims, normalize: true }));
  return dir;
}
