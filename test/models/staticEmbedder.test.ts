/**
 * The model2vec-format loader on tiny models the test writes (F32, F16, I8 + scales): known rows
 * in, known vectors and ranking out; broken folders give errors that name the file.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StaticEmbedder, parseSafetensors } from '../../server/src/models/staticEmbedder';
import { AskcodeError } from '../../server/src/core/errors';
import { bundledModelDir } from '../../server/src/models/bundled';
import { ASKCODE_STATIC_FOLDER } from '../../server/src/models/catalog';
import { tempDir } from './fixtures';
import { writeStaticModel, type StaticDtype } from './staticModel';

const VOCAB = ['[UNK]', 'parse', '##r', 'config', 'file', 'socket', 'send', 'load', '##s'];
// 4 dims: parse/config/file/load lean on axes 0–1, socket/send on axes 2–3.
const ROWS = [
  [0, 0, 0, 0],
  [1, 0.2, 0, 0],
  [0.5, 0.5, 0, 0],
  [0.2, 1, 0, 0],
  [0.3, 0.8, 0.1, 0],
  [0, 0, 1, 0.3],
  [0, 0.1, 0.4, 1],
  [0.9, 0.6, 0, 0],
  [0.1, 0.1, 0.1, 0.1],
];

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

function expected(tokens: number[]): number[] {
  const sum = [0, 0, 0, 0];
  for (const t of tokens) ROWS[t]!.forEach((x, k) => (sum[k]! += x));
  const n = Math.hypot(...sum);
  return sum.map((x) => x / n);
}

describe('static embeddings (model2vec format)', () => {
  let root: string;
  before(() => (root = tempDir('static')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const [dtype, tol] of [['F32', 1e-6], ['F16', 2e-3], ['I8', 1e-2]] as [StaticDtype, number][]) {
    it(`${dtype}: the mean of the token rows, unit length, unknown words dropped`, async () => {
      const dir = writeStaticModel(path.join(root, dtype), VOCAB, ROWS, dtype);
      const e = await StaticEmbedder.load('tiny', dir);
      assert.equal(e.dims, 4);
      // "Parsers" → parse ##r ##s (WordPiece, lower-cased); "zzz" is unknown and ignored.
      assert.deepEqual(e.tokenIds('Parsers zzz config'), [1, 2, 8, 3]);
      const [v] = await e.embed(['Parsers zzz config']);
      const want = expected([1, 2, 8, 3]);
      v!.forEach((x, k) => assert.ok(Math.abs(x - want[k]!) < tol, `dim ${k}: ${x} vs ${want[k]}`));
      assert.ok(Math.abs(norm(v!) - 1) < 1e-5);
      // No known token: a zero vector, not NaN.
      const [z] = await e.embed(['qqq']);
      assert.deepEqual([...z!], [0, 0, 0, 0]);
    });
  }

  it('ranks texts by meaning: a config query finds the config loader, not the socket code', async () => {
    const e = await StaticEmbedder.load('tiny', writeStaticModel(path.join(root, 'rank'), VOCAB, ROWS, 'I8'));
    const docs = ['send(socket, data)', 'load config file', 'parser for file'];
    const vs = await e.embed(docs);
    const [q] = await e.embed(['config loading']);
    const order = vs.map((v, i) => ({ i, s: dot(q!, v) })).sort((a, b) => b.s - a.s).map((x) => docs[x.i]);
    assert.deepEqual(order, ['load config file', 'parser for file', 'send(socket, data)']);
    assert.equal(e.countTokens('load config file'), 3);
  });

  it('a missing or malformed file is an unavailable error naming the file', async () => {
    const base = writeStaticModel(path.join(root, 'ok'), VOCAB, ROWS);
    const broken = async (name: string, mutate: (dir: string) => void, re: RegExp) => {
      const dir = path.join(root, name);
      fs.cpSync(base, dir, { recursive: true });
      mutate(dir);
      await assert.rejects(StaticEmbedder.load('x', dir), (err: unknown) => {
        assert.ok(err instanceof AskcodeError, String(err));
        assert.equal(err.kind, 'unavailable');
        assert.match(err.message, re);
        return true;
      });
    };
    await broken('no-tok', (d) => fs.rmSync(path.join(d, 'tokenizer.json')), /tokenizer\.json is missing/);
    await broken('no-emb', (d) => fs.rmSync(path.join(d, 'embeddings.safetensors')), /embeddings\.safetensors is missing/);
    await broken('cut', (d) => {
      const f = path.join(d, 'embeddings.safetensors');
      fs.writeFileSync(f, fs.readFileSync(f).subarray(0, 90));
    }, /not a valid safetensors file/);
    await broken('junk', (d) => fs.writeFileSync(path.join(d, 'embeddings.safetensors'), 'hello, not tensors at all'), /not a valid safetensors file/);
    await broken('badcfg', (d) => fs.writeFileSync(path.join(d, 'config.json'), '{nope'), /config\.json is not valid JSON/);
    await broken('short', (d) => {
      // A tokenizer with more tokens than the matrix has rows.
      const t = JSON.parse(fs.readFileSync(path.join(d, 'tokenizer.json'), 'utf8'));
      t.model.vocab.extra = 99;
      fs.writeFileSync(path.join(d, 'tokenizer.json'), JSON.stringify(t));
    }, /token ids up to 99 but the matrix only 9 rows/);
  });

  it('parseSafetensors rejects offsets that do not match the shape', () => {
    const header = JSON.stringify({ embeddings: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 12] } });
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(header.length));
    assert.throws(() => parseSafetensors(Buffer.concat([len, Buffer.from(header), Buffer.alloc(16)])), /does not fit its data offsets/);
  });
});

describe('the static code model askcode ships (models/askcode-code-static)', () => {
  it('loads, embeds to unit vectors of its dims, and puts related code closer than unrelated', async () => {
    const dir = bundledModelDir(ASKCODE_STATIC_FOLDER);
    assert.ok(dir, 'the model folder is in the package');
    const e = await StaticEmbedder.load('shipped', dir);
    assert.equal(e.dims, 256);
    const [q, near, far, doc] = await e.embed([
      'how are configuration values loaded from environment variables?',
      'def load_config_from_env(prefix):\n    """Read settings from os.environ."""\n    return {k[len(prefix):]: v for k, v in os.environ.items() if k.startswith(prefix)}',
      'function drawCircle(ctx, x, y, r) {\n  ctx.beginPath();\n  ctx.arc(x, y, r, 0, 2 * Math.PI);\n  ctx.stroke();\n}',
      'export async function readJsonFile(path: string) { return JSON.parse(await fs.readFile(path, "utf8")); }',
    ]);
    for (const v of [q, near, far, doc]) assert.ok(Math.abs(norm(v!) - 1) < 1e-5);
    assert.ok(dot(q!, near!) > dot(q!, far!) + 0.1, `config query: env loader ${dot(q!, near!).toFixed(3)} vs canvas ${dot(q!, far!).toFixed(3)}`);
    const [q2] = await e.embed(['parse a JSON file from disk']);
    assert.ok(dot(q2!, doc!) > dot(q2!, far!) + 0.1, `json query: reader ${dot(q2!, doc!).toFixed(3)} vs canvas ${dot(q2!, far!).toFixed(3)}`);
    // Identifiers are cut on case into known pieces, never dropped as unknown.
    assert.ok(e.tokenIds('handleHttpRequestError').length >= 1 && e.tokenIds('handleHttpRequestError').length <= 4);
  });
});

describe('the fast WordPiece path', () => {
  it('gives exactly the ids of @huggingface/tokenizers on real code, prose and edge cases', async () => {
    const e = await StaticEmbedder.load('shipped', bundledModelDir(ASKCODE_STATIC_FOLDER)!);
    const texts: string[] = [];
    const walk = (dir: string) => {
      for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, f.name);
        if (f.isDirectory()) walk(p);
        else if (/\.(ts|md|json)$/.test(f.name)) texts.push(...fs.readFileSync(p, 'utf8').split(/\n\s*\n/));
      }
    };
    walk(path.resolve(__dirname, '..', '..', 'server', 'src'));
    texts.push('', '   ', 'a'.repeat(150), 'x'.repeat(100), 'tab\there\r\nCRLF', 'ctrl\u0001joined', 'DEL\u007fchar', 'naïve café', '日本語 code', 'literal [PAD] and [UNK] tokens',
      'snake_case_name CamelCaseName HTTPServer2 utf8 v1.2.3 0x1F __dunder__ $jq @decorator #hash ~tilde `tick`', 'ALLCAPS MiXeD', '\u00a0nbsp',
      // Non-ASCII runs go to the library one by one, inside ASCII code on the fast path.
      'const café = naïveValue(x) // Grüße, ÉCOLE', 'x.trim()…\n  return "日本語テキスト" + tail;', 'zero\u200bwidth join and emoji 🚀 in `msg_🚀_id`',
      'a\u0001b ünï\u0001cödé\tTAB', 'en–dash — em dash «quotes» ½ ①', 'ascii then ß\n', 'ß', ' Ωmega Ω\u00a0Ω ');
    let fast = 0;
    for (const t of texts) {
      assert.deepEqual(e.encode(t), e.libraryEncode(t), `same ids for ${JSON.stringify(t.slice(0, 80))}`);
      if (!/\[(PAD|UNK)\]/.test(t)) fast++;
    }
    assert.ok(texts.length > 500 && fast > texts.length * 0.9, `${fast} of ${texts.length} texts on the fast path`);
  });
});
