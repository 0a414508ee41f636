/**
 * Dense retrieval joined to BM25: the fusion keeps each signal's score and rank, a static model
 * made by the test drives the real core's hybrid search, and a broken model leaves search on
 * BM25 with one clear warning.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger, type Logger } from '../../server/src/core/logger';
import { QgptRelevance } from '../../server/src/protocol/qgpt';
import { fuse } from '../../server/src/index/fusion';
import { SearchEngine, type ChunkRecord } from '../../server/src/index/searchEngine';
import { tempDir } from '../models/fixtures';
import { writeStaticModel } from '../models/staticModel';

// A 4-dim toy meaning: config words on axis 0, network words on axis 1, errors on axis 2.
const VOCAB = ['[UNK]', 'settings', 'config', 'environment', 'socket', 'network', 'send', 'error', 'exception', 'load', 'read'];
const ROWS = [
  [0, 0, 0, 0.01], [1, 0, 0, 0], [1, 0, 0, 0], [0.9, 0, 0.1, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0.9, 0, 0.1],
  [0, 0, 1, 0], [0, 0, 1, 0], [0.3, 0, 0, 0.3], [0.2, 0, 0, 0.3],
];

/** A chunk of `file` (lines start to start + 2) whose content hash is `hash`. */
const rec = (file: string, text: string, hash: string, start = 1): ChunkRecord => ({
  id: `${file}:${hash}:${start}`, file, rel: file, startLine: start, endLine: start + 2, text, hash, language: 'python', ext: '.py', code: true,
});

function repo(dir: string): string {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'settings.py'), 'def load_settings(path):\n    """Read the environment settings."""\n    return read(path)\n');
  fs.writeFileSync(path.join(dir, 'src', 'net.py'), 'def send_packet(socket, data):\n    """Send over the network socket."""\n    socket.send(data)\n');
  fs.writeFileSync(path.join(dir, 'src', 'errors.py'), 'class AppError(Exception):\n    """An error of the app."""\n');
  return dir;
}

describe('hybrid search (BM25 + static embeddings)', function () {
  this.timeout(120_000);

  it('fusion keeps each signal\'s rank; rerank brings no file the lexical side lacks', () => {
    const lex = [0, 3, 2, 0.5];
    const sim = [0.1, 0.2, 0.9, 0.8];
    const input = { lexFiles: [1, 2, 3], lex, denseFiles: [2, 3, 0], sim, denseFactor: () => 1, nFiles: 4 };
    const rrf = fuse(input, { fusion: 'rrf', rrfK: 20, denseW: 1, rerankK: 30 });
    assert.deepEqual(rrf.files, [2, 3, 1, 0]);
    assert.deepEqual([...rrf.lexRank], [0, 1, 2, 3]);
    assert.deepEqual([...rrf.denseRank], [3, 0, 1, 2]);
    const rr = fuse(input, { fusion: 'rerank', rrfK: 20, denseW: 1, rerankK: 2 });
    assert.deepEqual(rr.files, [2, 1, 3], 'file 0 is dense-only: rerank leaves it out; file 3 stays below the re-ranked head');
    const off = fuse(input, { fusion: 'score', rrfK: 20, denseW: 0, rerankK: 30 });
    assert.deepEqual(off.files, [1, 2, 3], 'denseW 0 is the lexical order');
  });

  it('a small difference in similarity among few files is not the whole dense range (denseSpanMin)', () => {
    // Two files: the lexical best (0) defines what the question names, the other (1) is a little
    // closer in meaning. Scaled from 1 down to 0, that little difference outweighs the words.
    const input = { lexFiles: [0, 1], lex: [1, 0.8], denseFiles: [1, 0], sim: [0.5, 0.55], denseFactor: () => 1, nFiles: 2 };
    const raw = fuse(input, { fusion: 'score', rrfK: 20, denseW: 0.35, rerankK: 30, denseSpanMin: 0 });
    assert.deepEqual(raw.files, [1, 0]);
    const floored = fuse(input, { fusion: 'score', rrfK: 20, denseW: 0.35, rerankK: 30, denseSpanMin: 0.15 });
    assert.deepEqual(floored.files, [0, 1]);
    assert.ok(Math.abs(floored.score[1]! - (0.8 + 0.35)) < 1e-9, 'the dense best still counts in full');
    assert.ok(Math.abs(floored.score[0]! - (1 + 0.35 * (1 - 0.05 / 0.15))) < 1e-9, String(floored.score[0]));
  });

  it('every hit carries its BM25 and dense score and rank', () => {
    const e = new SearchEngine();
    e.setFile('a.py', 'a.py', [rec('a.py', 'def load_settings(): read environment settings', 'ha')]);
    e.setFile('b.py', 'b.py', [rec('b.py', 'def send(): network socket', 'hb')]);
    e.setVector('ha', Float32Array.from([1, 0, 0, 0]));
    e.setVector('hb', Float32Array.from([0, 1, 0, 0]));
    // A third, unrelated file: the dense scores are scaled between the best and the worst file.
    e.setFile('c.py', 'c.py', [rec('c.py', 'class Unrelated: pass', 'hc')]);
    e.setVector('hc', Float32Array.from([0, 0, 1, 0]));
    const { hits } = e.search('settings', { queryVector: Float32Array.from([0.8, 0.6, 0, 0]) });
    const a = hits.find((h) => h.chunk.rel === 'a.py')!;
    const b = hits.find((h) => h.chunk.rel === 'b.py')!;
    assert.ok(a.bm25! > 0 && a.bm25Rank === 1 && a.denseRank === 1 && Math.abs(a.dense! - 0.8) < 1e-6, JSON.stringify(a));
    assert.ok(b.bm25 === undefined && b.bm25Rank === undefined && b.denseRank === 2 && Math.abs(b.dense! - 0.6) < 1e-6, JSON.stringify(b));
    assert.equal(hits[0]!.chunk.rel, 'a.py');
  });

  it('a question in prose weighs the dense signal by questionDenseW; one that names code, a commit message or an issue by denseW', () => {
    const e = new SearchEngine();
    // a.py has the words, b.py the meaning (the query vector), c.py neither.
    e.setFile('a.py', 'a.py', [rec('a.py', 'def read_settings(): settings are read here', 'ha')]);
    e.setFile('b.py', 'b.py', [rec('b.py', 'def load_environment(): os.environ', 'hb')]);
    e.setFile('c.py', 'c.py', [rec('c.py', 'class Unrelated: pass', 'hc')]);
    e.setVector('ha', Float32Array.from([0, 0, 1, 0]));
    e.setVector('hb', Float32Array.from([1, 0, 0, 0]));
    e.setVector('hc', Float32Array.from([0, 1, 0, 0]));
    const queryVector = Float32Array.from([1, 0, 0, 0]);
    const first = (text: string, params: { denseW: number; questionDenseW: number }) =>
      e.search(text, { queryVector, params: { fusion: 'score', ...params } }).hits[0]!.chunk.rel;
    assert.equal(first('where are settings read?', { denseW: 0, questionDenseW: 2 }), 'b.py');
    assert.equal(first('read settings', { denseW: 0, questionDenseW: 2 }), 'a.py');
    assert.equal(first('where are settings read?', { denseW: 2, questionDenseW: 0 }), 'a.py');
    assert.equal(first('read settings', { denseW: 2, questionDenseW: 0 }), 'b.py');
    // A question that spells out initials the code uses is answered by its words: it keeps denseW.
    e.setFile('a.py', 'a.py', [rec('a.py', 'def hmr_update(): send the hmr update', 'ha')]);
    assert.equal(first('how does hot module replacement work?', { denseW: 0, questionDenseW: 2 }), 'a.py');
    assert.equal(first('how does hot module replacement work?', { denseW: 2, questionDenseW: 0 }), 'b.py');
  });

  it('vectors are stored once per content: kept through an edit, shared by copies, back after a restore', () => {
    const e = new SearchEngine();
    const q = Float32Array.from([1, 0, 0, 0]);
    const denseOf = (rel: string) => e.search('zzz', { queryVector: q }).hits.find((h) => h.chunk.rel === rel)?.dense;
    e.setFile('a.py', 'a.py', [rec('a.py', 'def one(): pass', 'h1'), rec('a.py', 'def two(): pass', 'h2', 5)]);
    e.setVector('h1', Float32Array.from([1, 0, 0, 0]));
    e.setVector('h2', Float32Array.from([0, 1, 0, 0]));
    assert.equal(e.vectorCount, 2);
    // An edit that keeps one chunk: its vector stays, the new chunk has none until embedded.
    e.setFile('a.py', 'a.py', [rec('a.py', 'def one(): pass', 'h1'), rec('a.py', 'def three(): pass', 'h3', 5)]);
    assert.ok(e.hasVector('h1') && !e.hasVector('h2') && !e.hasVector('h3'));
    assert.equal(e.vectorCount, 1);
    assert.ok(Math.abs(denseOf('a.py')! - 1) < 1e-6);
    // A copy of the content elsewhere shares the vector, and keeps it when the first file goes.
    e.setFile('b.py', 'b.py', [rec('b.py', 'def one(): pass', 'h1')]);
    e.removeFile('a.py');
    assert.ok(e.hasVector('h1') && Math.abs(denseOf('b.py')! - 1) < 1e-6);
    // The last chunk of a content leaves; restored (a rename, a checkout), it needs no new embedding.
    e.removeFile('b.py');
    assert.equal(e.vectorCount, 0);
    e.setFile('c.py', 'c.py', [rec('c.py', 'def one(): pass', 'h1')]);
    assert.ok(e.hasVector('h1') && Math.abs(denseOf('c.py')! - 1) < 1e-6);
    // A vector for content no chunk has is not kept.
    e.setVector('gone', Float32Array.from([0, 0, 1, 0]));
    assert.ok(!e.hasVector('gone'));
    // Many removals squeeze the rows together: every remaining chunk keeps its own vector.
    for (let i = 0; i < 3000; i++) {
      e.setFile(`m${i}.py`, `m${i}.py`, [rec(`m${i}.py`, `def m${i}(): pass`, `hm${i}`)]);
      e.setVector(`hm${i}`, Float32Array.from([Math.cos(i), Math.sin(i), 0, 0]));
    }
    for (let i = 0; i < 2000; i++) e.removeFile(`m${i}.py`);
    assert.equal(e.vectorCount, 1001);
    for (const i of [2000, 2500, 2999]) {
      const hit = e.search(`m${i}`, { queryVector: q }).hits.find((h) => h.chunk.rel === `m${i}.py`)!;
      // Rows are int8 with a scale per row: within half a step (max / 254) of the float.
      assert.ok(Math.abs(hit.dense! - Math.cos(i)) < 0.005, `m${i}: ${hit.dense} vs ${Math.cos(i)}`);
    }
  });

  describe('in the core', () => {
    let root: string;
    let core: Core | undefined;
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (m) => void warnings.push(m) };
    before(() => (root = tempDir('hybrid')));
    afterEach(async () => {
      await core?.dispose();
      core = undefined;
      warnings.length = 0;
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    async function open(name: string, modelsDir: string): Promise<Core> {
      const dir = repo(path.join(root, `repo-${name}`));
      core = await createCore({ dataDir: path.join(root, `data-${name}`), modelsDir, folders: [dir], log, autoIndex: false, settings: { embeddingModel: 'toy' } });
      await core.index.indexAll();
      await core.index.embedNow();
      return core;
    }

    it('a meaning-only question finds the file through the dense signal, with both scores on the seed', async () => {
      const models = path.join(root, 'models-ok');
      writeStaticModel(path.join(models, 'toy'), VOCAB, ROWS, 'I8');
      const c = await open('ok', models);
      const st = await c.index.currentStatus();
      assert.equal(st.bm25Only, false);
      assert.equal(st.embedded, st.chunks);
      // "config" appears in no file: BM25 alone has nothing; the toy model maps it onto settings.
      const out = await c.service.request(QgptRelevance, { query: 'config', paths: [c.index.folders()[0]!], options: {} });
      const first = out.relevant.iterable[0]!;
      assert.match(first.path ?? '', /settings\.py$/);
      const scores = (first as unknown as { askcode?: { scores?: { dense?: number; denseRank?: number; bm25?: number } } }).askcode?.scores;
      assert.ok(scores && scores.dense! > 0.9 && scores.denseRank === 1 && scores.bm25 === undefined, JSON.stringify(first));
      assert.deepEqual(warnings, []);
    });

    it('a model whose weights change under the same id: the old vectors are dropped and the workspace embedded again', async () => {
      const models = path.join(root, 'models-upd');
      writeStaticModel(path.join(models, 'toy'), VOCAB, ROWS, 'I8');
      const ask = async (c: Core) => (await c.service.request(QgptRelevance, { query: 'config', paths: [c.index.folders()[0]!], options: {} })).relevant.iterable[0]!.path ?? '';
      let c = await open('upd', models);
      assert.match(await ask(c), /settings\.py$/);
      await c.dispose();
      core = undefined;
      // The same folder, new weights: the settings and network axes swapped.
      writeStaticModel(path.join(models, 'toy'), VOCAB, ROWS.map(([a, b, x, y]) => [b!, a!, x!, y!]), 'I8');
      c = await open('upd', models);
      const st = await c.index.currentStatus();
      assert.equal(st.embedded, st.chunks, 'every chunk embedded with the new weights');
      // With the old vectors kept, the new query vector ("config" now on the network axis) found net.py.
      assert.match(await ask(c), /settings\.py$/);
      const tables: string[] = [];
      const walk = (d: string) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) (/^vectors_/.test(e.name) ? tables.push(e.name) : walk(path.join(d, e.name))); };
      walk(path.join(root, 'data-upd'));
      assert.equal(tables.length, 1, `one vectors table left: ${tables.join(', ')}`);
    });

    it('a corrupt model file: one clear warning, and search answers on BM25', async () => {
      const models = path.join(root, 'models-bad');
      writeStaticModel(path.join(models, 'toy'), VOCAB, ROWS, 'I8');
      fs.writeFileSync(path.join(models, 'toy', 'embeddings.safetensors'), Buffer.from('truncated!'));
      const c = await open('bad', models);
      for (const q of ['network socket', 'settings environment']) {
        const out = await c.service.request(QgptRelevance, { query: q, paths: [c.index.folders()[0]!], options: {} });
        assert.ok(out.relevant.iterable.length > 0, `BM25 still answers '${q}'`);
      }
      await c.index.embedNow();
      const st = await c.index.currentStatus();
      assert.equal(st.bm25Only, true);
      assert.match(st.message ?? '', /BM25/);
      const about = warnings.filter((w) => /safetensors/.test(w));
      assert.equal(about.length, 1, `said once: ${JSON.stringify(warnings)}`);
      assert.match(about[0]!, /toy.*embeddings\.safetensors is not a valid safetensors file.*|keyword-only.*safetensors/);
    });
  });
});
