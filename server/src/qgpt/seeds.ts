import { Buffer } from 'node:buffer';
import type { Retriever, Snippet } from '../core/interfaces';
import type { RelevantQGPTSeed, Seed, SnippetInfo } from '../protocol/wire';
import { invalid, notFound, tooLarge } from '../core/errors';
import { isObject, describe, clip, MAX_RELEVANT, MAX_SEED_CHARS } from './validate';

/** A snippet an answer may quote: from the index (by id) or inline (a seed's fragment string). */
export interface Passage {
  /** Position in the request's `relevant` list. */
  index: number;
  id?: string;
  path?: string;
  startLine?: number;
  endLine?: number;
  text: string;
  language?: string;
  symbol?: string;
  /** The retriever's fused score in [0, 1], when the passage came from relevance. */
  retrieval?: number;
  /** The entry as the caller sent it (kept on conversation messages). */
  entry: RelevantQGPTSeed;
}

/** The fragment string of a seed, or undefined when it has none. Throws when it is malformed. */
export function seedFragment(seed: unknown, field: string): { text: string; ext?: string } | undefined {
  if (seed === undefined || seed === null) return undefined;
  if (!isObject(seed)) throw invalid(`${field} must be an object, got ${describe(seed)}`, field);
  const asset = (seed as Seed).asset as unknown;
  if (asset === undefined) return undefined;
  if (!isObject(asset)) throw invalid(`${field}.asset must be an object, got ${describe(asset)}`, `${field}.asset`);
  const format = asset.format;
  if (!isObject(format)) return undefined;
  const fragment = format.fragment;
  if (!isObject(fragment)) return undefined;
  const ext = isObject(fragment.metadata) && typeof fragment.metadata.ext === 'string' ? fragment.metadata.ext : undefined;
  const str = fragment.string;
  if (str === undefined) return undefined;
  const f = `${field}.asset.format.fragment.string`;
  if (!isObject(str)) throw invalid(`${f} must be an object, got ${describe(str)}`, f);
  if (str.raw !== undefined) {
    if (typeof str.raw !== 'string') throw invalid(`${f}.raw must be a string, got ${describe(str.raw)}`, `${f}.raw`);
    return { text: str.raw, ext };
  }
  if (str.base64 !== undefined) {
    if (typeof str.base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(str.base64)) {
      throw invalid(`${f}.base64 must be a base64 string`, `${f}.base64`);
    }
    return { text: Buffer.from(str.base64, 'base64').toString('utf8'), ext };
  }
  return undefined;
}

function lineNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined;
}

function fromSnippet(index: number, s: Snippet, entry: RelevantQGPTSeed): Passage {
  return {
    index,
    id: s.id,
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    text: s.text,
    language: s.language,
    symbol: s.symbol,
    retrieval: s.info?.score ?? entry.askcode?.score,
    entry,
  };
}

/**
 * Resolves `relevant.iterable`: each entry needs an `id` from a relevance call or a seed with a
 * fragment string. An id that no longer resolves (the file changed) falls back to the entry's
 * own fragment when it carries one, since relevance returns both.
 */
export async function resolveRelevant(relevant: unknown, retriever: Retriever, field = 'relevant'): Promise<Passage[]> {
  if (!isObject(relevant)) throw invalid(`${field} must be an object with an 'iterable' array, got ${describe(relevant)}`, field);
  const list = relevant.iterable;
  if (!Array.isArray(list)) throw invalid(`${field}.iterable must be an array, got ${describe(list)}`, `${field}.iterable`);
  if (list.length > MAX_RELEVANT) throw tooLarge(`${field}.iterable has ${list.length} entries; the limit is ${MAX_RELEVANT}`, `${field}.iterable`);
  const out: Passage[] = [];
  let chars = 0;
  for (let i = 0; i < list.length; i++) {
    const f = `${field}.iterable[${i}]`;
    const e: unknown = list[i];
    if (!isObject(e)) throw invalid(`${f} must be an object, got ${describe(e)}`, f);
    const entry = e as RelevantQGPTSeed;
    if (entry.id !== undefined && typeof entry.id !== 'string') throw invalid(`${f}.id must be a string, got ${describe(entry.id)}`, `${f}.id`);
    const fragment = seedFragment(e.seed, `${f}.seed`);
    let passage: Passage | undefined;
    if (typeof entry.id === 'string') {
      const s = entry.id ? await retriever.snippet(entry.id) : null;
      if (s) passage = fromSnippet(i, s, entry);
      else if (!fragment) throw notFound(`${f}.id '${clip(entry.id)}' was not returned by a relevance call (or its file changed since); send a seed with a fragment string instead`, `${f}.id`);
    }
    if (!passage) {
      if (!fragment) throw invalid(`${f} needs an 'id' returned by relevance or a 'seed' with a fragment string (seed.asset.format.fragment.string.raw)`, f);
      if (!fragment.text.trim()) throw invalid(`${f}.seed fragment string is empty`, `${f}.seed.asset.format.fragment.string.raw`);
      const info: SnippetInfo | undefined = isObject(e.askcode) ? (e.askcode as unknown as SnippetInfo) : undefined;
      passage = {
        index: i,
        id: typeof entry.id === 'string' && entry.id ? entry.id : undefined,
        path: typeof entry.path === 'string' && entry.path ? entry.path : undefined,
        startLine: lineNumber(info?.startLine),
        endLine: lineNumber(info?.endLine),
        text: fragment.text,
        language: fragment.ext ?? (typeof info?.language === 'string' ? info.language : undefined),
        symbol: typeof info?.symbol === 'string' ? info.symbol : undefined,
        retrieval: typeof info?.score === 'number' && info.score >= 0 && info.score <= 1 ? info.score : undefined,
        entry,
      };
    }
    chars += passage.text.length;
    if (chars > MAX_SEED_CHARS) throw tooLarge(`${field} carries more than ${MAX_SEED_CHARS} characters of snippet text`, f);
    out.push(passage);
  }
  return out;
}

/** `path:12-30`, or `snippet 2` for an inline seed with no path. */
export function placeOf(p: Passage): string {
  if (!p.path) return `snippet ${p.index + 1}`;
  if (p.startLine === undefined) return p.path;
  return p.endLine !== undefined && p.endLine !== p.startLine ? `${p.path}:${p.startLine}-${p.endLine}` : `${p.path}:${p.startLine}`;
}

/** Paths inside a workspace folder are cited relative to it: shorter, and what a reader knows. */
export function relativize(passages: Passage[], folders: string[]): Passage[] {
  const roots = folders.map((f) => f.replace(/[\\/]+$/, '')).sort((a, b) => b.length - a.length);
  return passages.map((p) => {
    if (!p.path || !(p.path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p.path))) return p;
    const root = roots.find((r) => p.path!.startsWith(r + '/') || p.path!.startsWith(r + '\\'));
    return root ? { ...p, path: p.path.slice(root.length + 1).split('\\').join('/') } : p;
  });
}
