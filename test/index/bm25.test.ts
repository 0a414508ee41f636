/** BM25 over in-memory postings (index/bm25.ts): scoring, weights, filters and removals. */
import { strict as assert } from 'node:assert';
import { Bm25, countTerms } from '../../server/src/index/bm25';

const doc = (idx: Bm25, words: string) => {
  const list = words.split(' ');
  return idx.add(countTerms(list), list.length);
};
const scoresOf = (idx: Bm25, query: string, allow?: (d: number) => boolean) => {
  const { scores, touched } = idx.score(query.split(' ').map((term) => ({ term, weight: 1 })), allow);
  return new Map([...touched].map((d) => [d, scores[d]!]));
};

describe('index/bm25', () => {
  it('ranks the document with more of the rarer term first, and scores only documents that hold a term', () => {
    const idx = new Bm25();
    const a = doc(idx, 'parse config file parse');
    const b = doc(idx, 'parse the input');
    const c = doc(idx, 'render the view');
    const s = scoresOf(idx, 'parse config');
    assert.ok(s.get(a)! > s.get(b)!, 'two query terms, one of them twice, beat one');
    assert.equal(s.has(c), false);
    assert.ok(idx.idf('config') > idx.idf('parse'), 'a term in fewer documents weighs more');
    assert.equal(idx.docFreq('the'), 2);
  });

  it('lists the live documents holding every one of some terms', () => {
    const idx = new Bm25();
    const a = doc(idx, 'no such file or directory');
    const b = doc(idx, 'file not found');
    const c = doc(idx, 'directory of the file');
    assert.deepEqual(idx.docsWithAll(['file', 'directory']).sort(), [a, c].sort());
    assert.deepEqual(idx.docsWithAll(['file']).sort(), [a, b, c].sort());
    assert.deepEqual(idx.docsWithAll(['file', 'nowhere']), [], 'a term in no document');
    assert.deepEqual(idx.docsWithAll([]), []);
    idx.remove(a);
    assert.deepEqual(idx.docsWithAll(['file', 'directory']), [c], 'removed documents are not listed');
    assert.equal(idx.has(c, 'directory'), true);
    assert.equal(idx.has(a, 'directory'), false);
  });

  it('normalises by length: the same term count in a shorter document scores higher', () => {
    const idx = new Bm25();
    const short = doc(idx, 'token other');
    const long = doc(idx, 'token ' + Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    doc(idx, 'unrelated words here');
    const s = scoresOf(idx, 'token');
    assert.ok(s.get(short)! > s.get(long)!);
  });

  it('a query term weight scales its contribution, and a filter leaves documents out', () => {
    const idx = new Bm25();
    const a = doc(idx, 'alpha');
    const b = doc(idx, 'beta');
    doc(idx, 'gamma');
    const { scores } = idx.score([{ term: 'alpha', weight: 1 }, { term: 'beta', weight: 3 }]);
    assert.ok(scores[b]! > scores[a]!);
    const only = scoresOf(idx, 'alpha beta', (d) => d === a);
    assert.deepEqual([...only.keys()], [a]);
  });

  it('removed documents are never scored again, also after the postings are compacted', () => {
    const idx = new Bm25();
    const docs = Array.from({ length: 3000 }, (_, i) => doc(idx, `common w${i}`));
    const keep = docs[2999]!;
    for (const d of docs.slice(0, 2500)) idx.remove(d);
    assert.equal(idx.size, 500);
    assert.equal(idx.isAlive(docs[0]!), false);
    const s = scoresOf(idx, 'common');
    assert.equal(s.size, 500);
    assert.ok(s.has(keep));
    assert.equal(idx.docFreq('common'), 500);
    // Each live document still knows its own terms after the compaction, a removed one none.
    assert.ok(idx.has(keep, 'common') && idx.has(keep, 'w2999') && !idx.has(keep, 'w2998'));
    assert.ok(idx.has(docs[2500]!, 'w2500') && !idx.has(docs[0]!, 'w0') && !idx.has(docs[0]!, 'common'));
    const added = doc(idx, 'fresh common');
    assert.ok(idx.has(added, 'fresh') && idx.has(added, 'common') && idx.docFreq('common') === 501);
  });

  it('past the accumulator limit, commoner terms only add to the documents the rarer ones found', () => {
    const idx = new Bm25();
    const rare = [doc(idx, 'needle common'), doc(idx, 'needle other')];
    const commonOnly = Array.from({ length: 50 }, (_, i) => doc(idx, `common filler${i}`));
    const q = [{ term: 'needle', weight: 1 }, { term: 'common', weight: 1 }];
    const all = idx.score(q);
    assert.equal(all.touched.length, 52, 'no limit: every document holding a term');
    const allScores = new Map([...all.touched].map((d) => [d, all.scores[d]!]));
    const limited = idx.score(q, undefined, 2);
    assert.deepEqual([...limited.touched].sort(), [...rare].sort(), 'only what the first term found');
    // Their scores still hold both terms.
    assert.equal(limited.scores[rare[0]!], allScores.get(rare[0]!));
    assert.ok(limited.scores[rare[0]!]! > limited.scores[rare[1]!]!);
    assert.ok(commonOnly.every((d) => !limited.touched.includes(d)));
    // The limit counts before each term: a first term past it still scores all its documents.
    assert.equal(idx.score([{ term: 'common', weight: 1 }], undefined, 2).touched.length, 51);
  });

  it('postings stay exact through pool growth, moved regions, removals and repacking', () => {
    const idx = new Bm25();
    // A deterministic stream: 4000 documents over 300 terms of very different frequencies.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const truth = new Map<number, Set<string>>();
    for (let i = 0; i < 4000; i++) {
      const words = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => `t${Math.floor(rand() ** 3 * 300)}`);
      truth.set(doc(idx, words.join(' ')), new Set(words));
    }
    const check = () => {
      for (const term of ['t0', 't1', 't5', 't50', 't299']) {
        const want = [...truth].filter(([, ws]) => ws.has(term)).map(([d]) => d).sort((a, b) => a - b);
        assert.deepEqual([...idx.docsWith(term)].sort((a, b) => a - b), want, term);
        assert.deepEqual([...scoresOf(idx, term).keys()].sort((a, b) => a - b), want, `scored ${term}`);
        assert.equal(idx.docFreq(term), want.length);
        for (const d of want.slice(0, 20)) assert.ok(idx.has(d, term));
      }
    };
    check();
    // The end of a run gives back the slack of growth (live postings plus an eighth each), exactly.
    let live = 0;
    for (const ws of truth.values()) live += ws.size;
    assert.ok(idx.slots > live * 1.5, `${idx.slots} slots for ${live} postings before`);
    idx.trim();
    assert.ok(idx.slots <= live * 1.25 + 600, `${idx.slots} slots for ${live} postings after`);
    check();
    // A few edits later the pool has not grown: the next run's end has nothing to repack.
    const trimmed = idx.slots;
    for (let i = 0; i < 20; i++) {
      const words = [`t${Math.floor(rand() * 300)}`, 't1', 't298', 't299'];
      truth.set(doc(idx, words.join(' ')), new Set(words));
    }
    assert.equal(idx.slots, trimmed);
    check();
    // Remove two thirds (compaction and repacking run), then add more.
    for (const d of [...truth.keys()]) if (d % 3) {
      idx.remove(d);
      truth.delete(d);
    }
    check();
    for (let i = 0; i < 3000; i++) {
      const words = [`t${Math.floor(rand() * 300)}`, 't1'];
      truth.set(doc(idx, words.join(' ')), new Set(words));
    }
    check();
    idx.trim();
    check();
  });

  it('countTerms adds weighted repeats into one map', () => {
    const m = countTerms(['a', 'b', 'a'], 2);
    countTerms(['a'], 1, m);
    assert.deepEqual([...m], [['a', 5], ['b', 2]]);
  });
});
