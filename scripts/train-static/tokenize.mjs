// Tokenizes pairs.jsonl with the very library and settings the extension embeds with
// (@huggingface/tokenizers, no special tokens, unknown token dropped, texts cut to 512 tokens),
// so training sees exactly the ids the product will. Writes <data>/ids.bin: Int32 records
// [nlLen, codeLen, ...nlIds, ...codeIds], and <data>/repos.json (the repo of each pair).
// Usage: node tokenize.mjs --data DIR --model MODEL_DIR
import { readFileSync, writeFileSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import * as path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';

const arg = (k) => process.argv[process.argv.indexOf(k) + 1];
const data = arg('--data');
const model = arg('--model');
const tokJson = JSON.parse(readFileSync(path.join(model, 'tokenizer.json'), 'utf8'));
const tok = new Tokenizer(tokJson, {});
const unk = tok.token_to_id(tokJson.model.unk_token);
const MAX = 512;
const ids = (t) => {
  const all = tok.encode(t.length > MAX * 8 ? t.slice(0, MAX * 8) : t, { add_special_tokens: false }).ids;
  const out = [];
  for (const id of all) {
    if (id === unk) continue;
    out.push(id);
    if (out.length >= MAX) break;
  }
  return out;
};

const chunks = [];
const repos = [];
let n = 0;
let tokens = 0;
const t0 = Date.now();
const rl = createInterface({ input: createReadStream(path.join(data, 'pairs.jsonl')), crlfDelay: Infinity });
for await (const line of rl) {
  if (!line) continue;
  const r = JSON.parse(line);
  const a = ids(r.nl);
  const b = ids(r.code);
  const rec = new Int32Array(2 + a.length + b.length);
  rec[0] = a.length;
  rec[1] = b.length;
  rec.set(a, 2);
  rec.set(b, 2 + a.length);
  chunks.push(rec);
  repos.push(`${r.repo}:${r.kind}`);
  n++;
  tokens += a.length + b.length;
}
const total = chunks.reduce((s, c) => s + c.length, 0);
const flat = new Int32Array(total);
let at = 0;
for (const c of chunks) {
  flat.set(c, at);
  at += c.length;
}
writeFileSync(path.join(data, 'ids.bin'), Buffer.from(flat.buffer));
writeFileSync(path.join(data, 'repos.json'), JSON.stringify(repos));
const s = (Date.now() - t0) / 1000;
console.error(`${n} pairs, ${tokens} tokens in ${s.toFixed(1)} s (${Math.round((2 * n) / s)} texts/s)`);
