/**
 * What `askcode bench index` needs of the index beyond the product's API: a count of what the
 * embedding queue embedded (through its options), the texts a run would embed, and synthetic
 * chunks to time the real query path at 100k chunks. Kept here so the product carries none of it.
 */
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { EmbeddingOptions } from '../../core/options';
import type { ChunkRecord, SearchEngine } from '../../index/searchEngine';
import { embedText, sampleEvenly } from '../../index/embeddings';

/** Embedding options that sample `limit` chunks per run and count what was embedded. */
export class EmbedCounter {
  /** Content hashes embedded by this process (two runs are compared). */
  readonly hashes = new Set<string>();
  /** Embeds counted since start: what `bench index` reports as re-embedded on a rerun. */
  count = 0;
  readonly options: EmbeddingOptions;

  constructor(limit: number) {
    this.options = {
      limit,
      onEmbedded: (hs) => {
        for (const h of hs) this.hashes.add(h);
        this.count += hs.length;
      },
    };
  }
}

/** The texts the next embedding run would embed, in its order (cheapest first, sampled like it). */
export function pendingEmbedTexts(engine: SearchEngine, limit = Infinity): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of engine.allChunks()) {
    if (engine.hasVector(c.hash) || seen.has(c.hash)) continue;
    seen.add(c.hash);
    out.push(embedText(c));
  }
  return sampleEvenly(out.sort((a, b) => a.length - b.length), limit);
}

/** The embedding text of every distinct chunk (the static model's throughput is over all of them). */
export function allEmbedTexts(engine: SearchEngine): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of engine.allChunks()) {
    if (seen.has(c.hash)) continue;
    seen.add(c.hash);
    out.push(embedText(c));
  }
  return out;
}

/**
 * `n` more chunks copied from the indexed ones under synthetic paths, with random unit vectors
 * when `dims` is given, so the real query path can be timed at scale.
 */
export function addSyntheticChunks(engine: SearchEngine, n: number, dims?: number): void {
  const real = [...engine.allChunks()];
  if (!real.length) return;
  const perFile = 8;
  for (let f = 0; f * perFile < n; f++) {
    const key = path.join('/synthetic', String(f));
    const recs: ChunkRecord[] = [];
    for (let j = 0; j < perFile && f * perFile + j < n; j++) {
      const src = real[(f * perFile + j) % real.length]!;
      const hash = createHash('sha1').update(`synthetic${f}:${j}`).digest('hex');
      recs.push({ ...src, id: 'x' + hash.slice(0, 24), file: key, rel: `synthetic/${f}/${src.rel}`, hash });
    }
    engine.setFile(key, `synthetic/${f}/${recs[0]!.rel}`, recs);
    // After the file: a vector is kept only for a hash some live chunk has.
    if (dims) {
      for (const r of recs) {
        const v = new Float32Array(dims);
        let norm = 0;
        for (let i = 0; i < dims; i++) norm += (v[i] = Math.random() - 0.5) ** 2;
        for (let i = 0; i < dims; i++) v[i]! /= Math.sqrt(norm);
        engine.setVector(r.hash, v);
      }
    }
  }
  // As the indexing and embedding runs that would have added them end.
  engine.trim();
}
