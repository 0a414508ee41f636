import type { Retriever, Snippet } from '../core/interfaces';
import type { z } from 'zod';
import type { RelevantQGPTSeed, SnippetInfo } from '../protocol/wire';
import type { RelevantSeeds } from '../protocol/schema';
import { seedFragment, FRAGMENT_FIELD } from '../protocol/seeds';
import { invalid, notFound, tooLarge } from '../core/errors';
import { PROSE_FILE } from '../index/languages';

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
  /**
   * The question's qualified names that this passage defines, as the index resolved them, with
   * the definition's own name: `ILogger.Write` itself, or `Sanic.run` as `StartupMixin.run` (`via`
   * inheritance, as `Sanic` inherits `run`), or `Ctx.JSON` as `DefaultRes.JSON` (`via` implementing).
   */
  resolved?: { name: string; definition: string; via?: 'inherits' | 'implements' }[];
  /** The retriever's fused score in [0, 1], when the passage came from relevance. */
  retrieval?: number;
  /** The entry as the caller sent it (kept on conversation messages). */
  entry: RelevantQGPTSeed;
}

function lineNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined;
}

/** Total characters of inline seed text one request may carry (a prompt never needs more). */
export const MAX_SEED_CHARS = 2_000_000;

/** A `relevant` list as the protocol's schema lets it through. */
export type RelevantList = z.output<typeof RelevantSeeds>;

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

const clip = (s: string, n = 60) => (s.length > n ? s.slice(0, n) + '…' : s);

/**
 * The passages of a request's `relevant` list (its shape already checked): each entry needs an
 * `id` the index still holds or a seed with a fragment string. An id that no longer resolves (the
 * file changed) falls back to the entry's own fragment when it carries one, since relevance
 * returns both.
 */
export async function resolveRelevant(relevant: RelevantList, retriever: Retriever, field = 'relevant'): Promise<Passage[]> {
  const out: Passage[] = [];
  let chars = 0;
  for (let i = 0; i < relevant.iterable.length; i++) {
    const f = `${field}.iterable[${i}]`;
    const given = relevant.iterable[i]!;
    // Kept as the caller sent it (conversation records name its path); its shape was checked.
    const entry = given as unknown as RelevantQGPTSeed;
    const fragment = seedFragment(given.seed);
    let passage: Passage | undefined;
    if (typeof entry.id === 'string') {
      const s = entry.id ? await retriever.snippet(entry.id) : null;
      if (s) passage = fromSnippet(i, s, entry);
      else if (!fragment) throw notFound(`${f}.id '${clip(entry.id)}' was not returned by a relevance call (or its file changed since); send a seed with a fragment string instead`, `${f}.id`);
    }
    if (!passage) {
      if (!fragment) throw invalid(`${f} needs an 'id' returned by relevance or a 'seed' with a fragment string (seed.${FRAGMENT_FIELD})`, f);
      if (!fragment.text.trim()) throw invalid(`${f}.seed fragment string is empty`, `${f}.seed.${FRAGMENT_FIELD}`);
      const info = (typeof entry.askcode === 'object' && entry.askcode !== null ? entry.askcode : undefined) as Partial<SnippetInfo> | undefined;
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

const DOCUMENT_LANGUAGES = /^(markdown|md|rst|restructuredtext|text|plaintext|txt|asciidoc|adoc)$/i;

/** A passage of a document in prose: Markdown, reStructuredText, AsciiDoc, plain text (by its language or its file's name). */
export function isDocument(p: Pick<Passage, 'language' | 'path'>): boolean {
  return (p.language !== undefined && DOCUMENT_LANGUAGES.test(p.language)) || PROSE_FILE.test(p.path ?? '');
}

/** `path:12-30`, or `snippet 2` for an inline seed with no path. */
export function placeOf(p: Passage): string {
  if (!p.path) return `snippet ${p.index + 1}`;
  if (p.startLine === undefined) return p.path;
  return p.endLine !== undefined && p.endLine !== p.startLine ? `${p.path}:${p.startLine}-${p.endLine}` : `${p.path}:${p.startLine}`;
}

/** Paths inside a workspace folder are cited relative to it: shorter, and what a reader knows. */
export function relativize<T extends { path?: string }>(passages: T[], folders: string[]): T[] {
  const roots = folders.map((f) => f.replace(/[\\/]+$/, '')).sort((a, b) => b.length - a.length);
  return passages.map((p) => {
    if (!p.path || !(p.path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p.path))) return p;
    const root = roots.find((r) => p.path!.startsWith(r + '/') || p.path!.startsWith(r + '\\'));
    return root ? { ...p, path: p.path.slice(root.length + 1).split('\\').join('/') } : p;
  });
}
