import { stem, isStopWord } from './tokens';
import type { SymbolKind } from '../protocol/symbols';

/**
 * What a developer's question says beyond its words: whether it is a natural-language question
 * (not a commit message or an issue text), which code names it mentions (backticked, CamelCase,
 * snake_case, dotted), whether it asks for a definition or for the places that call or use a
 * name, and which of its words only carry the question ("what is the mechanism…").
 */

export type SymbolIntent = 'definition' | 'usage' | 'about';

export interface NamedSymbol {
  /** As written, without backticks or a trailing `()`: `Flask.handle_exception`, `TrieRouter`. */
  name: string;
  /** Backticked or shaped like code (camelCase, snake_case, dotted): trusted more than a Capitalised word. */
  codeShaped: boolean;
  /** The kind of definition the question names beside it: "the Context class", "function parse". */
  kind?: SymbolKind;
  /** A Capitalised word the question does not call a class: only a function or method spelled so counts. */
  plain?: boolean;
  /** The role noun it was named by ("the httpbin fixture", "the environment interface"), lower-cased. */
  role?: string;
}

/** Words naming a kind of definition, as the symbol index calls it (a struct is a class). */
const KIND_WORDS: Record<string, SymbolKind> = {
  class: 'class', struct: 'class', exception: 'class', interface: 'interface', protocol: 'interface', trait: 'interface',
  type: 'type', enum: 'enum', function: 'function', func: 'function', method: 'method', constant: 'constant',
};
const KIND_LIST = Object.keys(KIND_WORDS).join('|');
/** The kind word after a name ("Context class") or before it ("class Context"). */
const KIND_AFTER = new RegExp(`^\\s+(${KIND_LIST})\\b`, 'i');
const KIND_BEFORE = new RegExp(`\\b(${KIND_LIST})\\s+$`, 'i');

export interface QuestionInfo {
  /** A question in prose ("how does…", "where is…?"), short enough to be one. */
  natural: boolean;
  symbols: NamedSymbol[];
  intent: SymbolIntent;
  /** Asks for tests themselves ("how is X tested?", "which tests cover…"): tests are the answer. */
  asksForTests: boolean;
  /**
   * Asks about what a test suite shares: "the test helper that…", "the shared test utilities", "the
   * fixture used throughout the test suite", "the test suite's pytest configuration" (searchEngine's
   * `testSupportFactor`).
   */
  asksForTestSupport: boolean;
  /**
   * Asks how to use something ("how do I…", "is there a way to…") or about a symptom seen while
   * using it ("why does it not…", "what causes the … error", "can X break…"): the documentation
   * (a guide, a troubleshooting page) answers that as well as the code.
   */
  howTo: boolean;
  /**
   * Asks for a piece of code by its kind ("which function handles markup escaping?", "what class
   * builds the request?"): a document that says the words is no answer.
   */
  asksForCode: boolean;
  /** Stemmed terms that frame the question rather than name what it is about, with their weight factor. */
  framing: Map<string, number>;
  /**
   * Dotted names a question writes like a file name (`c.json`, `res.json`): a method called
   * through an instance where no file of the project is called that (searchEngine decides).
   */
  fileShaped: string[];
  /**
   * Capitalised words mid-sentence that the question does not call a class ("how is middleware
   * chained with Next?"): in Go or C# a function or method spelled so (searchEngine decides).
   */
  capitalised: string[];
  /** The exception or error code the question says the code throws or the user gets, where it names no other code. */
  thrown?: string;
}

const QUESTION_START = /^\s*(how|what|why|where|when|which|who|whose|is|are|was|does|do|did|can|could|should|would|will|explain|describe|show|find|list|tell)\b/i;
/** Longer texts are issues or commit bodies, whatever their first word. */
const MAX_QUESTION_CHARS = 600;

/**
 * Words that frame a developer question ("the mechanism", "the relationship between", "what
 * happens") and are about as common in every repository's prose as in its code. Weighted down,
 * not dropped: a repository about "patterns" still finds them.
 */
const FRAMING = (
  'happen happens happened occur occurs done relationship relation relate related interaction interact interacts ' +
  'mechanism mechanisms architecture architectural design designed approach role purpose responsible responsibility ' +
  'behavior behaviour behave behaves implement implemented implementation implementations located location locate ' +
  'defined define definition work works working affect affects ensure ensures ensuring determine determines ' +
  'specific specifically particular way ways exactly actually certain various different overall whole part parts ' +
  'explain describe show tell know understand mean means meaning effect effects impact impacts implications semantic semantics ' +
  'rather instead without within across between among both either each every any ' +
  'component components functionality feature features logic system systems process processing ' +
  'during throughout whenever upon'
)
  .split(/\s+/)
  .filter(Boolean);
const FRAMING_WEIGHT = 0.35;

/**
 * Asked for the places that call or use a name, not its definition: "where is X called", "what
 * calls X", "callers of X", "where is X tested", "an example of using X" (but not "what is X used
 * for").
 */
// Within one sentence: no question mark, and no full stop but a dotted name's (`ErrorHandler.response`)
// or a Ruby name's own `?` (`out_of_date?`).
const USAGE = [
  /\b(where(?!\s+(?:do|does|did)\b)|who|which\s+\w+|what\s+(?:code|functions?|methods?|files?|modules?|classes|places?))\b(?:[^?.]|\.(?=\w)|[?!](?=`)){0,80}?\b(called|used|invoked|referenced|imported|tested|instantiated|raised|thrown)\b(?!\s+(?:for|to|as|by the|in order)\b)/i,
  // "Where does X get called?" — but in "Where does the Playbook helper used in the tests detect…?"
  // the participle only describes the helper, whose own code is asked for.
  /\bwhere\s+(?:do|does|did)\b(?:[^?.]|\.(?=\w)|[?!](?=`)){0,80}?\b(?:get|gets|got|getting|be|being|been)\s+(called|used|invoked|referenced|imported|tested|instantiated|raised|thrown)\b(?!\s+(?:for|to|as|by the|in order)\b)/i,
  // "How is X tested?", "how is X used?" (not "how is X used to …"), "an example of using X".
  /\bhow\s+(?:is|are)\b(?:[^?.]|\.(?=\w)|[?!](?=`)){1,80}?\b(?:tested|used)\s*(?:[?.]|$|\b(?:in|by|from|across)\b)/i,
  /\bexamples?\s+of\s+(?:using|calling|how\s+to\s+(?:use|call))\b/i,
  /\b(callers?|call sites?|usages?|uses|references)\s+(of|to)\b/i,
  /\b(what|who|which\s+\w+)\s+(calls?|uses?|invokes?|imports?)\b/i,
  // "Where is `Recovery` registered?": a name passed to what registers it (`engine.Use(Recovery())`).
  /\b[Ww]here\s+(?:is|are)\s+(?:the\s+)?(?:`[^`\n]+`|[A-Z][\w$.]*|[a-z_$][\w$]*[A-Z_.][\w$.]*)(?:\s+(?:middleware|handler|hook|plugin|blueprint|extension|filter|function|class|component))?\s+registered\b/,
];
/**
 * "Why does creating the reader throw a ConfigurationException…?", "I get a HeaderValidationException
 * saying…": where the code throws it, not its class (CsvHelper's `ConfigurationException.cs` had led),
 * when it is the one name the question says (hashie's "NoMethodError … for MyDash" asks about `Dash`).
 * An error code too: "I get XML_ERROR_PARSING_DECLARATION for…" (tinyxml2's enum of codes had led).
 */
const THROWN = /\b(?:throws?|throwing|raises?|raising|get|gets|got|getting)\s+(?:an?\s+|the\s+)?`?([A-Z][A-Za-z0-9_]*(?:Exception|Error)|(?:[A-Z][A-Z0-9]*_)*ERR(?:OR)?(?:_[A-Z0-9]+)+)\b/;
const DEFINITION = /\b(defined|definition|declared|declaration|implemented|located|lives?|where is|where are|what does|what is)\b/i;

const NAME_WORD = String.raw`(?:\`[^\`\n]+\`|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?)`;
const USED_BY_SOMEONE = new RegExp(String.raw`\bwhere\s+(?:do|does|did|can|could|would)\s+(?:we|i|you|they|it|anything|anyone|the\s+(?:code|project|library|app))\s+(call|use|invoke|reference|import|instantiate)s?\s+(?!(?:a|an|the|this|that|these|those|it|them|my|our|your|their|some|any)\b)(${NAME_WORD})`, 'gi');
const USED_ANYWHERE = new RegExp(String.raw`\b(?:is|are)\s+(${NAME_WORD})\s+(used|called|invoked|referenced|imported)\s+(?:anywhere|somewhere|elsewhere|at\s+all)\b`, 'gi');

/**
 * A name written with `::` as a dotted one: connection_pool's `ConnectionPool::TimedStack.pop`,
 * Rust's `Router::new`, as answers name them and as "where is it called?" reads them.
 */
export function dottedPaths(text: string): string {
  return text.replace(/(?<=[\w$])::(?=[A-Za-z_$])/g, '.');
}

/**
 * A question about uses in the words the patterns read: "where's X used?", "where do we call X?",
 * "is X used anywhere?" → "where is X used/called?" (godotenv's "where do we call parseBytes"
 * had been answered by its definition).
 */
export function usagePhrasing(text: string): string {
  return text
    .replace(/\b(where|what|who)['’]s\b/gi, '$1 is')
    .replace(USED_BY_SOMEONE, (_m, verb: string, name: string) => `where is ${name} ${verb.toLowerCase().replace(/e$/, '')}ed`)
    .replace(USED_ANYWHERE, (_m, name: string, verb: string) => `where is ${name} ${verb}`);
}

const CODE_SPAN = /`([^`\n]{1,120})`/g;
/** A Rust macro as prose writes it: "the json! macro", "what does vec!(…) expand to" (not an exclamation). */
const MACRO_CALL = /(?<![\w.!])([a-z_][a-z0-9_]*)!(?=\s+macros?\b|[([{])/g;
/** camelCase, PascalCase with an inner capital, snake_case, dunder and dotted names (`a.b`, `A.b_c()`). */
const CODE_SHAPED = /(?<![A-Za-z0-9_.])(?:[A-Za-z_][A-Za-z0-9_]*\.)*(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z][a-z0-9]+)(?:\(\))?(?![A-Za-z0-9_])/g;
/** A plain word the question's grammar makes a name: "the compose function", "where is compose called", "how does halt work?". */
const NAMED_BY_ROLE = [
  /\bthe ([A-Za-z_][A-Za-z0-9_]*) (function|method|class|constant|interface|type|enum|decorator|helper|hook|property|attribute|fixture)\b/dgi,
  /\b(?:where|how) (?:is|are) (?:the )?([A-Za-z_][A-Za-z0-9_]*) (?:called|used|defined|declared|implemented|invoked|tested)\b/dgi,
  /\bwhat does (?:the )?([A-Za-z_][A-Za-z0-9_]*) do\b/dgi,
  // Not "how does the runner work out which…" (works out: decides).
  /\bhow (?:does|do) (?:the )?([A-Za-z_][A-Za-z0-9_]*) work\b(?!\s+out\b)/dgi,
  /\b(?:who|what) (?:calls|uses) (?:the )?([A-Za-z_][A-Za-z0-9_]*)\b/dgi,
];
/** "the Router's fallback", "`App`'s run method": a member named by its owner, `Router.fallback`. */
const POSSESSIVE = /(?<![A-Za-z0-9_.])`?([A-Z][A-Za-z0-9_]*|[a-z]+[A-Z_][A-Za-z0-9_]*)`?['’]s\s+`?([A-Za-z_][A-Za-z0-9_]*)`?/g;
const ASKS_FOR_CODE = /\b(?:which|what)\s+(?:function|method|class|module|struct|type|hook|component|handler|code)s?\s+(?!of\b)[a-z]+/i;
const HOW_TO = /\b(how (?:do|can|should|would) (?:i|we|you|one)|how to|what should (?:i|we)|is there a way|can i|should i)\b/i;
/**
 * A how-to that asks too how the code does it: "How can I skip logging some requests, and at what
 * point is that decision made?" (morgan's README had answered, its `index.js` decides), "…, and how
 * does that differ on Windows?", "…, and what happens if a required parameter is missing?"; or that
 * asks which code does it ("Who prints the help screen when parsing fails, and how do I stop it?").
 * Not a second how-to ("…, and how do I undo it?").
 */
const MECHANISM = /\b(?:and|but)\s+(?:how|where|when|at what point|in which \w+)\s+(?!(?:do|can|should|would)\s+(?:i|we|you|one)\b)(?:is|are|does|do|did|was|were)\b|\b(?:and|but)\s+what\s+happens\b|^\s*who\s+(?!(?:can|could|should|would|will|knows?|wrote|writes|owns?|maintains?|works?|reviews?)\b)[a-z]+s\b/i;
/**
 * A question that asks first what the code does or where, then how to change it: "What happens to a
 * key nested deeper than the depth limit, and how do I make it throw instead?" (qs' README had
 * answered before `lib/parse.js`), "… — where is that message put together, and how can I …?".
 */
const MECHANISM_FIRST = /^[^?]*?\b(?:what happens|where\s+(?:is|are|does|do|did)\b(?!\s+(?:i|we|you|one)\b))[^?]*?\b(?:and|but)\s/i;
/**
 * A user's symptom: "why does X not…", "why doesn't…", "what causes the … error", "can X break…",
 * what a user sees happen in place of what they expected ("why does a full page reload happen
 * instead of HMR?"), requests or a server that "stop loading", and a problem told first and then
 * asked about ("My built output does not work when opened from the file system. Why?").
 */
const SYMPTOM = /\bwhat causes\b|\bwhy (?:does|do|is|are|did|would|can)\b[^?]*\b(?:not|n't)\b|\bwhy (?:doesn't|don't|isn't|aren't|won't|can't)\b|\bcan\b[^?]*\bbreak\b|\bwhy (?:does|do|did)\b[^?]*\bhappens?\b[^?]*\binstead of\b|\bstop(?:s|ped)? (?:working|loading|responding|updating)\b|[.!]\s*why\?\s*$/i;
const ASKS_FOR_TESTS = /\b(tested|tests?(?: files?| modules?)? (?:for|of|that cover|covering)|test cases?|test coverage|which tests?|unit tests?|how (?:is|are|do|does) [^?]{0,60}\btest)\b/i;
const ASKS_FOR_TEST_SUPPORT = /\b(?:test(?:[\s-]+suite(?:'s)?)?[\s-]+(?:helpers?|utilit(?:y|ies)|utils|harness|support|infrastructure|configuration|setup)|(?:shared|common)\s+(?:test\s+)?(?:helpers?|fixtures?|utilities|base\s+test)|(?:autouse|pytest|session[\s-]+scoped|class[\s-]+scoped|module[\s-]+scoped)\s+fixtures?|fixtures?\s+(?:used|shared)\s+(?:throughout|across|by)|test\s+suite's|(?:used|shared)\s+(?:throughout|across)\s+the\s+(?:whole\s+)?test\s+suite)\b/i;
/** `Flask.run`, `app.config.from_prefixed_env()` — but not a file name (`config.py`). */
const DOTTED_NAME = /(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?(?![A-Za-z0-9_.])/g;
const FILE_EXT = /\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|md|rst|txt|json|toml|ya?ml|cfg|ini|html|css)$/i;
/** What makes a Capitalised word a class name: the noun after it, or a question about where it is defined. */
const CLASS_NOUN = /^\s+(class|type|interface|enum|exception|error|object|struct|trait|protocol|model)\b/i;
const ASKS_DEFINITION = /\b(defined|declared|implemented|located)\b|\bwhere (?:is|are|does) (?:the )?[A-Z]/;
/** A plain Capitalised word counts only away from the start of a sentence. */
const CAPITALISED = /^[A-Z][a-z0-9]+$/;

/** Words the role patterns catch that are not names ("the main function", "the same method"). */
const NOT_NAMES = new Set(['main', 'same', 'other', 'given', 'following', 'above', 'below', 'new', 'old', 'base', 'parent', 'child', 'current', 'first', 'last', 'default', 'custom', 'wrapper', 'helper', 'test', 'internal', 'public', 'private', 'static', 'abstract', 'async', 'this', 'that', 'which', 'each', 'every']);

/**
 * "test" naming what a test runner works with ("test ids", "the test report", "test collection")
 * or a library's testing tool ("the test client", textual's "test pilot"), not test files: in a test framework's own code
 * these are the domain, and the code is the answer. Neither says the question asks for tests.
 */
const TEST_DOMAIN = /\btest(?:ing)?[\s-]+(?:ids?|names?|outcomes?|results?|reports?|reporting|reporters?|items?|sessions?|runs?|runners?|durations?|collection|collectors?|selection|discovery|ordering|status(?:es)?|clients?|pilots?)\b/gi;

/**
 * A test runner's work on tests: "how does pytest collect test files?", "test functions are
 * skipped", "how are test files recognised?" (a tool that tells tests from code) — in the
 * runner's or the tool's own code the answer, whereas "the test files for the router" are tests.
 */
const TEST_RUNNER_WORK = /\b(?:collect|discover|run|execut|skip|select|load|import|rewrit|report|recogni[sz]|detect|identif|classif|distinguish)\w*\s+(?:the\s+)?test[\s-]+(?:files?|modules?|functions?|classes?|methods?|folders?|directories|paths?)\b|\b(?:(?:are|is)\s+(?:the\s+)?)?test[\s-]+(?:files?|modules?|functions?|classes?|methods?|folders?|directories|paths?)\s+(?:(?:are|is|get|gets)\s+)?(?:collected|discovered|found|run|ran|executed|skipped|selected|loaded|imported|recogni[sz]ed|detected|identified|classified|distinguished|told apart)\b/gi;

/**
 * A statistical test, the domain of a statistics library ("the portmanteau test for residual
 * autocorrelation", "the exact binomial test", "the Ljung-Box test", "multiple testing"): its
 * code, not its tests, is what such a question asks about. Not words that also name tests of code
 * ("the exact test that fails", "the hypothesis tests", property-based with Hypothesis).
 */
const STATISTICAL_TEST = /(?:\b(?:portmanteau|binomial|wald|likelihood[\s-]+ratio|chi[\s-]*squared?|normality|unit[\s-]+root|significance|statistical|goodness[\s-]+of[\s-]+fit|(?:one|two)[\s-]+(?:sample|sided|tailed))|(?<![\w'])[tzfTZF])[\s-]+test(?:s|ing)?\b|\bmultiple[\s-]+testing\b/gi;
/** A test by its authors' names, capitalised ("the Ljung-Box test", "the Dickey-Fuller test"; not "end-to-end tests"). */
const EPONYMOUS_TEST = /\b[A-Z][a-z]+-[A-Z][a-z]+[\s-]+tests?\b/g;

/**
 * When in a test's life something happens ("how does the temporary-registration helper clean up
 * after a test?"): the helper, wagtail's `hooks.py`, is asked about, not the tests.
 */
const TEST_TIMING = /\b(?:after|before)\s+(?:a|each|every)\s+test\b/gi;

/**
 * What a testing library's own code handles: "the testing object it receives" (Go's `testing.T`),
 * "the testing context", "the error-collecting test double", "the goroutine running the test" —
 * testify's assertions and mocks, not its tests. ("The test context manager" is a helper of tests.)
 */
const TESTING_LIBRARY = /\btesting[\s-]+(?:objects?|contexts?)\b|\btest[\s-]+doubles?\b|\b(?:running|executing)\s+the\s+test\b/gi;

/**
 * A test as a run, what happens while it runs: "when a test starts, the runner reloads…" (Hypothesis),
 * "when the test is stopped", "while a test runs", "when a test produces a huge number of…" (a load
 * tester's test is its run): the runner's, the tool's own code is asked about, as in
 * {@link TEST_RUNNER_WORK}.
 */
const TEST_RUN = /\b(?:a|the|new|each|every|running|current)\s+(?:new\s+)?(?:load\s+)?test\s+(?:is\s+|was\s+|gets\s+|has\s+(?:been\s+)?)?(?:started|stopped|starts|stops|running|finished|finishes|ends|ended|produces|produced|runs|ramps?)\b/gi;

/**
 * "Test" as a verb of the code's own work: mpmath's "why must code test them with equality instead
 * of identity?", "it tests whether the value is NaN" ask about the code that compares.
 */
const TEST_AS_VERB = /\btest(?:s|ed|ing)?\s+(?:them|it|whether|if)\b/gi;

/** The text without the phrases where "test" names a test runner's domain ({@link TEST_DOMAIN}, {@link TEST_RUNNER_WORK}), a statistical test, a test's timing, what a testing library handles ({@link TESTING_LIBRARY}) the code's own testing of a value ({@link TEST_AS_VERB}) or a test's run ({@link TEST_RUN}). */
export function withoutTestDomain(text: string): string {
  return text.replace(TEST_DOMAIN, ' ').replace(TEST_RUNNER_WORK, ' ').replace(STATISTICAL_TEST, ' ').replace(EPONYMOUS_TEST, ' ').replace(TEST_TIMING, ' ').replace(TESTING_LIBRARY, ' ').replace(TEST_AS_VERB, ' ').replace(TEST_RUN, ' ');
}

const framingWords = new Set(FRAMING);

/**
 * The stems that only frame this question: a framing word's stem, unless another word of the
 * question has that stem too ("responsible" frames, "response" in the same or another question
 * does not, though both stem to `respons`).
 */
function framingOf(text: string): Map<string, number> {
  const framing = new Set<string>();
  const meant = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[a-z]+/g)) (framingWords.has(m[0]) ? framing : meant).add(stem(m[0]));
  const out = new Map<string, number>();
  for (const st of framing) if (!meant.has(st)) out.set(st, FRAMING_WEIGHT);
  return out;
}

/**
 * Idioms whose words mean nothing of the code: "one at a time", "a lot of" (league/csv's "When I
 * write a lot of rows one at a time, how often is the output flushed?" had been answered by a
 * `DateTimeField` for its "time").
 */
const IDIOMS = /\b(?:(?:one|two|three|several|many|few|\d+)\s+)?at\s+a\s+time\b|\ba\s+lot\s+of\b|\blots\s+of\b/gi;

/** The text with its idioms' words blanked out (see {@link IDIOMS}). */
export function withoutIdioms(text: string): string {
  return text.replace(IDIOMS, (m) => ' '.repeat(m.length));
}

/** Whether a lower-case word only frames a question ("happens", "mechanism", "relationship"). */
export function isFramingWord(word: string): boolean {
  return framingWords.has(word);
}

/**
 * "The TypeAdapter for dates", "the Handler for 404 errors": a particular one of a kind, which
 * the kind's own definition does not answer (gson's `TypeAdapter` class for "where is the
 * TypeAdapter for dates registered?").
 */
const PARTICULAR = /\b[Tt]he\s+([A-Za-z_$][\w$]*)\s+for\s+(?:the\s+|an?\s+)?[a-z0-9][\w-]*/g;

/** The names a text writes as "the X for Y" (see {@link PARTICULAR}), outside code spans. */
export function particularNames(text: string): string[] {
  return [...text.replace(CODE_SPAN, ' ').matchAll(PARTICULAR)].map((m) => m[1]!);
}

/** What a name after it is not: "instead of defining `__hash__`", "rather than a `dict`". */
const NOT_DONE = /\b(?:instead of|rather than|as opposed to)\s+(?:[a-z]+\s+){0,2}$/i;

export function analyzeQuestion(text: string): QuestionInfo {
  const trimmed = text.trim();
  const natural = trimmed.length <= MAX_QUESTION_CHARS && (QUESTION_START.test(trimmed) || /\?\s*$/.test(trimmed)) && !/\n\s*\n/.test(trimmed);
  const symbols = new Map<string, NamedSymbol>();
  const prose = trimmed.replace(CODE_SPAN, ' ');
  /** The question with its backticks as spaces: what a code span's neighbouring noun is read from. */
  const unquoted = trimmed.replace(/`/g, ' ');
  const add = (raw: string, codeShaped: boolean, at?: number, text = prose) => {
    // `json!` is the macro `json`.
    const name = raw.replace(/\(\)$/, '').replace(/(?<=\w)!$/, '').replace(/^[.:]+|[.:]+$/g, '');
    // Ruby's predicates keep their `?` (`out_of_date?`), as the symbol index names them.
    if (name.length < 3 || name.length > 100 || !/^[A-Za-z_$][A-Za-z0-9_$.:#]*\??$/.test(name)) return;
    // "…a tuple as a dictionary key instead of defining __hash__": what the code does not do (pint's
    // three `__hash__` methods had come first).
    if (natural && at !== undefined && NOT_DONE.test(text.slice(Math.max(0, at - 40), at))) return;
    const prev = symbols.get(name);
    // The noun beside the name says which definition is meant ("the Context class", "type Options").
    const near = at === undefined ? undefined : (KIND_AFTER.exec(text.slice(at + raw.length)) ?? KIND_BEFORE.exec(text.slice(Math.max(0, at - 12), at)));
    const kind = near ? KIND_WORDS[near[1]!.toLowerCase()] : undefined;
    if (!prev || (codeShaped && !prev.codeShaped)) symbols.set(name, { name, codeShaped, ...(kind ? { kind } : {}) });
    else if (kind && !prev.kind) prev.kind = kind;
  };
  for (const m of trimmed.matchAll(CODE_SPAN)) add(m[1]!.trim(), true, m.index! + 1 + m[1]!.indexOf(m[1]!.trim()), unquoted);
  for (const m of prose.matchAll(MACRO_CALL)) add(m[1]!, true, m.index);
  const capitalised: string[] = [];
  const particular = new Set(particularNames(prose));
  for (const m of prose.matchAll(CODE_SHAPED)) {
    const w = m[0];
    if (CAPITALISED.test(w)) {
      // "Where is the Rational class…": a Capitalised word mid-sentence may be a class name, when
      // the question says so; "the Flask application instance" names the project, not its class.
      const before = prose.slice(0, m.index).trimEnd();
      if (!before || /[.!?:]$/.test(before)) continue;
      const after = prose.slice(m.index! + w.length);
      if (CLASS_NOUN.test(after) || ASKS_DEFINITION.test(prose)) add(w, false, m.index);
      else if (!capitalised.includes(w)) capitalised.push(w);
    } else if (!(natural && particular.has(w))) {
      add(w, true, m.index);
    }
  }
  const fileShaped: string[] = [];
  for (const m of prose.matchAll(DOTTED_NAME)) {
    if (/^(e\.g|i\.e|etc)\b/i.test(m[0])) continue;
    if (!FILE_EXT.test(m[0])) add(m[0], true, m.index);
    else if (natural && prose[m.index! - 1] !== '/') fileShaped.push(m[0]);
  }
  for (const re of NAMED_BY_ROLE) {
    for (const m of prose.matchAll(re)) {
      const w = m[1]!;
      if (isStopWord(w.toLowerCase()) || NOT_NAMES.has(w.toLowerCase())) continue;
      add(w, true, m.indices![1]![0]);
      const named = symbols.get(w);
      if (named && m[2]) named.role = m[2].toLowerCase();
    }
  }
  // A question's possessive names a member by its owner: the member is asked about, not the owner.
  // Not a commit's or an issue's ("Django's ValidationErrors in ListField's children" names both
  // ListField and what it holds: two outside commits lost their first place).
  for (const m of natural ? trimmed.replace(/`/g, '').matchAll(POSSESSIVE) : []) {
    const [owner, member] = [m[1]!, m[2]!];
    const low = member.toLowerCase();
    if (/^(?:It|That|What|There|Here|Let|He|She|Who|Where|How|When|Why|This|Everything|Nothing|Something)$/.test(owner)) continue;
    if (isStopWord(low) || NOT_NAMES.has(low) || low in KIND_WORDS || /^(own|name|code|docs?|tests?|source|value|job|role|purpose|behaviou?r)$/.test(low)) continue;
    symbols.delete(owner);
    add(`${owner}.${member}`, true);
  }
  // So is a dotted name's: "what does ModelViewSet.list do?" asks about the method, not the class
  // (whose file had been ranked and cited first; the method is a mixin's).
  if (natural) for (const name of [...symbols.keys()]) if ([...symbols.keys()].some((o) => o.startsWith(name + '.'))) symbols.delete(name);
  const phrased = usagePhrasing(trimmed);
  const thrown = THROWN.exec(trimmed)?.[1];
  const onlyThrown = !!thrown && [...symbols.keys()].every((n) => n === thrown);
  const intent: SymbolIntent = USAGE.some((re) => re.test(phrased)) || onlyThrown ? 'usage' : DEFINITION.test(trimmed) ? 'definition' : 'about';
  return { natural, symbols: [...symbols.values()], intent, asksForTests: natural && ASKS_FOR_TESTS.test(withoutTestDomain(trimmed)), asksForTestSupport: natural && ASKS_FOR_TEST_SUPPORT.test(trimmed), howTo: natural && (HOW_TO.test(trimmed) || SYMPTOM.test(trimmed)) && !MECHANISM.test(trimmed) && !MECHANISM_FIRST.test(trimmed), asksForCode: natural && ASKS_FOR_CODE.test(trimmed), framing: natural ? framingOf(trimmed) : new Map(), fileShaped,
    capitalised: natural ? capitalised.filter((w) => !symbols.has(w)) : [], ...(natural && onlyThrown ? { thrown } : {}) };
}
