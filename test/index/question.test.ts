import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { makeSymbolRepo } from '../helpers/symbolRepo';
import { IndexStatus } from '../../server/src/protocol/workspace';
import { QgptRelevance, QgptReprompt } from '../../server/src/protocol/qgpt';
import { analyzeQuestion } from '../../server/src/index/question';
import { SymbolIndex, symbolTargets } from '../../server/src/index/symbols';
import { literalsOf, parseQuery, agentVerbs, versionedNames, hyphenJoined } from '../../server/src/index/query';
import { SearchEngine, commandModuleName, fileSubject, isCommandLinePath, pageSubject, sideOf, variantWords, type RankParams } from '../../server/src/index/searchEngine';
import { queryTerms } from '../../server/src/qgpt/terms';
import { terms } from '../../server/src/index/tokens';
import { abbreviationsOf, acronymPhrases, americanSpellings, irregularVerbs, phrasalVerbs, specialMethods } from '../../server/src/index/acronyms';
import { asksAboutTests, callSiteSymbol } from '../../server/src/qgpt/intent';
import { isTestPath, isTestFile, isTestSupportFile, isExamplePath, asksAboutExamples, isFaqPath } from '../../server/src/index/languages';
import { fileWriter } from '../helpers/files';

/** A search engine over files of one language given as one chunk each. */
function engineOf(language: string, ext: string, code: boolean) {
  const e = new SearchEngine();
  /** A file of the engine's language, or of another one (`lang`, `langExt`). */
  const add = (rel: string, text: string, lang = language, langExt = ext) =>
    e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: text.split('\n').length, text, hash: rel, language: lang, ext: langExt, code }]);
  /** The first file for a question, with a rank parameter set to a value (or left at its default). */
  const first = (q: string, params?: Partial<RankParams>) => e.search(q, params ? { params } : {}).hits[0]?.chunk.rel;
  return { e, add, first };
}

/** A search engine over Python files given as one chunk each. */
function pythonEngine() {
  return engineOf('python', 'py', true);
}

describe('question: what a question asks', () => {
  it('a question that asks for a kind of code ("which function handles markup escaping?") weighs documents down as a commit does', () => {
    assert.equal(analyzeQuestion('which function handles markup escaping?').asksForCode, true);
    assert.equal(analyzeQuestion('What class builds the OkHttp request?').asksForCode, true);
    assert.equal(analyzeQuestion('what type of database does it support?').asksForCode, false);
    assert.equal(analyzeQuestion('how is markup escaped?').asksForCode, false);
    assert.equal(analyzeQuestion('fix: which function handles escaping').asksForCode, false, 'a commit message is no question');
    const e = new SearchEngine();
    const add = (rel: string, text: string, code: boolean) =>
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: text.split('\n').length, text, hash: rel, language: code ? 'python' : 'markdown', ext: code ? 'py' : 'md', code }]);
    add('docs/markup.md', '# Escaping\n\nMarkup escaping: escape a string so the markup handles brackets as text.\nThe escape function handles markup escaping of `[` in markup.\n', false);
    add('rich/markup.py', 'def escape(markup: str) -> str:\n    """Escapes text so that it will not be read as markup."""\n    return markup.replace("[", "\\\\[")\n', true);
    assert.equal(e.search('which function handles markup escaping?').hits[0]?.chunk.rel, 'rich/markup.py');
  });

  it('tells questions in prose from commit messages and issue texts', () => {
    assert.equal(analyzeQuestion('how does routing match paths to handlers?').natural, true);
    assert.equal(analyzeQuestion('Why does the router drop trailing slashes').natural, true);
    assert.equal(analyzeQuestion('fix(router): drop trailing slashes').natural, false);
    assert.equal(analyzeQuestion('What happens?\n\nSteps to reproduce:\n1. run it').natural, false, 'an issue with paragraphs');
  });

  it('keeps code terms, drops function words and weighs down the words that only frame a question', () => {
    const q = parseQuery('What is the mechanism by which the router matches paths to handlers?');
    const w = new Map(q.terms.map((t) => [t.term, t.weight]));
    for (const gone of ['what', 'is', 'the', 'by', 'which', 'to']) assert.ok(!w.has(gone), `${gone} is dropped`);
    assert.equal(w.get('router'), 1);
    assert.equal(w.get('path'), 1);
    assert.ok(w.get('mechan')! < 0.5, 'a framing word weighs less');
    // A commit message is not a question: the same word keeps its weight there.
    assert.equal(new Map(parseQuery('Rework the mechanism of the router').terms.map((t) => [t.term, t.weight])).get('mechan'), 1);
  });

  it('weighs down a framing word, not another word of the question with the same stem', () => {
    const w = (q: string) => new Map(parseQuery(q).terms.map((t) => [t.term, t.weight]));
    assert.ok(w('Which class is responsible for caching?').get('respons')! < 0.5, '"responsible" frames');
    // "How is reference counting done?": jansson's release.sh echoes "done".
    assert.ok(w('how is reference counting done?').get('done')! < 0.5, '"done" frames');
    // "What happens when the app raises an exception during a request?": uvicorn's asyncio shim logs
    // "unhandled exception during asyncio.run() shutdown"; the request cycle is what is asked about.
    assert.ok(w('what happens when the app raises an exception during a request?').get('dure')! < 0.5, '"during" frames');
    // "response" stems like "responsible" (respons) but is what is asked about.
    assert.equal(w('Where is the error response produced?').get('respons'), 1);
    assert.ok(w('Which class is responsible for the error response?').get('respons')! >= 1);
  });

  it('adds the initials of well-known technical phrases, which code uses as names', () => {
    const t = (q: string) => parseQuery(q).terms.map((x) => x.term);
    assert.ok(t('how does the dev server handle hot module replacement?').includes('hmr'));
    assert.ok(t('what is the method resolution order of a class?').includes('mro'));
    assert.ok(t('Where is the JSON Web Token checked?').includes('jwt'));
    assert.ok(t('How does the query cache garbage collect unused queries?').includes('gc'), 'scheduleGc, gcTime');
    assert.ok(t('how is reference counting done?').includes('refcount'), "jansson's `refcount`");
    assert.ok(['regex', 'regexp'].every((n) => t('how are route templates compiled into regular expressions?').includes(n)), "gorilla/mux's regexp.go");
    assert.deepEqual(acronymPhrases('internationalization, localization and garbage collection'), [{ name: 'gc', words: 2 }, { name: 'i18n', words: 1 }, { name: 'l10n', words: 1 }]);
    // Initials of arbitrary words are not names.
    assert.ok(!t('is both a direct and a lazy call supported?').includes('bad'));
    assert.deepEqual(acronymPhrases('server-side rendering and cross-site request forgery'), [{ name: 'ssr', words: 3 }, { name: 'csrf', words: 4 }]);
  });

  it('reads a name written with its version apart ("HTTP/2", "UTF-8") as code spells it (`http2`, `utf8`), in the search and in the answer', () => {
    assert.deepEqual(versionedNames('HTTP/2, HTTP/1.1, UTF-8 and SHA-256; not src/v2/app.py, a/2 or 3-4'), [
      { name: 'http2', written: 'HTTP/2' }, { name: 'http11', written: 'HTTP/1.1' }, { name: 'utf8', written: 'UTF-8' }, { name: 'sha256', written: 'SHA-256' },
    ]);
    const { e, add } = pythonEngine();
    add('httpx/_status_codes.py', 'class codes(IntEnum):\n    """HTTP status codes."""\n    HTTP_VERSION_NOT_SUPPORTED = 505, "HTTP Version Not Supported"\n    NOT_EXTENDED = 510, "Not Extended"\n');
    add('httpx/_transports/default.py', 'class HTTPTransport:\n    def __init__(self, verify=True, http1=True, http2=False):\n        self._pool = httpcore.ConnectionPool(http1=http1, http2=http2)\n');
    add('httpx/_urls.py', 'class URL:\n    """A HTTP URL, parsed."""\n    def __init__(self, url=""):\n        self._uri_reference = urlparse(url)\n');
    assert.equal(e.search('How is HTTP/2 supported?').hits[0]!.chunk.rel, 'httpx/_transports/default.py');
    assert.equal(queryTerms('How is HTTP/2 supported?').weights.get('http2'), 1, 'the answer reads it too');
  });

  it('reads an irregular verb form as the verb code names things by ("built" → build, "sent" → send), weighing less than a word, in the search and in the answer', () => {
    assert.deepEqual(irregularVerbs('How is the site built, and where is the request sent or thrown?'), ['build', 'send', 'throw']);
    assert.deepEqual(irregularVerbs('the constructor was left toString valueOf'), [], 'words of no such verb, and none that an object has by its prototype');
    // A British doubled l: "unmarshalled" is viper's `Unmarshal`, which the stemmer makes another word of.
    assert.deepEqual(irregularVerbs('How is the config unmarshalled, and who is called when unmarshalling?'), ['unmarshal']);
    assert.ok(parseQuery('how is the config unmarshalled into a struct?').terms.some((t) => t.term === terms('Unmarshal')[0]));
    const w = new Map(parseQuery('How is the site built?').terms.map((t) => [t.term, t.weight]));
    assert.ok(w.get('build')! > 0 && w.get('build')! < 1, `build weighs less than a word: ${w.get('build')}`);
    assert.equal(w.get('built'), 1, 'the word as written stays');
    const { e, add } = pythonEngine();
    add('mkdocs/commands/build.py', 'def build(config, *, live_server=None, dirty=False):\n    """Perform a full site build."""\n    for file in files:\n        _build_page(file.page, config, files)\n');
    add('mkdocs/structure/files.py', 'class File:\n    """A file in the site, and where it goes in the site dir."""\n    def url(self):\n        return self.dest_uri\n');
    assert.equal(e.search('How is the site built?').hits[0]!.chunk.rel, 'mkdocs/commands/build.py');
    assert.equal(queryTerms('How is the site built?').weights.get('build'), 0.5, 'the answer reads it too');
  });

  it('reads a British spelling as the American one code writes ("optimiser" → optimizer, "behaviour" → behavior), in the search and in the answer', () => {
    assert.deepEqual(americanSpellings('the regex optimiser serialises the colour; its behaviour, once initialised'), ['optimizer', 'serializes', 'initialized', 'color', 'behavior']);
    assert.deepEqual(americanSpellings('raised, promised, otherwise precise; a noise exercise'), [], 'no -ise word that is no -ize one');
    const { e, add } = pythonEngine();
    add('pygments/regexopt.py', 'def regex_opt(strings):\n    """Return a compiled regex that matches any string in the list, optimized."""\n    return re.compile(_optimize(sorted(strings)))\n');
    add('pygments/lexers/sql.py', 'KEYWORDS = ("SELECT", "FROM")\n# one regex of the keywords, and a regex of the names\ntokens = {"root": [(words(KEYWORDS), Keyword)]}\n');
    assert.equal(e.search('Where is the regex optimiser?').hits[0]!.chunk.rel, 'pygments/regexopt.py');
    assert.equal(queryTerms('the regex optimiser').weights.get('optimizer'), 1, 'the answer reads it too');
  });

  it('reads "command line" as `cli` and `cmdline`, and hyphenated words also as one ("read-only" → readonly), at less weight', () => {
    assert.deepEqual(acronymPhrases('the command-line tool').map((a) => a.name), ['cli', 'cmdline']);
    assert.deepEqual(acronymPhrases('the command line interface').map((a) => a.name), ['cli', 'cmdline'], '"cli" once, for the interface');
    assert.deepEqual(hyphenJoined('the in-memory socket-pair stand-in; `ignore-paths`, --max-line-length, src/foo-bar.py and the JSON path; a read-only re-key'), ['inmemory', 'socketpair', 'standin', 'readonly', 'rekey']);
    const { e, add } = pythonEngine();
    add('tests/_loop.py', 'class LoopSocket:\n    """Like a software socketpair: what one end writes the other reads."""\n    def recv(self, n):\n        return self.__in_buffer.read(n)\n');
    add('tests/test_packetizer.py', 'def test_read(self):\n    # a loop socket for the test\n    rsock = LoopSocket()\n    p = Packetizer(rsock)\n');
    assert.equal(e.search('Where is the socket-pair helper class the tests use defined?').hits[0]!.chunk.rel, 'tests/_loop.py');
    const w = new Map(parseQuery('Where is the socket-pair helper class the tests use defined?').terms.map((t) => [t.term, t.weight]));
    assert.ok(w.get(terms('socketpair')[0]!)! < 1, 'the joined word weighs less than a word');
    assert.equal(parseQuery('fix: read-only mode').terms.find((t) => t.term === terms('readonly')[0]), undefined, 'a commit message says the code\'s words');
  });

  it('a file whose folder and name are two neighbouring words of the question counts ("the base worker" → `workers/base.py`)', () => {
    const { e, add } = pythonEngine();
    add('gunicorn/workers/base.py', 'class Worker:\n    def handle_error(self, req, client, addr, exc):\n        status_int = 400\n');
    add('gunicorn/workers/gthread.py', 'class ThreadWorker(base.Worker):\n    def handle(self, req, conn):\n        # the error handler, for a request it cannot parse\n        self.handle_error(req, conn.sock, conn.client, e)\n');
    add('gunicorn/http/errors.py', 'class ParseException(Exception):\n    """An error parsing the request."""\n');
    const q = "What status does the base worker's error handler return for a request it cannot parse?";
    assert.equal(e.search(q).hits[0]!.chunk.rel, 'gunicorn/workers/base.py');
    // Kept as files come and go: a removed file is found no more, and found again once back.
    const rankedWithout = () => e.search(q, { params: { phraseW: 0 } }).hits.map((h) => h.chunk.rel);
    e.removeFile('gunicorn/workers/base.py');
    assert.ok(!e.search(q).hits.some((h) => h.chunk.rel === 'gunicorn/workers/base.py'));
    add('gunicorn/workers/base.py', 'class Worker:\n    def handle_error(self, req, client, addr, exc):\n        status_int = 400\n');
    assert.equal(e.search(q).hits[0]!.chunk.rel, 'gunicorn/workers/base.py');
    assert.notEqual(rankedWithout()[0], 'gunicorn/workers/base.py', 'the folder and name lift it');
  });

  it('a verb that frameworks spell otherwise also searches the others at half weight ("deleted": Rails\' `destroy`, a list\'s `remove`; "subscribers": listeners)', () => {
    const weightOf = (q: string, w: string) => parseQuery(q).terms.find((t) => t.term === terms(w)[0])?.weight;
    assert.equal(weightOf('how are comments deleted?', 'destroy'), weightOf('how are comments deleted?', 'remove'));
    assert.ok(weightOf('how are comments deleted?', 'destroy')! < weightOf('how are comments deleted?', 'comments')!);
    assert.ok(weightOf('where is the item removed from the cache?', 'delete'));
    assert.equal(weightOf('how is a user created?', 'destroy'), undefined);
    // The answer reads them as the search does: Rails' `def destroy` says the question's words.
    assert.ok(queryTerms('how are comments deleted?').weights.get('destroy')! > 0);
    // What one store calls subscribers another calls listeners (zustand's `listeners.forEach`) or observers.
    assert.ok(weightOf('how are subscribers notified when state changes?', 'listeners'));
    assert.ok(weightOf('who observes the store?', 'subscribe'));
    assert.equal(weightOf('how are comments deleted?', 'listen'), undefined);
  });

  it('a Rust macro named in prose ("the json! macro") or in backticks (`json!`) is the name `json`; an exclamation is no name', () => {
    const named = (q: string) => analyzeQuestion(q).symbols.map((s) => `${s.name}${s.codeShaped ? '' : '?'}`);
    assert.deepEqual(named('How does the json! macro work?'), ['json']);
    assert.deepEqual(named('Where is `json!` defined?'), ['json']);
    assert.deepEqual(named('What does vec!(1, 2) expand to?'), ['vec']);
    assert.deepEqual(named('how do I parse json! it fails'), []);
  });

  it('"the TypeAdapter for dates" is a particular one, not the class: its words are searched, its definition is not the answer', () => {
    const names = (q: string) => analyzeQuestion(q).symbols.map((s) => s.name);
    assert.deepEqual(names('Where is the TypeAdapter for dates registered?'), []);
    assert.deepEqual(names('Where is the ErrorHandler for 404 errors set?'), []);
    assert.deepEqual(names('What is the TypeAdapter class for?'), ['TypeAdapter'], 'the class itself');
    assert.deepEqual(names('Where is the `TypeAdapter` for dates registered?'), ['TypeAdapter'], 'a name in backticks is the name');
    assert.deepEqual(names('How does the TypeAdapter for Gson work?'), ['TypeAdapter'], 'for a name, not a thing');
    assert.deepEqual(queryTerms('Where is the TypeAdapter for dates registered?').symbols, [], 'nor a name the answer looks for a definition of');
    assert.ok(parseQuery('Where is the TypeAdapter for dates registered?').terms.some((t) => t.term === '=typeadapter'), 'its words still count');
  });

  it('adds the verbs of agent nouns, which the stemmer keeps apart ("formatter" → format)', () => {
    assert.deepEqual(agentVerbs('the formatter, the visitors and the handler'), ['format', 'visit', 'handl']);
    assert.deepEqual(agentVerbs('the parameter, the user, other `TrieRouter` and config.loader'), [], 'no agent, a short word, an identifier');
    assert.ok(parseQuery('Fix the option formatter').terms.some((t) => t.term === 'format' && t.weight < 1), 'at less weight than the words themselves');
  });

  it('adds the one-word names of phrasal verbs ("set up" → setup, "torn down" → teardown, "looked up" → lookup and find)', () => {
    assert.deepEqual(phrasalVerbs('Where are the handlers looked up, once the app is set up and before it is torn down?'), ['lookup', 'find', 'setup', 'teardown']);
    assert.deepEqual(phrasalVerbs('a setup step, the lookup table, set the value up front'), [], 'written as one word already, or apart by other words');
    assert.deepEqual(phrasalVerbs('What happens when a request times out, and what does it fall back to?'), ['timeout', 'fallback']);
    assert.deepEqual(phrasalVerbs('Where are users signed in after they sign up, and is the migration rolled back?'), ['rollback', 'signin', 'login', 'signup', 'register']);
    assert.deepEqual(phrasalVerbs('the timeout is out of time; fallback values; a sign of input'), []);
    assert.ok(parseQuery('how do I clean up after a request?').terms.some((t) => t.term === 'cleanup' && t.weight < 1), 'at less weight than the words themselves');
  });

  it('adds the short forms code writes for a word ("directory" → dir, "context" → ctx), at less weight than the words', () => {
    assert.deepEqual(abbreviationsOf('What happens if I ask to empty a directory that does not exist yet?'), ['dir']);
    assert.deepEqual(abbreviationsOf('Which arguments and configuration values does the request context carry?'), ['args', 'config', 'cfg', 'req', 'ctx']);
    assert.deepEqual(abbreviationsOf('a specific author; the dir, ctx and args; an express route'), [], 'not "specific" or "author", not what is short already');
    assert.deepEqual(abbreviationsOf('Where does the WebSocket server adapter drop clients that go silent?'), ['ws'], 'tRPC\'s `adapters/ws.ts`');
    assert.deepEqual(abbreviationsOf('How does the AST-to-JSON serializer flatten the tree, and the deserializer rebuild it?'), ['serde']);
    assert.deepEqual(abbreviationsOf('Why does the duplicate-error filter keep only a weak reference to the last exception?'), ['dedup', 'err', 'ref'], "sentry-python's `integrations/dedupe.py`");
    const empty = parseQuery('What happens if I ask to empty a directory that does not exist yet?').terms;
    assert.ok(empty.some((t) => t.term === 'dir' && t.weight < empty.find((x) => x.term === 'directori')!.weight), 'at less weight than the word itself');
  });

  it('reads no code words in idioms ("one at a time", "a lot of"), in the search and in the answer', () => {
    const q = 'When I write a lot of rows one at a time, how often is the output flushed?';
    const searched = parseQuery(q).terms.map((t) => t.term);
    assert.ok(searched.includes('flush') && searched.includes('row'), searched.join(' '));
    assert.ok(!searched.includes('time') && !searched.includes('lot'), searched.join(' '));
    assert.ok(!queryTerms(q).weights.has('time'));
    assert.ok(parseQuery('What happens when the time limit runs out?').terms.some((t) => t.term === 'time'), 'time itself is a word');
  });

  it("adds the Python special methods a question describes in words, in questions only", () => {
    assert.deepEqual(specialMethods('How does a deep copying hook with an extra parameter break the copy protocol?'), ['__deepcopy__']);
    assert.ok(specialMethods('Why does the pickle protocol reconstruction method return a tuple?').includes('__getnewargs_ex__'));
    assert.deepEqual(specialMethods('How does the subclass initialization hook of the view class work?'), ['__init_subclass__']);
    assert.deepEqual(specialMethods('Where does the context manager exit close the file?'), ['__exit__', '__aexit__']);
    assert.deepEqual(specialMethods('How does the router copy the headers of a request?'), [], 'a copy is no deep copy');
    const t = (q: string) => parseQuery(q).terms.map((x) => x.term);
    assert.ok(t('How does a deep copying hook with an extra parameter break the copy protocol?').includes('deepcopi'), 'the stem of __deepcopy__');
    assert.ok(t('Why does the pickle reconstruction method return a tuple?').includes('=getnewargs_ex'));
    assert.ok(!t('Remove the deep copy of the pickled environment').includes('deepcopi'), 'a commit message says what it means');
  });

  it('reads the literals a question quotes and the numbers it names, not apostrophes, versions or commit texts', () => {
    assert.deepEqual(literalsOf("Why does the checker accept 'from None' after a raise?"), ['from None']);
    assert.deepEqual(literalsOf('Why do I get "No such file or directory" errors?'), ['No such file or directory']);
    assert.deepEqual(literalsOf('where is the 404 response produced, and the 500 one?'), ['404', '500']);
    assert.deepEqual(literalsOf("How does Python's copy module call the class's hook?"), []);
    assert.deepEqual(literalsOf('what changed in version 3.10.2 for py311?'), []);
    assert.deepEqual(parseQuery('where is the 404 response produced?').literals, ['404']);
    assert.deepEqual(parseQuery('fix: return 404 for a missing route').literals, [], 'a commit message is not a question');
  });

  it('finds the code names a question mentions, and whether it asks for the definition or the callers', () => {
    const names = (q: string) => analyzeQuestion(q).symbols.map((s) => s.name);
    assert.deepEqual(names('where is the `Rational` class defined?'), ['Rational']);
    assert.deepEqual(names('What does handle_exception do when debug is on?'), ['handle_exception']);
    assert.deepEqual(names('How does getCookie parse signed cookies?'), ['getCookie']);
    assert.deepEqual(names('Who calls Flask.handle_exception?'), ['Flask.handle_exception'], 'the method, not its class too');
    assert.deepEqual(names('where is the compose function called?'), ['compose']);
    assert.deepEqual(names('what does the httpbin fixture return?'), ['httpbin'], 'a pytest fixture by its role');
    assert.deepEqual(names('How is the Rational class printed?'), ['Rational'], 'a Capitalised word mid-sentence');
    // Not said to be a class: kept apart, as a function or method spelled so (Go's, C#'s).
    assert.deepEqual(names('How is middleware chained with Next?'), []);
    assert.deepEqual(analyzeQuestion('How is middleware chained with Next?').capitalised, ['Next']);
    assert.deepEqual(analyzeQuestion('Next, how is middleware chained?').capitalised, [], 'not a sentence\'s first word');
    assert.deepEqual(names('what does ModelViewSet.list do?'), ['ModelViewSet.list'], 'the method a dotted name asks about, not its class');
    assert.deepEqual(names('where is `ErrorHandler.response` called?'), ['ErrorHandler.response']);
    assert.deepEqual(names('Routing: how are paths matched? see router.py, e.g. here'), [], 'no sentence-initial word, file name or e.g.');
    assert.equal(analyzeQuestion('where is compose called?').intent, 'usage');
    assert.equal(analyzeQuestion('which functions call handle_exception?').intent, 'usage');
    // Raised, thrown or made: the places that do, not the class's definition.
    for (const q of ['Where is MethodNotAllowed raised?', 'where is the RouteExists exception thrown?', 'Where is BlueprintGroup instantiated?']) assert.equal(analyzeQuestion(q).intent, 'usage', q);
    // A question that says the code throws an exception, or that the user gets one, asks where it is thrown (CsvHelper).
    for (const q of ['Why does creating the reader throw a ConfigurationException when the quote is the delimiter?', 'I get a HeaderValidationException saying the header was not found', 'why does it raise `ParseError` here?', 'why do I get JSMN_ERROR_PART instead of a token count?']) assert.equal(analyzeQuestion(q).intent, 'usage', q);
    // Not where the question names other code: hashie's "NoMethodError … for MyDash" asks about `Dash`.
    for (const q of ['What is a ConfigurationException?', 'How do I get a config value?', 'Why do I get NoMethodError "The property \'x\' is not defined for MyDash" when I build a Dash?']) assert.notEqual(analyzeQuestion(q).intent, 'usage', q);
    // A dotted name is no full stop that ends the question.
    assert.equal(analyzeQuestion('Where is `ErrorHandler.response` called?').intent, 'usage');
    assert.equal(analyzeQuestion('how is Flask.url_for tested?').intent, 'usage');
    assert.notEqual(analyzeQuestion('Where is the router. It is called by the app?').intent, 'usage');
    // Where it is tested, how it is used, an example of it: its uses, not its definition.
    for (const q of ['where is url_for tested?', 'how is `url_for` tested?', 'how is url_for used?', 'show me an example of using url_for',
      // Said otherwise: "where's", "where do we call", "is it used anywhere".
      "where's url_for used?", 'where do we call url_for', 'where does the code use `url_for`?', 'is url_for used anywhere?', 'Is `url_for` called at all?']) {
      assert.equal(analyzeQuestion(q).intent, 'usage', q);
      assert.equal(callSiteSymbol(q), 'url_for', q);
    }
    for (const q of ['what is url_for used for?', 'how is url_for used to build links?', 'what does url_for do?', "what's url_for for?", 'where do I call a custom store?']) {
      assert.notEqual(analyzeQuestion(q).intent, 'usage', q);
      assert.equal(callSiteSymbol(q), null, q);
    }
    // "Where does X get called?" asks for its uses; "where does the X used in Y do Z?" for X's own code (mitmproxy's `Playbook`).
    assert.equal(analyzeQuestion('Where does parse_args get called?').intent, 'usage');
    for (const q of ['Where does the Playbook helper used in proxy layer tests detect that a test never asserted its expectations?', 'Where does the SVG renderer resolve the element referenced by a use tag?']) {
      assert.notEqual(analyzeQuestion(q).intent, 'usage', q);
    }
    assert.equal(analyzeQuestion('what does the class `Index` represent, and what is it used for?').intent, 'definition');
    assert.equal(analyzeQuestion('how is the compose function tested?').asksForTests, true);
    assert.equal(analyzeQuestion('how does compose run middleware?').asksForTests, false);
    assert.equal(analyzeQuestion('How do I load config from environment variables?').howTo, true);
    // A user's symptom is answered by a guide or a troubleshooting page as well as by the code.
    for (const q of ['Why does Vite not detect a file change?', "Why doesn't the reload happen?", 'What causes the `Failed to fetch` error in a Vite app?', 'Can browser extensions break a Vite app in development?',
      // What happens in place of what was expected, requests that stop loading, a problem told and then asked about.
      'Why does a full page reload happen instead of a hot update?', 'Why do my requests stop loading after an hour?', 'The built page is blank when opened from disk. Why?']) {
      assert.equal(analyzeQuestion(q).howTo, true, q);
    }
    for (const q of ['Why does the method that opens resources restrict file opening to read-only modes?', 'how does compose run middleware?', 'What happens when a view raises an exception?',
      // A design asked about: why the code does one thing instead of another.
      'Why does the form field model derive its name only when blank, instead of recomputing it on each edit?']) {
      assert.equal(analyzeQuestion(q).howTo, false, q);
    }
    // A how-to that asks too how, where or by what the code does it wants the code (morgan's README had answered).
    for (const q of ['How can I skip logging some requests, and at what point is that decision made?', 'How do I escape glob characters, and how does that differ on Windows?', 'Who prints the help screen when parsing fails, and how do I stop it?', 'How do I build a URL path from a pattern, and what happens if a parameter is missing?']) {
      assert.equal(analyzeQuestion(q).howTo, false, q);
    }
    // So does a question that asks first what the code does, or where, then how to change it (qs' README had answered).
    for (const q of ['What happens to a key nested deeper than the depth limit, like a[b][c][d]=1, and how do I make it throw instead?', 'I get a HeaderValidationException saying "Header with name \'Id\' was not found" — where is that message put together, and how can I make the reader ignore missing headers?']) {
      assert.equal(analyzeQuestion(q).howTo, false, q);
    }
    for (const q of ['How do I add a route, and how do I remove it?', 'Who can help with routing, and how do I add a route?', 'Where do I put my config, and how do I load it?']) assert.equal(analyzeQuestion(q).howTo, true, q);
  });

  it('a name the question says the code does not use ("instead of defining __hash__", "rather than `dict`") is no name to look up', () => {
    const names = (q: string) => analyzeQuestion(q).symbols.map((s) => s.name);
    assert.deepEqual(names('Why does the context object provide a method returning a tuple for use as a dictionary key instead of defining __hash__?'), []);
    assert.deepEqual(names('Why is the cache kept in a `WeakValueDictionary` rather than a plain `dict_cache`?'), ['WeakValueDictionary']);
    assert.deepEqual(names('Why does Trio\'s warning category inherit from FutureWarning instead of DeprecationWarning?').includes('DeprecationWarning'), false);
    assert.deepEqual(names('Where is __hash__ defined, and why is it needed instead of __eq__ alone?'), ['__hash__']);
    // A commit message or an issue says what it changes: "use `time.monotonic` instead of `time.time`" names both.
    assert.deepEqual(names('use time.monotonic instead of time.time').sort(), ['time.monotonic', 'time.time']);
  });

  it('reads the kind of definition a question names beside a name', () => {
    const kinds = (q: string) => analyzeQuestion(q).symbols.map((s) => `${s.name}:${s.kind ?? '-'}`);
    assert.deepEqual(kinds('where is the Context class defined?'), ['Context:class']);
    assert.deepEqual(kinds('where is the `Context` interface declared?'), ['Context:interface']);
    assert.deepEqual(kinds('what does the parse_args function return?'), ['parse_args:function']);
    assert.deepEqual(kinds('where is type `RouterOptions` defined?'), ['RouterOptions:type']);
    assert.deepEqual(kinds('what does getCookie do with signed cookies?'), ['getCookie:-']);
  });

  it('reads "test ids", "the test report", "test collection", "the test client" as what a test runner or library works with, not as a question about tests', () => {
    // Before, "how does … test ids" still asked for tests (and ranked the code at half its score).
    for (const q of ['how does parametrize generate test ids?', 'How is the test report written to JUnit XML?', 'where is the test collection order decided?', 'how does the test client work?',
      // Textual's pilot drives an app in tests; a helper's clean-up "after a test" is the helper's.
      "How does the test pilot's pause wait for pending messages?", 'how does the temporary-registration helper clean up after a test?']) {
      assert.equal(parseQuery(q).aboutTests, false, q);
      assert.equal(asksAboutTests(q), false, q);
      assert.equal(analyzeQuestion(q).asksForTests, false, q);
    }
    for (const q of ['where are the tests for parametrize ids?', 'which test checks the report?', 'how is the JUnit report tested?', 'how is the test client tested?']) {
      assert.equal(parseQuery(q).aboutTests, true, q);
      assert.equal(asksAboutTests(q), true, q);
    }
    assert.equal(analyzeQuestion('how is the test client tested?').asksForTests, true);
    // What a testing library's code handles (testify's assertions and mocks); "the test context manager" is a helper of tests.
    for (const q of ['Why does the fail-and-stop assertion helper panic when the testing object it receives lacks a FailNow method?', 'What does the error-collecting test double do when an assertion calls FailNow?', 'Why must the fatal-style assertions be called only from the goroutine running the test?'])
      assert.equal(parseQuery(q).aboutTests, false, q);
    assert.equal(parseQuery('How does the test context manager for changing the time zone decide whether it may do so?').aboutTests, true);
    // "Test" as the code's own verb ("code must test them with equality", "it tests whether…") asks of the code.
    for (const q of ['Why are NaN and the infinities encoded as tuples, and why must code test them with equality instead of identity?', 'How does the parser test whether a token is a keyword?', 'Where is the value tested if it is empty?'])
      assert.equal(parseQuery(q).aboutTests, false, q);
    for (const q of ['How do the tests check whether a token is a keyword?', 'Which test covers it?', 'Is it tested?']) assert.equal(parseQuery(q).aboutTests, true, q);
    // A test as a run ("when a new test is started", "while a test runs": a load tester's, a runner's own code).
    for (const q of ['What happens to the charts in the web UI when a new test is started after a previous one has stopped?', 'How does the web UI show a badge on the logs tab while a test runs?', 'When a test starts, how does the runner reload saved failures?', 'Where is the stats endpoint protected when a test produces a huge number of entries?'])
      assert.equal(parseQuery(q).aboutTests, false, q);
    for (const q of ['Which test starts the server twice?', 'What does the test for the runner check?', 'Why does the new test fail on Windows?']) assert.equal(parseQuery(q).aboutTests, true, q);
    // A statistical test is a statistics library's domain; the tests of it are tests.
    for (const q of ['How does the portmanteau test for residual autocorrelation choose its lags?', 'how is the exact binomial test inverted?', 'where is the Ljung-Box test computed?', 'how does the t test handle unequal variances?', 'which correction methods does multiple testing support?'])
      assert.equal(parseQuery(q).aboutTests, false, q);
    for (const q of ['what do the tests for the portmanteau test check?', 'which test checks the binomial interval?', 'how is the Ljung-Box statistic tested?', 'what do the end-to-end tests cover?', 'how do I run multiple tests at once?', 'which hypothesis tests cover the parser?', 'what is the exact test that fails?', "why don't tests run in parallel?"]) assert.equal(parseQuery(q).aboutTests, true, q);
    // A test class named in CamelCase is a test; "latest" and "contest" are not.
    for (const q of ['Show me the code for `TestRequests`.', 'where is RouterTest defined?', 'what do the HttpTests check?']) assert.equal(asksAboutTests(q), true, q);
    for (const q of ['what is the latest version?', 'how does the contest work?', 'where is the Tester class?']) assert.equal(asksAboutTests(q), false, q);
    // A runner's work on tests is its domain; the tests for something are tests.
    for (const q of ['how does pytest collect test files?', 'how are test functions skipped?', 'where are test modules imported?', 'how are test files recognised?', 'how does it detect test folders?', 'where are test paths identified?']) {
      assert.equal(analyzeQuestion(q).asksForTests, false, q);
      assert.equal(parseQuery(q).aboutTests, false, q);
    }
    assert.equal(analyzeQuestion('where are the test files for the router?').asksForTests, true);
  });

  it('reads a commit message or an issue as about tests by its title line, not by a body that adds one', () => {
    assert.equal(parseQuery('Surface filter-promoted warnings directly\n\n* Add failing regression test for #13000\n* Fix it').aboutTests, false);
    assert.equal(parseQuery('Add tests for the route cache\n\nThey cover expiry.').aboutTests, true);
    assert.equal(parseQuery('fix(cache): add a test for expiry').aboutTests, false, 'a fix is about code');
    // A question is read whole.
    assert.equal(parseQuery('Where is the cache expiry checked,\nand which test covers it?').aboutTests, true);
  });

  it('recognises tests, mocks, fixtures, benchmarks and examples across ecosystems', () => {
    for (const p of ['src/__tests__/a.ts', 'src/a.test.ts', 'src/a.spec.ts', 'src/router/trie-mock.ts', 'runtime-tests/bun/index.ts', 'tests/test_app.py',
      'src/pkg/test_app.py', 'conftest.py', 'src/_pytest/testing/x.py', 'cmd/server_test.go', 'pkg/testdata/a.go', 'crate/tests/it.rs',
      'src/test/java/AppTest.java', 'fixtures/a.json', 'src/mocks/api.ts', 'shop/tests.py', 'MyApp.Tests/CartTests.cs', 'integration_tests/api.py',
      'e2e-tests/login.ts', 'spec/models/user_spec.rb', 'lib/cart_spec.rb', 'cypress/e2e/login.cy.ts', 'src/cart_tests.py',
      'integration/rsc-nonce-test.ts', 'packages/fs-routes/__tests__/flatRoutes-test.tsx', 'scripts/run-tests.py',
      'packages/query-codemods/src/v5/keep-previous-data/__testfixtures__/default.output.tsx',
      'app/CartTests.cs', 'Sources/Shop/CartTest.swift', 'src/main/kotlin/CartTest.kt',
      // A project's helpers for its own tests: axum's test_helpers/, pylint's testutils/.
      'axum/src/test_helpers/tracing_helpers.rs', 'pylint/testutils/checker_test_case.py', 'src/test-utils/render.tsx', 'lib/test_support/db.ex',
      // Gson's test projects: test-shrinker/, test-jpms/.
      'test-shrinker/src/main/java/com/example/Main.java', 'test-jpms/src/main/java/module-info.java',
      // Test doubles named first: rack's mock_response.rb, gomock's mock_store.go.
      'lib/rack/mock_response.rb', 'internal/store/mock_store.go', 'internal/api/mocks_client.go',
      // A file named test: hiredis' test.c and test.sh, a package's test.js.
      'test.c', 'test.sh', 'src/test.cpp', 'test.js', 'packages/ky/test.ts',
      // Cucumber's features and their steps (httparty).
      'features/deals_with_http_error_codes.feature', 'features/steps/mongrel_helper.rb', 'features/step_definitions/web_steps.rb', 'features/support/env.rb',
      // Gradle's and Kotlin Multiplatform's test source sets (okhttp's helpers for its tests in `src/commonTest/`).
      'okhttp/src/commonTest/kotlin/okhttp3/internal/dns/StateMachineDnsCallTester.kt', 'app/src/androidTest/java/shop/CartScreen.kt', 'src/jvmTest/kotlin/Fakes.kt',
      'lib/src/testFixtures/java/Fixtures.java', 'src/integrationTest/java/shop/Db.java',
      // Test projects by their kind: AutoMapper's src/UnitTests/ and src/IntegrationTests/.
      'src/UnitTests/MemberResolution.cs', 'src/IntegrationTests/Inheritance.cs', 'unit_tests/test_parse.c', 'functional-tests/login.ts',
      // A test suite's folder (BurntSushi/toml's internal/toml-test/), a Rust module's tests in their own file (http's src/uri/tests.rs), fuzzing harnesses.
      'internal/toml-test/toml.go', 'src/uri/tests.rs', 'ossfuzz/fuzz.go', 'fuzz/fuzz_targets/parse.rs', 'oss-fuzz/build.sh',
      // Go's packages of helpers for tests: net/http/httptest, zap's zaptest/.
      'net/http/httptest/server.go', 'zaptest/logger.go', 'zaptest/observer/observer.go',
      // tsd's type tests: chalk's source/index.test-d.ts.
      'source/index.test-d.ts', 'index.test-d.mts',
      // A test script per environment: debug's test.node.js and test.browser.js.
      'test.node.js', 'test.browser.js', 'src/test.node.mjs',
      // A C or C++ test program named `<name>test`: tinyxml2's xmltest.cpp.
      'xmltest.cpp', 'tests/unittest.cc', 'jsontest.c']) {
      assert.ok(isTestPath(p), p);
    }
    for (const p of ['benchmarks/handle.ts', 'crate/benches/parse.rs', 'examples/app.py', '_examples/pathvalue/main.go', 'src/main/java/org/jsoup/examples/ListLinks.java', 'samples/src/main/java/demo/App.java',
      // A database's seed data: Prisma's, Rails', Laravel's seeders.
      'src/prisma/seed.ts', 'db/seeds.rb', 'database/seeders/UserSeeder.php', 'doc/data/messages/a/bad.py', 'src/router.bench.ts',
      'metrics/src/main/java/com/google/gson/metrics/ParseBenchmark.java', 'asv_bench/benchmarks/groupby.py',
      // FastAPI's and typer's documentation's code: `docs_src/subcommands/tutorial001.py`.
      'docs_src/subcommands/tutorial001.py',
      // Benchmarks by other names: immer's perf-testing/ and __performance_tests__/.
      'perf-testing/immutability-benchmarks.mjs', '__performance_tests__/incremental.mjs', 'perf_tests/parse.py', 'src/__benchmarks__/sort.ts',
      // C and Kotlin in the documentation: jansson's doc/github_commits.c.
      'doc/github_commits.c', 'docs/snippets/Client.kt',
      // A notebook: tqdm's DEMO.ipynb.
      'DEMO.ipynb', 'notebooks/intro.ipynb',
      // A benchmark at the top of the repository: chalk's benchmark.js.
      'benchmark.js', 'bench.py', 'benchmarks.ts',
      // Named so by a suffix: yarl's url_benchmark.py, SnapKit's Example-iOS/ and its playground.
      'url_benchmark.py', 'src/router-bench.ts', 'Example-iOS/ListViewController.swift', 'examples_node/app.js', 'SnapKitPlayground.playground/Contents.swift',
      // A component's Storybook stories: wagtail's Sidebar.stories.tsx.
      'client/src/components/Sidebar/Sidebar.stories.tsx', 'src/Button.stories.mdx', '.storybook/preview.js',
      // A documentation site's code: nicegui's `website/documentation/content/*.py`, a Docusaurus site's `website/src/`.
      'website/documentation/content/storage_documentation.py', 'website/src/pages/index.js', 'www/src/components/QuickIntro.tsx']) assert.ok(isExamplePath(p), p);
    assert.ok(!isExamplePath('www/index.php'), "a PHP site's web root is the site");
    for (const p of ['src/router/trie.ts', 'src/flask/testing.py.txt', 'docs/guide.md', 'src/attest.ts', 'src/latest/index.ts', 'src/_pytest/python.py',
      'src/contests/rules.ts', 'src/testimony/index.ts', 'src/attest.c', 'src/latest.sh', 'src/latest.c', 'fastest.cpp', 'src/contest.c', 'manifest.c', 'src/features/cart/slice.ts', 'app/features/steps.ts',
      // A JVM package's folders name the project's own code: Spring Initializr's `com.example.demo`, the petclinic's `org.springframework.samples`.
      'src/utils/seed.ts', 'src/random/seeds.py', 'db/schema.rb',
      'src/main/java/com/example/demo/DemoApplication.java', 'src/main/java/org/springframework/samples/petclinic/owner/OwnerController.java', 'src/main/kotlin/com/example/App.kt', 'src/attestutils/a.ts', 'src/protests.py', 'app/spectrum.ts',
      'lib/unittest/mock.py', 'src/mockingbird.ts', 'src/hammock_api.rb', 'src/docs_srcset.py', 'docs_src/README.md',
      // A hyphen before "test" marks a test in code only: a specification or a CI workflow is not one.
      'doc/internals/zarr-encoding-spec.rst', '.github/workflows/primer-test.yaml', 'src/latest-test-results.ts', 'src/attest-key.ts', 'src/Latest.java', 'src/main/java/shop/Contest.java',
      // Kotlin Multiplatform's code sets; a folder whose name ends in "test" in lower case (`src/latest/`).
      'okhttp/src/commonJvmAndroid/kotlin/okhttp3/ConnectionPool.kt', 'src/jvmMain/kotlin/App.kt', 'src/latest/App.kt', 'src/performance/metrics.ts', 'src/perf/counters.rs', 'src/units/test.rs.txt', 'src/community/tests.md.txt',
      // A Go folder named like a package of helpers for tests, that is none; another language's.
      'latest/version.go', 'contest/rules.go', 'pkg/attest/sign.go', 'src/zaptest/logger.ts',
      // A benchmarking library's own module is its code.
      'src/pytest_benchmark/benchmark.py', 'lib/bench.js', 'src/contest.node.js', 'src/latest.browser.ts']) {
      assert.ok(!isTestPath(p) && !isExamplePath(p), p);
    }
  });

  it('a Python module named as a test that holds none, outside a folder of tests, is code (bandit calls its checks "tests")', () => {
    const selection = 'class BanditTestSet:\n    def _filter_list_from_config(self, profile):\n        # B001 means all deny-list tests\n        if "B001" in inc:\n            inc.update(blacklisting.ids())\n';
    assert.equal(isTestFile('bandit/core/test_set.py', [{ text: selection }]), false);
    assert.equal(isTestFile('bandit/core/test_properties.py', [{ text: 'def test_id(id_val):\n    def _has_id(func):\n        func._test_id = id_val\n        return func\n    return _has_id\n' }]), false);
    // Tests by what they hold, by their folder, or named so in another language.
    assert.equal(isTestFile('bandit/core/test_util.py', [{ text: 'def test_split():\n    assert split("a b") == ["a", "b"]\n' }]), true);
    assert.equal(isTestFile('pkg/test_cli.py', [{ text: 'import pytest\n' }]), true);
    assert.equal(isTestFile('pkg/cli_test.py', [{ text: 'class TestCli(unittest.TestCase):\n    pass\n' }]), true);
    assert.equal(isTestFile('tests/unit/core/test_set.py', [{ text: selection }]), true);
    assert.equal(isTestFile('src/set.test.ts', [{ text: 'export const x = 1;\n' }]), true);
    assert.equal(isTestFile('bandit/core/manager.py', [{ text: 'assert x\n' }]), false);
    const { add, first } = pythonEngine();
    add('bandit/core/test_set.py', selection + '        # B001,B401 means B401: only that deny-list test\n');
    add('bandit/core/blacklisting.py', 'def ids():\n    """Every deny-list test id: B001 and the calls and imports it covers."""\n    return [b["id"] for b in blacklist]\n');
    add('tests/unit/core/test_test_set.py', 'def test_profile_blacklist_none():\n    ts = test_set.BanditTestSet(profile={"exclude": ["B001"]})\n    assert len(ts.get_tests("Import")) == 0\n');
    assert.equal(first('Why does the rule-selection filter treat B001 specially, so that listing it alone enables every deny-list entry?'), 'bandit/core/test_set.py');
  });

  it('a question asks about examples when it names them, not when it gives one "for example"', () => {
    for (const q of ['is there an example of a custom store?', 'where are the benchmarks for parsing?', 'show me a demo of streaming', 'which Storybook stories show the sidebar?']) assert.ok(asksAboutExamples(q), q);
    for (const q of ['which options make it throw, for example an invalid domain?', 'what happens with odd input (for  example a NaN)?']) assert.ok(!asksAboutExamples(q), q);
  });
});

describe('question: relevance for questions in the real worker', function () {
  this.timeout(120_000);
  let dataDir: string;
  let repo: string;
  let w: WorkerHandle | undefined;
  const noModels = { ASKCODE_MODELS_DIR: path.join(os.tmpdir(), 'askcode-no-models') };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-q-'));
    repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-qrepo-')));
    makeSymbolRepo(repo);
    const put = fileWriter(repo);
    // Mentions Flask and "defined" more often than the class itself does (the printer-above-the-class case).
    put('pkg/printer.py', 'class FlaskPrinter:\n    """Prints where a Flask app is defined: the Flask name, the Flask config, the Flask routes."""\n\n    def print_flask(self, flask):\n        # every Flask is defined by its name; a Flask prints as Flask(name), defined once\n        return "Flask(%s) defined" % flask.name\n');
    // A mock and a benchmark full of the question's words.
    const noisy = 'route pattern compile path: compile each route pattern into a path; compiled patterns, compiled paths, route patterns\n';
    put('src/router/trie-mock.ts', `// ${noisy}export const compiledRoutePatternPaths = ['/a', '/b'] // ${noisy}`);
    put('benchmarks/compile-route-patterns.ts', `// ${noisy}// ${noisy}export function benchCompileRoutePatterns(paths: string[]) { return paths }\n`);
    // A class and an interface of one name: the question's noun says which.
    put('src/context.ts', 'export class Context {\n  req: unknown\n  constructor(req: unknown) {\n    this.req = req\n  }\n}\n');
    put('src/jsx/context.ts', '// The Context a class component reads: defined once per class, each class defined with its Context.\nexport interface Context<T> {\n  values: T[]\n}\nexport const globalContexts: Context<unknown>[] = []\n');
    // "hot module replacement" spelled out in a message, against the code that names it `hmr`; the
    // phrase's words are common elsewhere, as in a real dev server.
    put('src/messages.ts', "export const messages = {\n  hotOption: 'The hot option is gone: the dev server handles hot module replacement itself, and a module replacement that fails reloads the page.',\n}\n");
    put('src/server/hmr.ts', 'export function handleHmrUpdate(file: string, hmr: HmrChannel) {\n  // hmr: the update goes to every hmr client\n  hmr.send({ type: \'update\', path: file })\n}\n');
    put('src/server/index.ts', '// The dev server: serves each module, and handles the requests of the dev client.\nexport function createDevServer(config: DevConfig) {\n  return new DevServer(config)\n}\n');
    put('src/moduleGraph.ts', '// The module graph: each module, the modules it imports, and the module that replaced it.\nexport class ModuleGraph {\n  modules = new Map<string, ModuleNode>()\n}\n');
    put('src/config.ts', '// Dev options: hot reload, the dev port, and whether a module is replaced when it changes.\nexport interface DevConfig {\n  hot: boolean\n  port: number\n}\n');
    // "handler" in a path, against a file that talks about what happens when a handler throws.
    put('src/adapter/lambda/handler.ts', 'export function toLambdaEvent(event: unknown) {\n  return { event }\n}\n');
    put('src/hono-base.ts', [
      'export class HonoBase {',
      '  // When a handler throws, the error goes to onError, which turns the thrown error into a 500 response.',
      '  async dispatch(handler: () => Promise<Response>): Promise<Response> {',
      '    try {',
      '      return await handler()',
      '    } catch (err) {',
      '      return this.onError(err)',
      '    }',
      '  }',
      '  onError(err: unknown): Response {',
      '    return new Response(String(err), { status: 500 })',
      '  }',
      '}',
      '',
    ].join('\n'));
    // Pickling described in words, against the class whose special methods do it.
    put('pkg/pickling.py', '"""Pickle helpers: the reconstruction of an object from pickle data."""\n\ndef reconstruct(data):\n    return loads(data)\n');
    put('pkg/records.py', 'class Record:\n    def __init__(self, *args, **kwargs):\n        self.args = args\n        self.kwargs = kwargs\n\n    def __getnewargs_ex__(self):\n        return self.args, self.kwargs\n');
    // A symptom a user sees, answered by a troubleshooting page, against the code that says the words more.
    put('docs/troubleshooting.md', '# Troubleshooting\n\n## A file change is not noticed\n\nOn Linux the watcher can run out of inotify watches, and a file change is then not noticed. Raise `fs.inotify.max_user_watches`.\n');
    put('src/watch/poll.ts', '// Notices a file change by polling; a noticed file change goes to the client.\nexport function poll(files: string[]) {\n  return files\n}\n');
    // "looked up" in a question, against the method that finds (`_find_error_handler`) and a file
    // that registers error handlers and says so.
    put('pkg/sansio/app.py', 'class App:\n    def _find_error_handler(self, e, blueprints):\n        for name in blueprints:\n            handler_map = self.error_handler_spec[name]\n            if e.code in handler_map:\n                return handler_map[e.code]\n        return None\n');
    put('pkg/sansio/scaffold.py', 'class Scaffold:\n    def errorhandler(self, code):\n        """Register a function to handle errors: error handlers by code or by exception class.\n        The error handlers of a blueprint are registered on the app; error handlers of the app are registered here."""\n        return self.register_error_handler(code)\n');
    // "formatter" in a question, against the function that formats (the stemmer keeps them apart).
    put('pkg/config/values.py', 'def _format_option_value(optdict, value):\n    """Return the value as the user typed it: a list joined by commas."""\n    if isinstance(value, (list, tuple)):\n        return ",".join(value)\n    return str(value)\n');
    put('pkg/reports/formatter.py', 'class OptionFormatter:\n    """The formatter of a report: one line per option."""\n    def line(self, option):\n        return option.name\n');
    // One name three ways: a module-level function, three methods of one adapter's classes, and a
    // type of another case in a file that says the name most often.
    put('src/utils/url.ts', "export const getPath = (request: Request): string => {\n  const url = request.url\n  return url.slice(url.indexOf('/', 8))\n}\n");
    put('src/adapter/aws/events.ts', [
      'abstract class EventProcessor {',
      '  protected abstract getPath(event: unknown): string',
      '}',
      'class V1Processor extends EventProcessor {',
      '  protected getPath(event: { path: string }): string {',
      '    return event.path',
      '  }',
      '}',
      'class V2Processor extends EventProcessor {',
      '  protected getPath(event: { rawPath: string }): string {',
      '    return event.rawPath',
      '  }',
      '}',
      '',
    ].join('\n'));
    put('src/base.ts', [
      '// getPath: how the path of a request is read. Set getPath to read the host too; by default getPath',
      '// is the getPath of the url utilities, and a getPath given here replaces it.',
      'type GetPath = (request: Request) => string',
      'export type BaseOptions = { getPath?: GetPath }',
      '',
    ].join('\n'));
    // The number a question names, in a file of few words, against one that says the words often.
    put('src/not-found.ts', "export const notFound = (c: Ctx): Response => c.text('404 Not Found', 404)\n");
    put('src/stream.ts', [
      '// A streamed response is produced chunk by chunk: each response produced here is a stream response,',
      '// and the response is produced once the body is read.',
      'export function streamResponse(body: ReadableStream): Response {',
      '  return new Response(body)',
      '}',
      '',
    ].join('\n'));
    // A method named through an instance (`c.redirect`), against a file that says "redirect" often.
    put('src/ctx.ts', 'export class Ctx {\n  redirect = (location: string, status = 302): Response =>\n    new Response(null, { status, headers: { Location: location } })\n  json = (object: unknown): Response => new Response(JSON.stringify(object))\n}\n');
    // …and one written like a file name (`c.json`), against a file that says "json" often; a real
    // file named in a question (`settings.json`) stays a file.
    put('src/middleware/pretty-json.ts', '// Pretty JSON: json output with spaces; the json space and the json query flag (json, json, json)\nexport const prettyJson = (space = 2) => space\n');
    put('settings.json', '{ "indent": { "space": 2 } }\n');
    put('src/middleware/trailing-slash.ts', [
      '// Redirect to the path with a trailing slash: how the redirect works: a 301 redirect, and the',
      '// redirect keeps the query; no redirect for a path that has one.',
      'export const trailingSlash = () => async (c: Ctx, next: () => Promise<void>) => {',
      '  await next()',
      "  if (c.res.status === 404) c.res = c.redirect(c.req.path + '/', 301) // redirect",
      '}',
      '',
    ].join('\n'));
    // "test ids" in a test runner's own code, against the tests of that code (which say it more).
    put('src/runner/ids.py', 'def make_ids(params):\n    # The test ids of a parametrized call: one id generated per parameter set.\n    return ["-".join(str(v) for v in p) for p in params]\n');
    put('tests/test_ids.py', 'def test_ids_generated():\n    # test ids generated from the parameters: each test id generated once\n    assert make_ids([(1, 2)]) == ["1-2"]\n');
    // …and a tool's code that tells test files apart, against its test (which says "test files" more).
    put('src/runner/kinds.py', 'def is_test_file(name):\n    # Test files are recognised by their names: test_*.py or *_test.py.\n    return name.startswith("test_") or name.endswith("_test.py")\n');
    put('tests/test_kinds.py', 'def test_recognised_test_files():\n    # test files recognised: each test file name recognised as a test file\n    assert is_test_file("test_a.py")\n');
    // A plain function named in "how does X work?", against a file whose comments say its name more (sinatra's `halt`).
    put('pkg/flow.py', 'class Halt(Exception):\n    pass\n\n\ndef halt(*response):\n    raise Halt(response)\n');
    put('pkg/respond.py', '# respond_with: call halt in a block; halt with a status, halt with a body (halt, halt)\ndef respond_with(*formats):\n    return formats\n');
    // A method named by its owner's possessive ("the Router's fallback"), against a file that says
    // "router" and "fallback" more (axum's method_routing.rs).
    put('src/router.rs', 'pub struct Router {}\n\nimpl Router {\n    pub fn fallback(self, handler: Handler) -> Self {\n        self\n    }\n}\n');
    put('src/method_routing.rs', '// The method router: a router fallback per method; the router calls the fallback\n// when no route matches (router fallback, router fallback).\npub fn default_fallback() {}\n');
    // A pytest fixture named by its role ("the httpbin fixture"), against a test that says its name more.
    put('tests/conftest.py', 'import pytest\n\n\n@pytest.fixture\ndef httpbin():\n    return "http://127.0.0.1:8080"\n');
    put('tests/test_get.py', 'def test_get(httpbin):\n    # the httpbin fixture: httpbin gives the httpbin url to return from\n    assert get(httpbin + "/get")\n');
    // A kebab-case option (`ignore-paths`) and the snake_case name that holds it, against a file
    // that says its words apart more often.
    put('pkg/lint/expand.py', 'def expand_files(files, ignore_paths):\n    return [f for f in files if not any(p.match(f) for p in ignore_paths)]\n');
    put('pkg/lint/walker.py', '# Paths to ignore: the ignored paths of a folder\ndef walk(folder):\n    return [folder]\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await waitFor(async () => {
      const s = await w!.request(IndexStatus, undefined);
      return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
    }, 'the index to be ready');
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });

  const ask = async (query: string) => {
    const out = await w!.request(QgptRelevance, { query, options: { database: true } });
    return out.relevant.iterable.map((s) => ({ rel: path.relative(repo, s.path!), start: s.askcode!.startLine, end: s.askcode!.endLine }));
  };
  const firstFiles = async (query: string, n: number) => [...new Set((await ask(query)).map((h) => h.rel))].slice(0, n);
  /** The question's first file is `expected` (the first three in the message when not). */
  const assertFirst = async (query: string, expected: string) => {
    const files = await firstFiles(query, 3);
    assert.equal(files[0], expected, `${query}: ${files.join(', ')}`);
  };

  it('a follow-up\'s subject is a name the project defines before one of the language (`ValueError`), unless it asks for call sites', async () => {
    const at = (i: number) => ({ value: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString() });
    // Most recent first: the answer, then the question that named `ValueError` before `Flask`.
    const history = { iterable: [
      { role: 'ASSISTANT' as const, text: 'The app looks the `Flask` class up in `pkg/app.py` and raises when none is found.', timestamp: at(1) },
      { role: 'USER' as const, text: 'Why does it raise `ValueError` when no `Flask` app is found?', timestamp: at(0) },
    ] };
    const where = await w!.request(QgptReprompt, { query: 'Where is that implemented?', conversation: history });
    assert.match(where.query, /`Flask`/, where.query);
    assert.doesNotMatch(where.query, /ValueError/, where.query);
    const used = await w!.request(QgptReprompt, { query: 'Where is it used?', conversation: history });
    assert.match(used.query, /`ValueError`/, used.query);
  });

  it('ranks the definition of a named symbol first, its snippet holding the definition, in both languages', async () => {
    const flask = await ask('where is the Flask class defined?');
    assert.equal(flask[0]?.rel, 'pkg/app.py', JSON.stringify(flask));
    assert.ok(flask[0]!.start <= 4 && flask[0]!.end >= 4);
    const ts = await ask('what does `TrieRouter.match` do?');
    assert.equal(ts[0]?.rel, 'src/router/trie.ts');
    assert.ok(ts[0]!.start <= 8 && ts[0]!.end >= 8);
  });

  it('ranks the module-level definition of a bare name first: not a file of its methods, not a name of another case', async () => {
    for (const q of ['where is getPath defined?', 'what does getPath do?']) await assertFirst(q, 'src/utils/url.ts');
  });

  it('ranks the file holding a number the question names first (BM25 does not index numbers)', async () => {
    await assertFirst('where is the 404 response produced?', 'src/not-found.ts');
  });

  it('finds a method named through an instance (`c.redirect`), but not through `self`', async () => {
    await assertFirst('how does c.redirect work?', 'src/ctx.ts');
    // `self.redirect` names the class at hand, not one to look up.
    const symbols = new SymbolIndex();
    symbols.setFile('/w/src/ctx.ts', 'src/ctx.ts', 'typescript', [{ name: 'redirect', qualifiedName: 'Ctx.redirect', kind: 'method', startLine: 2, endLine: 3 }]);
    const targets = (name: string, plainTails = true) => [...symbolTargets([{ name, codeShaped: true }], 'about', symbols, false, () => [], { plainTails }).keys()];
    assert.deepEqual(targets('c.redirect'), ['/w/src/ctx.ts']);
    assert.deepEqual(targets('self.redirect'), []);
    assert.deepEqual(targets('c.redirect', false), [], 'issue texts and commit messages keep to names with a capital or an underscore');
  });

  it('a possessive\'s member counts as a plain name only when the project defines its owner ("Django\'s standard slugify" is not wagtail\'s story `standard()`)', () => {
    const symbols = new SymbolIndex();
    symbols.setFile('/w/client/Sidebar.stories.tsx', 'client/Sidebar.stories.tsx', 'typescript', [{ name: 'standard', qualifiedName: 'standard', kind: 'function', startLine: 247, endLine: 249 }]);
    symbols.setFile('/w/app/router.py', 'app/router.py', 'python', [{ name: 'Router', qualifiedName: 'Router', kind: 'class', startLine: 1, endLine: 30 }]);
    symbols.setFile('/w/app/fallbacks.py', 'app/fallbacks.py', 'python', [{ name: 'fallback', qualifiedName: 'fallback', kind: 'function', startLine: 1, endLine: 5 }]);
    const q = analyzeQuestion("Why does the slug helper keep Cyrillic characters rather than deleting them the way Django's standard slugify does?");
    assert.ok(q.symbols.some((s) => s.name === 'Django.standard'));
    const targets = (name: string) => [...symbolTargets([{ name, codeShaped: true }], 'about', symbols, false, () => [], { plainTails: true }).keys()];
    assert.deepEqual(targets('Django.standard'), [], 'Django is defined nowhere in the project');
    assert.deepEqual(targets('Router.fallback'), ['/w/app/fallbacks.py'], "the project's Router: its member by the plain name");
    // A member spelled as code too ("Python's AST" is not a variable `ast` of the project's scripts)…
    symbols.setFile('/w/scripts/design.ts', 'scripts/design.ts', 'typescript', [{ name: 'ast', qualifiedName: 'ast', kind: 'variable', startLine: 274, endLine: 274 }]);
    assert.ok(analyzeQuestion("Where does the code generator recover a cell's quote style, given that Python's AST discards it?").symbols.some((s) => s.name === 'Python.AST'));
    assert.deepEqual(targets('Python.AST'), []);
    // …but where the project is the owner (a folder of that name), its member is the project's: "Django's slugify" in Django.
    symbols.setFile('/w/django/utils/text.py', 'django/utils/text.py', 'python', [{ name: 'slugify', qualifiedName: 'slugify', kind: 'function', startLine: 460, endLine: 480 }]);
    assert.deepEqual(targets('Django.slugify'), ['/w/django/utils/text.py']);
    symbols.removeFile('/w/django/utils/text.py');
    assert.deepEqual(targets('Django.slugify'), []);
    // A name found case aside is the one asked for only where the two differ in their first letter or both mix
    // cases: alembic's test requirement `postgresql` is not "the PostgreSQL backend".
    symbols.setFile('/w/tests/requirements.py', 'tests/requirements.py', 'python', [{ name: 'postgresql', qualifiedName: 'DefaultRequirements.postgresql', kind: 'method', startLine: 175, endLine: 176 }]);
    symbols.setFile('/w/pkg/paths.go', 'pkg/paths.go', 'go', [{ name: 'GetPath', qualifiedName: 'GetPath', kind: 'function', startLine: 3, endLine: 9 }, { name: 'HttpServer', qualifiedName: 'HttpServer', kind: 'class', startLine: 11, endLine: 30 }]);
    assert.deepEqual(targets('PostgreSQL'), []);
    assert.deepEqual(targets('getPath'), ['/w/pkg/paths.go']);
    assert.deepEqual(targets('HTTPServer'), ['/w/pkg/paths.go']);
  });

  it('a value only the tests set points at no code in a question about the code (pelican\'s test settings\' `FORMATTED_FIELDS`), unless the question asks for its definition or about tests', () => {
    const symbols = new SymbolIndex();
    symbols.setFile('/w/pelican/tests/default_conf.py', 'pelican/tests/default_conf.py', 'python', [{ name: 'FORMATTED_FIELDS', qualifiedName: 'FORMATTED_FIELDS', kind: 'constant', startLine: 44, endLine: 44 }]);
    const targets = (intent: 'about' | 'definition', aboutTests = false) => [...symbolTargets([{ name: 'FORMATTED_FIELDS', codeShaped: true }], intent, symbols, aboutTests, () => []).keys()];
    assert.deepEqual(targets('about'), []);
    assert.deepEqual(targets('definition'), ['/w/pelican/tests/default_conf.py']);
    assert.deepEqual(targets('about', true), ['/w/pelican/tests/default_conf.py']);
    symbols.setFile('/w/tests/testserver/server.py', 'tests/testserver/server.py', 'python', [{ name: 'TLSServer', qualifiedName: 'TLSServer', kind: 'class', startLine: 3, endLine: 40 }]);
    assert.deepEqual([...symbolTargets([{ name: 'TLSServer', codeShaped: true }], 'about', symbols, false, () => []).keys()], ['/w/tests/testserver/server.py'], "a test's class is what the question asks about");
    const q = analyzeQuestion('How does the Markdown reader process metadata keys listed in FORMATTED_FIELDS?');
    assert.equal(q.intent, 'about');
    assert.equal(analyzeQuestion('Where is FORMATTED_FIELDS defined?').intent, 'definition');
  });

  it('a word as English writes it ("the data hook", "the POST method") defined only in the tests or the examples points at no code in a question about the code', () => {
    const symbols = new SymbolIndex();
    symbols.setFile('/w/test/e2e/site/pages/api/data.ts', 'test/e2e/site/pages/api/data.ts', 'typescript', [{ name: 'data', qualifiedName: 'data', kind: 'function', startLine: 1, endLine: 6 }]);
    symbols.setFile('/w/examples/next-app/src/app/api/trpc/route.ts', 'examples/next-app/src/app/api/trpc/route.ts', 'typescript', [{ name: 'POST', qualifiedName: 'POST', kind: 'function', startLine: 9, endLine: 9 }]);
    symbols.setFile('/w/tests/testserver/server.py', 'tests/testserver/server.py', 'python', [{ name: 'TLSServer', qualifiedName: 'TLSServer', kind: 'class', startLine: 3, endLine: 40 }]);
    const targets = (name: string, intent: 'about' | 'definition' = 'definition', aboutTests = false) => [...symbolTargets([{ name, codeShaped: true }], intent, symbols, aboutTests, () => []).keys()];
    const q = analyzeQuestion('What does the immutable variant of the data hook change in the configuration before calling the core hook?');
    assert.ok(q.symbols.some((s) => s.name === 'data'), 'read as a name by its role');
    assert.deepEqual(targets('data'), []);
    assert.deepEqual(targets('POST', 'about'), []);
    assert.deepEqual(targets('data', 'definition', true), ['/w/test/e2e/site/pages/api/data.ts'], 'asked about the tests, the tests\' definition');
    assert.deepEqual(targets('TLSServer'), ['/w/tests/testserver/server.py'], 'a name as only code writes it is the one asked about');
    // A fixture is the tests' by nature: requests' "the httpbin fixture".
    symbols.setFile('/w/tests/conftest.py', 'tests/conftest.py', 'python', [{ name: 'httpbin', qualifiedName: 'httpbin', kind: 'function', startLine: 20, endLine: 26 }]);
    const fixture = analyzeQuestion('Where does the parametrize decorator chain interact with the httpbin fixture and timeout parameter for test_none_timeout?').symbols.find((s) => s.name === 'httpbin');
    assert.equal(fixture?.role, 'fixture');
    assert.deepEqual([...symbolTargets([fixture!], 'about', symbols, false, () => []).keys()], ['/w/tests/conftest.py']);
    // Where the project's code defines it too, the code's.
    symbols.setFile('/w/src/lib/data.ts', 'src/lib/data.ts', 'typescript', [{ name: 'data', qualifiedName: 'data', kind: 'function', startLine: 1, endLine: 9 }]);
    assert.deepEqual(targets('data'), ['/w/src/lib/data.ts']);
  });

  it('asked where a class is used, points at the code\'s uses (not its import) before a benchmark\'s call (p-queue\'s `PriorityQueue`)', () => {
    const symbols = new SymbolIndex();
    symbols.setFile('/w/source/priority-queue.ts', 'source/priority-queue.ts', 'typescript', [{ name: 'PriorityQueue', qualifiedName: 'PriorityQueue', kind: 'class', startLine: 11, endLine: 60 }]);
    const ref = (rel: string, line: number, kind: 'call' | 'reference', text: string) => ({ path: `/w/${rel}`, relativePath: rel, startLine: line, endLine: line, name: 'PriorityQueue', kind, text });
    const refs = [
      ref('bench.ts', 80, 'call', 'const queue = new PriorityQueue();'),
      ref('source/index.ts', 4, 'reference', "import PriorityQueue from './priority-queue.js';"),
      ref('source/index.ts', 98, 'reference', 'queueClass: PriorityQueue,'),
    ];
    const targets = symbolTargets([{ name: 'PriorityQueue', codeShaped: true }], 'usage', symbols, false, () => refs);
    assert.deepEqual(targets.get('/w/source/index.ts')?.lines, [98]);
    assert.ok(!targets.has('/w/bench.ts'), [...targets.keys()].join(', '));
    // Where only a benchmark uses it, the benchmark's call.
    assert.ok(symbolTargets([{ name: 'PriorityQueue', codeShaped: true }], 'usage', symbols, false, () => refs.slice(0, 2)).has('/w/bench.ts'));
  });

  it('reads `c.json` as a method where no file is called that, and `settings.json` as the file it names', async () => {
    assert.deepEqual(analyzeQuestion('what does c.json do?').fileShaped, ['c.json']);
    assert.deepEqual(analyzeQuestion('what does c.json do?').symbols, []);
    assert.deepEqual(analyzeQuestion('what is in src/c.json?').fileShaped, [], 'a path is a path');
    await assertFirst('what does c.json do?', 'src/ctx.ts');
    await assertFirst('what indent does settings.json set?', 'settings.json');
  });

  it('of a class and an interface with one name, ranks the kind the question names first', async () => {
    assert.equal((await firstFiles('where is the Context class defined?', 1))[0], 'src/context.ts');
    assert.equal((await firstFiles('where is the Context interface defined?', 1))[0], 'src/jsx/context.ts');
  });

  it('asked where a name is called or used, ranks its call sites above its definition', async () => {
    assert.deepEqual(await firstFiles('where is TrieRouter used?', 2), ['src/app.ts', 'src/router/trie.ts']);
    const py = await ask('which functions call handle_exception?');
    assert.equal(py[0]?.rel, 'pkg/app.py');
    assert.ok(py[0]!.start <= 16 && py[0]!.end >= 16, 'the snippet holds the call');
    assert.ok(py.findIndex((h) => h.rel === 'tests/test_app.py') > 0);
  });

  it('pushes mocks and benchmarks below the code, unless the question asks for tests', async () => {
    const files = await firstFiles('how are route patterns compiled into paths?', 5);
    assert.equal(files[0], 'src/router/trie.ts', files.join(', '));
    assert.equal((await firstFiles('how is compilePattern tested?', 1))[0], 'src/app.test.ts');
  });

  it('ranks a test runner\'s code above its tests for "how are test ids generated?" (what it works with, not its tests)', async () => {
    await assertFirst('how are test ids generated?', 'src/runner/ids.py');
    await assertFirst('how are test ids tested?', 'tests/test_ids.py');
    await assertFirst('how are test files recognised?', 'src/runner/kinds.py');
  });

  it('ranks the definition of a plain name asked about as "how does X work?" first (sinatra\'s `halt`)', async () => {
    assert.deepEqual(analyzeQuestion('how does halt work?').symbols.map((s) => s.name), ['halt']);
    assert.deepEqual(analyzeQuestion('how does it work?').symbols, []);
    // "Work out" is to decide: kedro's "how does the runner work out which node names…" is not about a `runner` (a test's fixture).
    assert.deepEqual(analyzeQuestion('How does the runner work out which node names to put in the resume hint?').symbols, []);
    assert.deepEqual(analyzeQuestion('How does the runner work with the catalog?').symbols.map((s) => s.name), ['runner']);
    await assertFirst('how does halt work?', 'pkg/flow.py');
  });

  it('reads a possessive as a member named by its owner ("the Router\'s fallback" → `Router.fallback`)', async () => {
    assert.deepEqual(analyzeQuestion("where is the Router's fallback defined?").symbols.map((s) => s.name), ['Router.fallback']);
    assert.deepEqual(analyzeQuestion("how does the Blueprint's register method work?").symbols.map((s) => s.name), ['Blueprint.register']);
    for (const q of ["What's the Router's job?", "It's slow: why?", "what is Hono's own router?"]) assert.deepEqual(analyzeQuestion(q).symbols, [], q);
    await assertFirst("where is the Router's fallback defined?", 'src/router.rs');
  });

  it('ranks the definition of a fixture named by its role ("the httpbin fixture") first', async () => {
    await assertFirst('what does the httpbin fixture return?', 'tests/conftest.py');
  });

  it('searches a kebab-case option quoted as code as the snake_case name that holds it (`ignore-paths` → ignore_paths)', async () => {
    await assertFirst('`ignore-paths` in my settings is ignored', 'pkg/lint/expand.py');
    const t = parseQuery('`ignore-paths` is ignored with --max-line-length; fix(reg-exp-router)').terms.map((x) => x.term);
    for (const name of ['=ignore_paths', '=ignorepaths', '=max_line_length', '=maxlinelength']) assert.ok(t.includes(name), name);
    assert.ok(!t.includes('=reg_exp_router'), 'a commit scope stays path words');
  });

  it('does not let a word in a path outrank the code that talks about it', async () => {
    await assertFirst('what happens when a handler throws an error?', 'src/hono-base.ts');
  });

  it('ranks a page of users\' questions or of problems and fixes first for a how-to or a symptom, not for a question about what something is', () => {
    const { add, first } = engineOf('restructuredtext', 'rst', false);
    add('doc/usage/deploying.rst', 'Deploying to GitHub Pages\n=========================\n\nGitHub Pages serves the HTML that Sphinx builds: build the HTML, then push it to the GitHub Pages branch.\n');
    add('doc/faq.rst', 'Sphinx FAQ\n==========\n\nHow do I use Sphinx with GitHub Pages?\n   Enable the githubpages extension: it writes the .nojekyll file that GitHub Pages needs.\n');
    add('doc/usage/theming.rst', 'HTML themes\n===========\n\nA theme styles the HTML pages of a Sphinx site.\n');
    assert.equal(first('How do I use Sphinx with GitHub Pages?'), 'doc/faq.rst');
    assert.equal(first('How do I use Sphinx with GitHub Pages?', { faqFactor: 1 }), 'doc/usage/deploying.rst', 'the guide says the words more');
    assert.equal(first('What does GitHub Pages serve from a Sphinx build?'), 'doc/usage/deploying.rst', 'not a how-to');
    for (const p of ['doc/faq.rst', 'FAQ.md', 'docs/guide/troubleshooting.md', 'docs/known-issues.md', 'docs/faqs.rst']) assert.ok(isFaqPath(p), p);
    for (const p of ['src/faq_view.py', 'docs/guide/faqs-and-more/intro.md', 'docs/troubleshooting-guide.md']) assert.ok(!isFaqPath(p), p);
  });

  it('weighs down one variant\'s code (a runtime\'s adapter, a database\'s backend, a site\'s extractor) when the question names none ("what happens when a handler throws?")', () => {
    const { add, first } = engineOf('typescript', 'ts', true);
    add('src/adapter/cloudflare-pages/handler.ts', "export const handle = (app) => async (ctx) => {\n  // A handler that throws: the error is thrown again for Pages' next handler.\n  try { return await app.fetch(ctx.request) } catch (e) { throw e }\n}\n");
    add('src/hono-base.ts', 'class Hono {\n  #dispatch(request) {\n    try { return handler(c) } catch (err) { return this.#handleError(err, c) }\n  }\n  // An error a handler throws goes to the error handler.\n  onError = (handler) => { this.errorHandler = handler }\n}\n');
    add('src/context.ts', 'export class Context {\n  json(obj) { return new Response(JSON.stringify(obj)) }\n}\n');
    assert.equal(first('what happens when a handler throws?'), 'src/hono-base.ts');
    assert.equal(first('what happens when a handler throws?', { variantFactor: 1 }), 'src/adapter/cloudflare-pages/handler.ts', 'the adapter says the words more');
    assert.equal(first('what happens when a Cloudflare Pages handler throws?'), 'src/adapter/cloudflare-pages/handler.ts', 'named, the variant is the answer');
    assert.deepEqual(variantWords('src/adapter/cloudflare-pages/handler.ts'), ['cloudflar', 'page']);
    assert.deepEqual(variantWords('sqlglot/dialects/bigquery.py'), ['bigqueri']);
    for (const p of ['gallery_dl/extractor/common.py', 'django/db/backends/base/base.py', 'src/adapter/index.ts', 'src/router/node.ts']) assert.equal(variantWords(p), undefined, p);
    // An output format's writer is one variant too (bandit's `formatters/xml.py`, sphinx's `writers/latex.py`);
    // a module named after its folder is the shared code (marimo's `formatters/formatters.py`).
    assert.deepEqual(variantWords('bandit/formatters/xml.py'), ['xml']);
    assert.deepEqual(variantWords('sphinx/writers/latex.py'), ['latex']);
    // A language's lexer, an output's builder, a dialect's parser (pygments, sphinx, sqlglot).
    assert.deepEqual(variantWords('pygments/lexers/python.py'), ['python']);
    assert.deepEqual(variantWords('sphinx/builders/latex/__init__.py'), ['latex']);
    assert.deepEqual(variantWords('sqlglot/parsers/bigquery.py'), ['bigqueri']);
    assert.equal(variantWords('pygments/lexers/__init__.py'), undefined);
    for (const p of ['marimo/_output/formatters/formatters.py', 'pylint/reporters/base_reporter.py']) assert.equal(variantWords(p), undefined, p);
    // The asynchronous twin of a module is a variant too, unless the question says async.
    const ASYNC = ['async', 'asyncio', 'asynchron', 'await', 'coroutin', 'aio'];
    for (const p of ['tests/test_integration_async.py', 'redis/asyncio/client.py', 'httpcore/_async/connection.py']) assert.deepEqual(variantWords(p), ASYNC, p);
    for (const p of ['IPython/core/async_helpers.py', 'docs/async-await.rst', 'src/async.ts', 'tests/test_integration.py']) assert.equal(variantWords(p), undefined, p);
    const dj = engineOf('python', 'py', true);
    dj.add('tests/test_integration.py', 'class DebugToolbarIntegrationTestCase(IntegrationTestCase):\n    def test_internal_ips_not_iterated(self):\n        # An object whose __iter__ raises: the internal IPs setting must not be iterated.\n        with self.settings(INTERNAL_IPS=NotIterable()):\n            self.client.get("/regular/basic/")\n');
    dj.add('tests/test_integration_async.py', 'class DebugToolbarIntegrationAsyncTestCase(IntegrationTestCase):\n    async def test_internal_ips_not_iterated(self):\n        # An object whose __iter__ raises: the internal IPs setting must not be iterated; the integration guards against it.\n        with self.settings(INTERNAL_IPS=NotIterable()):\n            await self.async_client.get("/regular/basic/")\n');
    const djq = 'Why does the integration test guarding against iteration of the internal IPs setting pass an object whose __iter__ raises?';
    assert.equal(dj.first(djq), 'tests/test_integration.py');
    assert.equal(dj.first(djq, { variantFactor: 1 }), 'tests/test_integration_async.py', 'the async twin says the words more');
    assert.equal(dj.first(djq.replace('integration test', 'async integration test')), 'tests/test_integration_async.py', 'asked about, the twin is the answer');
    const py = engineOf('python', 'py', true);
    py.add('bandit/formatters/csv.py', 'def report(manager, fileobj, sev_level, conf_level, lines=-1):\n    """Prints issues in CSV format: the report writer writes one row an issue to the output."""\n    with fileobj:\n        writer = csv.DictWriter(fileobj, fieldnames=fields)\n        writer.writeheader()\n');
    py.add('bandit/formatters/xml.py', 'def report(manager, fileobj, sev_level, conf_level, lines=-1):\n    """Prints issues in XML format."""\n    if fileobj.name == sys.stdout.name:\n        fileobj = sys.stdout.buffer\n    tree.write(fileobj, encoding="utf-8", xml_declaration=True)\n');
    const q = 'Why does the XML report writer swap the output stream for a binary handle when it writes to standard output?';
    assert.equal(py.first(q), 'bandit/formatters/xml.py');
    assert.equal(py.first(q, { variantFactor: 1 }), 'bandit/formatters/csv.py', 'the CSV writer says the words more');
  });

  it('weighs down the other side of a connection: the client\'s code for a question about the server, and the other way round', () => {
    const { add, first } = engineOf('rust', 'rs', true);
    add('src/client/conn/http1.rs', '/// An HTTP/1 connection. It waits for the server\'s interim `100 Continue` response, then sends the request body.\npub struct Connection<T, B> {\n    inner: Dispatcher<T, B>,\n}\n');
    add('src/proto/h1/conn.rs', 'impl<I, B, T> Conn<I, B, T> {\n    /// Sends the interim `100 Continue` response once the body is read.\n    fn write_continue(&mut self) {\n        if self.state.reading == Reading::KeepAlive { self.io.buffer(b"HTTP/1.1 100 Continue\\r\\n\\r\\n") }\n    }\n}\n');
    const q = 'Where does the server send the interim `100 Continue` response?';
    assert.equal(first(q), 'src/proto/h1/conn.rs');
    assert.equal(first(q, { variantFactor: 1 }), 'src/client/conn/http1.rs', 'the client\'s connection says the words more');
    assert.equal(first('Where does the client wait for the server\'s interim `100 Continue` response?'), 'src/client/conn/http1.rs', 'both sides named: no side is weighed down');
    assert.equal(sideOf('src/client/conn/http1.rs'), 'client');
    assert.equal(sideOf('packages/engine.io-client/lib/socket.ts'), 'client');
    assert.equal(sideOf('bokeh/server/views/ws.py'), 'server');
    for (const p of ['src/server/client_session.py', 'src/proto/h1/conn.rs', 'clientele/x.py']) assert.equal(sideOf(p), undefined, p);
  });

  it('weighs down a command\'s module named after the library module it drives, unless the question is about the command line', () => {
    const { add, first } = engineOf('python', 'py', true);
    add('piptools/scripts/sync.py', 'def cli(ask, dry_run, force, src_files):\n    """Installed distributions not in the requirements are uninstalled."""\n    to_install, to_uninstall = sync.diff(requirements, installed_dists)\n    return sync.sync(to_install, to_uninstall, dry_run=dry_run, ask=ask)\n');
    add('piptools/sync.py', 'PACKAGES_TO_IGNORE = ["pip", "pip-tools", "setuptools", "wheel"]\n\ndef diff(compiled_requirements, installed_dists):\n    """Calculate which installed distributions to uninstall: never the packages to ignore."""\n    for dist in installed_dists:\n        if dist.key in PACKAGES_TO_IGNORE:\n            continue\n');
    const q = 'Which installed distributions does the environment synchronizer refuse to uninstall?';
    assert.equal(first(q), 'piptools/sync.py');
    assert.equal(first(q, { variantFactor: 1 }), 'piptools/scripts/sync.py', 'the command says the words more');
    assert.equal(first('Which installed distributions does the sync command refuse to uninstall?'), 'piptools/scripts/sync.py', 'asked about the command');
    assert.equal(commandModuleName('piptools/scripts/sync.py'), 'sync.py');
    assert.equal(commandModuleName('src/poetry/console/commands/add.py'), 'add.py');
    for (const p of ['piptools/sync.py', 'piptools/scripts/__init__.py', 'cmd/main.go', 'src/cli/index.ts']) assert.equal(commandModuleName(p), undefined, p);
  });

  it('reads a product\'s name in mixed case ("the PostgreSQL backend") as one word where no name of the project spells it, not as its parts', () => {
    const e = new SearchEngine();
    e.symbols = new SymbolIndex();
    const add = (rel: string, text: string, defs: string[]) => {
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: text.split('\n').length, text, hash: rel, language: 'python', ext: 'py', code: true }]);
      e.symbols!.setFile(rel, rel, 'python', defs.map((name, i) => ({ name, qualifiedName: name, kind: 'class' as const, startLine: i * 10 + 1, endLine: i * 10 + 9 })));
    };
    add('alembic/ddl/postgresql.py', 'class PostgresqlImpl(DefaultImpl):\n    __dialect__ = "postgresql"\n    def compare_server_default(self, inspector_column, metadata_column, rendered_metadata_default, rendered_inspector_default):\n        # the database itself compares the two defaults\n        return not self.connection.scalar(select(inspector_default == metadata_default))\n', ['PostgresqlImpl']);
    add('alembic/ddl/mysql.py', 'class MySQLImpl(DefaultImpl):\n    __dialect__ = "mysql"\n    def compare_server_default(self, inspector_column, metadata_column, rendered_metadata_default, rendered_inspector_default):\n        # MySQL reports SQL server defaults as SQL text: a query of the SQL column default, compared as rendered strings\n        if metadata_column.type._type_affinity is sqltypes.Integer: return rendered_inspector_default != rendered_metadata_default\n        return self._compare_sql_default(rendered_inspector_default, rendered_metadata_default)\n', ['MySQLImpl']);
    add('alembic/operations/ops.py', 'class ExecuteSQLOp(MigrateOperation):\n    """Execute SQL text or a SQL construct, as a migration step."""\n    def __init__(self, sqltext, execution_options=None):\n        self.sqltext = sqltext\n', ['ExecuteSQLOp']);
    add('alembic/pyreverse/plantuml_printer.py', 'class PlantUmlPrinter(Printer):\n    """Printer for PlantUML diagrams."""\n    def emit_node(self, name, type_, properties=None):\n        self.emit(f"class {name}")\n', ['PlantUmlPrinter']);
    // Dialect names are everywhere in such a project: "postgresql" tells little on its own.
    for (const [i, d] of ['postgresql', 'mysql', 'mssql', 'oracle', 'sqlite'].entries()) {
      add(`alembic/testing/suite/test_${d}_${i}.py`, `@requires("${d}")\ndef test_${d}_default_${i}(connection):\n    # postgresql, mysql, mssql: the same column default\n    assert connection is not None\n`, []);
    }
    const q = 'Why does the PostgreSQL backend execute a query on the live connection when deciding whether a column\'s server default changed?';
    const top = (params?: Partial<RankParams>) => e.search(q, params ? { params } : {}).hits.map((h) => h.chunk.rel).filter((r, i, a) => a.indexOf(r) === i);
    assert.equal(top()[0], 'alembic/ddl/postgresql.py', top().join(' '));
    assert.notEqual(top({ properNouns: false })[0], 'alembic/ddl/postgresql.py', 'its parts: "sql" is MySQL\'s and ExecuteSQLOp\'s too: ' + top({ properNouns: false }).join(' '));
    // A name of the project that spells it in its parts keeps them: "PlantUML" is `PlantUmlPrinter`'s.
    assert.equal(e.symbols.spellsWord('PostgreSQL'), false);
    assert.equal(e.symbols.spellsWord('PlantUML'), true);
    assert.equal(e.symbols.spellsWord('MySQLImpl'), true);
    // A name that is the word in one piece writes it whole, as a product's name: alembic's test requirement `postgresql`.
    e.symbols.setFile('tests/requirements.py', 'tests/requirements.py', 'python', [{ name: 'postgresql', qualifiedName: 'DefaultRequirements.postgresql', kind: 'method', startLine: 175, endLine: 176 }]);
    assert.equal(e.symbols.spellsWord('PostgreSQL'), false);
    assert.equal(top()[0], 'alembic/ddl/postgresql.py');
    const weights = (text: string) => new Map(parseQuery(text, { namesNoCode: (w) => !e.symbols!.spellsWord(w) }).terms.map((t) => [t.term, t.weight]));
    const pg = weights(q);
    assert.ok(pg.get('=postgresql')! >= 1 && pg.get('postgresql')! >= 1, JSON.stringify([...pg]));
    assert.ok(pg.get('sql')! < 0.5, 'its parts count little');
    assert.ok(weights('How are PlantUML diagrams printed?').get('uml')! > 1, 'a name the project spells in parts is searched by them');
    // A commit message says the code's words as they are.
    assert.ok(new Map(parseQuery('Fix PostgreSQL server default comparison', { namesNoCode: () => true }).terms.map((t) => [t.term, t.weight])).get('sql')! > 1);
  });

  it('reads "the environment interface" as `EnvironmentInterface` where the project defines it, not as a name `environment` with its role', () => {
    const e = new SearchEngine();
    e.symbols = new SymbolIndex();
    const add = (rel: string, text: string, defs: { name: string; kind: 'class' | 'function' | 'method' }[]) => {
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: text.split('\n').length, text, hash: rel, language: 'python', ext: 'py', code: true }]);
      e.symbols!.setFile(rel, rel, 'python', defs.map((d, i) => ({ name: d.name, qualifiedName: d.name, kind: d.kind, startLine: i * 10 + 1, endLine: i * 10 + 9 })));
    };
    add('src/hatch/env/plugin/interface.py', 'class EnvironmentInterface(ABC):\n    def expand_command(self, command):\n        # a command naming another command is replaced by its commands; seen ones are a cycle\n        if name in seen: raise ValueError(f"Circular expansion detected: {name}")\n', [{ name: 'EnvironmentInterface', kind: 'class' }, { name: 'expand_command', kind: 'method' }]);
    add('src/hatch/utils/env.py', 'def environment(variables):\n    """The environment of a script: its variables set for the duration of the block."""\n    old = dict(os.environ)\n    os.environ.update(variables)\n', [{ name: 'environment', kind: 'function' }]);
    const q = 'How does the environment interface detect scripts that expand into each other endlessly?';
    const named = analyzeQuestion(q).symbols.find((s) => s.name === 'environment');
    assert.equal(named?.role, 'interface');
    const top = (params?: Partial<RankParams>) => e.search(q, params ? { params } : {}).hits.map((h) => h.chunk.rel).filter((r, i, a) => a.indexOf(r) === i);
    assert.equal(top()[0], 'src/hatch/env/plugin/interface.py', top().join(' '));
    assert.equal(top({ roleCompounds: false })[0], 'src/hatch/utils/env.py', 'without it, the function `environment`');
    assert.deepEqual(e.symbols.namesSquashed('environmentinterface'), ['EnvironmentInterface']);
  });

  it('brings the code a reference page among the best files is named after: by its file name or by a name it defines', () => {
    const e = new SearchEngine();
    e.symbols = new SymbolIndex();
    const add = (rel: string, text: string, lang: string, ext: string, code: boolean, defs: { name: string; line: number }[] = []) => {
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: text.split('\n').length, text, hash: rel, language: lang, ext, code }]);
      e.symbols!.setFile(rel, rel, lang, defs.map((d) => ({ name: d.name, qualifiedName: d.name, kind: 'function' as const, startLine: d.line, endLine: d.line + 3 })));
    };
    add('docs/reference/hooks/use-shallow.md', '# useShallow\n\nWhen a selector builds a fresh array or object on every call, React sees a new reference each render.\nThe hook stabilizes selector outputs: it hands React the previous reference when the new output is shallowly equal.\n', 'markdown', 'md', false);
    add('docs/guides/selectors.md', '# Selectors\n\nA selector picks a slice of the state. Keep selector outputs stable to avoid renders.\n', 'markdown', 'md', false);
    add('src/react/shallow.ts', "export function useShallow<S, U>(selector: (state: S) => U): (state: S) => U {\n  const prev = React.useRef<U>(undefined)\n  return (state) => {\n    const next = selector(state)\n    return shallow(prev.current, next) ? (prev.current as U) : (prev.current = next)\n  }\n}\n", 'typescript', 'ts', true, [{ name: 'useShallow', line: 1 }]);
    add('src/middleware/subscribeWithSelector.ts', 'export const subscribeWithSelector = (fn) => (set, get, api) => {\n  // A listener of a selector is called when the selector output changes: a fresh array or object built on every call is a new reference.\n  const listener = (state) => { const next = selector(state); if (!equalityFn(prev, next)) { prev = next; } }\n}\n', 'typescript', 'ts', true, [{ name: 'subscribeWithSelector', line: 1 }]);
    const q = 'How does the hook that stabilizes selector outputs avoid handing React a new reference when a selector builds a fresh array or object on every call?';
    const top = (params?: Partial<RankParams>) => e.search(q, params ? { params } : {}).hits.map((h) => h.chunk.rel).filter((r, i, a) => a.indexOf(r) === i);
    const with_ = top();
    const without = top({ pageCodeW: 0 });
    assert.equal(with_[0], 'docs/reference/hooks/use-shallow.md');
    assert.ok(with_.indexOf('src/react/shallow.ts') < with_.indexOf('src/middleware/subscribeWithSelector.ts'), with_.join(' '));
    assert.ok(without.indexOf('src/react/shallow.ts') > without.indexOf('src/middleware/subscribeWithSelector.ts'), 'without it, the other selector code says more of the words: ' + without.join(' '));
    // By its file name: tRPC's `docs/client/links/httpBatchLink.md` and `links/httpBatchLink.ts`.
    assert.equal(pageSubject('www/docs/client/links/httpBatchLink.md'), 'httpbatchlink');
    assert.equal(pageSubject('docs/reference/hooks/use-shallow.md'), 'useshallow');
    assert.equal(fileSubject('packages/client/src/links/httpBatchLink.ts'), 'httpbatchlink');
    assert.equal(fileSubject('src/vanilla/shallow.ts'), 'shallow');
    // One word is a topic (`config.rst`, `optional.md`); a folder's or the project's page is about no one thing.
    for (const p of ['docs/config.rst', 'docs/syntax/optional.md', 'README.md', 'docs/index.rst', 'docs/api-reference.md', 'a-b.md']) assert.equal(pageSubject(p), undefined, p);
    for (const p of ['src/lib.rs', 'pkg/index.ts', 'src/io.ts']) assert.equal(fileSubject(p), undefined, p);
  });

  it('weighs down any module of the command line (`cli.py`, `flags/`, `__main__.py`) for a question that says nothing of the command line', () => {
    const { add, first } = engineOf('rust', 'rs', true);
    // The same words: the flag's documentation is shorter, so it comes first unless weighed down.
    const doc = '/// Under smart case the matcher keeps a pattern case sensitive by its uppercase letters.';
    add('crates/core/flags/defs.rs', `${doc}\nstruct SmartCase;\n`);
    add('crates/regex/src/ast.rs', `${doc}\nfn has_upper(a: &Ast) -> bool;\n`);
    const q = 'How does the matcher decide under smart case that a pattern stays case sensitive?';
    assert.equal(first(q), 'crates/regex/src/ast.rs');
    assert.equal(first(q, { commandLineFactor: 1 }), 'crates/core/flags/defs.rs', 'the flag\'s documentation is shorter');
    assert.equal(first('How does the --smart-case flag decide that a pattern stays case sensitive?'), 'crates/core/flags/defs.rs', 'asked about the flag');
    for (const p of ['crates/core/flags/defs.rs', 'src/flask/cli.py', 'mpmath/__main__.py', 'bandit/cli/baseline.py', 'src/poetry/console/commands/add.py']) assert.equal(isCommandLinePath(p), true, p);
    for (const p of ['src/flask/app.py', 'crates/regex/src/ast.rs', 'src/client.ts', 'docs/flags.md']) assert.equal(isCommandLinePath(p), false, p);
  });

  it('weighs the code that runs in the browser up for a question about the front end ("the browser-side script", "the web UI")', () => {
    const { add, first } = engineOf('python', 'py', true);
    add('app/outbox.py', 'class Outbox:\n    """Keeps the history of messages so that the server can replay them to a client after a reconnect."""\n    def replay(self, client, since):\n        for message in self.history[since:]:\n            client.send(message)\n');
    add('app/static/app.js', 'socket.on("message", (msg) => {\n  // After a reconnect the history comes again: skip a message already applied.\n  if (msg.id <= lastId) return;\n  lastId = msg.id;\n  apply(msg);\n});\n', 'javascript', 'js');
    const q = 'How does the browser-side script avoid applying the same message twice when the server replays its history after a reconnect?';
    assert.equal(first(q), 'app/static/app.js');
    assert.equal(first(q, { frontEndFactor: 1 }), 'app/outbox.py', 'the server code says the words more');
    assert.equal(first('How does the server avoid applying the same message twice when it replays its history after a reconnect?'), 'app/outbox.py', 'not about the front end');
  });

  it('weighs what a test suite shares (conftest, the helpers module) up for a question about "the test helper" or "the fixture used throughout the test suite"', () => {
    const { add, first } = engineOf('python', 'py', true);
    add('tests/utils/__init__.py', 'def http(*args, tolerate_error_exit_status=False, **kwargs):\n    # Run the CLI in process. A non-zero exit status fails the test unless tolerated.\n    exit_status = main(args=args, **kwargs)\n    if exit_status != ExitStatus.SUCCESS and not tolerate_error_exit_status:\n        raise ExitStatusError(exit_status)\n');
    add('tests/test_errors.py', 'def test_error_exit_status(httpbin):\n    # The runner fails on an error exit status: this test tolerates it.\n    r = http("--check-status", httpbin + "/status/500", tolerate_error_exit_status=True)\n    assert r.exit_status == ExitStatus.ERROR_HTTP_5XX\n\ndef test_error_exit_status_runner(httpbin):\n    r = http("--check-status", httpbin + "/status/404", tolerate_error_exit_status=True)\n    assert r.exit_status == ExitStatus.ERROR_HTTP_4XX\n');
    const q = 'How does the in-process CLI runner used throughout the test suite fail on an error exit status, and how can a test tolerate it?';
    assert.equal(analyzeQuestion(q).asksForTestSupport, true);
    assert.equal(first(q), 'tests/utils/__init__.py');
    assert.equal(first(q, { testSupportFactor: 1 }), 'tests/test_errors.py', 'the tests say the words more');
    for (const t of ['Where does the test helper that builds the timezone names filter its zones?', 'What does the autouse fixture check before each test?', "How does the test suite's pytest configuration pick the tests to run?", 'What do the shared test utilities attach to each data source?']) assert.equal(analyzeQuestion(t).asksForTestSupport, true, t);
    for (const t of ['How is the CLI runner tested?', 'What does the test for the exit status check?', 'How does the runner fail on an error exit status?']) assert.equal(analyzeQuestion(t).asksForTestSupport, false, t);
    // A test file that holds no test case; pint's `testsuite/` is a folder of tests.
    assert.equal(isTestSupportFile('tests/conftest.py', [{ text: '@pytest.fixture(autouse=True)\ndef pretest_posttest():\n    yield\n' }]), true);
    assert.equal(isTestSupportFile('tests/test_errors.py', [{ text: 'def test_error_exit_status():\n    assert True\n' }]), false);
    assert.equal(isTestSupportFile('test/core/xfail.test.ts', [{ text: 'it("fails", () => {})\n' }]), false);
    assert.equal(isTestSupportFile('pkg/utils.py', [{ text: 'def helper():\n    pass\n' }]), false);
    assert.equal(isTestSupportFile('test/github-issues/2557/transformer.ts', [{ text: 'export class Post {}\n' }]), false, 'what one test uses');
    assert.equal(isTestSupportFile('test/utils/xfail.ts', [{ text: 'export function xfail() {}\n' }]), true);
    assert.ok(isTestPath('pint/testsuite/helpers.py'));
  });

  it('ranks the troubleshooting page first for a symptom a user asks about ("why is … not …?"), the code for how it works', async () => {
    await assertFirst('Why is a file change not noticed?', 'docs/troubleshooting.md');
    await assertFirst('How is a file change noticed?', 'src/watch/poll.ts');
  });

  it('searches the verb of an agent noun ("the option value formatter" → `_format_option_value`)', async () => {
    await assertFirst('How does the option value formatter turn a list into text?', 'pkg/config/values.py');
  });

  it('searches the one word a phrasal verb is in code ("looked up" → lookup, find; "set up" → setup)', async () => {
    await assertFirst('where are error handlers looked up?', 'pkg/sansio/app.py');
  });

  it('searches the special method a question describes in words ("the pickle reconstruction method" → __getnewargs_ex__)', async () => {
    await assertFirst('What does the pickle protocol reconstruction method return?', 'pkg/records.py');
  });

  it('searches the initials a technical phrase is named by in code ("hot module replacement" → hmr)', async () => {
    await assertFirst('how does the dev server handle hot module replacement?', 'src/server/hmr.ts');
  });
});
