/**
 * Fusing the lexical (BM25) and dense (embedding) file rankings into one. Files are numbers
 * (the engine's file docs); each signal gives its files best first and a score per file. Every
 * fused file keeps its rank in each signal, so a hit can say why it was chosen.
 *
 * Methods (picked on the dev sets, see `bench retrieval --fusion`):
 *   rrf     weighted reciprocal-rank fusion: 1/(k + lexRank) + denseW/(k + denseRank)
 *   score   weighted scores: lex/maxLex + denseW * (1 - (maxSim - sim)/span) over the dense top files, where
 *           span = max(maxSim - minSim, denseSpanMin)
 *   rerank  dense only re-orders the lexical top `rerankK` (lex/maxLex + denseW * scaled sim); it brings no new file
 */

export type FusionMethod = 'rrf' | 'score' | 'rerank';

export interface FusionParams {
  fusion: FusionMethod;
  rrfK: number;
  /** Weight of the dense signal against the lexical one (1: equal). */
  denseW: number;
  rerankK: number;
  /**
   * The dense similarities are scaled down from the best file over at least this span (0: the
   * best file 1, the worst 0). Among two or three files a small difference in similarity would
   * otherwise count as the whole range: in a two-file project, "How is the cart total computed?"
   * cited `checkout.ts`, which calls `cartTotal`, before `cart.ts`, which defines it.
   */
  denseSpanMin?: number;
}

export interface FusionInput {
  /** Lexical files, best first, and their scores (indexed by file). */
  lexFiles: number[];
  lex: ArrayLike<number>;
  /** Dense files, best first, and their best chunk similarity (indexed by file). */
  denseFiles: number[];
  sim: ArrayLike<number>;
  /** A factor on the dense contribution of a file (tests pushed down unless asked about). */
  denseFactor(file: number): number;
  nFiles: number;
  /** Zeroed arrays of `nFiles` to fill instead of new ones (the engine reuses them per query). */
  scratch?: { score: Float64Array; lexRank: Int32Array; denseRank: Int32Array };
}

export interface Fused {
  /** Files best first. */
  files: number[];
  score: Float64Array;
  /** 1-based rank in each signal, 0 when the signal did not rank the file. */
  lexRank: Int32Array;
  denseRank: Int32Array;
}

export function fuse(input: FusionInput, p: FusionParams): Fused {
  const { lexFiles, lex, denseFiles, sim, nFiles } = input;
  const lexRank = input.scratch?.lexRank ?? new Int32Array(nFiles);
  lexFiles.forEach((fd, i) => (lexRank[fd] = i + 1));
  const denseRank = input.scratch?.denseRank ?? new Int32Array(nFiles);
  denseFiles.forEach((fd, i) => (denseRank[fd] = i + 1));
  const score = input.scratch?.score ?? new Float64Array(nFiles);
  const files: number[] = [];
  const maxLex = lexFiles.length ? lex[lexFiles[0]!]! || 1 : 1;
  let maxSim = -Infinity;
  let minSim = Infinity;
  for (const fd of denseFiles) {
    maxSim = Math.max(maxSim, sim[fd]!);
    minSim = Math.min(minSim, sim[fd]!);
  }
  const span = Math.max(maxSim - minSim, p.denseSpanMin ?? 0);
  // One dense file (or all alike) is the dense signal's best: it scores as the best.
  const scaled = (fd: number) => (denseRank[fd] ? (span > 0 ? 1 - (maxSim - sim[fd]!) / span : 1) : 0);

  if (p.fusion === 'rerank') {
    const k = Math.min(p.rerankK, lexFiles.length);
    const head = lexFiles.slice(0, k);
    for (const fd of head) score[fd] = lex[fd]! / maxLex + p.denseW * input.denseFactor(fd) * scaled(fd);
    head.sort((a, b) => score[b]! - score[a]!);
    // The tail keeps its lexical order, below every re-ranked file.
    const floor = head.length ? Math.min(...head.map((fd) => score[fd]!)) : 1;
    lexFiles.slice(k).forEach((fd, i) => (score[fd] = Math.min(floor, lex[fd]! / maxLex) * (1 - 1e-6 * (i + 1))));
    files.push(...head, ...lexFiles.slice(k));
    return { files, score, lexRank, denseRank };
  }
  const add = (fd: number) => {
    if (score[fd]! > 0) return;
    // The dense part only for the files the dense signal ranked (a query can touch most files).
    const dense = denseRank[fd] ? p.denseW * input.denseFactor(fd) : 0;
    let s: number;
    if (p.fusion === 'score') s = (lexRank[fd] ? lex[fd]! / maxLex : 0) + (dense ? dense * scaled(fd) : 0);
    else s = (lexRank[fd] ? 1 / (p.rrfK + lexRank[fd]!) : 0) + (dense ? dense / (p.rrfK + denseRank[fd]!) : 0);
    if (s <= 0) return;
    score[fd] = s;
    files.push(fd);
  };
  for (const fd of lexFiles) add(fd);
  for (const fd of denseFiles) add(fd);
  sortTop(files, score, SORTED_FILES);
  return { files, score, lexRank, denseRank };
}

/** Files put in exact order by score (sortTop); those after them only need to be below them. */
export const SORTED_FILES = 1000;

/**
 * Orders `files` so that the `k` best by `score` come first, best first, and the rest after them
 * in no particular order: a query can touch ten thousand files and only the head is ever shown or
 * fused by rank (a full sort was a tenth of a query's time at 100k chunks).
 */
export function sortTop(files: number[], score: ArrayLike<number>, k: number): void {
  const n = files.length;
  if (n <= k * 2) {
    files.sort((a, b) => score[b]! - score[a]!);
    return;
  }
  // The k-th best score, from a typed sort of the scores (no comparator calls, no garbage).
  if (sortScratch.length < n) sortScratch = new Float64Array(n * 2);
  const values = sortScratch.subarray(0, n);
  for (let i = 0; i < n; i++) values[i] = score[files[i]!]!;
  values.sort();
  const cut = values[n - k]!;
  // The files at or above it to the front, in place; then those put in order.
  let h = 0;
  for (let i = 0; i < n; i++) {
    const fd = files[i]!;
    if (score[fd]! >= cut) {
      files[i] = files[h]!;
      files[h++] = fd;
    }
  }
  const head = files.slice(0, h).sort((a, b) => score[b]! - score[a]!);
  for (let i = 0; i < h; i++) files[i] = head[i]!;
}
let sortScratch = new Float64Array(0);

