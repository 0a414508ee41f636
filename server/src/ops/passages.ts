import type { Application, QGPTRelevanceInput, RelevantQGPTSeed, Seed } from '../protocol/wire';
import { invalid } from '../core/errors';
import { isObject, requireQuery, describe } from '../qgpt/validate';
import type { Hit } from '../index/searchEngine';
import type { Space } from '../index/workspaceIndex';
import type { Passage } from '../qgpt/seeds';

/**
 * Where the index's hits meet qgpt's passages and the wire: a hit becomes a passage once (what an
 * answer quotes) and a RelevantQGPTSeed only for the reply.
 */

/** The Application every seed we emit carries (the wire requires a full one inside SeededAsset). */
export const ASKCODE_APPLICATION: Application = {
  id: 'askcode',
  name: 'OPEN_SOURCE',
  version: process.env.ASKCODE_VERSION ?? '0.1.0',
  platform: process.platform === 'win32' ? 'WINDOWS' : process.platform === 'darwin' ? 'MACOS' : 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

const MAX_PATHS = 100;
const MAX_SEEDS = 200;

/** The fragment string of a seed; anything else (a file, bytes, an anchor) is a clear error. */
export function fragmentOf(seed: unknown, field: string): { text: string; ext?: string } {
  if (!isObject(seed)) throw invalid(`${field} must be a Seed object, got ${describe(seed)}`, field);
  const asset = (seed as Seed).asset;
  const fragment = isObject(asset) && isObject(asset.format) ? asset.format.fragment : undefined;
  const raw = isObject(fragment) && isObject(fragment.string) ? fragment.string.raw : undefined;
  if (typeof raw !== 'string') {
    throw invalid(`${field} has no fragment string: only seeds with asset.format.fragment.string.raw are searched`, `${field}.asset.format.fragment.string.raw`);
  }
  const ext = isObject(fragment) && isObject(fragment.metadata) && typeof fragment.metadata.ext === 'string' ? fragment.metadata.ext : undefined;
  return { text: raw, ext };
}

export function validateRelevance(input: unknown): { query: string; space: Space; question: boolean } {
  if (!isObject(input)) throw invalid(`the request must be a QGPTRelevanceInput object, got ${describe(input)}`, 'query');
  const i = input as Partial<QGPTRelevanceInput> & Record<string, unknown>;
  const query = requireQuery(i.query);
  if (i.options !== undefined && i.options !== null && !isObject(i.options)) throw invalid('options must be an object', 'options');
  const options = (i.options ?? {}) as Record<string, unknown>;
  if (options.database !== undefined && options.database !== null && typeof options.database !== 'boolean') throw invalid('options.database must be a boolean', 'options.database');
  if (options.question !== undefined && options.question !== null && typeof options.question !== 'boolean') throw invalid('options.question must be a boolean', 'options.question');
  const given: string[] = [];
  if (i.paths !== undefined && i.paths !== null) given.push('paths');
  if (i.seeds !== undefined && i.seeds !== null) given.push('seeds');
  if (i.assets !== undefined && i.assets !== null) given.push('assets');
  if (options.database === true) given.push('options.database');
  if (given.length === 0) throw invalid('give exactly one query space: paths, seeds, assets or options.database: true', 'paths');
  if (given.length > 1) throw invalid(`give exactly one query space, not ${given.join(' and ')}`, given[1]);
  let space: Space;
  switch (given[0]) {
    case 'paths': {
      if (!Array.isArray(i.paths) || !i.paths.length) throw invalid('paths must be a non-empty array of absolute paths', 'paths');
      if (i.paths.length > MAX_PATHS) throw invalid(`paths has ${i.paths.length} entries; the limit is ${MAX_PATHS}`, 'paths');
      i.paths.forEach((p, k) => {
        if (typeof p !== 'string' || !p) throw invalid(`paths[${k}] must be a path string, got ${describe(p)}`, `paths[${k}]`);
        if (!isAbsolute(p)) throw invalid(`paths[${k}] must be an absolute path: ${p}`, `paths[${k}]`);
      });
      space = { kind: 'paths', paths: i.paths as string[] };
      break;
    }
    case 'seeds': {
      const it = isObject(i.seeds) ? i.seeds.iterable : undefined;
      if (!Array.isArray(it) || !it.length) throw invalid('seeds.iterable must be a non-empty array of seeds', 'seeds.iterable');
      if (it.length > MAX_SEEDS) throw invalid(`seeds has ${it.length} entries; the limit is ${MAX_SEEDS}`, 'seeds.iterable');
      space = { kind: 'seeds', seeds: it.map((s, k) => fragmentOf(s, `seeds.iterable[${k}]`)) };
      break;
    }
    case 'assets': {
      const it = isObject(i.assets) ? i.assets.iterable : undefined;
      if (!Array.isArray(it) || !it.length) throw invalid('assets.iterable must be a non-empty array of {id}', 'assets.iterable');
      space = {
        kind: 'assets',
        ids: it.map((a, k) => {
          const id = isObject(a) ? a.id : undefined;
          if (typeof id !== 'string' || !id) throw invalid(`assets.iterable[${k}].id must be an asset id`, `assets.iterable[${k}].id`);
          return id;
        }),
      };
      break;
    }
    default:
      space = { kind: 'database' };
  }
  return { query, space, question: options.question === true };
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
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
  const assetId = c.file.startsWith('asset:') ? c.file.slice(6) : undefined;
  const seed: RelevantQGPTSeed = {
    id: c.id,
    seed: {
      type: 'SEEDED_ASSET',
      asset: {
        application: ASKCODE_APPLICATION,
        format: { fragment: { string: { raw: c.text }, metadata: { ext: c.ext } } },
        metadata: { name: c.symbol ? `${c.rel} · ${c.symbol}` : c.rel },
      },
    },
    path: placeOf(h),
    askcode: {
      startLine: c.startLine,
      endLine: c.endLine,
      language: c.language,
      symbol: c.symbol,
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
    symbol: c.symbol,
    retrieval: entry.askcode?.score,
    entry,
  };
}
