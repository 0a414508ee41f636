import { stemmer } from 'stemmer';

/**
 * Code-aware terms: identifiers are split on camelCase, snake_case, kebab-case and digits, the
 * whole identifier is kept too, everything is lower-cased and stemmed, so `parseHTTPRequests`
 * matches "parse http request". LanceDB's full-text tokenizer does none of this (ARCHITECTURE.md).
 */

const STOP = new Set(
  ('a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its ' +
    'just may me might more most must my no nor not now of off on once only or other our out over own same shall ' +
    'should so some such than that the their them then there these they this those through to too under until up ' +
    'us very was we were what when where which while who whom why will with would you your yes also via etc ' +
    'e g eg ie let lets get gets got make makes made use used uses using want wants need needs like will ' +
    'th st nd rd')
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that carry structure in code but no meaning for search. */
const CODE_NOISE = new Set(['const', 'var', 'return', 'self', 'this', 'true', 'false', 'def', 'fn', 'func']);

/**
 * "No value" as code spells the literal (`None`, `null`, `NULL`, `undefined`): everywhere in code,
 * so no word. Any other spelling is one: jinja's class `Undefined`, `StrictUndefined`, `is_none`,
 * and a question's "undefined" ({@link noValueTerms}). Dropping every spelling, as before, left
 * "what happens when a variable is undefined?" with no word for jinja's `Undefined`; keeping the
 * literals too moved two SWE-QA dev questions down a place (their files' lengths changed).
 */
const NO_VALUE_LITERAL = new Set(['None', 'null', 'NULL', 'undefined']);

/** The terms of a question's words for "no value" spelled as code's literal ("… is undefined?", "returns None"), which {@link terms} leaves out. */
export function noValueTerms(text: string): string[] {
  return [...text.matchAll(WORD)].filter((m) => NO_VALUE_LITERAL.has(m[0])).map((m) => stem(m[0].toLowerCase()));
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+[A-Za-z_][A-Za-z0-9_]*/g;
const MAX_TERM = 40;

const stemCache = new Map<string, string>();
export function stem(w: string): string {
  let s = stemCache.get(w);
  if (s === undefined) {
    s = w.length <= 3 ? w : stemmer(w);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(w, s);
  }
  return s;
}

/** The parts of one identifier: `getHTTPResponse2x_fast` → get, http, response, 2x, fast. */
export function splitIdentifier(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // An acronym's plural is one word: "URLs" → urls, not "UR Ls"; "IDs" → ids.
    .replace(/([A-Z]{2,})s(?![a-z])/g, (_, acronym: string) => ` ${acronym.toLowerCase()}s `)
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

function keepPart(p: string): boolean {
  return p.length >= 2 && p.length <= MAX_TERM && !/^[0-9]+$/.test(p);
}

export interface TermOptions {
  /** Drop stop words (queries and prose); code bodies keep them out too, they only add noise. */
  stop?: boolean;
}

/**
 * Terms of a text, in order, with repeats (term frequency matters). For an identifier with parts,
 * the whole (lower-cased, unstemmed, prefixed `=`) comes first so exact identifiers score extra.
 */
export function terms(text: string, out: string[] = []): string[] {
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    let t = wordCache.get(word);
    if (!t) {
      t = wordTerms(word);
      // Code reuses a small vocabulary: caching a word's terms made indexing ~3× faster.
      if (wordCache.size > 500_000) wordCache.clear();
      wordCache.set(word, t);
    }
    for (const x of t) out.push(x);
  }
  return out;
}

const wordCache = new Map<string, string[]>();

function wordTerms(word: string): string[] {
  const out: string[] = [];
  if (NO_VALUE_LITERAL.has(word)) return out;
  const parts = splitIdentifier(word);
  if (parts.length > 1) {
    const whole = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    if (whole.length >= 3 && whole.length <= MAX_TERM) out.push('=' + whole);
  }
  for (const p0 of parts) {
    const p = p0.toLowerCase();
    if (!keepPart(p) || STOP.has(p) || CODE_NOISE.has(p)) continue;
    out.push(stem(p));
  }
  return out;
}

/** Terms of a path: folder and file names split like identifiers (`src/helper/accepts/accepts.ts`). */
export function pathTerms(relPath: string): string[] {
  const out: string[] = [];
  const noExt = relPath.replace(/\.[A-Za-z0-9]+$/, '');
  for (const seg of noExt.split(/[\\/]/)) {
    if (!seg) continue;
    const from = out.length;
    terms(seg.replace(/[.\-]/g, '_'), out);
    // A folder or file named for an agent (`router/`, `handler.ts`, `parser.py`) is found by its
    // verb too ("routing", "handle", "parsing"), which the stemmer keeps apart.
    for (let i = from, end = out.length; i < end; i++) {
      const t = out[i]!;
      if (t.endsWith('er') && !t.startsWith('=') && t.length >= 6) out.push(stem(t.slice(0, -2)));
    }
    const whole = seg.toLowerCase();
    if (whole.length >= 2) out.push('=' + whole.replace(/[.\-]/g, '_'));
  }
  return out;
}

export function isStopWord(w: string): boolean {
  return STOP.has(w);
}

/**
 * The runs of `min`…`max` neighbouring words of a text, lower-cased: words are the matches of
 * `token` that `keep` accepts (another breaks a run), each apart from the one before by a gap
 * `gap` accepts (`Matrix.zeros` is two names, not the words "matrix zeros").
 */
export function wordRuns(text: string, token: RegExp, keep: (word: string) => boolean, gap: RegExp, min: number, max: number): string[][] {
  const words: string[] = [];
  const apart: boolean[] = [];
  let end = -1;
  for (const m of text.matchAll(token)) {
    words.push(keep(m[0]) ? m[0].toLowerCase() : '');
    apart.push(end >= 0 && gap.test(text.slice(end, m.index)));
    end = m.index + m[0].length;
  }
  const out: string[][] = [];
  for (let n = min; n <= max; n++) {
    for (let i = 0; i + n <= words.length; i++) {
      const run = words.slice(i, i + n);
      if (!run.includes('') && !apart.slice(i + 1, i + n).includes(false)) out.push(run);
    }
  }
  return out;
}
