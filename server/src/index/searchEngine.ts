import { Bm25, countTerms, type QueryTerm } from './bm25';
import { terms, pathTerms } from './tokens';
import { parseQuery, matchesHint, MAX_QUERY_TERMS, type ParsedQuery } from './query';
import { isTestPath } from './languages';

/** What the engine keeps per chunk (text included: snippets come back without a disk read). */
export interface ChunkRecord {
  id: string;
  /** The file's key: absolute path for workspace files, `asset:<id>` for saved assets. */
  file: string;
  rel: string;
  startLine: number;
  endLine: number;
  text: string;
  symbol?: string;
  hash: string;
  language: string;
  ext: string;
  code: boolean;
}

export interface Hit {
  chunk: ChunkRecord;
  score: number;
  bm25?: number;
  dense?: number;
  bm25Rank?: number;
  denseRank?: number;
  matched: string[];
  fileRank: number;
}

/**
 * Ranking knobs, tuned on the dev split of the eval data (../shared/eval, commit-eval dev):
 * the file score mixes the best chunk, the whole file and the path, each divided by its best
 * value for the query; tests and prose are pushed down (never the answer to "where is it done"
 * in the dev data, and a quarter to a third of plain BM25's top hits).
 */
export interface RankParams {
  chunkW: number;
  fileW: number;
  pathW: number;
  symbolFieldW: number;
  pathFieldW: number;
  testFactor: number;
  proseFactor: number;
  mentionBonus: number;
  rrfK: number;
  perFileCap: number;
  floor: number;
}

export const DEFAULT_RANK: RankParams = {
  chunkW: 0.45,
  fileW: 0.35,
  pathW: 0.2,
  symbolFieldW: 2,
  pathFieldW: 1,
  testFactor: 0.35,
  proseFactor: 0.6,
  mentionBonus: 0.35,
  rrfK: 20,
  perFileCap: 2,
  floor: 0.05,
};

interface FileEntry {
  key: string;
  rel: string;
  chunks: number[];
  fileDoc: number;
  pathDoc: number;
  test: boolean;
  code: boolean;
}

export interface SearchOptions {
  limit?: number;
  /** Only files whose key passes. */
  filter?: (fileKey: string) => boolean;
  queryVector?: Float32Array | null;
  params?: Partial<RankParams>;
}

export class SearchEngine {
  private readonly chunkIdx = new Bm25();
  private readonly fileIdx = new Bm25();
  private readonly pathIdx = new Bm25(0.3);
  private readonly chunks: (ChunkRecord | null)[] = [];
  private readonly chunkFile: number[] = [];
  private readonly files = new Map<string, FileEntry>();
  private readonly fileByDoc: (FileEntry | null)[] = [];
  private readonly byId = new Map<string, number>();
  /** Sentence vectors by chunk content hash (identical chunks share one). */
  readonly vectors = new Map<string, Float32Array>();

  get chunkCount(): number {
    return this.chunkIdx.size;
  }
  get fileCount(): number {
    return this.files.size;
  }

  hasFile(key: string): boolean {
    return this.files.has(key);
  }
  fileKeys(): IterableIterator<string> {
    return this.files.keys();
  }
  chunksOf(key: string): ChunkRecord[] {
    return (this.files.get(key)?.chunks ?? []).map((d) => this.chunks[d]!).filter(Boolean);
  }
  chunk(id: string): ChunkRecord | null {
    const d = this.byId.get(id);
    return d === undefined ? null : this.chunks[d] ?? null;
  }
  *allChunks(): IterableIterator<ChunkRecord> {
    for (const c of this.chunks) if (c) yield c;
  }

  /** Replaces whatever the engine had for this file. */
  setFile(key: string, rel: string, chunks: ChunkRecord[]): void {
    this.removeFile(key);
    if (!chunks.length) return;
    const pTerms = pathTerms(rel);
    const fileTf = new Map<string, number>();
    let fileLen = 0;
    const docs: number[] = [];
    const p = DEFAULT_RANK;
    for (const c of chunks) {
      const body = terms(c.text);
      const sym = c.symbol ? terms(c.symbol) : [];
      const tf = countTerms(body);
      countTerms(sym, p.symbolFieldW, tf);
      countTerms(pTerms, p.pathFieldW, tf);
      const doc = this.chunkIdx.add(tf, body.length + sym.length + pTerms.length);
      countTerms(body, 1, fileTf);
      fileLen += body.length;
      this.chunks[doc] = c;
      this.chunkFile[doc] = -1;
      this.byId.set(c.id, doc);
      docs.push(doc);
    }
    const fileDoc = this.fileIdx.add(fileTf, fileLen);
    const pathDoc = this.pathIdx.add(countTerms(pTerms), pTerms.length);
    const entry: FileEntry = { key, rel, chunks: docs, fileDoc, pathDoc, test: isTestPath(rel), code: chunks[0]!.code };
    for (const d of docs) this.chunkFile[d] = fileDoc;
    this.fileByDoc[fileDoc] = entry;
    this.files.set(key, entry);
  }

  removeFile(key: string): void {
    const f = this.files.get(key);
    if (!f) return;
    for (const d of f.chunks) {
      const c = this.chunks[d];
      if (c) this.byId.delete(c.id);
      this.chunks[d] = null;
      this.chunkIdx.remove(d);
    }
    this.fileIdx.remove(f.fileDoc);
    this.pathIdx.remove(f.pathDoc);
    this.fileByDoc[f.fileDoc] = null;
    this.files.delete(key);
  }

  search(text: string, opts: SearchOptions = {}): { hits: Hit[]; parsed: ParsedQuery } {
    const p = { ...DEFAULT_RANK, ...opts.params };
    const limit = opts.limit ?? 20;
    const parsed = parseQuery(text);
    const q = this.topTerms(parsed.terms);
    const allowFile = opts.filter;
    // The filter runs once per file, not once per posting.
    let allowed: Uint8Array | undefined;
    if (allowFile) {
      allowed = new Uint8Array(this.fileByDoc.length);
      for (const f of this.files.values()) if (allowFile(f.key)) allowed[f.fileDoc] = 1;
    }
    const allowChunk = allowed ? (d: number) => allowed![this.chunkFile[d]!] === 1 : undefined;
    const allowFileDoc = allowed ? (d: number) => allowed![d] === 1 : undefined;

    const c = this.chunkIdx.score(q, allowChunk);
    const f = this.fileIdx.score(q, allowFileDoc);
    const pathQuery = [...q.map((t) => ({ term: t.term, weight: t.weight * 0.5 })), ...parsed.pathTerms.map((t) => ({ term: t.term, weight: t.weight * 2 }))];
    const pa = this.pathIdx.score(pathQuery, allowFileDoc);

    // Best chunk per file.
    const bestChunk = new Map<number, number>();
    for (const d of c.touched) {
      const fd = this.chunkFile[d]!;
      const cur = bestChunk.get(fd);
      if (cur === undefined || c.scores[d]! > c.scores[cur]!) bestChunk.set(fd, d);
    }
    const maxOf = (arr: Float64Array, docs: Iterable<number>) => {
      let m = 0;
      for (const d of docs) if (arr[d]! > m) m = arr[d]!;
      return m || 1;
    };
    const maxC = maxOf(c.scores, c.touched);
    const maxF = maxOf(f.scores, f.touched);
    const maxP = maxOf(pa.scores, pa.touched);
    const candidates = new Set<number>([...f.touched, ...bestChunk.keys()]);
    const lexFile = new Map<number, number>();
    for (const fd of candidates) {
      const entry = this.fileByDoc[fd];
      if (!entry) continue;
      const bc = bestChunk.get(fd);
      let s = (p.chunkW * (bc !== undefined ? c.scores[bc]! : 0)) / maxC + (p.fileW * f.scores[fd]!) / maxF + (p.pathW * pa.scores[fd]!) / maxP;
      if (parsed.pathHints.length && parsed.pathHints.some((h) => matchesHint(entry.rel, h))) s += p.mentionBonus;
      if (entry.test && !parsed.aboutTests) s *= p.testFactor;
      else if (!entry.code) s *= p.proseFactor;
      lexFile.set(fd, s);
    }
    // Files named outright but sharing no term with the text still count.
    if (parsed.pathHints.length) {
      for (const entry of this.files.values()) {
        if (lexFile.has(entry.fileDoc) || (allowFile && !allowFile(entry.key))) continue;
        if (parsed.pathHints.some((h) => matchesHint(entry.rel, h))) lexFile.set(entry.fileDoc, p.mentionBonus * (entry.test ? p.testFactor : 1));
      }
    }

    // Dense: best chunk similarity per file, fused with the lexical file ranking by RRF.
    const denseChunk = new Map<number, number>();
    const denseFile = new Map<number, number>();
    if (opts.queryVector && this.vectors.size) {
      const qv = opts.queryVector;
      for (let d = 0; d < this.chunks.length; d++) {
        const ch = this.chunks[d];
        if (!ch || (allowChunk && !allowChunk(d))) continue;
        const v = this.vectors.get(ch.hash);
        if (!v) continue;
        let s = 0;
        for (let i = 0; i < v.length; i++) s += v[i]! * qv[i]!;
        denseChunk.set(d, s);
        const fd = this.chunkFile[d]!;
        const cur = denseFile.get(fd);
        if (cur === undefined || s > cur) denseFile.set(fd, s);
      }
    }
    const lexRank = rankMap(lexFile);
    const denseRank = rankMap(denseFile);
    const fused = new Map<number, number>();
    const useDense = denseFile.size > 0;
    for (const fd of new Set([...lexFile.keys(), ...(useDense ? topKeys(denseFile, 100) : [])])) {
      const lr = lexRank.get(fd);
      const dr = denseRank.get(fd);
      let s = 0;
      if (lr !== undefined) s += 1 / (p.rrfK + lr);
      if (useDense && dr !== undefined && dr <= 100) {
        const entry = this.fileByDoc[fd]!;
        s += (entry.test && !parsed.aboutTests ? p.testFactor : 1) / (p.rrfK + dr);
      }
      fused.set(fd, s);
    }
    const orderedFiles = [...fused].sort((a, b) => b[1] - a[1]);
    const top = orderedFiles[0]?.[1] ?? 1;
    const hits: Hit[] = [];
    let fileRank = 0;
    for (const [fd, fs] of orderedFiles) {
      if (hits.length >= limit) break;
      if (fs < top * p.floor) break;
      const entry = this.fileByDoc[fd]!;
      fileRank++;
      const ranked = entry.chunks
        .map((d) => ({ d, s: c.scores[d]! / maxC + (denseChunk.get(d) ?? 0) }))
        .sort((a, b) => b.s - a.s);
      const best = ranked[0]!.s;
      const pick = ranked.filter((r, i) => i === 0 || (r.s > 0 && r.s >= best * 0.6)).slice(0, p.perFileCap);
      for (const r of pick) {
        if (hits.length >= limit) break;
        const ch = this.chunks[r.d]!;
        hits.push({
          chunk: ch,
          score: Math.max(0, Math.min(1, (fs / top) * (r === pick[0] ? 1 : 0.9))),
          bm25: c.scores[r.d] || undefined,
          dense: denseChunk.get(r.d),
          bm25Rank: lexRank.get(fd),
          denseRank: denseRank.get(fd),
          matched: q.filter((t) => this.chunkIdx.has(r.d, t.term)).map((t) => t.term.replace(/^=/, '')).slice(0, 12),
          fileRank,
        });
      }
    }
    return { hits, parsed };
  }

  /** The terms worth scoring: known to the index, most telling first. */
  private topTerms(list: QueryTerm[]): QueryTerm[] {
    const scored = list
      .map((t) => ({ t, v: t.weight * this.chunkIdx.idf(t.term), df: this.chunkIdx.docFreq(t.term) }))
      .filter((x) => x.df > 0);
    scored.sort((a, b) => b.v - a.v);
    return scored.slice(0, MAX_QUERY_TERMS).map((x) => x.t);
  }
}

function rankMap(scores: Map<number, number>): Map<number, number> {
  const order = [...scores].sort((a, b) => b[1] - a[1]);
  const out = new Map<number, number>();
  order.forEach(([k], i) => out.set(k, i + 1));
  return out;
}

function topKeys(scores: Map<number, number>, n: number): number[] {
  return [...scores].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
}
