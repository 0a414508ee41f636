/**
 * What a question asks for, read from its words: people ("who can help with X?"), call sites
 * ("where is X called?"), tests. Each answer face takes the same path for the same words.
 */
import { analyzeQuestion, dottedPaths, usagePhrasing, withoutTestDomain } from '../index/question';
import { isTestPath as isTestFile, isRustTestCode } from '../index/languages';
import { isTestNamedAfter } from '../index/symbols';

const PEOPLE_RE =
  /\b(?:who(?:m)?\s+(?:(?:can|could|should|would|might|do|does|shall)\s+(?:I\s+|we\s+)?(?:help|ask|explain|review|talk\s+to|contact|answer)|knows?|wrote|writes|authored|maintains?|owns?|works?\s+on|worked\s+on|changed|touched|is\s+(?:the\s+)?(?:expert|owner|maintainer|author)|are\s+(?:the\s+)?(?:experts|owners|maintainers|authors))|(?:wer|quién|quien|qui)\s+(?:kennt|kann|sabe|puede|connaît|peut|hat|escribió))\b/i;

/** The topic of a people question ("who can help with the JWT middleware?" → "the JWT middleware"), or null. */
export function peopleTopic(query: string): string | null {
  const m = PEOPLE_RE.exec(query);
  if (!m) return null;
  const rest = (query.slice(0, m.index) + ' ' + query.slice(m.index + m[0].length))
    .replace(/^\s*(?:me\s+)?(?:with|about|on|for|in|the\s+code\s+(?:of|in))\b/i, ' ')
    .replace(/\b(?:best|most|here|recently|the\s+most)\b/gi, ' ')
    .replace(/[?!.]+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return rest.replace(/^(?:with|about|on|for|in|of)\s+/i, '').trim();
}

/** "the Router's fallback": an owner (a class name, or code-shaped) and its member. */
const POSSESSIVE_MEMBER = /\b(?:the\s+)?`?([A-Z]\w*|[a-z]+[A-Z_]\w*)`?['’]s\s+`?([A-Za-z_$][\w$]*)`?/g;

const CALL_RE =
  /\b(?:where|who|what|how)\s+(?:is|are|does|do|else\s+is)?\s*(?:else\s+)?(?:the\s+)?`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:[?!](?=`))?)`?(?:\(\))?(?:\s+(?:class|function|method|interface|type|struct|module|hook|component|constant|trait|enum|helper|decorator|fixture|middleware|property|attribute|field|macro|variable|exception|error))?\s+(?:(?:being|getting)\s+)?(called|used(?!\s+(?:for|to|as)\b)|invoked|referenced|imported|instantiated|raised|thrown|tested|registered|call(?:ed|s)?\s+from)\b|\bexamples?\s+of\s+(?:using|calling)\s+`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:[?!](?=`))?)`?|\b(?:callers|call\s+sites|usages|uses|references)\s+of\s+`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:[?!](?=`))?)`?|\bwhat\s+calls\s+`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:[?!](?=`))?)`?|\b(?:who|what)\s+(?:else\s+)?(?:uses|calls|invokes|references|imports|instantiates)\s+(?:the\s+)?(?:`([A-Za-z_$][\w$.]*)`|([A-Z][\w$]*(?:\.[A-Za-z_$][\w$]*)*|[a-z_$][\w$]*[A-Z_][\w$]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?:\(\))?)(?![\w$])|\b(?:tests?|specs?)\s+(?:for|of|cover(?:s|ing)?|that\s+covers?)\s+(?:the\s+)?(?:`([A-Za-z_$][\w$.]*[?!]?)`|([A-Z][\w$]*(?:\.[A-Za-z_$][\w$]*)*|[a-z_$][\w$]*[A-Z_][\w$]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?:\(\))?)(?![\w$])/i;

/**
 * The symbol whose call sites a question asks for ("where is `compose` called?", "how is
 * `compose` used?", "an example of using `compose`", "where is `compose` tested?", "the tests for
 * `compose`", "who uses the Binder
 * interface?" → compose, Binder), or null. After "who uses", a name in backticks, Capitalised,
 * camelCase, snake_case or dotted: "what uses the most memory?" names none.
 */
export function callSiteSymbol(query: string): string | null {
  // "the GsonBuilder's setPrettyPrinting" is `GsonBuilder.setPrettyPrinting`, as the search reads it.
  const m = CALL_RE.exec(dottedPaths(usagePhrasing(query)).replace(POSSESSIVE_MEMBER, '$1.$2'));
  // Unquoted after "who uses" or "the", a plain lower-case word is English ("the most memory",
  // "where is the cache used?"); a name is backticked, Capitalised, camelCase, snake_case or dotted.
  const plain = (w: string) => !/^[A-Z]|[A-Z_.]/.test(w);
  if ((m?.[7] && plain(m[7])) || (m?.[9] && plain(m[9]))) return null;
  if (m?.[1] && plain(m[1]) && /\bthe\s+$/i.test(m[0].slice(0, m[0].indexOf(m[1])))) return null;
  // "Where are routes registered?" asks how registering works; "where is `Recovery` registered?" where it is passed.
  if (m?.[1] && plain(m[1]) && /^registered$/i.test(m[2] ?? '')) return null;
  // "How are schemas referenced by $id resolved?" asks about schemas, plural and in plain words: a
  // name is one thing, in code's own shape ("how are `handlers` used?").
  if (m?.[1] && plain(m[1]) && /\bare\s+(?:the\s+)?$/i.test(m[0].slice(0, m[0].indexOf(m[1])))) return null;
  // "Why do I get XML_ERROR_PARSING_DECLARATION…?", "…throw a ConfigurationException": where it comes from.
  const sym = m ? (m[1] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7] ?? m[8] ?? m[9]) : analyzeQuestion(query).thrown;
  // A name of a hundred characters or more is no name (and would make the patterns built from it too large).
  if (!sym || sym.length < 3 || sym.length > 100 || /^(?:it|this|that|they|them|these|those|the|code|function|method|class)$/i.test(sym)) return null;
  return sym;
}

/** A test class named in CamelCase (`TestRequests`, `RouterTest`, `HttpTests`); case matters ("latest" is no test). */
const TEST_CLASS = /\bTest[A-Z_]\w*|\b[A-Za-z]\w*[a-z0-9]Tests?\b/;

/** Does the question ask about tests (so test files may be cited)? */
export function asksAboutTests(query: string): boolean {
  const q = withoutTestDomain(query);
  return /\b(?:tests?|tested|testing|unittests?|specs?|pytest|fixtures?|mocks?|assert(?:ion)?s?|test_\w+|\w+_test|\w+\.test)\b|\btest(?:s|ed|ing)?\b|\b(?:prueba|pruebas|probar)\b|\b(?:Tests?|getestet|Testfall)\b/i.test(q) || TEST_CLASS.test(q);
}

/**
 * Test files as the search knows them (index/languages.ts), so that the answer cites after the code
 * the same files the ranking puts after it (it had a narrower copy: `playground/`, `fixtures/`,
 * `shop/tests.py`, `integration/a-test.ts` were code to the answer and tests to the ranking).
 */
export function isTestPath(p: string | undefined): boolean {
  return !!p && isTestFile(p);
}

/**
 * A test passage: one of a test file, or Rust's unit tests, which live in a `#[cfg(test)] mod
 * tests` beside the code: a passage whose functions all carry a test attribute (`#[test]`,
 * `#[tokio::test]`, `#[crate::test]`).
 */
export function isTestPassage(p: { path?: string; text?: string }): boolean {
  return isTestPath(p.path) || isRustTestCode(p.path, p.text);
}

/** A test function's definition: Go's `func TestX(`, Python's `def test_x(`, Java's `void testX(`, Rust's `fn test_x(`. */
const TEST_FUNCTION = /\b(?:func|def|fn|void|function)\s+(?:\([^)\n]*\)\s*)?([Tt]est\w*)\s*\(/g;

/** The first test function a test passage defines that is named after `name` (`TestBindQueryParams`), if any. */
export function testNamedAfter(p: { path?: string; text?: string }, name: string): string | undefined {
  if (!p.text || !isTestPassage(p)) return undefined;
  for (const m of p.text.matchAll(TEST_FUNCTION)) if (isTestNamedAfter(m[1]!, name)) return m[1];
  return undefined;
}
