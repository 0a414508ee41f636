import type { z } from 'zod';
import type { RelevantQGPTSeed } from '../protocol/wire';
import type { RelevanceInputSchema } from '../protocol/qgpt';
import { askcodeApplication, fragmentSeed, platformOf, seedFragment, FRAGMENT_FIELD } from '../protocol/seeds';
import { invalid } from '../core/errors';
import type { Hit } from '../index/searchEngine';
import type { Space } from '../index/workspaceIndex';
import type { Passage } from '../qgpt/seeds';

/**
 * Where the index's hits meet qgpt's passages and the wire: a hit becomes a passage once (what an
 * answer quotes) and a RelevantQGPTSeed only for the reply.
 */

export type RelevanceInput = z.output<typeof RelevanceInputSchema>;

const APPLICATION = askcodeApplication(platformOf(process.platform));

/** The one query space of a (schema-checked) relevance input; two, or none, is refused naming the field. */
export function spaceOf(i: RelevanceInput): Space {
  const given: string[] = [];
  if (i.paths != null) given.push('paths');
  if (i.seeds != null) given.push('seeds');
  if (i.assets != null) given.push('assets');
  if (i.options?.database === true) given.push('options.database');
  if (given.length === 0) throw invalid('give exactly one query space: paths, seeds, assets or options.database: true', 'paths');
  if (given.length > 1) throw invalid(`give exactly one query space, not ${given.join(' and ')}`, given[1]);
  if (i.paths) return { kind: 'paths', paths: i.paths };
  if (i.seeds) return { kind: 'seeds', seeds: i.seeds.iterable.map((s, k) => requireFragment(s, `seeds.iterable[${k}]`)) };
  if (i.assets) return { kind: 'assets', ids: i.assets.iterable.map((a) => a.id) };
  return { kind: 'database' };
}

/** The fragment string a seed must carry here (a file, bytes or an anchor is not searched). */
export function requireFragment(seed: Parameters<typeof seedFragment>[0], field: string): { text: string; ext?: string } {
  const f = seedFragment(seed);
  if (!f) throw invalid(`${field} has no fragment string: only seeds with asset.format.fragment.string.raw are searched`, `${field}.${FRAGMENT_FIELD}`);
  return f;
}

const round = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1e4) / 1e4);

/** Where a hit is shown: its absolute file, or for a seed or a saved asset, its name. */
function placeOf(h: Hit): string {
  const c = h.chunk;
  return c.file.startsWith('seed:') || c.file.startsWith('asset:') ? c.rel : c.file;
}

/** A hit as the wire's RelevantQGPTSeed (fragment seed, path, and askcode's "why"). */
export function hitToSeed(h: Hit): RelevantQGPTSeed {
  const c = h.chunk;
  const symbol = h.symbol ?? c.symbol;
  const assetId = c.file.startsWith('asset:') ? c.file.slice(6) : undefined;
  const seed: RelevantQGPTSeed = {
    id: c.id,
    seed: fragmentSeed(c.text, c.ext, APPLICATION, { name: symbol ? `${c.rel} · ${symbol}` : c.rel }),
    path: placeOf(h),
    askcode: {
      startLine: c.startLine,
      endLine: c.endLine,
      language: c.language,
      symbol,
      score: round(h.score) ?? 0,
      scores: { bm25: round(h.bm25), dense: round(h.dense), fused: round(h.score) ?? 0, bm25Rank: h.bm25Rank, denseRank: h.denseRank },
      matched: h.matched,
    },
  };
  if (assetId) seed.asset = { id: assetId };
  return seed;
}

/** A hit as a passage an answer may quote; `entry` is the seed the reply carries for it. */
export function hitToPassage(h: Hit, index: number, entry: RelevantQGPTSeed): Passage {
  const c = h.chunk;
  return {
    index,
    id: c.id,
    path: placeOf(h),
    startLine: c.startLine,
    endLine: c.endLine,
    text: c.text,
    language: c.language,
    symbol: h.symbol ?? c.symbol,
    retrieval: entry.askcode?.score,
    entry,
  };
}
