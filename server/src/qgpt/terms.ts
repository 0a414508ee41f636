import { stemmer } from 'stemmer';
import { analyzeQuestion, dottedPaths, isFramingWord, particularNames, withoutIdioms } from '../index/question';
import { splitIdentifier as identifierParts } from '../index/tokens';
import { americanSpellings, irregularVerbs, phrasalVerbs, synonymsOf } from '../index/acronyms';
import { versionedNames } from '../index/query';

/**
 * Code-aware terms of a question or a snippet: identifiers split on case, `_`, `-`, digits and
 * `.`, with the original identifier kept, lower-cased; English function words dropped.
 */

const STOP = new Set(
  ('a an and are as at be been but by can could did do does doing done for from had has have how i if in into is it its ' +
    'just me my no not of on or our please so such than that the their them then there these they this those to too ' +
    'use used uses using was we were what when where which while who why will with would you your about also any ' +
    'get got make made need want should shall may might must one ones way there here some more most other')
    .split(/\s+/),
);

/** Words that name a kind of code thing; they help a question read but rarely discriminate. */
const KIND_WORDS = new Set(
  'function method class type interface variable constant file files module code snippet line lines return returns represent mean means work works used'.split(' '),
);

export interface QueryTerms {
  /** Distinct lower-case terms with their weight (identifiers and quoted names weigh more). */
  weights: Map<string, number>;
  /**
   * Status codes and the like the question names ("… a 404?"): lines that say them are the ones to
   * quote, but they choose no place (hono's "where is the 404 response produced?" is no question of
   * a type whose doc comment says 404).
   */
  codes: string[];
  /** The word as the question wrote it, for each key of `weights` (what the "why" line shows). */
  display: Map<string, string>;
  /**
   * Identifiers written as such in the question (backticks, camelCase, snake_case, dotted, call
   * syntax), and plain words its grammar makes names ("the Base class", "how does halt work?").
   */
  symbols: string[];
}

/**
 * A number of three or four digits is a status or a code ("what happens on a 404?", `404 =>
 * ResourceNotFound`): a word to quote by. Not an issue's number (`#313`) nor part of a version or
 * a decimal (`1.404`). The search does not index numbers: as words there they moved commit
 * messages' numbers onto other files (vite's "revert #313" body, pytest's) and found nothing new.
 */
const CODE_NUMBER = /(?<![#\w.$])[0-9]{3,4}(?!\w|\.\d)/g;

const IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*/g;
/** A name in a code span: Ruby's predicate or bang method keeps its `?` or `!`. */
const QUOTED_IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*(?:[?!](?![\w=]))?/g;

/** An identifier's parts as the index splits them ("JWTs" is one word, `jwts`), lower-cased, digits apart, two letters or more. */
export function splitIdentifier(word: string): string[] {
  return identifierParts(word)
    .flatMap((p) => p.split(/(?<=[0-9])(?=[A-Za-z])/))
    .map((p) => p.toLowerCase())
    .filter((p) => p.length > 1);
}

/** An abbreviation of single letters between dots: "e.g.", "i.e.", "a.k.a." (groupcache's "…, e.g. in tests?" had read `e.g` as code). */
const ABBREVIATION = /^(?:[A-Za-z]\.)+[A-Za-z]$/;

function looksLikeCode(word: string): boolean {
  if (ABBREVIATION.test(word)) return false;
  return /[a-z][A-Z]|_|\$|\./.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word);
}

/**
 * The stem key of a term (marked with `~` so it never equals an exact term): how "validated"
 * meets `validateToken` and "expire" meets `expiresAt`. Short or non-alphabetic terms have none.
 */
export function stemKey(term: string): string | undefined {
  return term.length <= 3 || /[^a-z]/.test(term) ? undefined : '~' + stemmer(term);
}

/**
 * How much of a query term's weight a text earns: all of it for the exact term, half for the same
 * stem only. The extractive answerer uses it to pick the lines it quotes, but ranks places by
 * exact terms: measured on qa.dev, ranking places by stems too cited a reference span for 70% of
 * questions, against 76% this way.
 */
export function termCredit(term: string, terms: Set<string>): number {
  if (terms.has(term)) return 1;
  const k = stemKey(term);
  return k !== undefined && terms.has(k) ? STEM_CREDIT : 0;
}
const STEM_CREDIT = 0.5;

/** Terms of free text (a snippet line, an answer): originals plus their parts, lower-cased, each also by its stem. */
export function textTerms(text: string): Set<string> {
  const out = new Set<string>();
  const put = (t: string) => {
    out.add(t);
    const k = stemKey(t);
    if (k) out.add(k);
  };
  for (const m of text.matchAll(IDENT_RE)) {
    const w = m[0];
    const low = w.toLowerCase();
    if (low.length > 1) put(low);
    for (const part of w.split('.')) if (part.length > 1) put(part.toLowerCase());
    for (const p of splitIdentifier(w)) put(p);
  }
  for (const m of text.matchAll(CODE_NUMBER)) out.add(m[0]);
  return out;
}

/** Words in a code span, not code: three or more plain words and nothing of code's punctuation or names. */
export function isQuotedProse(span: string): boolean {
  const words = span.trim().split(/\s+/);
  return words.length >= 3 && !/[()[\]{}=<>_$.:;/\\]/.test(span) && words.every((w) => /^[A-Za-z][a-z]*[,!?']?[a-z]*$/.test(w));
}

export function queryTerms(asked: string): QueryTerms {
  // `ConnectionPool::TimedStack.pop` is one name, not `ConnectionPool` and `TimedStack.pop`.
  const query = dottedPaths(asked);
  const weights = new Map<string, number>();
  const display = new Map<string, string>();
  const symbols: string[] = [];
  /** `shown`: the word as the question wrote it, when `t` is another form of it. */
  const add = (t: string, w: number, shown = t) => {
    if (t.length < 2 || STOP.has(t)) return;
    if (!display.has(t)) display.set(t, shown);
    weights.set(t, Math.max(weights.get(t) ?? 0, w));
  };
  const quoted = new Set<string>();
  // A code span of one line, not a fenced block: a pasted issue's output is no list of names.
  for (const m of query.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) {
    // A quoted message ("`Failed to fetch dynamically imported module`") is words, not names.
    if (isQuotedProse(m[1]!)) continue;
    // Ruby's `argument?` and `save!` keep their mark: `argument` is another name.
    for (const id of m[1].matchAll(QUOTED_IDENT_RE)) quoted.add(id[0]);
  }
  for (const m of query.matchAll(/([A-Za-z_$][A-Za-z0-9_$.]*)\(\)/g)) quoted.add(m[1]);
  // "The TypeAdapter for dates" is a particular one: its words, not the class's name.
  const particular = new Set(particularNames(query));
  for (const m of withoutIdioms(query).matchAll(IDENT_RE)) {
    const w = m[0];
    const asQuoted = [w, `${w}?`, `${w}!`].find((q) => quoted.has(q));
    const isSymbol = !!asQuoted || (looksLikeCode(w) && !particular.has(w));
    if (isSymbol && !symbols.includes(asQuoted ?? w)) symbols.push(asQuoted ?? w);
    const low = w.toLowerCase();
    // Words that name a kind of code or only frame the question count a little, as in the search.
    const base = KIND_WORDS.has(low) || isFramingWord(low) ? 0.3 : 1;
    add(low, isSymbol ? 3 : base);
    // An acronym's plural also means the acronym, as code names it ("JWTs" → `jwt`).
    if (/^[A-Z]{2,}s$/.test(w)) add(low.slice(0, -1), base, w);
    if (w.includes('.')) for (const part of w.split('.')) add(part.toLowerCase(), isSymbol ? 2.5 : base);
    for (const p of splitIdentifier(w)) if (p !== low) add(p, isSymbol ? 1 : base);
  }
  for (const q of quoted) if (!symbols.includes(q)) symbols.push(q);
  // A phrasal verb is also the one word code writes it as ("looked up" → lookup, find), at half
  // weight, as the search reads it.
  for (const w of phrasalVerbs(query)) add(w, 0.5);
  // "Built" is `build`, "sent" `send`, as the search reads them.
  for (const w of irregularVerbs(query)) add(w, 0.5);
  // "Optimiser" is `optimizer`, as the search reads it.
  for (const w of americanSpellings(query)) add(w, 1);
  // "Deleted" is Rails' `destroy` too, as the search reads it.
  for (const w of synonymsOf(query)) add(w, 0.5);
  // "HTTP/2" is `http2` in the code, as the search reads it.
  for (const v of versionedNames(query)) add(v.name, 1, v.written);
  // Names the question's grammar makes of plain words, as the search reads them: "the Base class",
  // "the compose function", "how does halt work?".
  for (const s of analyzeQuestion(query).symbols) {
    if (symbols.includes(s.name)) continue;
    symbols.push(s.name);
    // A possessive's `Router.navigate` is no term: the question wrote its words, which count as
    // words (as a term it matched an instance's `router.navigate` in another file).
    if (!s.name.includes('.')) add(s.name.toLowerCase(), 3, s.name);
  }
  // "What happens on a 404?": faraday's `404 => Faraday::ResourceNotFound`.
  const codes = [...new Set([...query.matchAll(CODE_NUMBER)].map((m) => m[0]))];
  return { weights, codes, display, symbols };
}

/** The last segment of a dotted name (`FixtureManager.getfixturedefs` → `getfixturedefs`). */
export function leafName(symbol: string): string {
  const i = symbol.lastIndexOf('.');
  return i >= 0 ? symbol.slice(i + 1) : symbol;
}
