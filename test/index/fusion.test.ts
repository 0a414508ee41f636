/**
 * Fusion of the lexical and the dense ranking in the search engine (index/searchEngine.ts): files
 * ranked by BM25 and by vector similarity, combined by reciprocal rank, with each hit saying which
 * signal found it.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { SearchEngine, type ChunkRecord } from '../../server/src/index/searchEngine';
import { sortTop } from '../../server/src/index/fusion';

const DIMS = 8;
function unit(...xs: number[]): Float32Array {
  const v = new Float32Array(DIMS);
  xs.forEach((x, i) => (v[i] = x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function add(engine: SearchEngine, rel: string, text: string, vector?: Float32Array): ChunkRecord {
  const hash = createHash('sha1').update(rel + text).digest('hex');
  const rec: ChunkRecord = {
    id: 'c' + hash.slice(0, 12), file: `/ws/${rel}`, rel, startLine: 1, endLine: text.split('\n').length, text,
    hash, language: 'typescript', ext: 'ts', code: true,
  };
  engine.setFile(rec.file, rel, [rec]);
  if (vector) engine.setVector(hash, vector);
  return rec;
}

describe('index/fusion: BM25 and dense rankings combined', () => {
  let engine: SearchEngine;
  beforeEach(() => {
    engine = new SearchEngine();
    add(engine, 'src/session.ts', 'export function validateSession(token: string) { return verify(token); }', unit(1, 0.2));
    add(engine, 'src/auth/guard.ts', 'export function checkLogin(user) { return user.loggedIn; }', unit(0.9, 0.4));
    add(engine, 'src/render.ts', 'export function renderView(node) { return draw(node); }', unit(0, 0, 1));
    add(engine, 'src/math.ts', 'export function add(a, b) { return a + b; }', unit(0, 0, 0, 1));
  });

  it('sortTop puts the k best first in exact order and every other file after them', () => {
    const n = 5000;
    const score = Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898) * 43758.5453 % 1);
    const files = Array.from({ length: n }, (_, i) => i).filter((i) => i % 7);
    const all = [...files].sort((a, b) => score[b]! - score[a]!);
    const got = [...files];
    sortTop(got, score, 100);
    assert.equal(got.length, files.length);
    assert.deepEqual(got.slice(0, 100), all.slice(0, 100));
    assert.deepEqual([...got].sort((a, b) => a - b), [...files].sort((a, b) => a - b), 'the same files');
    const worstHead = score[got[99]!]!;
    assert.ok(got.slice(100).every((fd) => score[fd]! <= worstHead));
    // Short lists are simply sorted.
    const few = [3, 1, 2];
    sortTop(few, [0, 0.5, 0.9, 0.1], 100);
    assert.deepEqual(few, [2, 1, 3]);
  });

  it('without a query vector, only lexical matches come back, with bm25 but no dense part', () => {
    const { hits } = engine.search('validateSession token');
    assert.equal(hits[0]!.chunk.rel, 'src/session.ts');
    assert.equal(hits[0]!.bm25Rank, 1);
    assert.equal(hits[0]!.dense, undefined);
    assert.ok(hits.every((h) => h.chunk.rel !== 'src/render.ts'));
  });

  it('a file found only by meaning joins the results, ranked by its dense rank', () => {
    // No word of the question occurs in guard.ts: only its vector is close.
    const { hits } = engine.search('where is the session validated', { queryVector: unit(0.95, 0.35) });
    const guard = hits.find((h) => h.chunk.rel === 'src/auth/guard.ts');
    assert.ok(guard, 'the guard is found by its vector alone');
    assert.equal(guard.bm25Rank, undefined);
    assert.equal(guard.denseRank !== undefined && guard.denseRank <= 2, true);
    assert.ok(guard.dense! > 0.9);
  });

  it('a file both signals rank first beats files only one of them found, and scores are in [0, 1] with the best at 1', () => {
    const { hits } = engine.search('validateSession', { queryVector: unit(1, 0.2) });
    assert.equal(hits[0]!.chunk.rel, 'src/session.ts');
    assert.equal(hits[0]!.bm25Rank, 1);
    assert.equal(hits[0]!.denseRank, 1);
    assert.equal(hits[0]!.score, 1);
    for (const h of hits) assert.ok(h.score >= 0 && h.score <= 1);
    assert.ok(hits.slice(1).every((h) => h.score < 1));
  });

  it('a query vector of another dimension is ignored (a model switch mid-flight), not an error', () => {
    const { hits } = engine.search('validateSession', { queryVector: new Float32Array(3).fill(0.5) });
    assert.equal(hits[0]!.chunk.rel, 'src/session.ts');
    assert.equal(hits[0]!.dense, undefined);
  });

  it('the filter applies to both signals', () => {
    const { hits } = engine.search('session', { queryVector: unit(1, 0.2), filter: (k) => k.includes('/auth/') });
    assert.deepEqual([...new Set(hits.map((h) => h.chunk.rel))], ['src/auth/guard.ts']);
  });
});
