import type { QGPTQuestionAnswer } from '../protocol/wire';
import { isDocument, type Passage, placeOf } from './seeds';
import { queryTerms, textTerms, termCredit, stemKey, leafName, splitIdentifier, type QueryTerms } from './terms';
import { asksAboutTests, callSiteSymbol, isTestPassage, testNamedAfter } from './intent';
import { analyzeQuestion } from '../index/question';
import { goesOnWith } from '../index/chunker';
import { isTestOfModule, ownerAndMember } from '../index/symbols';
import { ABOUT_TYPES, IMPORT_LINE, asksAboutExamples, bracketDepth, docstringLines, isDeclarationPath, isDocumentPage, isExamplePath, isInterfaceOnly, isRubyPath, languageOf, callableText, withoutStrings, withoutTrailingComment } from '../index/languages';

/**
 * The built-in extractive answerer: no weights, answers from the snippets themselves — which
 * places answer the question, the quoted lines, why they match — ordered by score.
 */

export const NO_MODEL_LINE = '_No language model was used: this answer quotes the code it found (askcode built-in extractive answerer)._';

/** Lines quoted per place: enough for a signature plus its doc comment or a short FAQ answer. */
const QUOTE_LINES = 8;
const MAX_CITED = 3;

export interface PlaceMatch {
  passage: Passage;
  /** Place score in [0, 1] (see {@link scorePlace}). */
  score: number;
  /** Weighted share of the query's terms found in the passage, in [0, 1]. */
  coverage: number;
  matched: string[];
  /** Query symbols that this passage defines. */
  defines: string[];
  /** 0-based offset of the first quoted line within the passage, and the lines. */
  quoteStart: number;
  quote: string[];
}

const DEF_WORDS = '(?:def|function|class|interface|type|enum|struct|trait|const|let|var|fn|func|fun|protocol|macro_rules!|async\\s+def|async\\s+function|export\\s+(?:default\\s+)?(?:async\\s+)?(?:function|class|const|interface|type))';

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `name` as a whole name, not part of a longer one (`SegmentPool`, not `SegmentPoolTest`). */
export function wholeNameRe(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`);
}

/**
 * A type's arguments written with spaces, one level nested: C#'s `FrozenDictionary<string, T>`,
 * `Dictionary<string, List<T>>` (without spaces the characters of a name read them). The space
 * comes before any inner bracket, so that a line of tags (`<div><b>…`) has one reading, not
 * exponentially many.
 */
const GENERIC_ARGS = String.raw`<[^<>()\s]*\s[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>`;
/** A C# tuple of named elements: `(string Text, bool IsMetadata)`. */
const TUPLE_TYPE = String.raw`\((?:[\w.<>\[\]?]+\s+\w+\s*,\s*)+[\w.<>\[\]?]+\s+\w+\)`;

/**
 * A method declared with its return type before its name, as Java, C# and Kotlin write it:
 * `public GsonBuilder setPrettyPrinting() {`, `fun close(): Unit {`, a signature that goes on to
 * the next line — not a call such as `return build();` or `new Adapter() {`. C's too: a pointer's
 * `static void *internal_malloc(size_t size)`, an export macro's `CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)`.
 * C++'s specifiers and qualifier macros before the type, a trailing return type after the
 * parameters: fmt's `FMT_CONSTEXPR inline auto parse_align(char c) -> align {`.
 */
function typedDeclaration(leaf: string): string {
  return `(?:^\\s*(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|private|protected|internal|static|final|abstract|synchronized|override|virtual|async|default|open|suspend|sealed|native|inline|constexpr|consteval|explicit|extern|friend|struct|enum|union|const|volatile|unsigned|signed|long|short|register|[A-Z][A-Z0-9]*_[A-Z0-9_]*)\\s+)*(?!(?:return|new|await|yield|throw|raise|assert|del|defer|go|if|elif|while|else|case|in|of|typeof|not|and|or)\\s)(?:[A-Z][A-Z0-9_]*\\([^()\\n]*\\)|${TUPLE_TYPE}|(?:[\\w.<>\\[\\]?,]|::|${GENERIC_ARGS})+)[ \\t*&]+${leaf}\\s*(?:<[^>]*>)?\\s*\\((?:[^()]*\\)\\s*(?:throws\\s+[\\w.,\\s]+|:\\s*[\\w.<>\\[\\]?,\\s]+)?\\s*(?:(?:const|noexcept|override)\\s*)*(?:->\\s*[^{;=]+?\\s*)?(?:\\{.*|=>.*)?|[^()]*)$)`;
}

/**
 * After `name:`, not an entry of a literal or a list of arguments: a value and a trailing comma
 * (gorilla/sessions' `SameSite: options.SameSite,` in a Go struct literal, tenacity's parameter
 * `retry: "RetryBaseT" = retry_if_exception_type(),`) defines nothing; a function so given does
 * (`handler: (req) => …,`).
 */
const NOT_AN_ENTRY = String.raw`(?!(?:(?!\bfunction\b|=>)[^\n])*,[ \t]*$)`;

/**
 * Kotlin's type parameters or arguments, one level of them nested: kotlin-result's
 * `fun <V, E, U : Any, C : MutableCollection<in U>> Iterable<V>.tryMapIndexedNotNullTo(`.
 */
const KOTLIN_TYPE_PARAMS = String.raw`<(?:[^<>\n]|<[^<>\n]*>)*>`;

/** A line that defines `symbol` (by its last part), in any of the languages the index reads. */
export function definitionRe(symbol: string): RegExp {
  const leaf = escapeRe(leafName(symbol));
  // The name's end: a word boundary, or for Ruby's `out_of_date?` and `save!` no more of a name.
  const end = /[\w$]$/.test(leafName(symbol)) ? '\\b' : '(?![\\w?!])';
  // `def name(`, `function name`, `class Name`, `name(...) {` / `name(…): T;` / `name = (` as a
  // method or arrow function, or a doc heading that is the name; not a call that starts a line
  // (`halt(404)`, `setup(app)`).
  // Not a path or a comparison that starts a line: Rust's `Router::new()`, `x == y`.
  // A typed method declaration (Java, C#, Kotlin): `public GsonBuilder setPrettyPrinting() {`; a
  // signature whose type parameters go on over the next lines (`getQueryData<`).
  // Go's methods name their receiver first: `func (e *Echo) ServeHTTP(`, on one line (a struct's
  // `serveHTTPFunc func(…)` field above a `Binder Binder` field defines no `Binder`).
  // Kotlin's type parameters and receiver before the name: `fun <T> KSClassDeclaration.isKotlinClass(`.
  // Ruby's class methods: `def self.fabricate(segment)`, `def Router.fabricate`. A function given to
  // a member: express-session's `Store.prototype.createSession = function(req, sess){`, `exports.x = (a) => …`.
  return new RegExp(`(?:\\b${DEF_WORDS}[ \\t]+${leaf}${end})|(?:\\bdef[ \\t]+(?:self|[A-Z]\\w*)\\.${leaf}${end})|(?:^\\s*(?:[\\w$]+\\.)+${leaf}\\s*=\\s*(?:async\\s+)?(?:function\\b|\\([^()]*\\)\\s*=>|[\\w$]+\\s*=>))|(?:\\bfun[ \\t]+(?:${KOTLIN_TYPE_PARAMS}[ \\t]*)?(?:[\\w.]+(?:${KOTLIN_TYPE_PARAMS})?\\??\\.)?${leaf}${end})|(?:\\bfunc[ \\t]*\\([^)\\n]*\\)[ \\t]*${leaf}${end})|(?:^\\s*(?:public |private |protected |static |async |export )*${leaf}\\s*(?:<[^>]*>)?\\s*(?:\\([^()]*\\)\\s*(?::\\s*[^;{=]+?\\s*)?(?:\\{|=>)|\\([^()]*\\)\\s*:\\s*[^;{=]+?;|=(?!=)|:(?!:)${NOT_AN_ENTRY}))|(?:^#+\\s*\`?${leaf}${end})|${typedDeclaration(leaf)}|(?:^\\s*(?:(?:public|private|protected|static|async|readonly|override|abstract) )*${leaf}<\\s*$)`, 'm');
}

/**
 * Whether a line of the passage outside its docstrings matches the definition pattern: a
 * docstring's "Raises:" section (`MethodNotAllowed: if the method is not allowed`) defines nothing.
 */
/** What a line's code says, outside its trailing comment and strings (a document's line as it is, but its comment). */
export function codeOf(line: string, p: Passage): string {
  const code = withoutTrailingComment(line);
  return isDocument(p) ? code : withoutStrings(code, /\.rs$/.test(p.path ?? '') ? '"' : undefined);
}

/**
 * A passage of code that is all comments, but for a Go `package` line, and documents no definition
 * (a chunk of a function's long doc comment goes by the function's name). Not Python's, whose
 * docstrings sit inside what they document (statsmodels' long ones answer questions of their own).
 */
function commentOnly(p: Passage): boolean {
  if (p.symbol || /\.pyi?$/.test(p.path ?? '')) return false;
  const lines = p.text.split('\n');
  // Go's `doc.go` holds the package's documentation: a piece from inside its one block comment,
  // neither end in sight, is that too (go-playground/form's "Ignoring Fields", "Omitempty" led "how
  // are the form keys of a slice of nested structs named?").
  if (/(^|\/)doc\.go$/.test(p.path ?? '') && !lines.some((l) => /^(?:func|type|var|const|import)\b/.test(l))) return true;
  const inComment = docstringLines(p.text, p.path);
  return lines.some((l) => l.trim()) && lines.every((l, k) => !l.trim() || inComment[k] || COMMENT.test(l) || /^\s*package\s+[\w.]+;?\s*$/.test(l));
}

function definedIn(p: Passage, re: RegExp): boolean {
  if (!re.test(p.text)) return false;
  // A document defines a name by a heading only: pyparsing's release notes quoting
  // `AttributeError: 'ParseResults' object has no attribute 'xyz'` define no `AttributeError`.
  if (isDocument(p)) return p.text.split('\n').some((l) => /^#/.test(l) && re.test(l));
  const inDoc = docstringLines(p.text, p.path);
  if (!inDoc.some(Boolean)) return true;
  // Where each match starts (a signature may run over several lines).
  const lineAt = (i: number) => p.text.slice(0, i).split('\n').length - 1;
  for (const m of p.text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))) {
    if (!inDoc[lineAt(m.index!)]) return true;
    if (m[0].length === 0) break;
  }
  return false;
}

/**
 * Whether every Python `def name(` in the text is a typing overload (`@overload`, `@t.overload`):
 * signatures for type checkers, the function itself defined after them (werkzeug's
 * `Request.get_data` was cited by its two overloads, then again by its body).
 */
function onlyOverloads(text: string, name: string): boolean {
  const lines = text.split(/\r?\n/);
  const def = new RegExp(`^\\s*(?:async\\s+)?def\\s+${escapeRe(name)}\\s*\\(`);
  let seen = false;
  for (let i = 0; i < lines.length; i++) {
    if (!def.test(lines[i]!)) continue;
    let j = i - 1;
    while (j >= 0 && !lines[j]!.trim()) j--;
    if (j < 0 || !/^\s*@(?:\w+\.)*overload\s*$/.test(lines[j]!)) return false;
    seen = true;
  }
  return seen;
}

/**
 * Whether passage `p` defines the question's symbol `s` (`re`: its definition pattern). A name
 * qualified by a class (`Blueprint.add_url_rule`) needs that class in the passage's symbol path
 * where it has one: `BlueprintSetupState.add_url_rule` is another method, unless the index resolved
 * the name to the passage's definition (`resolved`: its own, inherited or implemented). An instance's name
 * (`c.json`, `app.config.from_object`) is matched by its method alone.
 */
function definesSymbol(p: Passage, s: string, re: RegExp): boolean {
  if (onlyOverloads(p.text, leafName(s))) return false;
  if (p.resolved?.some((i) => i.name === s)) return true;
  const path = p.symbol?.split(/\s*[›,]\s*|\./).filter(Boolean);
  const leaf = leafName(s);
  const owner = s.split('.').at(-2);
  if (owner && /^[A-Z]/.test(owner) && path?.length) {
    const hasOwner = path.includes(owner) || new RegExp(`\\b(?:class|struct|interface|impl)\\s+${escapeRe(owner)}\\b`).test(p.text);
    return hasOwner && (path.includes(leaf) || definedIn(p, re));
  }
  return definedIn(p, re) || (path !== undefined && path.includes(leaf));
}

/**
 * A place whose definition is named in the question's words ("where is the request context
 * pushed?" → `RequestContext.push`) gains NAME_WEIGHT × its share of the question (see
 * {@link nameCoverage}), against the lexical part's weight of 1. Measured with bench answers
 * (first cited place in relevant_files; sweqa / qa / our everyday 22 / the 112 and 96 outside
 * questions), from 80.3 / 91.9 / 50.0 / 77.7 / 85.4%: at 0.6 with two words at least, 80.3 /
 * 94.6 / 63.6 / 79.5 / 87.5% (qa spans 86.5 → 89.2%), the same at 0.8, and at 0.4 sweqa 79.6%;
 * one word enough (a `Response` type for "where is the 404 response produced?"), at 0.3 / 0.6 /
 * 1: sweqa 80.3 / 79.6 / 79.6%, qa 91.9 / 94.6 / 94.6%, everyday 63.6% each.
 */
const NAME_WEIGHT = 0.6;
const MIN_NAME_WORDS = 2;

/**
 * The share of the question's term weight that the name of a definition in the passage spells
 * (its class and its own name, by word or stem, two words at least), the best of the passage's
 * definitions: 1 for `RequestContext.push` and "where is the request context pushed?", 0 for
 * `HandlerResponse` and "where is the 404 response produced?" (one word).
 */
export function nameCoverage(q: QueryTerms, symbol: string | undefined, total: number, text?: string): number {
  if (!symbol || total <= 0) return 0;
  const parts = symbol.split(/\s*›\s*/);
  const leaves = parts.pop()!.split(/\s*,\s*/).filter(Boolean);
  const outer = textTerms(parts.join(' '));
  let best = 0;
  for (const leaf of leaves) {
    const terms = textTerms(leaf);
    for (const t of outer) terms.add(t);
    let got = 0;
    let n = 0;
    for (const [t, w] of q.weights) {
      const k = stemKey(t);
      if (terms.has(t) || (k !== undefined && terms.has(k))) {
        got += w;
        n++;
      }
    }
    // A name the passage declares as a shape only (an interface, a type) spells the words but does
    // not do what they say: react-router's `RouteMatch` for "how does the router match a URL?".
    // Named outright (`RouteMatch`), it is what is asked about.
    const shapeOnly = !!text && !q.symbols.some((s) => leafName(s) === leaf.trim()) && declaresOnly(text, leaf);
    if (n >= MIN_NAME_WORDS) best = Math.max(best, (got / total) * (shapeOnly ? 0.5 : 1));
  }
  return best;
}

/** Whether `text` declares `name` as an interface or a type alias (`interface X`, `type X =`, Go's `type X interface`). */
function declaresOnly(text: string, name: string): boolean {
  const n = escapeRe(name.trim());
  return new RegExp(`^\\s*(?:export\\s+|public\\s+|pub(?:\\([a-z]+\\))?\\s+)?(?:declare\\s+)?(?:interface\\s+${n}\\b|type\\s+${n}\\b(?!\\s+struct\\b))`, 'm').test(text);
}

/**
 * Place score: lexical = min(1, coverage + 0.25 if the passage defines a symbol the question names);
 * with a retrieval score r (the retriever's fused score in [0, 1]) the place scores
 * w·lexical + (1 − w)·r, else lexical alone, where w is 0.7 for a question that names code (an
 * identifier, a backticked name) and 0.5 for one in plain words. Coverage weighs identifiers (3)
 * over plain words (1) and generic words like "function" (0.3), so naming the right symbol counts
 * most. Measured with bench answers (first cited place in relevant_files, sweqa / qa): w = 0.5
 * always 72.5% / 70.3%; 0.7 always 70.4% / 75.7%; 0.3 always 70.4% / 64.9%; 0.7 when the question
 * names code else 0.5, 73.2% / 73.0% (spans 64.9%); 0.85 when it names code, 71.8% / 73.0%.
 * A definition named in the question's words adds w·NAME_WEIGHT·nameCoverage, the sum divided
 * by 1 + w·NAME_WEIGHT so that the score stays in [0, 1] and the order is the sum's.
 */
export function scorePlace(coverage: number, definesSymbol: boolean, retrieval: number | undefined, namesCode = false, nameCoverage = 0): number {
  const lexical = Math.min(1, coverage + (definesSymbol ? 0.25 : 0));
  const w = retrieval === undefined ? 1 : namesCode ? 0.7 : 0.5;
  const bonus = NAME_WEIGHT * w;
  const s = (w * lexical + (1 - w) * (retrieval ?? 0) + bonus * nameCoverage) / (1 + bonus);
  return Math.round(Math.max(0, Math.min(1, s)) * 1000) / 1000;
}

/**
 * The lines to quote: a chunk that fits is quoted whole; else the window around the best line
 * (the line that matches most of the question counts double, so a run of lines sharing one
 * generic word never outbids the line that names the thing), starting a line early when the line
 * before is its comment or decorator, and ending at the last matching line plus two of context.
 */
export function quoteWindow(lines: string[], lineScores: number[]): { start: number; quote: string[] } {
  const trimEnd = (q: string[]) => {
    while (q.length > 1 && !q[q.length - 1]!.trim()) q = q.slice(0, -1);
    return q;
  };
  if (lines.length <= QUOTE_LINES) {
    let start = 0;
    while (start < lines.length - 1 && !lines[start]!.trim()) start++;
    return { start, quote: trimEnd(lines.slice(start)) };
  }
  let best = 0;
  let bestScore = 0;
  for (let s = 0; s < lines.length; s++) {
    const win = lineScores.slice(s, s + QUOTE_LINES);
    const w = win.reduce((a, x, j) => a + x * (1 - j * 0.08), 0) + Math.max(0, ...win.slice(0, 3));
    if (w > bestScore) {
      bestScore = w;
      best = s;
    }
  }
  if (bestScore <= 0) return { start: 0, quote: trimEnd(lines.slice(0, QUOTE_LINES)) };
  // Not a comment's closing `*/` alone: it says nothing (hono's `valid()` had been quoted from it).
  if (best > 0 && /^\s*(?:\/\/|#|\*(?!\/\s*$)|\/\*\*?|@\w|"""|''')/.test(lines[best - 1]!) && lineScores[best - 1]! >= 0) best--;
  let end = Math.min(lines.length, best + QUOTE_LINES);
  let lastHit = best;
  for (let i = best; i < end; i++) if (lineScores[i]! > 0) lastHit = i;
  end = Math.min(end, Math.max(lastHit + 3, best + 6));
  // The quote stops where the next definition starts (past the quote's own header: its
  // decorators, comments and `def` line): what follows belongs to other code.
  let body = best;
  while (body < end - 1 && (NEXT_DEFINITION.test(lines[body]!) || LEAD_IN.test(lines[body]!))) body++;
  for (let i = body + 1; i < end; i++) {
    if (NEXT_DEFINITION.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  return { start: best, quote: trimEnd(lines.slice(best, end)) };
}

/** A comment line: what it says of a name is no call of it ("…via multiple `Dispose()` calls"). */
export const COMMENT = /^\s*(?:#|\/\/|\/\*|\*)/;

/** A line that belongs to the definition after it: a decorator, an annotation, a comment, a blank. */
const LEAD_IN = /^\s*(?:@|#|\/\/|\/\*|\*|$)/;

/** A call of `symbol` (`name(` or `.name(`, by its last part), maybe generic (`new RetryStrategyOptions<int>()`). */
export function callPattern(symbol: string, path?: string): RegExp {
  const leaf = leafName(symbol);
  // Ruby's `out_of_date?` and `save!` are called with or without parentheses, and name nothing else.
  if (/[?!]$/.test(leaf)) return new RegExp(`(?:\\.|\\b)${escapeRe(leaf)}(?![\\w?!=])`);
  // In Ruby any other mention of a method's name calls it too, without parentheses (sinatra's
  // `invoke { dispatch! }`, thor's `invocations[name] = true`): not a symbol (`:invoke`), an
  // instance or global variable, a local assigned (`invoke = …`), a hash key (`invoke: 1`) or a
  // word of a `%w[…]`/`%i[…]` list (sinatra-contrib's `%w[erb haml builder nokogiri]`).
  if (path && isRubyPath(path)) return new RegExp(`(?<![\\w:@$])(?<!%[wWiI][[({<][^\\])}>]*)${escapeRe(leaf)}(?![\\w?!]|\\s*=(?![=~>])|:(?!:))`);
  // A method reference passed on is called by what it is passed to: Kotlin's `.let(::createStackElementTag)`, Java's `.map(Foo::bar)`.
  // A name after `function` is a named function's, not a call (express-session's
  // `MemoryStore.prototype.destroy = function destroy(sessionId, callback)`).
  return new RegExp(`(?<!\\bfunction\\s*\\*?\\s*)(?:\\.|\\b)${escapeRe(leaf)}\\s*${TYPE_ARGS}\\(|::${escapeRe(leaf)}(?=\\s*\\))`);
}

/** A call's type arguments, maybe none (`new RetryStrategyOptions<int>()`, `f<Map<K, V>>(…)`), before its `(`. */
const TYPE_ARGS = String.raw`(?:<[^()<>]*(?:<[^()<>]*>[^()<>]*)*>\s*)?`;

const ASSIGNMENT = /^\s*(?:(?:const|let|var)\s+)?[\w$.]+\s*(?::[^=]+)?=(?![=>])(.*)$/;

const FUNCTION_VALUE = /^\s*(?:async\s+)?(?:function\b|lambda\b|\([^()]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/;

/**
 * Whether a line defines `symbol`, as "where is X called?" reads it: its definition pattern, but
 * not an assignment whose right side calls X (sanic's `response = self.error_handler.response(…)`
 * names a local like the method, and calls the method), and for a class's method
 * (`ErrorHandler.response`) no assignment but of a function (`response = () => …`).
 */
export function definitionLine(symbol: string): (line: string) => boolean {
  const re = definitionRe(symbol);
  const proto = prototypeRe(symbol);
  const call = callPattern(symbol);
  const method = /[.#]|::/.test(symbol);
  return (line) => {
    if (proto.test(line)) return true;
    if (!re.test(line)) return false;
    const a = ASSIGNMENT.exec(line);
    return !a || (!call.test(a[1]!) && (!method || FUNCTION_VALUE.test(a[1]!)));
  };
}

/**
 * Asked where X is called where only tests call it (hiredis' `redisFormatCommand`, called by its
 * `test_format_commands` alone): the tests that call it answer, as code would. Undefined when the
 * question asks for no call sites or code calls X among the places.
 */
export function testCallsAnswer(query: string, passages: Passage[]): ((p: Passage) => boolean) | undefined {
  const callOf = callSiteSymbol(query);
  if (!callOf) return undefined;
  const calling = callsIn(callOf);
  const examples = asksAboutExamples(query);
  const code = (p: Passage) => !isTestPassage(p) && !(!!p.path && (isDocumentPage(p.path) || (!examples && isExamplePath(p.path))));
  if (passages.some((p) => code(p) && calling(p))) return undefined;
  // A class the code uses without calling it (p-queue's `queueClass: PriorityQueue`, an
  // `instanceof PriorityQueue`) is used there, before the tests that create one.
  if (/^[A-Z]/.test(leafName(callOf)) && passages.some((p) => code(p) && usesIn(callOf)(p))) return undefined;
  return (p) => isTestPassage(p) && calling(p);
}

/**
 * The code lines of a passage that may call or use `symbol`, as its code reads them: not a
 * comment, a docstring, the symbol's own definition or its signature's first line.
 */
function codeLinesFor(symbol: string): (p: Passage) => { raw: string; code: string }[] {
  const defines = definitionLine(symbol);
  return (p) => {
    const inDoc = docstringLines(p.text, p.path);
    const lines = callableText(p.text, p.path ?? '').split('\n');
    const opens = signatureOpens(lines, symbol);
    return lines.filter((l, k) => !inDoc[k] && !opens[k] && !COMMENT.test(l) && !defines(l)).map((l) => ({ raw: l, code: codeOf(l, p) }));
  };
}

/** Whether a passage names `symbol` in its code, besides importing, defining or commenting on it. */
function usesIn(symbol: string): (p: Passage) => boolean {
  const lines = codeLinesFor(symbol);
  const named = wholeNameRe(leafName(symbol));
  return (p) => lines(p).some((l) => !IMPORT_LINE.test(l.raw) && named.test(l.code));
}

/** Whether a passage calls `symbol` in its code: not in a comment, a docstring or the symbol's own definition or declaration. */
function callsIn(symbol: string): (p: Passage) => boolean {
  const lines = codeLinesFor(symbol);
  return (p) => {
    const call = callPattern(symbol, p.path);
    return lines(p).some((l) => call.test(l.code));
  };
}

/**
 * A declaration of `symbol` without its body, on one line: a C header's prototype (`int
 * redisFormatCommand(char **target, const char *format, ...);`, `CJSON_PUBLIC(cJSON *) cJSON_Parse(const
 * char *value);`), a Java interface's method (`T createInstance(Type type);`). It calls nothing.
 */
function prototypeRe(symbol: string): RegExp {
  return new RegExp(
    String.raw`^\s*(?!(?:return|new|await|yield|throw|raise|assert|del|delete|defer|go|if|elif|while|else|case|not|and|or|sizeof)\b)(?:[A-Z][A-Z0-9_]*\([^()\n]*\)\s*|[\w:<>,]+[ \t*&]+)+${escapeRe(leafName(symbol))}\s*\([^;]*\)\s*(?:const\s*)?;\s*(?:\/\/.*|\/\*.*)?$`,
  );
}

/** A doc comment that starts with the name it documents, CamelCase or with an inner capital or `_` (Go's convention). */
const DOC_OF = /^\s*(?:\/\/|#|\/\*\*?|\*)\s*([A-Z][a-z0-9]+[A-Z]\w*|[a-z]+[A-Z_]\w*)\s+[a-z]/;

/**
 * Kotlin's and Swift's modifiers before `fun`, `func`, `protocol` (`override fun match(`, `public func
 * request(`), keywords no other language the index reads has. Not before `class` or `object`: Java's
 * and C#'s `public static class X` are read as their own languages' (TYPED_LINE leaves classes out),
 * and C#'s `private object _lock` is a field.
 */
const KOTLIN_SWIFT_MODIFIERS = String.raw`(?:(?:public|private|internal|open|override|final|static|suspend|inline|data|sealed|abstract|enum|fileprivate|mutating|@\w+(?:\([^)]*\))?)\s+)*`;

/** A definition's first line and its name: Python, JS/TS, Go (methods too), Rust, Ruby (`def self.x`, `def route!`), Kotlin, Swift. */
const DEFINITION_LINE = new RegExp(
  String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:def|class|function|interface|struct|enum|trait|fn|type|macro_rules!|func(?:\s*\([^)]*\))?|${KOTLIN_SWIFT_MODIFIERS}(?:fun|func|protocol))\s+(?:self\.)?([A-Za-z_$][\w$]*[?!]?)`,
);

/**
 * A method declared by its name alone, as TypeScript interfaces and classes write them: a
 * signature with its return type (`navigate(to: To): Promise<void>;`) or a body (`match(path) {`);
 * not a call statement (`navigate(to);`) nor `if (…) {`.
 */
const METHOD_LINE = /^\s*(?:(?:async|static|public|private|protected|readonly|override|abstract|get|set)\s+)*(?!(?:if|for|while|switch|catch|return|function|new|await|else|do|with)\b)([A-Za-z_$][\w$]*)\??\s*(?:<[^>]*>)?\s*\([^()]*\)\s*(?::\s*[^;{=]+?\s*[;{]|\{)\s*$/;

/**
 * A method declared with modifiers and its return type (Java, C#), annotations among them:
 * `public static ILogger ForContext(Type source) => …`, jsoup's `private static @Nullable String detectCharsetFromBom(…)`.
 */
const MODIFIER = String.raw`(?:public|private|protected|internal|static|final|abstract|synchronized|override|virtual|async|sealed|native|extern|unsafe|new)\s+`;
const ANNOTATION = String.raw`@\w+(?:\([^)]*\))?\s+`;
const TYPED_LINE = new RegExp(
  String.raw`^\s*(?:${ANNOTATION})*${MODIFIER}(?:${MODIFIER}|${ANNOTATION})*(?!(?:class|interface|enum|struct|record|delegate|event)\b)[\w.<>\[\]?,]+\s+([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*\(`,
);

/**
 * How much a defined name is the question's: the question's weight of each of the name's words, on
 * average (`accept` for "… accepted?" 1; `_raise_on_disconnect` for "… disconnect?" a third), so a
 * long name made of the question's words is not worth more than a short one.
 */
function namedByQuestion(q: QueryTerms, name: string): number {
  const parts = splitIdentifier(name);
  if (!parts.length) return 0;
  let got = 0;
  for (const part of parts) {
    const terms = textTerms(part);
    let w = 0;
    for (const [t, tw] of q.weights) if (termCredit(t, terms) > 0) w = Math.max(w, tw);
    got += w;
  }
  return got / parts.length;
}

/** The name of the definition that line `i` starts, in any of the forms above (a signature may run on). */
function definedAt(lines: string[], i: number): string | undefined {
  const l = lines[i]!;
  return DEFINITION_LINE.exec(l)?.[1] ?? METHOD_LINE.exec(l)?.[1] ?? TYPED_LINE.exec(l)?.[1] ?? C_FUNCTION_LINE.exec(l)?.[1] ?? signatureName(lines, i);
}

/**
 * A C function's head, at the start of its line: `static cJSON_bool parse_number(cJSON * const item, …)`,
 * `static void *internal_malloc(size_t size)`, an export macro's `CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)`;
 * its parameters close the line, or go on to the next. C++'s too, indented in its namespace, after a
 * qualifier macro, by its class and with its qualifiers: pugixml's `PUGI_IMPL_FN int
 * xml_text::as_int(int def) const` (its chunk is named for three other methods, so its quote had
 * gone by the namespace, `pugi`, and "where is that called from?" asked about `pugi`).
 */
const C_HEAD = String.raw`^\s*(?!(?:return|else|if|for|while|switch|case|goto|new|await|yield|typeof|throw|delete|sizeof)\b)(?:(?:static|inline|extern|const|volatile|unsigned|signed|struct|enum|union|[A-Z][A-Z0-9]*_[A-Z0-9_]*)\s+)*(?:[A-Z][A-Z0-9_]*\([^()\n]*\)|[A-Za-z_][\w:]*(?:<[^<>()\n]*>)?)(?:\s*[*&]+\s*|\s+)(?:const\s*[*&]*\s*)?((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\(`;
const C_FUNCTION_LINE = new RegExp(String.raw`${C_HEAD}[^;{}]*(?:\)\s*(?:(?:const|noexcept|override|final)\s*)*\{?|,)\s*$`);
/** A C function's declaration in a header: `JSON_Status json_validate(const JSON_Value *schema, const JSON_Value *value);`. */
const C_DECLARATION_LINE = new RegExp(String.raw`${C_HEAD}[^;{}()]*\)\s*;\s*(?:\/\*.*\*\/\s*)?$`);

/** A line that starts a definition (or its decorator): Python, JS/TS, Go, Rust, Java-like classes. */
const NEXT_DEFINITION = new RegExp(
  String.raw`^\s*(?:@\w|(?:async\s+)?def\s|(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s|(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b|(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s|func\s|${KOTLIN_SWIFT_MODIFIERS}(?:fun|func)\s)`,
);

const indentOf = (l: string) => l.length - l.trimStart().length;

/** A line that closes a block by itself: `}`, `};`, `})`, Ruby's or Lua's `end`. */
const CLOSES_BLOCK = /^\s*(?:[}\]][\s;,)]*|end)\s*$/;
/** A line of Python that continues the statement above it rather than starting one: `)`, `]`, a comment. */
const CONTINUES = /^\s*[)\]}#]/;

/**
 * Whether the definition whose first line is `lines[def]` ends before `lines[at]` (the line after
 * the quote's first line of code, so that the statement a comment leads into counts): a line closing
 * its block at its indentation (`}`, `end`) comes between, or in Python a statement at its
 * indentation or less (not inside a triple-quoted string); also a one-line declaration that ends
 * with `;`. safePath.ts's doc comment on a re-export after `interface Inside { … }` is not
 * `Inside`'s.
 */
function endedBefore(lines: string[], def: number, at: number, python: boolean): boolean {
  if (at <= def) return false;
  const d = indentOf(lines[def]!);
  const head = lines[def]!;
  const count = (re: RegExp) => (head.match(re) ?? []).length;
  if (!python && /;\s*$/.test(head) && count(/\{/g) === count(/\}/g) && count(/\(/g) === count(/\)/g)) return true;
  let inString = false;
  for (let i = def + 1; i < at; i++) {
    const l = lines[i]!;
    if (python) {
      const odd = (l.match(/"""|'''/g) ?? []).length % 2 === 1;
      if (inString) {
        if (odd) inString = false;
        continue;
      }
      if (odd) inString = true;
    }
    if (!l.trim() || indentOf(l) > d) continue;
    if (CLOSES_BLOCK.test(l)) return true;
    if (python && !CONTINUES.test(l)) return true;
  }
  return false;
}

/**
 * The definition whose block holds `lines[start]`, looking up through the lines of less
 * indentation above it (blocks, then the definition), when that definition has not ended by
 * `until`.
 */
function innermostDefinition(lines: string[], start: number, until: number, python: boolean): string | undefined {
  const first = lines.slice(start, until).find((l) => l.trim());
  if (first === undefined) return undefined;
  let ind = indentOf(first);
  for (let i = start - 1; i >= 0 && ind > 0; i--) {
    const l = lines[i]!;
    if (!l.trim() || indentOf(l) >= ind) continue;
    let at = i;
    // The end of a signature written over several lines (`): Promise<T> {`, `) -> str:`): its
    // name is on the line at its indentation that opens it (`ensureQueryData<`, `def url_for(`).
    if (/^\s*[)>]/.test(l)) {
      for (let j = i - 1; j >= Math.max(0, i - 40); j--) {
        const o = lines[j]!;
        if (!o.trim() || indentOf(o) > indentOf(l) || /^\s*>\s*\(\s*$/.test(o)) continue;
        at = j;
        break;
      }
    }
    // A brace on a line of its own (C's, C#'s): the head is the line above it.
    if (/^\s*\{\s*$/.test(l)) {
      for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
        if (!lines[j]!.trim()) continue;
        at = j;
        break;
      }
    }
    const head = lines[at]!;
    const name = python ? DEFINITION_LINE.exec(head)?.[1] : definedAt(lines, at);
    if (name) return endedBefore(lines, at, until, python) ? undefined : name;
    ind = indentOf(head);
    i = at;
  }
  return undefined;
}

/**
 * The first line of a method's signature written over several lines: `ensureQueryData<`,
 * `async fetch(`, `invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(`.
 */
const SIGNATURE_OPEN = /^\s*(?:(?:async|static|public|private|protected|readonly|override|abstract)\s+)*(?!(?:if|for|while|switch|catch|return|new|await)\b)([A-Za-z_$][\w$]*)\s*(?:<[^()]*>\s*)?[<(]\s*$/;

/**
 * The name of the method whose signature opens on `lines[i]` and runs over several lines, closed
 * at the same indentation by `): T {` (not a call, whose `)` ends it, nor a call with a callback).
 */
function signatureName(lines: string[], i: number): string | undefined {
  const name = SIGNATURE_OPEN.exec(lines[i] ?? '')?.[1];
  if (!name) return undefined;
  const ind = indentOf(lines[i]!);
  for (let j = i + 1; j < Math.min(lines.length, i + 40); j++) {
    const l = lines[j]!;
    if (!l.trim() || indentOf(l) > ind) continue;
    // `>(` ends a list of type parameters and opens the parameters.
    if (/^\s*>\s*\(\s*$/.test(l)) continue;
    return /^\s*\)[^;]*\{\s*$/.test(l) ? name : undefined;
  }
  return undefined;
}

/**
 * The lines of a passage that open `symbol`'s own definition with a signature over several lines
 * (yargs' `addCoerceMiddleware(` … `): YargsInstance {`): the line alone reads as a call.
 */
export function signatureOpens(lines: string[], symbol: string): boolean[] {
  const leaf = leafName(symbol);
  if (!lines.some((l) => l.includes(leaf))) return lines.map(() => false);
  const head = braceBelowHead(leaf);
  const members = enumMembers(lines, leaf);
  return lines.map((l, k) => l.includes(leaf) && (signatureName(lines, k) === leaf || members[k] || (head.test(l) && /^\s*\{/.test(lines.slice(k + 1).find((x) => x.trim()) ?? ''))));
}

/** An enum's head whose members follow on the next lines: `enum XMLError {`, `enum class Mode : int {`, `public enum Kind`. */
const ENUM_HEAD = /^\s*(?:(?:typedef|public|private|protected|internal|export|const|declare)\s+)*enum\b[^;{}()=]*\{?\s*(?:\/\/.*|\/\*.*)?$/;

/**
 * The lines that declare `leaf` as a member of an enum the passage opens (tinyxml2's
 * `XML_ERROR_PARSING_DECLARATION,` in `enum XMLError {`): its definition, no use of it.
 */
function enumMembers(lines: string[], leaf: string): boolean[] {
  const member = new RegExp(String.raw`^\s*${escapeRe(leaf)}\s*(?:=[^,;{}]*)?,?\s*(?:\/\/.*|\/\*.*)?$`);
  const out = lines.map(() => false);
  let inside = false;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k]!;
    if (!inside) {
      inside = ENUM_HEAD.test(l);
      continue;
    }
    if (/^\s*\}/.test(l)) inside = false;
    else out[k] = member.test(l);
  }
  return out;
}

/**
 * A definition's line whose body's brace opens on the next line, its return type perhaps on the
 * line above (cxxopts' `const std::string` / `arguments_string() const` / `{`): no `;` ends it, as
 * it would a call.
 */
function braceBelowHead(leaf: string): RegExp {
  return new RegExp(String.raw`^\s*(?:[\w:<>,*&]+[ \t]+)*[*&]*${escapeRe(leaf)}\s*\([^;{}]*\)\s*(?:(?:const|noexcept|override|final)\s*)*$`);
}

/** A package or namespace clause, a PHP or strict-mode opening: what a file's head of imports holds besides them. */
const HEAD_LINE = /^\s*(?:(?:namespace|package)\s+[\w.\\]+\s*;?|<\?php|['"]use strict['"];?)\s*$/;
/**
 * What a Python package's `__init__.py` holds around its imports: imports for type checkers only,
 * a fallback when an import fails (uvicorn's `supervisors/__init__.py`), a name's bare annotation
 * there, and `__all__`, the names it re-exports.
 */
const PYTHON_HEAD_LINE = /^\s*(?:if\s+(?:typing\.)?TYPE_CHECKING\s*:|try\s*:|except\s*(?:\(?\s*(?:ImportError|ModuleNotFoundError)\b[^:]*)?:|else\s*:|\w+\s*:\s*[\w.[\], |]+|__all__\s*(?:\+?=|:))/;
/** The share of its score a head of imports keeps as a place ({@link importsOnly}). */
const IMPORTS_ONLY = 0.3;

/**
 * Whether a passage holds imports alone (with a package clause, comments and blank lines): the
 * lines an open bracket carries on (`from x import (`, `use a::{`, Go's `import (`, a list of
 * `__all__`) are the import's.
 */
function importsOnly(lines: string[]): boolean {
  let imports = 0;
  let open = 0;
  for (const l of lines) {
    if (open > 0) {
      open = Math.max(0, open + bracketDepth(l));
      continue;
    }
    if (!l.trim() || COMMENT.test(l) || HEAD_LINE.test(l)) continue;
    const around = PYTHON_HEAD_LINE.test(l);
    if (!around && !IMPORT_LINE.test(l)) return false;
    if (!around) imports++;
    open = Math.max(0, bracketDepth(l));
  }
  return imports > 0;
}

/** A string literal of one line (quotes escaped inside it). */
const STRING_LITERAL = /(["'])(?:\\.|(?!\1)[^\\\n])*\1/g;

/**
 * A line of two string literals or more and nothing else but commas and brackets: a table of
 * data (a lexer's keywords, a list of names), whose words are no place to quote for a question
 * in words. pygments' Factor lexer lists `'filter', 'filter!'`, which had led "where is the filter
 * that removes leading characters…?" before the `GobbleFilter` that does it.
 */
export function isDataLine(line: string): boolean {
  // A docstring's line (`"""Signal handler - just queue the signal."""`) is prose, no table.
  if (!/["']/.test(line) || /"""|'''/.test(line)) return false;
  let literals = 0;
  const rest = line.replace(STRING_LITERAL, () => {
    literals++;
    return '';
  });
  return literals >= 2 && rest.includes(',') && /^[\s,()[\]{};]*$/.test(rest);
}

/** "Why …?": a behaviour seen, which a troubleshooting page answers as well as the code. */
const WHY = /\bwhy\b/i;

/** A Python protocol's name, bare: `__init__`, `__repr__`. */
const DUNDER = /^__\w+__$/;

/** A question about what a named definition returns or yields. */
const RETURNS_RE = /\bwhat\b[^?]{0,80}\b(?:returns?|yields?|returned|yielded)\b|\breturn\s+(?:value|type)s?\b/i;
const RETURN_LINE = /^\s*(?:return|yield)\b/;

export function rankPlaces(query: string | QueryTerms, passages: Passage[]): PlaceMatch[] {
  const q = typeof query === 'string' ? queryTerms(query) : query;
  const total = [...q.weights.values()].reduce((a, b) => a + b, 0);
  const defs = q.symbols.map(definitionRe);
  // "Where is X called?": the lines that call X are what to quote, not X's own definition.
  const callOf = typeof query === 'string' ? callSiteSymbol(query) : null;
  const callRe = callOf ? callPattern(callOf) : null;
  const definesCalled = callOf ? definitionLine(callOf) : null;
  // "What does X return?": X's return statements are what to quote, not its signature.
  const returns = typeof query === 'string' && q.symbols.length > 0 && RETURNS_RE.test(query);
  // Names the index resolved to what implements them: the interface's declaration (fiber's
  // `Locals(key any, value ...any) any` in `type Ctx interface`) does not define them too.
  const implemented = new Set(passages.flatMap((p) => (p.resolved ?? []).filter((i) => i.via === 'implements').map((i) => i.name)));
  const found = passages.map((p) => q.symbols.filter((s, i) => (implemented.has(s) ? !!p.resolved?.some((r) => r.name === s) : definesSymbol(p, s, defs[i]!))));
  // A name that one file alone defines is that definition's name (koa's `throw` in the object
  // behind `ctx` is `ctx.throw`); where several do (hono's `Context.json` and `HonoRequest.json`
  // for `c.json`), the name is no one's, and asked where X is called, not the definition's.
  const definers = new Map<string, Set<string | number>>();
  passages.forEach((p, i) => {
    for (const s of found[i]!) definers.set(s, (definers.get(s) ?? new Set()).add(p.path ?? i));
  });
  // A protocol's method named bare (`__init__`, `__repr__`) that several files define is none of
  // theirs: "how is __init__ generated?" in attrs is not `Factory.__init__`.
  const defined = found.map((ds) => ds.filter((s) => !(DUNDER.test(s) && definers.get(s)!.size > 1)));
  const info = typeof query === 'string' ? analyzeQuestion(query) : undefined;
  const howTo = !!info?.howTo;
  const asksUse = !!callOf || info?.intent === 'usage';
  const plainWords = !callRe && !returns && q.symbols.length === 0;
  const out: PlaceMatch[] = [];
  for (const [pi, p] of passages.entries()) {
    const lines = p.text.split(/\r?\n/);
    const inDoc = callRe ? docstringLines(p.text, p.path) : [];
    const callsHere = callOf && callRe ? callPattern(callOf, p.path) : null;
    // A piece that goes on with a definition asked about, from inside its docstring (the head a
    // chunk of its own), reads from its first line, as the head would.
    const goesOn = !asksUse && !returns && defined[pi]!.length > 0 && !defs.some((re) => lines.some((l) => re.test(l))) && !!docstringLines(p.text, p.path)[0];
    let docs: boolean[] | undefined;
    const documented = (i: number) =>
      (i > 0 && (COMMENT.test(lines[i - 1]!) || /^\s*\*\/\s*$/.test(lines[i - 1]!))) ||
      (docs ??= docstringLines(p.text, p.path)).slice(i + 1, i + 4).some(Boolean);
    const data = plainWords ? lines.map(isDataLine) : [];
    const lineScores = lines.map((line, i) => {
      const terms = textTerms(line);
      let s = 0;
      for (const [t, w] of q.weights) s += w * termCredit(t, terms);
      // A code is as particular as a name: at a word's weight, two lines that said "server" outbid
      // faraday's `404 => Faraday::ResourceNotFound`.
      for (const c of q.codes) if (terms.has(c)) s += 2;
      if (callRe && definesCalled) {
        // A docstring's or comment's example of the call (`response = client.send(request, ...)`
        // in `Client.request`'s docstring) is no call: its words count for little next to the call.
        if (inDoc[i] || COMMENT.test(line)) s *= 0.25;
        else if (definesCalled(line)) s -= 4;
        else if (callsHere!.test(codeOf(line, p))) s += 6;
      }
      // An import names what the code below uses: the words of its names are no place to quote.
      if (IMPORT_LINE.test(line) || data[i]) s *= 0.25;
      if (defs.some((re) => re.test(line)) || (goesOn && i === 0)) s += 4;
      // A definition named by the question's words is the place to quote, more than a message that
      // says them: starlette's `async def accept(` for "how are websocket connections accepted?",
      // not `receive_text`'s 'WebSocket is not connected. Need to call "accept" first.'. A question
      // that names code has its own place (above); a definition with a doc comment or docstring
      // is quoted by what that says.
      else if (plainWords) {
        const name = definedAt(lines, i);
        if (name && !documented(i)) s += 4 * namedByQuestion(q, name);
      }
      if (returns && RETURN_LINE.test(line)) s += 8;
      return s;
    });
    // A table's words are none of the passage's (`isDataLine`).
    const all = textTerms(data.some(Boolean) ? lines.filter((_, i) => !data[i]).join('\n') : p.text);
    if (p.path) for (const t of textTerms(p.path)) all.add(t);
    if (p.symbol) for (const t of textTerms(p.symbol)) all.add(t);
    const defines = defined[pi]!;
    // The definition of `App.run` that App inherits is `App.run`: the name's words are its own.
    const names = [...(p.resolved ?? []).map((i) => i.name), ...defines.filter((s) => !asksUse && definers.get(s)!.size === 1)];
    for (const name of names) for (const t of textTerms(name)) all.add(t);
    const matchedKeys = [...q.weights.keys()].filter((t) => termCredit(t, all) > 0);
    const got = matchedKeys.reduce((a, t) => a + (all.has(t) ? (q.weights.get(t) ?? 0) : 0), 0);
    const matched = matchedKeys.map((t) => q.display.get(t) ?? t);
    const coverage = total > 0 ? got / total : 0;
    // A definition the index resolved the name to is named by it too (`DefaultReq.Locals` is `Ctx.Locals`).
    // A document's section heading is a title, not a name of code: it counts as one for how-tos only.
    const heading = !howTo && !!p.path && !!languageOf(p.path).markdown;
    const named = heading ? 0 : Math.max(nameCoverage(q, p.symbol, total, p.text), ...names.map((name) => nameCoverage(q, name.split(/\.|::|#/).join(' › '), total)));
    const { start: best, quote } = quoteWindow(lines, lineScores);
    // A file's head of imports alone (AutoMapper's `using System.Collections;` ×3 for "how are
    // collections mapped?") names what the code below uses: no place, unless asked for a name in
    // it. A head with a definition's doc comment is named by it (hono's `compose`), and counts.
    const score = scorePlace(coverage, defines.length > 0, p.retrieval, q.symbols.length > 0, named);
    out.push({
      passage: p,
      score: !q.symbols.length && !p.symbol && importsOnly(lines) ? Math.round(score * IMPORTS_ONLY * 1000) / 1000 : score,
      coverage,
      matched,
      defines,
      quoteStart: best,
      quote,
    });
  }
  out.sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  return out;
}

/**
 * The one order of a question's places, for the list the reader sees and for the citations:
 * by place score (the question's words and the symbols it names, with the retrieval score),
 * test files after the others unless the question is about tests, examples after them unless it
 * asks for one (the files the ranking counts so, index/languages.ts), and the first place from one
 * of the retrieval's best files ({@link FIRST_FROM_FILES}). Returns indexes into
 * `passages`. Measured on the dev sets (bench answers): citing the retriever's own first place
 * put a reference file first for 66.2% of sweqa and 64.9% of qa questions; this order, 73.2% and 73.0%.
 */
export function answerOrder(query: string, passages: Passage[]): { order: number[]; scores: number[] } {
  const ranked = rankPlaces(query, passages);
  const wantTests = asksAboutTests(query);
  const wantExamples = asksAboutExamples(query);
  // Tests and examples (examples/, benchmarks/, code in docs) after the code, as the ranking has them.
  // Once per place, not per comparison of the sort.
  // Asked where X is called, a document's example of a call comes after the code's calls too.
  const callOf = callSiteSymbol(query);
  const prose = (p: Passage) => !!callOf && !wantExamples && !!p.path && isDocumentPage(p.path);
  const example = (p: Passage) => !wantExamples && !!p.path && isExamplePath(p.path);
  const testCall = testCallsAnswer(query, passages);
  const lateTest = (p: Passage) => !wantTests && isTestPassage(p) && !testCall?.(p);
  // Asked how the code does something (not how to use it, nor why something happens), a document's
  // page on it comes after the code, before tests: pino's docs/redaction.md had led "how are
  // sensitive fields redacted?" before lib/redaction.js (outside follow-ups 78.6% → 80.4%).
  const info = analyzeQuestion(query);
  // So does code that is all comment: Go's `doc.go` (cron's led "how does the scheduler turn a field
  // like '10-30/5' into the allowed values?"), a module's docs alone in their chunk.
  const page = (p: Passage) => info.natural && !info.howTo && !WHY.test(query) && !wantExamples && !!p.path && (!!languageOf(p.path).markdown || commentOnly(p));
  // So does a declaration file unless the question is about types (joi's `index.d.ts` had led
  // "how is a value validated against a schema?" before lib/validator.js).
  // A passage of interfaces alone counts so too for a question in plain words (AutoMapper's
  // `IProfileConfiguration` and `IConfigurationProvider` sit in the files of their classes); one
  // that names a type ("show me the code for `LambdaContext`") wants it (qa follow-ups 91.9% →
  // 83.8% when they counted). A C header's prototype of a function the question does not name
  // comes after the code, whatever else it names (json-c's "how are NaN and infinity written?").
  const declaration = (m: PlaceMatch) => {
    const p = m.passage;
    const language = languageOf(p.path ?? '').id;
    const named = language === 'c' || language === 'cpp' ? m.defines.length > 0 : info.symbols.length > 0;
    return info.natural && !info.howTo && !ABOUT_TYPES.test(query) && !!p.path && (isDeclarationPath(p.path) || (!named && isInterfaceOnly(language, [p], p.path)));
  };
  const lateness = new Map(ranked.map((m) => [m, lateTest(m.passage) || example(m.passage) || prose(m.passage) ? 1 : page(m.passage) || declaration(m) ? 0.5 : 0]));
  const later = (m: PlaceMatch) => lateness.get(m)!;
  const pos = new Map(passages.map((p, i) => [p, i]));
  const sorted = [...ranked].sort((a, b) => later(a) - later(b) || b.score - a.score || a.passage.index - b.passage.index);
  // The first place comes from one of the retrieval's best files: a chunk's share of the
  // question's words does not outweigh the whole ranking (file evidence, meaning, named code).
  const fileRank = new Map<string, number>();
  for (const p of passages) {
    const key = p.path ?? `#${p.index}`;
    if (!fileRank.has(key)) fileRank.set(key, fileRank.size);
  }
  const rankOf = (m: PlaceMatch) => fileRank.get(m.passage.path ?? `#${m.passage.index}`) ?? 0;
  if (rankOf(sorted[0]!) >= FIRST_FROM_FILES) {
    const k = sorted.findIndex((m) => rankOf(m) < FIRST_FROM_FILES && !later(m));
    if (k > 0) sorted.unshift(...sorted.splice(k, 1));
  }
  // "How is X tested?" where no test calls X by name: the tests named after it first.
  if (wantTests && callOf) {
    const re = callPattern(callOf);
    if (!sorted.some((m) => isTestPassage(m.passage) && re.test(m.passage.text))) {
      const named = sorted.filter((m) => testNamedAfter(m.passage, callOf));
      if (named.length) sorted.splice(0, sorted.length, ...named, ...sorted.filter((m) => !named.includes(m)));
    }
  }
  return { order: sorted.map((m) => pos.get(m.passage)!), scores: sorted.map((m) => m.score) };
}

/**
 * The answer's first place is from the retrieval's best FIRST_FROM_FILES files (bench answers,
 * first cited place in relevant_files, sweqa / qa: any file 76.8% / 86.5%, spans 83.8%; the best
 * file only 71.1% / 78.4%; the best 2: 76.1% / 83.8%; 3 or 4: 76.8% / 91.9%, spans 86.5%,
 * qa follow-ups 70.3% → 73.0%; 6: 76.1% / 91.9%).
 */
const FIRST_FROM_FILES = 3;

/** A chunk symbol as a reader names it: `Outer › inner` → `Outer.inner`, neighbours `a, b` → `a`. */
export function displaySymbol(symbol: string | undefined): string | undefined {
  if (!symbol) return undefined;
  // A quote that starts its chunk's class is the class, not `SchemaView.SchemaView`.
  const parts = symbol.split(/\s*›\s*/).map((p) => p.split(/\s*,\s*/)[0]!.trim()).filter((p, i, all) => p && p !== all[i - 1]);
  const s = parts.join('.');
  return s.length > 1 ? s : undefined;
}

/** `[\`path:12-30\`](path#L12-L30)`: a workspace-relative place every face can open. */
export function placeLink(p: Passage): string {
  const place = placeOf(p);
  if (!p.path) return `\`${place}\``;
  const frag = p.startLine !== undefined ? `#L${p.startLine}${p.endLine !== undefined && p.endLine !== p.startLine ? `-L${p.endLine}` : ''}` : '';
  return `[\`${place}\`](${encodeURI(p.path)}${frag})`;
}

/** Whether two places' lines overlap, or are at most `gap` lines apart. */
function within(a: Passage, b: Passage, gap: number): boolean {
  return a.startLine! <= (b.endLine ?? b.startLine!) + gap && b.startLine! <= (a.endLine ?? a.startLine!) + gap;
}

/**
 * The places an answer cites, in the order given (the ranking the reader sees: the answer flow
 * orders the list with {@link answerOrder}), at most three:
 * the first always, the next ones when they match a word of the question. Test files only when
 * the question is about tests (or nothing else was found); one place per stretch of a file and per
 * definition: places that overlap, or pieces of the same definition (a class's two-line head and
 * its long docstring are two chunks: sanic's `BlueprintGroup` was cited twice, and so was its
 * 170-line `RouteMixin.route`, by its first lines and its last).
 */
export function citedPlaces(query: string, ranked: PlaceMatch[], max = MAX_CITED): PlaceMatch[] {
  const byIndex = [...ranked].sort((a, b) => a.passage.index - b.passage.index);
  const wantTests = asksAboutTests(query);
  const testCall = wantTests ? undefined : testCallsAnswer(query, byIndex.map((m) => m.passage));
  const pool = wantTests ? byIndex : byIndex.filter((m) => !isTestPassage(m.passage) || !!testCall?.(m.passage));
  const list = pool.length ? pool : byIndex;
  const out: PlaceMatch[] = [];
  for (const m of list) {
    if (out.length >= max) break;
    if (out.length && !m.matched.length) continue;
    // A definition's bare head (click's three-line `def invoke(` signature, its docstring and body
    // the next chunk; django-rest-framework's `class TokenAuthentication(…):` line, its methods
    // the next) and the piece right after it are one place: its head and what it does.
    const pair = out.findIndex((o) => headOf(o.passage, m.passage) || headOf(m.passage, o.passage));
    if (pair >= 0) {
      const [head, body] = headOf(m.passage, out[pair]!.passage) ? [m.passage, out[pair]!.passage] : [out[pair]!.passage, m.passage];
      const both: Passage = { ...head, endLine: body.endLine, text: `${head.text.replace(/\n$/, '')}\n${body.text}`, retrieval: Math.max(head.retrieval ?? 0, body.retrieval ?? 0) };
      out[pair] = rankPlaces(query, [both])[0]!;
      continue;
    }
    // The same definition's pieces, also where their chunks are named apart (`Request › data, get_data`
    // and `Request › get_data, form` quote one `Request.get_data`).
    const name = quotedSymbol(m);
    const dup = out.findIndex((o) => o.passage.path === m.passage.path && (o.passage.startLine === undefined || m.passage.startLine === undefined ||
      within(o.passage, m.passage, 0) || (o.passage.symbol === m.passage.symbol && (!!m.passage.symbol || within(o.passage, m.passage, 1))) ||
      (!!name && quotedSymbol(o) === name)));
    if (dup < 0) out.push(m);
    // Of two pieces of one name, the one that defines it (the body after Python's typing overloads).
    else if (m.defines.length && !out[dup]!.defines.length && !!name && quotedSymbol(out[dup]!) === name) out[dup] = m;
  }
  return out;
}

/** Whether `head` is a definition's bare head (no more than a signature) and `next`, in its file, goes on with it. */
function headOf(head: Passage, next: Passage): boolean {
  return head.path === next.path && head.text.length < 400 && goesOnWith(head, next);
}

function fence(lang: string | undefined, body: string): string {
  const ticks = body.includes('```') ? '````' : '```';
  return `${ticks}${lang ?? ''}\n${body}\n${ticks}`;
}

/** The quoted lines as a place of their own (their line numbers go in the link, not in the code). */
function quotePassage(m: PlaceMatch): Passage {
  const start = m.passage.startLine !== undefined ? m.passage.startLine + m.quoteStart : undefined;
  return { ...m.passage, startLine: start, endLine: start !== undefined ? start + m.quote.length - 1 : undefined };
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut));
}

function why(m: PlaceMatch): string {
  const parts: string[] = [];
  if (m.defines.length) parts.push(`defines ${m.defines.map((s) => `\`${s}\``).join(', ')}`);
  if (m.matched.length) parts.push(`matches ${m.matched.slice(0, 8).map((t) => `\`${t}\``).join(', ')}`);
  else parts.push('no question term appears in it literally');
  if (m.passage.retrieval !== undefined) parts.push(`retrieval score ${m.passage.retrieval.toFixed(2)}`);
  return parts.join('; ');
}

/**
 * The symbol a quote shows: of a chunk's neighbours (`Outer › a, b`), the one its first line is in
 * (the last defined at or before it), or the one it leads into when it starts on a decorator or a
 * comment above a definition, or else the first defined in it; so the heading names the code
 * quoted, not the chunk's first name, nor a definition that merely follows the quoted lines.
 */
export function quotedSymbol(m: PlaceMatch): string | undefined {
  const name = quotedName(m);
  // Go names a method by its receiver, which the chunk's names leave out: `func (app *App) next(` is `App.next`.
  if (!name || name.includes('.') || !/\.go$/.test(m.passage.path ?? '')) return name;
  const recv = new RegExp(`^\\s*func\\s*\\(\\s*\\w*\\s*\\*?\\s*([A-Za-z_]\\w*)(?:\\[[^\\]]*\\])?\\s*\\)\\s*${escapeRe(name)}\\s*[(\\[]`, 'm').exec(m.passage.text);
  return recv ? `${recv[1]}.${name}` : name;
}

function quotedName(m: PlaceMatch): string | undefined {
  const sym = m.passage.symbol;
  if (!sym) return undefined;
  const parts = sym.split(/\s*›\s*/);
  const names = (parts.at(-1) ?? '').split(/\s*,\s*/).filter(Boolean);
  if (!names.length) return displaySymbol(sym);
  // A document's section goes by its heading, not by a definition in one of its examples (sanic's
  // "Reading" cookies section had been named `test`, the handler its example defines).
  if (m.passage.path && languageOf(m.passage.path).markdown) return displaySymbol(sym);
  const lines = m.passage.text.split(/\r?\n/);
  const start = m.quoteStart;
  const end = start + m.quote.length;
  let enclosing: string | undefined;
  let at = -1;
  let next: { name: string; line: number } | undefined;
  let found = false;
  // A docstring's example (`group = group(bp1, bp2)`) defines nothing.
  const inDoc = docstringLines(m.passage.text, m.passage.path);
  for (const n of names) {
    const re = definitionRe(n);
    const i = lines.findIndex((l, k) => !inDoc[k] && re.test(l));
    if (i < 0) continue;
    found = true;
    if (i <= start) {
      if (i > at) [at, enclosing] = [i, n];
    } else if (i < end && (!next || i < next.line)) next = { name: n, line: i };
  }
  // The quote's code starts a definition: it goes by that name, also where the chunk's names leave
  // it out (they are three at most: echo's `type HTTPErrorHandler func(…)` after `Deserialize`)
  // or name an overload before it (serilog's `ForContext(Type source) => …`).
  const python = /\.pyi?$/i.test(m.passage.path ?? '');
  // A doc comment leads into the definition below it; a Python docstring is inside the one above.
  const leadIn = (i: number) => LEAD_IN.test(lines[i]!) || (!python && inDoc[i]!);
  const bodyAt = lines.slice(start, end).findIndex((_, k) => !leadIn(start + k));
  const body = bodyAt < 0 ? undefined : lines[start + bodyAt]!;
  // A header's declaration is named by what it declares too (parson's `json_validate(…);` below
  // the comment that says how it validates, not the declaration before them).
  const own = body !== undefined ? (definedAt(lines, start + bodyAt) ?? (/^(?:c|cpp)$/.test(languageOf(m.passage.path ?? '').id) ? C_DECLARATION_LINE.exec(body)?.[1] : undefined)) : undefined;
  // The head of a parent (a small file's `module Hanami; class Router; class MountedPath`) goes by
  // that parent, not by it again below the others (`Hanami.Router.MountedPath.Router`).
  const named = (name: string) => {
    const k = parts.slice(0, -1).lastIndexOf(name);
    return displaySymbol((k >= 0 ? parts.slice(0, k + 1) : [...parts.slice(0, -1), name]).join(' › '));
  };
  if (own) return named(own);
  // Only the doc comment of a definition the next chunk holds, at this chunk's end: named as Go
  // names one, by its first word (`// DefaultHTTPErrorHandler creates …` is not `New`'s).
  if (body === undefined && lines.slice(end).every((l) => !l.trim())) {
    const doc = DOC_OF.exec(m.quote.find((l) => l.trim()) ?? '')?.[1];
    if (doc && !names.includes(doc)) return doc;
  }
  // Only a doc comment whose definition comes right after the quote, in this chunk: its name
  // (react-router's JSDoc of `matchRoutes`, quoted for its "@param routes … to match against").
  if (body === undefined) {
    const k = lines.findIndex((_, i) => i >= end && !leadIn(i));
    const after = k < 0 ? undefined : definedAt(lines, k);
    if (after) return named(after);
  }
  // A chunk inside a definition (its header in an earlier chunk) goes by the chunk's names.
  if (!found) return displaySymbol([...parts.slice(0, -1), names[0]!].join(' › '));
  const until = bodyAt < 0 ? start : start + bodyAt + 1;
  // Quoted lines after the enclosing definition's end are not in it; they may be in one the
  // chunk's names leave out (sinatra's call of `process_route` in `route!`, after `forward`).
  if (enclosing && endedBefore(lines, at, until, python)) enclosing = innermostDefinition(lines, start, until, python);
  const leadsInto = next && lines.slice(start, next.line).every((l) => LEAD_IN.test(l));
  const pick = leadsInto || !enclosing ? next?.name : enclosing;
  // Quoted lines above every definition of the chunk (a module's docstring, its imports) are in none of them.
  if (!pick) return parts.length > 1 ? displaySymbol(parts.slice(0, -1).join(' › ')) : undefined;
  return displaySymbol([...parts.slice(0, -1), pick].join(' › '));
}

export function placeHeading(m: PlaceMatch): string {
  const sym = quotedSymbol(m);
  return `${placeLink(m.passage)}${sym ? ` · \`${sym}\`` : ''}`;
}

function words(list: string[]): string {
  const w = list.slice(0, 4).map((t) => `“${t}”`);
  return w.length <= 1 ? w.join('') : `${w.slice(0, -1).join(', ')} and ${w.at(-1)}`;
}

/**
 * One sentence that says where it happens: the first cited place, named by its symbol. For "where
 * is X called?" (`callOf`), a place whose quote calls X is named by the code the call is in (a
 * test "tests it" when the question asks where X is tested; `new X(` "creates one"); one whose
 * quote names X without calling it "uses it". Asked how X is tested where no cited test calls it,
 * the sentence says so first (and which class or module, among all the `ranked` places, the test tests).
 */
export function leadSentence(cited: PlaceMatch[], callOf: string | null = null, aboutTests = false, ranked: PlaceMatch[] = cited): string {
  const [first, ...rest] = cited;
  // A call in the quote, not the definition's own line (`public GsonBuilder setPrettyPrinting() {`).
  const defLine = callOf ? definitionLine(callOf) : null;
  // A line of a place's quote that says `re` in its code: not a comment, a docstring or X's own definition.
  const saysIn = (m: PlaceMatch, re: RegExp) => {
    const inDoc = docstringLines(m.passage.text, m.passage.path);
    const opens = signatureOpens(m.passage.text.split('\n'), callOf!);
    return m.quote.some((l, k) => re.test(codeOf(l, m.passage)) && !defLine!(l) && !COMMENT.test(l) && !inDoc[m.quoteStart + k] && !opens[m.quoteStart + k]);
  };
  const said = (re: RegExp) => saysIn(first, re);
  const callRe = callOf ? callPattern(callOf, first.passage.path) : null;
  const calls = !!callRe && said(callRe);
  // Not called but named, as a type or a value (echo's `Binder Binder` field for "who uses the Binder interface?").
  const uses = !!callOf && !calls && !first.defines.length && said(wholeNameRe(leafName(callOf)));
  // A method the class asked about inherits: the base's own name, and whose it is.
  const inherits = calls || uses ? undefined : first.passage.resolved?.find((i) => i.name === first.defines[0] && i.via);
  // Defined in the passage itself, not only inside it (a method's chunk of the class asked about:
  // drf's `ModelSerializer.build_field` is no definition of `ModelSerializer`, which starts 350 lines above).
  const own = first.defines.length > 0 && (!!first.passage.resolved?.some((i) => i.name === first.defines[0]) || definedIn(first.passage, definitionRe(first.defines[0]!)));
  const sym = calls || uses ? quotedSymbol(first) : inherits ? inherits.definition : own ? first.defines[0] : (quotedSymbol(first) ?? first.defines[0]);
  const where = sym ? `\`${sym}\` in ${placeLink(first.passage)}` : placeLink(first.passage);
  let s: string;
  // `new TypeAdapterFactory() {` makes one rather than calling it.
  // Python makes one by calling the class: a Capitalised name called there (`bps = BlueprintGroup(`).
  const creates = calls && (said(new RegExp(`\\bnew\\s+(?:[\\w$]+\\.)*${escapeRe(leafName(callOf!))}\\s*[(<{]`)) ||
    (/\.py$/.test(first.passage.path ?? '') && /^[A-Z]/.test(leafName(callOf!)) && said(callPattern(callOf!))));
  // `raise MethodNotAllowed(…)`, `throw new RouteNotFound(…)`: raises it.
  const raises = calls && said(new RegExp(`\\b(?:raise|throw)\\s+(?:new\\s+)?(?:[\\w$]+\\.)*${escapeRe(leafName(callOf!))}\\b`));
  // Asked how X is tested, a test named after it that calls no X by name (it goes through another API).
  const namedTest = aboutTests && callOf && !calls && !uses ? testNamedAfter(first.passage, callOf) : undefined;
  // Nor named after it: a test of its class (okio's `CommonBufferTest` reads `SegmentPool.byteCount`).
  const owner = aboutTests && callOf && !calls && !uses && !namedTest && isTestPassage(first.passage) ? ownerAndMember(callOf)?.owner : undefined;
  // Nor of its class: a test of the module that defines it (python-dotenv's `tests/test_variables.py`).
  const ownerSaid = !!owner && said(wholeNameRe(owner));
  const module = aboutTests && callOf && !calls && !uses && !namedTest && !ownerSaid && isTestPassage(first.passage)
    ? ranked.find((m) => !isTestPassage(m.passage) && m.defines.some((d) => leafName(d) === leafName(callOf)) && isTestOfModule(first.passage.path ?? '', m.passage.path ?? ''))?.passage.path
    : undefined;
  if (namedTest) s = `\`${namedTest}\` in ${placeLink(first.passage)} is the test named after it (no test found calls \`${leafName(callOf!)}\` directly)`;
  else if (ownerSaid) s = `No test found calls \`${leafName(callOf!)}\` directly; ${where} tests \`${owner}\``;
  else if (module) s = `No test found calls \`${leafName(callOf!)}\` directly; ${where} tests its module, \`${module}\``;
  // Nor of its module: the closest test the search found (it may reach X through the public API).
  else if (aboutTests && callOf && !calls && !uses && isTestPassage(first.passage)) s = `No test found calls \`${leafName(callOf)}\` directly; the closest test found is ${where}`;
  // A document's example first: the places hold no code that calls it (answerOrder puts documents after code).
  else if ((calls || uses) && !aboutTests && !!first.passage.path && isDocumentPage(first.passage.path)) s = `No code found ${calls ? 'calls' : 'uses'} \`${leafName(callOf!)}\`; ${where} shows it ${calls ? 'called' : 'used'}`;
  // A test first, not asked about tests: only tests call it (testCallsAnswer).
  else if (calls || uses) s = `${where} ${aboutTests && isTestPassage(first.passage) ? 'tests it' : raises ? 'raises it' : creates ? 'creates one' : calls ? 'calls it' : 'uses it'}${!aboutTests && isTestPassage(first.passage) ? ` (only tests ${calls ? 'call' : 'use'} it)` : ''}`;
  else if (inherits?.via === 'implements') s = `${where} implements it`;
  else if (inherits) s = `${where} defines it (\`${inherits.name.split(/\.|::|#/).at(-2)}\` inherits it)`;
  else if (own) s = `${where} defines it`;
  else if (first.matched.length) s = `${where} is where this happens (it matches ${words(first.matched)})`;
  else s = `No place uses the words of the question; the closest is ${where}`;
  if (rest.length) s += `; see also ${rest.map((m) => { const n = quotedSymbol(m); return n ? `\`${n}\` (${placeLink(m.passage)})` : placeLink(m.passage); }).join(' and ')}`;
  // "How is X tested?" where no test among the places calls X: say so before the code that does.
  const testCalls = (m: PlaceMatch) => isTestPassage(m.passage) && saysIn(m, callRe!);
  if (aboutTests && !namedTest && (calls || uses) && !isTestPassage(first.passage) && !cited.some(testCalls)) s = `No test found calls \`${leafName(callOf!)}\` directly; ${s}`;
  return s + '.';
}

function sourcesBlock(ranked: PlaceMatch[]): string {
  const list = [...ranked].sort((a, b) => a.passage.index - b.passage.index).slice(0, 10);
  const rows = list.map((m) => `- ${placeHeading(m)} — ${why(m)}`);
  const label = rows.length < ranked.length ? `Sources (the first ${rows.length} of ${ranked.length})` : `Sources (${ranked.length})`;
  return `<details><summary>${label}</summary>\n\n${rows.join('\n')}\n\n</details>`;
}

export interface ExtractiveResult {
  answers: QGPTQuestionAnswer[];
  cited: PlaceMatch[];
}

/** The answer when nothing was found: one clear sentence. */
export function noResultAnswer(query: string): string {
  return `No place in the code matches “${clip(query.trim(), 120)}”; try other words, or name a file or a symbol.`;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/**
 * answers[0] is the whole answer: a lead sentence naming the first cited place, then an excerpt
 * of each cited place (the lines that match the question), then the sources collapsed. Then one
 * short answer per cited place, so a client that lists alternatives can show each on its own.
 * Each answer's score is the score of the best place it cites; with no snippets it is 0.
 */
export function extractiveAnswer(query: string, passages: Passage[]): ExtractiveResult {
  if (!passages.length) return { answers: [{ score: 0, text: noResultAnswer(query) }], cited: [] };
  const ranked = rankPlaces(query, passages);
  const cited = citedPlaces(query, ranked);
  const excerpt = (m: PlaceMatch) => `${placeHeading({ ...m, passage: quotePassage(m) })}\n${fence(m.passage.language, dedent(m.quote).join('\n'))}`;
  const full = `${leadSentence(cited, callSiteSymbol(query), asksAboutTests(query), ranked)}\n\n${cited.map(excerpt).join('\n\n')}\n\n${sourcesBlock(ranked)}\n\n${NO_MODEL_LINE}`;
  const best = Math.max(...cited.map((m) => m.score));
  const answers: QGPTQuestionAnswer[] = [{ score: best, text: full }];
  // The alternatives, best first (the order a client that lists them shows).
  if (cited.length > 1) for (const m of [...cited].sort((a, b) => b.score - a.score)) answers.push({ score: m.score, text: `${excerpt(m)}\n\n${NO_MODEL_LINE}` });
  return { answers, cited };
}
