/**
 * BM25 over in-memory postings, with removals (tombstones, compacted when they pile up).
 * Kept here rather than in LanceDB's full-text index because the ranking needs per-field term
 * weights (body, symbol, path) and per-file aggregation in one pass; the measured comparison
 * against LanceDB's FTS on the same code-aware text is `askcode bench retrieval --lexical lancedb`.
 */

export interface ScoredDoc {
  doc: number;
  score: number;
}

export interface QueryTerm {
  term: string;
  weight: number;
}

const K1 = 1.2;
const B = 0.75;

export class Bm25 {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  /**
   * Postings outside the JS heap (a garbage collection walking ten million array slots showed as
   * p95 spikes), all terms in one pair of pools: term t's postings are
   * `[postStart[t], postStart[t] + postLen[t])` of `poolDocs` / `poolTfs`, in a region of
   * `postCap[t]` that moves to the end of the pool, twice as large, when full. Two typed arrays
   * per term were 280k objects at 100k chunks, ~50 MB and much of each collection's work.
   */
  private poolDocs = new Int32Array(4096);
  private poolTfs = new Float32Array(4096);
  private poolUsed = 0;
  /** Pool slots left behind by moved regions (reclaimed by repacking). */
  private poolWaste = 0;
  private postStart: number[] = [];
  private postCap: number[] = [];
  private postLen: number[] = [];
  /** Reused between queries (only the touched entries are cleared): no 800 KB allocation per query. */
  private scratch = new Float64Array(0);
  /** The documents the last query scored: `touched[0, nTouched)` (reused, grown by doubling). */
  private touchedBuf = new Int32Array(1024);
  private nTouched = 0;
  private df: number[] = [];
  private docLen: number[] = [];
  private alive: boolean[] = [];
  /**
   * Sorted term ids per document, all in one pool: document d's are
   * `termPool[docStart[d], docStart[d] + docCount[d])` (a typed array per document was 100k
   * objects for the garbage collector to sweep at 100k chunks; a Map per chunk cost ~4 KB).
   * Removed documents' ids stay until the postings are compacted.
   */
  private termPool = new Int32Array(1024);
  private poolLen = 0;
  private docStart: number[] = [];
  private docCount: number[] = [];
  private liveDocs = 0;
  private totalLen = 0;
  private dead = 0;

  constructor(private readonly b = B, private readonly k1 = K1) {}

  get size(): number {
    return this.liveDocs;
  }

  /** Posting slots held (live postings and spare room): what `trim` gives back. */
  get slots(): number {
    return this.poolDocs.length;
  }

  /** Adds a document; `tf` maps term → (field-weighted) frequency; returns its doc number. */
  add(tf: Map<string, number>, len: number): number {
    const doc = this.docLen.length;
    const ids = new Int32Array(tf.size);
    let k = 0;
    for (const [t, f] of tf) {
      let id = this.termIds.get(t);
      if (id === undefined) {
        id = this.terms.length;
        this.termIds.set(t, id);
        this.terms.push(t);
        this.postStart.push(this.reserve(2));
        this.postCap.push(2);
        this.postLen.push(0);
        this.df.push(0);
      }
      const n = this.postLen[id]!;
      if (n === this.postCap[id]) this.moveRegion(id, n * 2);
      const at = this.postStart[id]! + n;
      this.poolDocs[at] = doc;
      this.poolTfs[at] = f;
      this.postLen[id] = n + 1;
      this.df[id]!++;
      ids[k++] = id;
    }
    ids.sort();
    this.appendTerms(ids);
    this.docLen.push(len);
    this.alive.push(true);
    this.liveDocs++;
    this.totalLen += len;
    return doc;
  }

  remove(doc: number): void {
    if (!this.alive[doc]) return;
    this.alive[doc] = false;
    const start = this.docStart[doc]!;
    for (let i = start; i < start + this.docCount[doc]!; i++) this.df[this.termPool[i]!]!--;
    this.docCount[doc] = 0;
    this.liveDocs--;
    this.totalLen -= this.docLen[doc]!;
    this.dead++;
    if (this.dead > 1000 && this.dead > this.liveDocs / 3) this.compactPostings();
  }

  isAlive(doc: number): boolean {
    return this.alive[doc] === true;
  }

  docFreq(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.df[id]!;
  }

  idf(term: string): number {
    const df = this.docFreq(term);
    return Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5));
  }

  /** Live documents containing a term. */
  *docsWith(term: string): IterableIterator<number> {
    const id = this.termIds.get(term);
    if (id === undefined) return;
    // Copied first: a document added while the caller iterates may move the region.
    const start = this.postStart[id]!;
    const docs = this.poolDocs.slice(start, start + this.postLen[id]!);
    for (const d of docs) if (this.alive[d]) yield d;
  }

  /** Live documents containing every one of the terms (none for no terms): the rarest term's postings, checked for the others. */
  docsWithAll(terms: string[]): number[] {
    const ids = terms.map((t) => this.termIds.get(t));
    if (!ids.length || ids.some((id) => id === undefined)) return [];
    const sorted = (ids as number[]).sort((a, b) => this.df[a]! - this.df[b]!);
    const rarest = sorted[0]!;
    const start = this.postStart[rarest]!;
    const out: number[] = [];
    for (let k = start, end = start + this.postLen[rarest]!; k < end; k++) {
      const d = this.poolDocs[k]!;
      if (this.alive[d] && sorted.every((id, i) => i === 0 || this.hasId(d, id))) out.push(d);
    }
    return out;
  }

  /** Does this document contain the term? (for the "matched terms" of a hit) */
  has(doc: number, term: string): boolean {
    const id = this.termIds.get(term);
    return id !== undefined && this.hasId(doc, id);
  }

  private hasId(doc: number, id: number): boolean {
    if (!this.alive[doc]) return false;
    const pool = this.termPool;
    let lo = this.docStart[doc]!;
    let hi = lo + this.docCount[doc]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (pool[mid] === id) return true;
      if (pool[mid]! < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * Scores of every document matching any term: a dense array indexed by doc (valid until the
   * next call) and the touched docs. Terms are taken in the order given (most telling first);
   * once `maxTouched` documents have a score, later terms only add to those ("continue"
   * accumulator limiting, Moffat & Zobel 1996): a document that matches none of the first terms
   * but only commoner ones is left out, and a query of common words does not score a whole
   * 100k-chunk index.
   */
  score(query: QueryTerm[], allow?: (doc: number) => boolean, maxTouched = Infinity): { scores: Float64Array; touched: Int32Array } {
    if (this.scratch.length < this.docLen.length) this.scratch = new Float64Array(Math.max(1024, this.docLen.length * 1.5));
    const scores = this.scratch;
    let touched = this.touchedBuf;
    for (let i = 0; i < this.nTouched; i++) scores[touched[i]!] = 0;
    let n = 0;
    const avg = this.liveDocs ? this.totalLen / this.liveDocs : 1;
    const k1 = this.k1;
    const b = this.b;
    for (const q of query) {
      const id = this.termIds.get(q.term);
      if (id === undefined || !this.df[id]) continue;
      const idf = Math.log(1 + (this.liveDocs - this.df[id]! + 0.5) / (this.df[id]! + 0.5)) * q.weight;
      const docs = this.poolDocs;
      const tfs = this.poolTfs;
      const start = this.postStart[id]!;
      const end = start + this.postLen[id]!;
      const grow = n < maxTouched;
      for (let i = start; i < end; i++) {
        const d = docs[i]!;
        if (scores[d] === 0 && !grow) continue;
        if (!this.alive[d] || (allow && !allow(d))) continue;
        const tf = tfs[i]!;
        const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.docLen[d]!) / avg));
        if (scores[d] === 0) {
          if (n === touched.length) {
            const next = new Int32Array(n * 2);
            next.set(touched);
            this.touchedBuf = touched = next;
          }
          touched[n++] = d;
        }
        scores[d] += s;
      }
    }
    this.nTouched = n;
    return { scores, touched: touched.subarray(0, n) };
  }

  private compactPostings(): void {
    const docs = this.poolDocs;
    const tfs = this.poolTfs;
    for (let id = 0; id < this.postLen.length; id++) {
      const start = this.postStart[id]!;
      let k = start;
      for (let i = start; i < start + this.postLen[id]!; i++) {
        if (this.alive[docs[i]!]) {
          docs[k] = docs[i]!;
          tfs[k] = tfs[i]!;
          k++;
        }
      }
      this.postLen[id] = k - start;
    }
    this.repack();
    // The term pool keeps only live documents' ids.
    const old = this.termPool;
    let live = 0;
    for (let d = 0; d < this.docCount.length; d++) live += this.docCount[d]!;
    this.termPool = new Int32Array(Math.max(1024, Math.ceil(live * 1.25)));
    this.poolLen = 0;
    for (let d = 0; d < this.docCount.length; d++) {
      const start = this.docStart[d]!;
      const n = this.docCount[d]!;
      this.termPool.set(old.subarray(start, start + n), this.poolLen);
      this.docStart[d] = this.poolLen;
      this.poolLen += n;
    }
    this.dead = 0;
  }

  /** `n` pool slots at the end (the pool grows by half, or is repacked when half of it is waste). */
  private reserve(n: number): number {
    if (this.poolUsed + n > this.poolDocs.length) {
      if (this.poolWaste > this.poolUsed / 2) this.repack();
      if (this.poolUsed + n > this.poolDocs.length) {
        const cap = Math.max(this.poolUsed + n, Math.ceil(this.poolDocs.length * 1.5));
        const d = new Int32Array(cap);
        d.set(this.poolDocs.subarray(0, this.poolUsed));
        this.poolDocs = d;
        const t = new Float32Array(cap);
        t.set(this.poolTfs.subarray(0, this.poolUsed));
        this.poolTfs = t;
      }
    }
    const at = this.poolUsed;
    this.poolUsed += n;
    return at;
  }

  /** Moves a term's postings to a new region of `cap` slots at the end of the pool. */
  private moveRegion(id: number, cap: number): void {
    const len = this.postLen[id]!;
    const at = this.reserve(cap);
    const from = this.postStart[id]!; // read after reserve: a repack may have moved it
    this.poolDocs.copyWithin(at, from, from + len);
    this.poolTfs.copyWithin(at, from, from + len);
    this.poolWaste += this.postCap[id]!;
    this.postStart[id] = at;
    this.postCap[id] = cap;
  }

  /**
   * Gives back the slack of bulk loading once a run of additions is over: postings grown by
   * doubling, regions left behind by moves and the pools' spare room held about three slots per
   * posting (156 MB of 207 at 100k chunks). Repacked with an eighth spare per term and 5% spare
   * at the end of the pool, so that the edits that follow move regions without growing the pool
   * (and the next run end finds nothing to repack). Nothing happens when the slack is small.
   */
  trim(): void {
    let live = 0;
    for (const n of this.postLen) live += n;
    if (this.poolDocs.length > 4096 && this.poolDocs.length > live * 1.5) this.repack(3, 1.05);
    if (this.termPool.length > 1024 && this.termPool.length > this.poolLen * 1.25) this.termPool = this.termPool.slice(0, Math.max(1024, this.poolLen));
  }

  /**
   * Writes every term's region again, back to back with `n >> spareShift` spare slots each and a
   * pool of `poolSpare` times their sum: no waste left.
   */
  private repack(spareShift = 2, poolSpare = 1.25): void {
    let total = 0;
    const caps = this.postLen.map((n) => Math.max(2, n + (n >> spareShift)));
    for (const c of caps) total += c;
    const d = new Int32Array(Math.max(4096, Math.ceil(total * poolSpare)));
    const t = new Float32Array(d.length);
    let at = 0;
    for (let id = 0; id < caps.length; id++) {
      const from = this.postStart[id]!;
      const len = this.postLen[id]!;
      d.set(this.poolDocs.subarray(from, from + len), at);
      t.set(this.poolTfs.subarray(from, from + len), at);
      this.postStart[id] = at;
      this.postCap[id] = caps[id]!;
      at += caps[id]!;
    }
    this.poolDocs = d;
    this.poolTfs = t;
    this.poolUsed = at;
    this.poolWaste = 0;
  }

  private appendTerms(ids: Int32Array): void {
    if (this.poolLen + ids.length > this.termPool.length) {
      const next = new Int32Array(Math.max(this.poolLen + ids.length, Math.ceil(this.termPool.length * 1.5)));
      next.set(this.termPool.subarray(0, this.poolLen));
      this.termPool = next;
    }
    this.termPool.set(ids, this.poolLen);
    this.docStart.push(this.poolLen);
    this.docCount.push(ids.length);
    this.poolLen += ids.length;
  }
}

/** term → frequency, from a list with repeats. */
export function countTerms(list: string[], weight = 1, into = new Map<string, number>()): Map<string, number> {
  for (const t of list) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}
