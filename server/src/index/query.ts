import { terms, pathTerms, splitIdentifier, stem, isStopWord, noValueTerms, wordRuns } from './tokens';
import type { QueryTerm } from './bm25';
import { analyzeQuestion, withoutIdioms, withoutTestDomain, type QuestionInfo } from './question';
import { abbreviationsOf, acronymPhrases, americanSpellings, irregularVerbs, phrasalVerbs, specialMethods, synonymsOf } from './acronyms';

/** A question, commit message or issue text turned into weighted search terms and path hints. */
export interface ParsedQuery {
  terms: QueryTerm[];
  /** Terms that name a place (a commit scope such as `fix(router):`), matched against paths. */
  pathTerms: QueryTerm[];
  /** Lower-cased path fragments the text names outright (`src/foo/bar.py`, `foo.bar.baz`). */
  pathHints: string[];
  /**
   * Literal text a question quotes or a number it names ("the 'No such file' error", "the 404
   * response"), searched verbatim in the code: BM25 does not index numbers, and a phrase is more
   * than its words.
   */
  literals: string[];
  /** The text asks about tests, so test files are not pushed down. */
  aboutTests: boolean;
  /** Initials the code uses for a phrase the text spells out ("hot module replacement" → `hmr`). */
  initials: string[];
  /** What kind of text this is, and the code names it mentions. */
  question: QuestionInfo;
}

const FILE_MENTION = /(?:[A-Za-z0-9_.\-]+\/)*[A-Za-z0-9_\-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|mts|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|vue|svelte|md|rst|json|toml|ya?ml)\b/g;
const DOTTED = /\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}\b/g;
const SCOPE = /^\s*[a-z]+(?:\(([^)]{1,60})\))?!?:/gim;
const CODE_SPAN = /`([^`\n]{1,120})`/g;
/** Identifiers that look like code (camelCase, snake_case, dotted calls) in running prose. */
const CODEY = /\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z0-9]+_[a-z0-9_]+|_[a-z0-9_]+)\b/g;

/** A name and its version written apart: `HTTP/2`, `HTTP/1.1`, `UTF-8`, `SHA-256`, `OAuth 2` is not one. */
const VERSIONED = /(?<![\w/.-])([A-Za-z]{2,})[/-](\d{1,3})(?:\.(\d))?(?![\w/-]|\.\d)/g;

/**
 * The names a text writes with their version apart ("HTTP/2", "UTF-8", "SHA-256", "HTTP/1.1"), as
 * code spells them (`http2`, `utf8`, `sha256`, `http11`), with the text as written.
 */
export function versionedNames(text: string): { name: string; written: string }[] {
  return [...text.matchAll(VERSIONED)].map((m) => ({ name: (m[1]! + m[2]! + (m[3] ?? '')).toLowerCase(), written: m[0] }));
}

/** Code blocks and interpreter sessions of a pasted issue, and lines indented as code. */
const CODE_BLOCK = /```[\s\S]*?(?:```|(?![\s\S]))|^(?: {4}|\t|>>> |\.\.\. ).*$/gm;
const LETTER_DIGIT = /(?<![\w$.\/[(=-])([A-Za-z][0-9])(?![\w$\/[(=-]|\.\w)/g;

/** Names of a letter and a digit in a text's prose ("v7 IDs", "the h2 adapter"), lower-cased, once each. */
export function letterDigitNames(text: string): string[] {
  return [...new Set([...text.replace(CODE_BLOCK, ' ').matchAll(LETTER_DIGIT)].map((m) => m[1]!.toLowerCase()))];
}

/**
 * Two words of a text's prose joined by a hyphen, written as one ("read-only" → readonly,
 * "socket-pair" → socketpair), once each: not in code spans or options.
 */
export function hyphenJoined(text: string): string[] {
  const keep = (w: string) => /^[A-Za-z]{2,}$/.test(w);
  return [...new Set(wordRuns(text.replace(CODE_SPAN, ' ').replace(OPTION, ' '), /[A-Za-z0-9_$./]+/g, keep, /^-$/, 2, 2).map((r) => r.join('')))];
}

const KEBAB = /(?<![\w-])[A-Za-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+(?![\w-])/g;
const OPTION = /(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?![\w-])/g;

/** Long issue texts: keep the most telling terms (highest weight × idf) — scoring cost grows with each. */
export const MAX_QUERY_TERMS = 48;

/** A word written in mixed case, as a product names itself ("PostgreSQL", "GitHub", "macOS") or code a class. */
const MIXED_CASE = /(?<![\w$.`])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?![\w$`(])/g;

export interface ParseOptions {
  /**
   * Whether a word in mixed case names no code of the workspace (no name spells it by its parts):
   * "the PostgreSQL backend" of alembic, whose code writes `postgresql` and `PostgresqlImpl`, is the
   * product, one word, and its parts ("sql", which MySQL has too) count little. A question's
   * "PlantUML" is pylint's `PlantUmlPrinter` and keeps its parts.
   */
  namesNoCode?: (word: string) => boolean;
}

export function parseQuery(text: string, opts: ParseOptions = {}): ParsedQuery {
  const weights = new Map<string, number>();
  const add = (list: string[], w: number) => {
    for (const t of list) weights.set(t, (weights.get(t) ?? 0) + w);
  };
  const question = analyzeQuestion(text);
  const proper = new Set<string>();
  let prose = text;
  // A question's only: a commit message's "Fix PostgreSQL…" moved commit-eval dev's MRR 0.848 → 0.845.
  if (opts.namesNoCode && question.natural) {
    prose = text.replace(MIXED_CASE, (w) => {
      const lower = w.toLowerCase();
      if (lower.length < 4 || !opts.namesNoCode!(w)) return w;
      proper.add(w);
      return lower;
    });
  }
  // Stack traces and logs repeat paths and frames; the prose around them is what is asked.
  add(terms(withoutIdioms(prose)), 1);
  // The product's name as code writes it whole (`postgresql.py`, a comment's "PostgreSQL"), and
  // its parts at half weight (a comment's "Postgre SQL"; 1 + ln 0.5 = 0.31 of a word's weight).
  add([...proper].map((w) => '=' + w.toLowerCase()), 1);
  add([...proper].flatMap((w) => terms(w).filter((t) => !t.startsWith('='))), 0.5);
  // "hot module replacement" is `hmr` in the code: the name weighs what the phrase's words do.
  const initials = acronymPhrases(text);
  for (const a of initials) add(terms(a.name), a.words);
  // "the formatter" is `format_*` too, "the visitor" `visit_*`: the verb of an agent noun at half weight.
  add(agentVerbs(text), 0.5);
  // "where are handlers looked up?" is `lookup` / `_find_*` in the code, "set up" `setup`: at half weight.
  add(phrasalVerbs(text).flatMap((w) => terms(w)), 0.5);
  // "How is the site built?" is `build` in the code, which the stemmer does not make of "built":
  // at half weight (at 1, qa dev MRR 0.913 → 0.895).
  add(irregularVerbs(text).flatMap((w) => terms(w)), 0.5);
  // "The regex optimiser" is pygments' `optimize`: British spellings also search the American ones.
  add(americanSpellings(text).flatMap((w) => terms(w)), 1);
  // "How are comments deleted?" is Rails' `destroy`, a collection's `remove`: the others at half weight.
  add(synonymsOf(text).flatMap((w) => terms(w)), 0.5);
  // "HTTP/2", "UTF-8", "SHA-256" are `http2`, `utf8`, `sha256` in the code, which the words
  // alone ("http", "utf") do not tell apart from every other version.
  add(versionedNames(text).map((v) => '=' + v.name), 1);
  // A letter and a digit in the prose name a file: uuid's `src/v7.ts` for "v7 IDs" (in code, the
  // index keeps no such term: `M1`, `x0` of a pasted example are variables of the moment).
  add(letterDigitNames(text).map((n) => '=' + n), 1);
  for (const m of text.matchAll(CODE_SPAN)) add(terms(m[1]!), 0.5);
  for (const m of prose.matchAll(CODEY)) add(terms(m[0]), 0.5);
  // A kebab-case option or key quoted as code or written as an option (`ignore-paths`,
  // --max-line-length) is a snake_case or camelCase name in the code: search those whole names too.
  const kebab = [...text.matchAll(CODE_SPAN)].flatMap((m) => [...m[1]!.matchAll(KEBAB)].map((k) => k[0]));
  for (const m of text.matchAll(OPTION)) kebab.push(m[1]!);
  for (const k of new Set(kebab)) {
    const parts = k.toLowerCase().split('-');
    add(['=' + parts.join('_'), '=' + parts.join('')].filter((t) => t.length <= 41), 0.5);
  }

  const scope: string[] = [];
  for (const m of text.matchAll(SCOPE)) if (m[1]) for (const s of m[1].split(/[,\s/]+/)) if (s) scope.push(s);
  const pathW = new Map<string, number>();
  for (const s of scope) for (const t of pathTerms(s)) pathW.set(t, 1);

  const hints = new Set<string>();
  for (const m of text.matchAll(FILE_MENTION)) {
    const h = m[0].toLowerCase().replace(/^\.?\//, '');
    if (h.length >= 4) hints.add(h);
  }
  for (const m of text.matchAll(DOTTED)) {
    const parts = m[0].split('.');
    // `pkg.module.func` → pkg/module (the last part may be a symbol, not a file).
    hints.add(parts.join('/'));
    hints.add(parts.slice(0, -1).join('/'));
  }

  // "The deep copying hook" is `__deepcopy__`: a question in words names Python's special methods so.
  if (question.natural) add(specialMethods(text).flatMap((name) => terms(name)), 1);
  // "What happens if I ask to empty a directory…?" is fs-extra's `emptyDir`: the short forms code
  // writes, at half weight. A question's only: a commit message says the code's words (in
  // commit-eval dev, "error" as `err` and "message" as `msg` moved six texts' files down, two up).
  if (question.natural) add(abbreviationsOf(text).flatMap((w) => terms(w)), 0.5);
  // "Read-only", "built-in", "socket-pair", "re-key" are `readonly`, `builtin`, `socketpair`,
  // `rekey` where code writes them: a question's hyphenated words also as one, at half weight.
  if (question.natural) add(hyphenJoined(text).flatMap((w) => terms(w)), 0.5);
  // "What happens when a variable is undefined?" asks of jinja's `Undefined`, not the literal. A
  // commit's "create null object" means the literal (hono's `Object.create(null)`): no word.
  if (question.natural) add(noValueTerms(text), 1);
  // Repeats count, but with diminishing returns (a traceback repeats one word twenty times).
  const list: QueryTerm[] = [...weights].map(([term, w]) => ({ term, weight: (1 + Math.log(w)) * (question.framing.get(term) ?? 1) }));
  return {
    terms: list,
    pathTerms: [...pathW].map(([term, weight]) => ({ term, weight })),
    pathHints: [...hints],
    literals: question.natural ? literalsOf(text) : [],
    question,
    initials: initials.map((a) => a.name),
    aboutTests: aboutTests(text, question.natural),
  };
}

/**
 * The stems of the verbs behind a text's agent nouns ("formatter" → `format`, "visitor" → `visit`,
 * "handler" → `handl`), which the stemmer keeps apart from them, as `pathTerms` does for paths.
 * Some are no agents ("header" → `head`): they count half.
 */
export function agentVerbs(text: string): string[] {
  const out = new Set<string>();
  // Words, not identifiers (`TrieRouter` has its parts' terms already).
  for (const m of text.matchAll(/(?<![\w.])[A-Za-z][a-z]{3,}(?:er|or)s?(?![\w.])/g)) {
    const w = m[0].toLowerCase().replace(/s$/, '');
    if (w.length < 6 || isStopWord(w)) continue;
    let base = w.slice(0, -2);
    const doubled = /([bdgklmnprtz])\1$/.test(base);
    if (doubled) base = base.slice(0, -1);
    const own = stem(w);
    for (const v of doubled ? [stem(base)] : [stem(base), stem(base + 'e')]) if (v !== own && v.length >= 3) out.add(v);
  }
  return [...out];
}

const TEST_WORDS = /\b(tests?|tested|testing|spec|pytest fixture|unit test)\b/i;

/**
 * Whether a text is about tests, so that test files are not pushed down. A commit message or an
 * issue by its title line: a body's "* add a regression test" is what every fix does (in
 * commit-eval dev's 19 such texts the tests were never the files wanted).
 */
function aboutTests(text: string, natural: boolean): boolean {
  if (/^\s*(fix|feat|refactor|perf|chore)/i.test(text)) return false;
  const said = natural ? text : text.trimStart().split('\n')[0]!;
  return TEST_WORDS.test(withoutTestDomain(stripTypePrefix(said)));
}

/** A quoted phrase (not an apostrophe: "Python's"), and numbers of three or more digits. */
const QUOTED = /(?:^|[\s(:])(?:"([^"\n]{2,80})"|'([^'\n]{2,80})'|“([^”\n]{2,80})”|‘([^’\n]{2,80})’)(?=[\s.,;:!?)]|$)/g;
const NUMBER = /(?<![\w.])\d{3,}(?![\w.])/g;

export function literalsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(QUOTED)) {
    const lit = (m[1] ?? m[2] ?? m[3] ?? m[4])!.trim();
    if (lit.length >= 3) out.add(lit);
  }
  for (const m of text.matchAll(NUMBER)) out.add(m[0]);
  return [...out].slice(0, 4);
}

function stripTypePrefix(text: string): string {
  return text.replace(SCOPE, '');
}

/** Whether `rel` (a workspace-relative path) is the place a hint names. */
export function matchesHint(rel: string, hint: string): boolean {
  const r = rel.toLowerCase();
  // Only the text's path as a suffix of ours: matching installed copies named in tracebacks
  // (`…/site-packages/pkg/mod.py`) the other way round lost rows on the swe-lite dev split.
  if (hint.includes('.')) return r === hint || r.endsWith('/' + hint);
  const noExt = r.replace(/\.[a-z0-9]+$/, '');
  return noExt === hint || noExt.endsWith('/' + hint) || noExt.endsWith('/' + hint + '/__init__');
}

export { splitIdentifier };
