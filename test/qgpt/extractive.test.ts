import { strict as assert } from 'node:assert';
import { answerOrder, callPattern, citedPlaces, definitionRe, isDataLine, leadSentence, nameCoverage, quotedSymbol, quoteWindow, rankPlaces } from '../../server/src/qgpt/extractive';
import { entitiesOf } from '../../server/src/qgpt/reprompt';
import { analyzeQuestion } from '../../server/src/index/question';
import { callSiteSymbol, isTestPassage } from '../../server/src/qgpt/intent';
import { hintsRules } from '../../server/src/qgpt/hints';
import { isQuotedProse, queryTerms } from '../../server/src/qgpt/terms';
import type { Passage } from '../../server/src/qgpt/seeds';
import { docstringLines, isDocumentPage, withoutStrings, withoutTrailingComment } from '../../server/src/index/languages';
import { callSitesFirst } from '../../server/src/qgpt/answerFlow';

const passage = (index: number, path: string, text: string): Passage => ({ index, path, startLine: 1, text, language: 'ts', entry: {} });

const SESSION = [
  "import { createHmac } from 'node:crypto';",
  '',
  '/** Creates a session token for a user. */',
  'export function createSession(userId: string) {',
  '  return { userId, token: sign(userId) };',
  '}',
  '',
  '/** Checks the signature, then that the session has not expired. */',
  'export function validateToken(token: string, now = Date.now()) {',
  '  const session = sessions.get(token);',
  '  if (!session || session.expiresAt <= now) return undefined;',
  '  return session;',
  '}',
].join('\n');

describe('extractive answerer: matching question words to code', () => {
  it('matches inflected words to identifiers by stem ("validated" ~ validateToken, "expire" ~ expiresAt) and quotes that place', () => {
    const [best] = rankPlaces('How are session tokens validated and when do they expire?', [
      passage(0, 'README.md', '# shop\nA small shop with sessions.'),
      passage(1, 'src/auth/session.ts', SESSION),
    ]);
    assert.equal(best.passage.path, 'src/auth/session.ts');
    for (const w of ['session', 'tokens', 'validated', 'expire']) assert.ok(best.matched.includes(w), `matched ${w}: ${best.matched.join(', ')}`);
    assert.ok(best.quote.some((l) => l.includes('validateToken')), `the quote shows validateToken:\n${best.quote.join('\n')}`);
  });

  it('reads an acronym\'s plural as the acronym ("JWTs" → jwt), not as two pieces ("jw", "ts" — which every `.ts` path matched)', () => {
    const jwt = 'export async function verify(token: string, secret: string) {\n  const jwt = decode(token)\n  return checkSignature(jwt, secret)\n}\n';
    const [best] = rankPlaces('How are JWTs verified?', [
      passage(0, 'src/utils/cookie.ts', 'export function parse(cookie: string) {\n  return cookie.split(";")\n}\n'),
      passage(1, 'src/utils/jwt/jwt.ts', jwt),
    ]);
    assert.equal(best.passage.path, 'src/utils/jwt/jwt.ts');
    assert.deepEqual(best.matched, ['JWTs', 'verified']);
  });

  it('a table of string literals (a lexer\'s keywords) is no place for a question in words: the code that does it wins', () => {
    const factor = "class FactorLexer(RegexLexer):\n    builtins = (\n        'each-index', 'filter', 'filter!', 'remove', 'remove!', 'fixed-number',\n        'head', 'lines', 'leading', 'count', 'each',\n    )\n";
    const gobble = 'class GobbleFilter(Filter):\n    def filter(self, lexer, stream):\n        left = self.n  # characters left to remove from the line\n        for ttype, value in stream:\n            yield ttype, value[left:]\n';
    const places = rankPlaces('Where is the filter that removes a fixed number of leading characters from each line?', [
      { ...passage(0, 'pygments/lexers/factor.py', factor), language: 'python' },
      { ...passage(1, 'pygments/filters/__init__.py', gobble), language: 'python' },
    ]);
    assert.equal(places[0]!.passage.path, 'pygments/filters/__init__.py', places.map((p) => `${p.passage.path} ${p.score}`).join('; '));
    assert.ok(isDataLine("        'each-index', 'filter', 'filter!',") && !isDataLine("    raise ValueError('a', 'b')") && !isDataLine("  'only',") && !isDataLine('        """Signal handler - NO LOGGING, just queue the signal."""') && !isDataLine("    ''"));
  });

  it('words that only frame the question ("what happens", "mechanism") count little: the place about the thing asked wins', () => {
    const places = rankPlaces('What happens when a view raises an exception?', [
      passage(0, 'src/request.ts', '// What happens to the view args when matching the URL gives an exception.\nexport const viewArgs: string[] | null = null;'),
      passage(1, 'src/app.ts', '/** Called when a view raises: turns the exception into an error response. */\nexport function handleException(view: string, exception: Error) {\n  throw exception;\n}'),
    ]);
    assert.equal(places[0]!.passage.path, 'src/app.ts', places.map((p) => `${p.passage.path} ${p.score}`).join('; '));
  });

  it('a name qualified by its class (`Blueprint.add_url_rule`) is defined by that class\'s method, not by a same-named method of another class', () => {
    const places = rankPlaces('Where is `Blueprint.add_url_rule` implemented?', [
      { ...passage(0, 'src/blueprints.py', 'class BlueprintSetupState:\n    def add_url_rule(self, rule, endpoint=None):\n        self.app.add_url_rule(rule, endpoint)'), symbol: 'BlueprintSetupState › add_url_rule', retrieval: 1 },
      { ...passage(1, 'src/blueprints.py', '    def add_url_rule(self, rule, endpoint=None, view_func=None):\n        self.record(lambda s: s.add_url_rule(rule, endpoint, view_func))'), symbol: 'Blueprint › add_url_rule', retrieval: 0.9 },
    ]);
    const byIndex = (i: number) => places.find((m) => m.passage.index === i)!;
    assert.deepEqual(byIndex(1).defines, ['Blueprint.add_url_rule']);
    assert.deepEqual(byIndex(0).defines, [], 'BlueprintSetupState.add_url_rule is another method');
    assert.equal(places[0]!.passage.index, 1);
    // A chunk whose symbol path lists only some of its names still defines a method of the class it holds.
    const [cidr] = rankPlaces('What does `TestIsValidCIDR.test_invalid` check?', [{ ...passage(0, 'tests/test_utils.py', 'class TestIsValidCIDR:\n    def test_invalid(self, value):\n        assert not is_valid_cidr(value)'), symbol: 'TestIsIPv4Address, test_invalid' }]);
    assert.deepEqual(cidr!.defines, ['TestIsValidCIDR.test_invalid']);
  });

  it('reads names from one-line code spans, not from a pasted block of output between fences', () => {
    const issue = 'Routes lack their subdomain\n\n```\n$ flask routes\n * Tip: it is no way to see the domain\nEndpoint  Methods  Rule\n```\n\nShould `routes_command` print it?';
    const [cli] = rankPlaces(issue, [passage(0, 'src/cli.py', 'def routes_command(sort, all_methods):\n    """Show all registered routes with endpoints and methods."""\n    domain = rule.subdomain\n    if rule is None:\n        return')]);
    assert.deepEqual(cli!.defines, ['routes_command'], 'the fenced words (`domain`, `is`, `Tip`) are no names the answer names');
  });

  it('reads "e.g." and "i.e." as words, not as dotted names of code; `e.g` in a code span still names', () => {
    assert.deepEqual(queryTerms('Why does my program panic when I set up the HTTP pool a second time, e.g. in tests, i.e. twice?').symbols, []);
    assert.deepEqual(queryTerms('Why does `e.g` panic?').symbols, ['e.g']);
    assert.deepEqual(queryTerms('Where is pool.Set called?').symbols, ['pool.Set']);
  });

  it('keeps a Ruby predicate\'s `?` in a code span (`argument?` is another name than `argument`), at a name\'s weight', () => {
    const q = queryTerms('where is `argument?` called?');
    assert.deepEqual(q.symbols, ['argument?']);
    assert.equal(q.weights.get('argument'), 3);
    assert.deepEqual(queryTerms('is `x` set? And `y`?').symbols, ['x', 'y'], 'a question mark after the span is the question\'s');
  });

  it('a quote ends where the next definition starts, and is named by the code it is in, not by the definition after it', () => {
    // mkdocs: `run` calls `path_to_url`; `_target_uri` follows in the same chunk and its header says "path" too.
    const text = [
      'class _RelativePathTreeprocessor(Treeprocessor):',
      '    def run(self, root):',
      '        for element in root.iter():',
      '            url = element.get(key)',
      '            if url is None:',
      '                continue',
      '            assert url is not None',
      '            new_url = self.path_to_url(url)',
      '            element.set(key, new_url)',
      '',
      '        return root',
      '',
      '    @classmethod',
      '    def _target_uri(cls, src_path: str, dest_path: str) -> str:',
      '        return posixpath.normpath(posixpath.join(src_path, dest_path))',
    ].join('\n');
    const [m] = rankPlaces('Where is `path_to_url` called?', [{ ...passage(0, 'mkdocs/structure/pages.py', text), symbol: '_RelativePathTreeprocessor › run, _target_uri' }]);
    assert.ok(m!.quote.some((l) => l.includes('self.path_to_url(url)')), m!.quote.join('\n'));
    assert.ok(!m!.quote.some((l) => /@classmethod|_target_uri/.test(l)), m!.quote.join('\n'));
    assert.equal(quotedSymbol(m!), '_RelativePathTreeprocessor.run');
    // dask: a module's docstring quoted from a chunk that also holds a function is in no function.
    const mod = ['"""', 'A threaded shared-memory scheduler', '', 'See local.py', '"""', 'import threading', 'import sys', '', 'CPU_COUNT = 4', 'main_thread = threading.current_thread()', '', 'def _thread_get_id():', '    return threading.current_thread().ident', ''].join('\n');
    const [doc] = rankPlaces('Where is the threaded shared-memory scheduler?', [{ ...passage(0, 'dask/threaded.py', mod), symbol: '_thread_get_id' }]);
    assert.equal(doc!.quoteStart, 0, doc!.quote.join('\n'));
    assert.equal(quotedSymbol(doc!), undefined);
    // sanic's guide: a section goes by its heading, not by the handler its example defines.
    const md = ['## Reading', '', 'A dictionary holds them.', '', '```python', '@app.route("/cookie")', 'async def test(request):', '    test_cookie = request.cookies.get("test")', '    return text(f"Test cookie: {test_cookie}")', '```', ''].join('\n');
    const [r] = rankPlaces('how do I read a cookie from a request?', [{ ...passage(0, 'guide/cookies.md', md), language: 'md', symbol: 'Reading' }]);
    assert.ok(r!.quote.some((l) => l.startsWith('async def test')), r!.quote.join('\n'));
    assert.equal(quotedSymbol(r!), 'Reading');
    // hanami-router: a quote of a parent's head goes by that parent, not by it again below the others.
    const rb = ['module Hanami', '  class Router', '    class MountedPath', '      def initialize(prefix, app)', '        @prefix = prefix', '      end', '    end', '  end', 'end'].join('\n');
    const head = { passage: { ...passage(0, 'lib/hanami/router/mounted_path.rb', rb), language: 'ruby', symbol: 'Hanami › Router › MountedPath › initialize' }, score: 1, coverage: 1, matched: [], defines: [], quoteStart: 1, quote: rb.split('\n').slice(1, 3) };
    assert.equal(quotedSymbol(head), 'Hanami.Router');
    // echo (Go): a chunk names three definitions at most; a quote that starts a fourth goes by its name.
    const go = [
      '// Deserialize decodes the body.',
      'func Deserialize(c *Context, v any) error {',
      '\treturn json.NewDecoder(c.Request().Body).Decode(v)',
      '}',
      '',
      '// Validate checks v.',
      'func Validate(v any) error { return nil }',
      '',
      '// Bind binds the request.',
      'func Bind(c *Context, v any) bool {',
      '\tok := c != nil && v != nil',
      '\tc.Set("bound", ok)',
      '\treturn ok',
      '}',
      '',
      '// HTTPErrorHandler is a centralized HTTP error handler: what runs when a handler returns an error.',
      'type HTTPErrorHandler func(c *Context, err error)',
    ].join('\n');
    const [h] = rankPlaces('what happens when a handler returns an error?', [{ ...passage(0, 'echo.go', go), language: 'go', symbol: 'Deserialize, Validate, Bind' }]);
    assert.ok(h!.quote.some((l) => l.startsWith('type HTTPErrorHandler')), h!.quote.join('\n'));
    assert.equal(quotedSymbol(h!), 'HTTPErrorHandler');
    // A chunk that ends with the doc comment of the definition the next chunk holds: the comment's name.
    const tail = ['func New() *Echo {', '\te := &Echo{}', '\te.Server = new(http.Server)', '\te.Listener = nil', '\te.Logger = log.Default()', '\te.Binder = &DefaultBinder{}', '\treturn e', '}', '', '// DefaultHTTPErrorHandler creates the handler that runs when a handler returns an error.', '// It sends a JSON response with the status code.', ''].join('\n');
    const [t] = rankPlaces('what happens when a handler returns an error?', [{ ...passage(0, 'echo.go', tail), language: 'go', symbol: 'New' }]);
    assert.match(t!.quote.join('\n'), /DefaultHTTPErrorHandler creates/);
    assert.equal(quotedSymbol(t!), 'DefaultHTTPErrorHandler');
    // Not a comment that merely starts with a word, nor one inside the chunk above its definition.
    const plain = ['func New() *Echo {', '\te := &Echo{}', '\te.Server = new(http.Server)', '\te.Listener = nil', '\te.Logger = log.Default()', '\te.Binder = &DefaultBinder{}', '\treturn e', '}', '', '// Handlers run when a handler returns an error.', ''].join('\n');
    const [u] = rankPlaces('what happens when a handler returns an error?', [{ ...passage(0, 'echo.go', plain), language: 'go', symbol: 'New' }]);
    assert.notEqual(quotedSymbol(u!), 'Handlers');
    // parson (C): a header's declaration below the comment that says how it works goes by what it
    // declares, not by the declaration the chunk is named for above them.
    const h2 = ['size_t      json_serialization_size_pretty(const JSON_Value *value); /* returns 0 on fail */', 'int  json_value_equals(const JSON_Value *a, const JSON_Value *b);', '', '/* Validation', '   This is *NOT* JSON Schema. It validates json by checking if object have identically', '   named fields with matching types.', '   Empty objects ({}) validate all objects,', '   null validates values of every type.', ' */', 'JSON_Status json_validate(const JSON_Value *schema, const JSON_Value *value);', ''].join('\n');
    const [v] = rankPlaces('how does checking a value against a schema treat null and empty objects?', [{ ...passage(0, 'parson.h', h2), language: 'c', symbol: 'json_serialization_size_pretty, json_value_equals' }]);
    assert.ok(v!.quote.some((l) => l.startsWith('JSON_Status json_validate')), v!.quote.join('\n'));
    assert.equal(quotedSymbol(v!), 'json_validate');
  });

  it('a quote starts a line early for the comment or decorator above it, not for a comment\'s closing `*/` alone (hono\'s `valid()`)', () => {
    const lines = ['  formData(): Promise<FormData> {', '    return this.#cachedBody(\'formData\')', '  }', '', '  /**', '   * Gets validated data from the request.', '   * @see https://hono.dev/docs/api/request#valid', '   */', '  valid(target: keyof ValidationTargets) {', '    return this.#validatedData?.[target] as unknown', '  }', ...Array.from({ length: 10 }, (_, i) => `  other${i}() {}`)];
    const scores = lines.map((l) => (l.startsWith('  valid(') ? 3 : l.includes('validated') ? 1 : 0));
    assert.equal(quoteWindow(lines, scores).start, 8);
    const hashed = ['x = 1', 'y = 2', '', '# Validates the data.', 'def valid(target):', '    return target', ...Array.from({ length: 10 }, (_, i) => `z${i} = ${i}`)];
    assert.equal(quoteWindow(hashed, hashed.map((l) => (l.startsWith('def valid') ? 3 : 0))).start, 3, 'a comment line above still leads in');
  });

  it('names a quote of a C++ method defined out of its class, indented in its namespace after a qualifier macro, by the method (pugixml\'s `xml_text::as_int`), not by the namespace', () => {
    const cpp = ['\tPUGI_IMPL_FN bool xml_text::empty() const', '\t{', '\t\treturn _data() == NULL;', '\t}', '', '\tPUGI_IMPL_FN const char_t* xml_text::get() const', '\t{', '\t\treturn PUGIXML_TEXT("");', '\t}', '',
      '\tPUGI_IMPL_FN int xml_text::as_int(int def) const', '\t{', '\t\txml_node_struct* d = _data();', '\t\treturn impl::get_value_int(d ? d->value : 0, def);', '\t}', ''].join('\n');
    const [m] = rankPlaces('how does as_int turn a text value into an integer?', [{ ...passage(0, 'src/pugixml.cpp', cpp), language: 'cpp', symbol: 'pugi › xml_text::empty, xml_text::get' }]);
    assert.ok(m!.quote.some((l) => l.includes('xml_text::as_int(')), m!.quote.join('\n'));
    assert.equal(quotedSymbol(m!), 'pugi.xml_text::as_int');
    // A statement in a body is no head: `std::string s(name);` ends with `;`, `return f(x,` returns.
    const body = ['void f() {', '\tstd::string s(name);', '\treturn g(a,', '\t\tb);', '}'].join('\n');
    const [b] = rankPlaces('where is g called?', [{ ...passage(1, 'a.cpp', body), language: 'cpp', symbol: 'f' }]);
    assert.ok(!['s', 'g'].includes(quotedSymbol(b!) ?? ''), quotedSymbol(b!));
  });

  it('reads lines of long runs of spaces or of tags in one pass: rubocop-ast\'s `end   …   #   end` had hung the answer', () => {
    const ruby = ['      def each_node(*types)', '        visit_descendants(types)', `             end${' '.repeat(60)}#   end`, `               send(:literal?)${' '.repeat(40)}#     send(:literal?)`, '      end'].join('\n');
    const jsx = `export const Page = () => (\n  ${'<div><b><i>'.repeat(40)}\n)`;
    const places = rankPlaces('When I iterate over descendants of certain types, in what order are they visited?', [
      { ...passage(0, 'lib/rubocop/ast/node.rb', ruby), language: 'ruby', symbol: 'RuboCop › AST › Node › each_node' },
      { ...passage(1, 'src/page.jsx', jsx), language: 'javascript', symbol: 'Page' },
    ]);
    assert.equal(places.length, 2);
    assert.ok(definitionRe('Page').test('export const Page = () => ('));
  });

  it('names a Go method by its receiver, which the chunk\'s names leave out', () => {
    const q = 'how does the router find the handler for a request?';
    const router = { ...passage(0, 'router.go', 'func (app *App) next(c *DefaultCtx) (bool, error) {\n\t// find the route of the request and run its first handler\n\ttree := app.treeIndex[c.methodInt]\n\treturn true, nil\n}'), language: 'go', symbol: 'next', retrieval: 1 };
    const generic = { ...passage(1, 'tree.go', 'func (r *Router[T]) Match(path string) T {\n\t// the handler of the route a request path matches\n\treturn r.find(path)\n}'), language: 'go', symbol: 'Match', retrieval: 0.8 };
    const plain = { ...passage(2, 'handler.go', 'func findHandler(path string) Handler {\n\t// the handler a request path routes to\n\treturn nil\n}'), language: 'go', symbol: 'findHandler', retrieval: 0.6 };
    assert.deepEqual(rankPlaces(q, [router, generic, plain]).map((m) => quotedSymbol(m)), ['App.next', 'Router.Match', 'findHandler']);
  });

  it('names a quoted doc comment by the definition right after it in the chunk, not by the one before it', () => {
    // react-router's utils.ts: `mergeRouteUpdates` ends; the JSDoc quoted is `matchRoutes`'s.
    const ts = [
      'function mergeRouteUpdates<T>(route: T, updates: Partial<T>): T {',
      '  return Object.assign(route, updates);',
      '}',
      '',
      '/**',
      ' * Matches the given routes to a location and returns the match data.',
      ' *',
      ' * @example',
      ' * matchRoutes(routes, "/dashboard"); // [rootMatch, dashboardMatch]',
      ' *',
      ' * @public',
      ' * @category Utils',
      ' * @param routes The array of route objects to match against.',
      ' * @param locationArg The location to match against, either a string path or a',
      ' * partial {@link Location} object',
      ' * @returns An array of objects, or `null` if there are none.',
      ' * @since 6.0',
      ' * @see {@link matchPath}',
      ' * @see {@link useMatches}',
      ' */',
      'export function matchRoutes(routes: RouteObject[], locationArg: Partial<Location> | string): RouteMatch[] | null {',
      '  return matchRoutesImpl(routes, locationArg, false);',
      '}',
    ].join('\n');
    const [m] = rankPlaces('how are routes ranked and matched against the URL?', [{ ...passage(0, 'lib/router/utils.ts', ts), language: 'typescript', symbol: 'mergeRouteUpdates, matchRoutes' }]);
    assert.match(m!.quote.join('\n'), /match against/);
    assert.ok(!m!.quote.some((l) => l.includes('export function')), m!.quote.join('\n'));
    assert.equal(quotedSymbol(m!), 'matchRoutes');
  });

  it('names a quote after the end of the definition above it by none (a doc comment on a re-export is not the interface\'s)', () => {
    // askcode's safePath.ts: `interface Inside { … }` ends; the comment quoted is on `export type { SkipReason }`.
    const ts = [
      'export interface Inside {',
      '  abs: string;',
      '  real: string;',
      '}',
      '',
      '/**',
      ' * Why a file was not indexed: `outside` (a symlink whose target is outside every opened folder),',
      ' * `special` (FIFO, socket, device).',
      ' */',
      'export type { SkipReason };',
      '',
      'export async function realFolder(folder: string): Promise<string> {',
      '  return folder;',
      '}',
    ].join('\n');
    const [m] = rankPlaces('how are symlinks outside the folder handled?', [{ ...passage(0, 'src/safePath.ts', ts), language: 'typescript', symbol: 'Inside, realFolder' }]);
    assert.match(m!.quote.join('\n'), /symlink whose target is outside/);
    assert.equal(quotedSymbol(m!), undefined, m!.quote.join('\n'));
    // Python: a statement at the function's indentation ends it; its own docstring and body do not.
    const py = [
      'def load(path):',
      '    """Read the file.',
      '',
      'Lines of the docstring may start anywhere.',
      '    """',
      '    return open(path).read()',
      '',
      '',
      '# The symlinks that lead outside the folder are skipped: their targets are outside it.',
      'SKIP_OUTSIDE = True',
    ].join('\n');
    const [p] = rankPlaces('how are symlinks outside the folder handled?', [{ ...passage(0, 'pkg/files.py', py), language: 'python', symbol: 'load' }]);
    assert.match(p!.quote.join('\n'), /symlinks that lead outside/);
    assert.equal(quotedSymbol(p!), undefined, p!.quote.join('\n'));
    const [q] = rankPlaces('where do docstring lines start?', [{ ...passage(0, 'pkg/files.py', py), language: 'python', symbol: 'load' }]);
    assert.match(q!.quote.join('\n'), /docstring may start/);
    assert.equal(quotedSymbol(q!), 'load', q!.quote.join('\n'));
    // Ruby (sinatra): a call in `route!`, which the chunk's three names leave out, after `forward` has ended.
    const rb = [
      'def halt(*response)',
      '  throw :halt, response',
      'end',
      '',
      'def forward',
      '  @app.call(env)',
      'end',
      '',
      'private',
      '',
      '# Run routes defined on the class and all superclasses.',
      'def route!(base = settings, pass_block = nil)',
      '  routes = base.routes[@request.request_method]',
      '  routes&.each do |pattern, conditions, block|',
      '    returned_pass_block = process_route(pattern, conditions) do |*args|',
      '      route_eval { block[*args] }',
      '    end',
      '  end',
      'end',
    ].join('\n');
    const [r] = rankPlaces('Where is `process_route` called?', [{ ...passage(0, 'lib/sinatra/base.rb', rb), language: 'ruby', symbol: 'Sinatra › Base › halt, forward' }]);
    assert.ok(r!.quote.some((l) => l.includes('process_route(pattern')), r!.quote.join('\n'));
    assert.equal(quotedSymbol(r!), 'Sinatra.Base.route!');
    // TypeScript: a call inside a method the chunk's names leave out, after the named one has ended,
    // also when signatures run over several lines (TanStack Query writes its generics so).
    const callQuotedIn = (query: string, path: string, text: string, symbol: string, call: string, language = 'ts') => {
      const [m] = rankPlaces(query, [{ ...passage(0, path, text), language, symbol }]);
      assert.ok(m!.quote.some((l) => l.includes(call)), m!.quote.join('\n'));
      return quotedSymbol(m!);
    };
    const ensureBody = [
      '    const cachedData = this.getQueryData(options.queryKey)',
      '    if (cachedData === undefined) {',
      '      return this.fetchQuery(options)',
      '    }',
      '    return Promise.resolve(cachedData)',
      '  }',
    ];
    const oneLine = [
      '  getQueryData(queryKey: QueryKey): unknown {',
      '    return this.#queryCache.get(queryKey)?.state.data',
      '  }',
      '',
      '  ensureQueryData(options: EnsureQueryDataOptions): Promise<unknown> {',
      ...ensureBody,
    ].join('\n');
    const multi = [
      '  getQueryData<',
      '    TQueryFnData = unknown,',
      '  >(queryKey: QueryKey): TQueryFnData | undefined {',
      '    return this.#queryCache.get(queryKey)?.state.data',
      '  }',
      '',
      '  ensureQueryData<',
      '    TQueryFnData,',
      '    TError = DefaultError,',
      '  >(',
      '    options: EnsureQueryDataOptions<TQueryFnData, TError>,',
      '  ): Promise<TQueryFnData> {',
      ...ensureBody,
    ].join('\n');
    for (const text of [oneLine, multi]) {
      assert.equal(callQuotedIn('Where is `fetchQuery` called?', 'packages/query-core/src/queryClient.ts', text, 'QueryClient › getQueryData', 'this.fetchQuery(options)'), 'QueryClient.ensureQueryData');
    }
    const pyMulti = ['def helper():', '    return 1', '', '', 'def url_for(', '    endpoint,', '    **values,', ') -> str:', '    appctx = _cv_app.get(None)', '    rv = appctx.app.url_for(endpoint, **values)', '    return rv'].join('\n');
    assert.equal(callQuotedIn('Where is `url_for` called?', 'src/flask/helpers.py', pyMulti, 'helper', 'app.url_for(endpoint', 'python'), 'url_for');
    // Its type parameters written out on the signature's first line, defaults and all.
    const generic = [
      '  cancelQueries(filters?: QueryFilters): Promise<void> {',
      '    return Promise.all(this.#queryCache.findAll(filters).map((q) => q.cancel()))',
      '  }',
      '',
      '  invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(',
      '    filters?: InvalidateQueryFilters<TTaggedQueryKey>,',
      '    options: InvalidateOptions = {},',
      '  ): Promise<void> {',
      '    return notifyManager.batch(() => {',
      '      this.#queryCache.findAll(filters).forEach((query) => query.invalidate())',
      '    })',
      '  }',
    ].join('\n');
    const [g] = rankPlaces('how does `invalidateQueries` work?', [{ ...passage(0, 'packages/query-core/src/queryClient.ts', generic), language: 'ts', symbol: 'QueryClient › cancelQueries' }]);
    assert.ok(g!.quote.some((l) => l.includes('invalidateQueries<')), g!.quote.join('\n'));
    assert.equal(quotedSymbol(g!), 'QueryClient.invalidateQueries');
    // `def self.settings` is `settings`, not `self`.
    const own = ['def forward', '  fail "downstream app not set" unless @app.respond_to? :call', '  status, headers, body = @app.call env', '  @response.status = status', '  @response.body = body', '  @response.headers.merge! headers', '  nil', 'end', '', '# Access settings defined with Base.set.', 'def self.settings', '  self', 'end'].join('\n');
    const [o] = rankPlaces('how are settings accessed?', [{ ...passage(0, 'lib/sinatra/base.rb', own), language: 'ruby', symbol: 'Sinatra › Base › forward' }]);
    assert.equal(quotedSymbol(o!), 'Sinatra.Base.settings', o!.quote.join('\n'));
  });

  it('reads the names the question\'s grammar makes of plain words ("the Base class", "how does halt work?") and cites their definitions', () => {
    const comment = { ...passage(0, 'lib/sinatra/main.rb', '# An application is a class defined on the Base class.\nclass Application < Sinatra::Base\n  set :run, true\nend'), language: 'ruby' };
    const def = { ...passage(1, 'lib/sinatra/base.rb', '# Base class for all Sinatra applications and middleware.\nclass Base\n  include Rack::Utils\nend'), language: 'ruby', symbol: 'Sinatra › Base' };
    const places = rankPlaces('where is the Base class defined?', [comment, def]);
    const base = places.find((m) => m.passage.path === 'lib/sinatra/base.rb')!;
    assert.deepEqual(base.defines, ['Base']);
    assert.deepEqual(places.find((m) => m !== base)!.defines, [], 'a subclass of Base does not define it');
    assert.match(leadSentence([base]), /^`Base` in .* defines it\.$/);
    const halt = { ...passage(0, 'lib/sinatra/base.rb', 'def halt(*response)\n  throw :halt, response\nend'), language: 'ruby', symbol: 'Sinatra › Base › halt' };
    const [h] = rankPlaces('how does halt work?', [halt]);
    assert.deepEqual(h!.defines, ['halt']);
  });

  it('reads a phrasal verb as the word code writes it as, as the search does ("looked up" → `_find_error_handler`)', () => {
    const app = { ...passage(0, 'src/flask/app.py', 'def handle_http_exception(self, e):\n    """Handles an HTTP exception. Error handlers\n    are looked up by code and by MRO, so that\n    subclasses can be handled with a catch-all handler.\n    """\n    return self.ensure_sync(handler)(e)'), language: 'python', symbol: 'Flask › handle_http_exception', retrieval: 0.78 };
    const sansio = { ...passage(1, 'src/flask/sansio/app.py', 'def _find_error_handler(self, e, blueprints):\n    """Return a registered error handler for an exception in this\n    order: blueprint handler for a specific code, app handler for\n    a specific code, blueprint handler for an exception class.\n    """\n    exc_class, code = self._get_exc_class_and_code(type(e))'), language: 'python', symbol: 'App › _find_error_handler', retrieval: 1 };
    const [first] = rankPlaces('where are error handlers looked up?', [app, sansio]);
    assert.equal(first!.passage.path, 'src/flask/sansio/app.py');
  });

  it('a path or a comparison that starts a line defines nothing (Rust\'s `Router::new()` is no definition of `Router`)', () => {
    const test = { ...passage(0, 'src/extract/matched_path.rs', 'async fn routes_called() {\n    let app = any(|req: Request| {\n        Router::new()\n            .nest("/foo", Router::new())\n    });\n}'), language: 'rust', symbol: 'routes_called' };
    const def = { ...passage(1, 'src/routing/mod.rs', 'pub struct Router<S = ()> {\n    inner: Arc<RouterInner<S>>,\n}'), language: 'rust', symbol: 'Router' };
    const places = rankPlaces('where is the Router struct defined?', [test, def]);
    assert.deepEqual(places.find((m) => m.passage === test)!.defines, []);
    assert.deepEqual(places.find((m) => m.passage === def)!.defines, ['Router']);
  });

  it('a quoted message (`Failed to fetch dynamically imported module`) is words, not names a place defines; a code span of code still names', () => {
    const doc = { ...passage(0, 'docs/guide/troubleshooting.md', '## `Failed to fetch dynamically imported module` error\n\nThis error occurs in several cases: a version skew, a poor network.'), language: 'markdown', symbol: '`Failed to fetch dynamically imported module` error' };
    const [m] = rankPlaces('What causes the `Failed to fetch dynamically imported module` error in a Vite app?', [doc]);
    assert.deepEqual(m!.defines, [], 'the message names nothing the page defines');
    assert.ok(m!.matched.includes('dynamically'), m!.matched.join(', '));
    assert.equal(isQuotedProse('Failed to fetch dynamically imported module'), true);
    for (const code of ['app.route("/x")', 'foo(bar, baz)', 'max_line_length = 100', 'parseConfig', 'npm run build']) assert.equal(isQuotedProse(code), code === 'npm run build', code);
  });

  it('does not match unrelated words that only share a prefix', () => {
    const [only] = rankPlaces('Where is the validation schema?', [passage(0, 'src/x.ts', 'const value = 1;\nexport const schemaVersion = 2;')]);
    assert.ok(!only.matched.includes('validation'), only.matched.join(', '));
  });
});

describe('extractive answerer: the order of the places', () => {
  // Retrieval order: four files whose chunks share few of the question's words, then one that
  // repeats them all (a docstring that mentions everything).
  const passages = (): Passage[] => [
    passage(0, 'src/app.ts', 'export function handleException(e: Error) {\n  return errorResponse(e);\n}'),
    passage(1, 'src/app.ts', 'export function dispatch(req: Req) {\n  try { return run(req); } catch (e) { return handleException(e); }\n}'),
    passage(2, 'src/router.ts', 'export function match(path: string) {\n  return routes.find((r) => r.test(path));\n}'),
    passage(3, 'src/errors.ts', 'export class HttpError extends Error {}'),
    passage(4, 'src/context.ts', 'export class Context {}'),
    passage(5, 'src/request.ts', '/** The view raises an exception? The view exception is kept on the request when a view raises. */\nexport let viewException: Error | null = null;'),
  ].map((p, i) => ({ ...p, retrieval: 1 - i * 0.12 }));

  it("cites first a place from the retrieval's three best files, however many question words a lower chunk repeats", () => {
    const ps = passages();
    const { order } = answerOrder('What happens when a view raises an exception?', ps);
    assert.notEqual(ps[order[0]!]!.path, 'src/request.ts', order.map((i) => ps[i]!.path).join(', '));
    assert.ok(['src/app.ts', 'src/router.ts', 'src/errors.ts'].includes(ps[order[0]!]!.path!));
    // The wordy place is not dropped: it comes second, ahead of places that match less.
    assert.equal(ps[order[1]!]!.path, 'src/request.ts');
  });

  it('a question that names a test class (`TestRequests`, RouterTest) cites the test file that defines it; other questions cite code before tests', () => {
    const ps: Passage[] = [
      { ...passage(0, 'tests/test_requests.py', 'class TestRequests:\n    def test_entry_points(self):\n        requests.session'), symbol: 'TestRequests', retrieval: 1 },
      { ...passage(1, 'src/requests/sessions.py', 'class Session:\n    # A requests session: the code that sends requests.'), retrieval: 0.8 },
    ];
    for (const q of ['Show me the code for `TestRequests`.', 'Where is TestRequests implemented?']) {
      const { order } = answerOrder(q, ps);
      assert.equal(ps[order[0]!]!.path, 'tests/test_requests.py', q);
    }
    const { order } = answerOrder('Show me the code for requests sessions.', ps);
    assert.equal(ps[order[0]!]!.path, 'src/requests/sessions.py');
  });

  it("cites Rust's unit tests (a `mod tests` in the source file, every function a #[test]) after the code, unless the question asks for tests", () => {
    const tests = ['#[crate::test]', 'async fn extracting_on_handler() {', '    let app = Router::new().route("/{a}", get(|path: MatchedPath| async move { path.as_str().to_owned() }));', '}', '', '#[tokio::test]', 'async fn matched_path_in_fallback() {', '    let app = Router::new().fallback(handler);', '}'].join('\n');
    const code = ['/// Access the path in the router that matches the request.', 'pub struct MatchedPath(pub(crate) Arc<str>);', '', 'impl MatchedPath {', '    /// Returns a `str` representation of the path.', '    pub fn as_str(&self) -> &str {', '        &self.0', '    }', '}'].join('\n');
    const ps: Passage[] = [
      { ...passage(0, 'axum/src/extract/matched_path.rs', tests), language: 'rust', symbol: 'extracting_on_handler, matched_path_in_fallback', retrieval: 1 },
      { ...passage(1, 'axum/src/extract/matched_path.rs', code), language: 'rust', symbol: 'MatchedPath, as_str', retrieval: 0.9 },
    ];
    const { order } = answerOrder('how is the matched path of the router extracted?', ps);
    assert.equal(order[0], 1, 'the code first');
    assert.equal(answerOrder('how is the matched path of the router tested?', ps).order[0], 0, 'the tests, when asked');
    // A chunk that holds code and a test is code.
    assert.equal(isTestPassage({ path: 'src/a.rs', text: 'pub fn run() {}\n\n#[test]\nfn runs() { run(); }' }), false);
    assert.equal(isTestPassage({ path: 'src/a.rs', text: tests }), true);
  });

  it('cites the code before an example or a test named with a hyphen, as the ranking has them, unless the question asks for one', () => {
    // axum: the graceful-shutdown example says the question's words more often than the server does.
    const ps: Passage[] = [
      { ...passage(0, 'axum/src/serve/mod.rs', '/// Prepares a server to handle graceful shutdown when the provided future completes.\npub fn with_graceful_shutdown<F>(self, signal: F) -> WithGracefulShutdown<F> {'), retrieval: 1 },
      { ...passage(1, 'examples/graceful-shutdown/src/main.rs', '// How the server shuts down gracefully: graceful shutdown on ctrl-c.\nasync fn shutdown_signal() {\n    // the server shuts down gracefully\n}'), retrieval: 0.9 },
      { ...passage(2, 'integration/server-shutdown-test.ts', '// the server shuts down gracefully: graceful shutdown test\ntest("shuts down gracefully", () => {})'), retrieval: 0.8 },
    ];
    const first = (q: string) => ps[answerOrder(q, ps).order[0]!]!.path;
    assert.equal(first('How does the server shut down gracefully?'), 'axum/src/serve/mod.rs');
    assert.equal(first('Is there an example of a server that shuts down gracefully?'), 'examples/graceful-shutdown/src/main.rs');
    assert.equal(first('Which test checks that the server shuts down gracefully?'), 'integration/server-shutdown-test.ts');
  });

  it('cites the definition the question names in its words before a docstring that repeats them (flask: "where is the request context pushed?")', () => {
    const ps: Passage[] = [
      {
        ...passage(0, 'src/flask/app.py', [
          'def app_context(self) -> AppContext:',
          '    """Create an AppContext. An application context is automatically pushed by',
          '    RequestContext.push() when handling a request. The request context is pushed',
          '    for you; use this to push a context outside of a request."""',
          '    return AppContext(self)',
          '',
          'def request_context(self, environ: WSGIEnvironment) -> RequestContext:',
          '    """Create a RequestContext representing a WSGI environment."""',
          '    return RequestContext(self, environ)',
        ].join('\n')),
        language: 'python', symbol: 'Flask › app_context, request_context', retrieval: 0.95,
      },
      {
        ...passage(1, 'src/flask/ctx.py', [
          'def copy(self) -> RequestContext:',
          '    return self.__class__(self.app, environ=self.request.environ, request=self.request)',
          '',
          'def push(self) -> None:',
          '    # Before the request context is pushed, an app context is pushed too.',
          '    app_ctx = self.app.app_context()',
          '    app_ctx.push()',
          '    _cv_request.set(self)',
        ].join('\n')),
        language: 'python', symbol: 'RequestContext › copy, push', retrieval: 0.9,
      },
    ];
    const { order } = answerOrder('where is the request context pushed?', ps);
    assert.equal(ps[order[0]!]!.path, 'src/flask/ctx.py', order.map((i) => ps[i]!.symbol).join(' | '));
  });

  it('quotes the definition named by the question\'s words ("… accepted?" → `def accept(`), not a message further on that says them more often', () => {
    const text = [
      '    async def accept(',
      '        self,',
      '        subprotocol: str | None = None,',
      '        headers: Iterable[tuple[bytes, bytes]] | None = None,',
      '    ) -> None:',
      '        headers = headers or []',
      '',
      '        if self.client_state == WebSocketState.CONNECTING:  # pragma: no branch',
      "            # If we haven't yet seen the 'connect' message, then wait for it first.",
      '            await self.receive()',
      '        await self.send({"type": "websocket.accept", "subprotocol": subprotocol, "headers": headers})',
      '',
      '    def _raise_on_disconnect(self, message: Message) -> None:',
      '        if message["type"] == "websocket.disconnect":',
      '            raise WebSocketDisconnect(message["code"], message.get("reason"))',
      '',
      '    async def receive_text(self) -> str:',
      '        if self.application_state != WebSocketState.CONNECTED:',
      '            raise RuntimeError(\'WebSocket is not connected. Need to call "accept" first.\')',
      '        message = await self.receive()',
      '        self._raise_on_disconnect(message)',
      '        return cast(str, message["text"])',
      '',
      '    async def receive_bytes(self) -> bytes:',
      '        if self.application_state != WebSocketState.CONNECTED:',
      '            raise RuntimeError(\'WebSocket is not connected. Need to call "accept" first.\')',
      '        message = await self.receive()',
    ].join('\n');
    const p: Passage = { ...passage(0, 'starlette/websockets.py', text), language: 'python', symbol: 'WebSocket › accept, _raise_on_disconnect, receive_text', startLine: 100 };
    const [m] = rankPlaces('how are websocket connections accepted?', [p]);
    assert.match(m!.quote[0]!, /async def accept\(/, m!.quote.join('\n'));
    assert.equal(quotedSymbol(m!), 'WebSocket.accept');
    // A name only partly the question's counts for the part: "disconnected" finds `_raise_on_disconnect`'s lines.
    const [d] = rankPlaces('what is raised when the websocket is disconnected?', [p]);
    assert.ok(d!.quote.some((l) => /websocket\.disconnect/.test(l)), d!.quote.join('\n'));
  });

  it('a status code the question names ("… a 404?") is a word to quote by, more particular than the words around it; an issue\'s number is none', () => {
    const text = [
      'class RaiseError < Middleware',
      '  ClientErrorStatuses = (400...500)',
      '  ServerErrorStatuses = (500...600)',
      '  ClientErrorStatusesWithCustomExceptions = {',
      '    400 => Faraday::BadRequestError,',
      '    401 => Faraday::UnauthorizedError,',
      '    404 => Faraday::ResourceNotFound,',
      '    409 => Faraday::ConflictError',
      '  }.freeze',
      '',
      '  def on_complete(env)',
      '    case env[:status]',
      '    when *ClientErrorStatusesWithCustomExceptions.keys',
      '      raise ClientErrorStatusesWithCustomExceptions[env[:status]], response_values(env)',
      '    when ClientErrorStatuses',
      '      raise Faraday::ClientError, response_values(env)',
      '    when ServerErrorStatuses',
      '      raise Faraday::ServerError, response_values(env)',
      '    end',
      '  end',
      '',
      '  # Returns a hash of response data with the following keys:',
      '  def response_values(env)',
    ].join('\n');
    const p: Passage = { ...passage(0, 'lib/faraday/response/raise_error.rb', text), language: 'ruby', symbol: 'Faraday › Response › RaiseError' };
    const [m] = rankPlaces('what happens when the server returns a 404?', [p]);
    assert.ok(m!.quote.some((l) => /404 => Faraday::ResourceNotFound/.test(l)), m!.quote.join('\n'));
    assert.deepEqual(queryTerms('what happens on a 404 or a 5000?').codes, ['404', '5000']);
    assert.deepEqual(queryTerms('revert #404 from 1.404, id 123456').codes, []);
    // The code chooses no place: a type whose doc comment says 404 is no answer to where the 404 is made (hono).
    const typeDoc: Passage = { ...passage(1, 'src/types.ts', '/**\n * interface NotFoundResponse extends Response, TypedResponse<string, 404>\n */\nexport type HandlerResponse<O> = Response | TypedResponse<O>\n'), retrieval: 0.5 };
    const handler: Passage = { ...passage(2, 'src/hono-base.ts', '#dispatch(request: Request): Response | Promise<Response> {\n  const matchResult = this.router.match(method, path)\n  return this.#notFoundHandler(c)\n}\n'), retrieval: 0.9 };
    const ranked = rankPlaces('where is the 404 response produced?', [typeDoc, handler]);
    assert.equal(ranked[0]!.passage.path, 'src/hono-base.ts', ranked.map((r) => `${r.passage.path} ${r.score}`).join(' | '));
  });

  it("a definition's name counts when it spells two of the question's words or more, by word or stem", () => {
    const cover = (q: string, symbol: string) => {
      const t = queryTerms(q);
      return nameCoverage(t, symbol, [...t.weights.values()].reduce((a, b) => a + b, 0));
    };
    assert.equal(cover('where is the request context pushed?', 'RequestContext › copy, push'), 1);
    assert.ok(Math.abs(cover('where is the request context pushed?', 'Flask › app_context, request_context') - 2 / 3) < 1e-9);
    assert.equal(cover('where is the 404 response produced?', 'RouterRoute, HandlerResponse, Handler'), 0, 'one word of the question');
    assert.equal(cover('where is the request context pushed?', undefined as unknown as string), 0);
  });

  it('a generic call (`new RetryStrategyOptions<int>()`, `f<Map<K, V>>(x)`) is a call: asked where X is tested, that test comes first', () => {
    const sample = { ...passage(0, 'samples/Retries/Program.cs', 'var pipeline = new ResiliencePipelineBuilder()\n    .AddRetry(new RetryStrategyOptions())\n    .Build();'), language: 'csharp', retrieval: 1 };
    const test = { ...passage(1, 'test/Retry/RetryStrategyOptionsTests.cs', 'public void Ctor_Ok()\n{\n    var options = new RetryStrategyOptions<int>();\n    options.MaxRetryAttempts.Should().Be(3);\n}'), language: 'csharp', symbol: 'RetryStrategyOptionsTests › Ctor_Ok', retrieval: 0.8 };
    assert.deepEqual(callSitesFirst('RetryStrategyOptions', [sample, test], true), [1, 0]);
    const ts = { ...passage(0, 'src/store.ts', 'const cache = createCache<Map<string, number>>(options);'), language: 'typescript', retrieval: 1 };
    const [m] = rankPlaces('where is createCache called?', [ts]);
    assert.match(leadSentence([m!], 'createCache'), /calls it/);
  });

  it('"where is X called?": the callers come before X\'s own body, whose calls of X are recursion (loguru\'s `_make_rotation_function`)', () => {
    const own = { ...passage(0, 'loguru/_file_sink.py', '        if isinstance(rotation, str):\n            size = parse_size(rotation)\n            if size is not None:\n                return FileSink._make_rotation_function(size)\n'), language: 'python', symbol: 'FileSink › _make_rotation_function', retrieval: 1 };
    const init = { ...passage(1, 'loguru/_file_sink.py', '    def __init__(self, path, *, rotation=None):\n        self._rotation_function = self._make_rotation_function(rotation)\n'), language: 'python', symbol: 'FileSink › __init__, write', retrieval: 0.7 };
    assert.deepEqual(callSitesFirst('FileSink._make_rotation_function', [own, init]), [1, 0]);
  });

  it('"where is X called?": the first line of X\'s own signature over several lines is no call (yargs\' `addCoerceMiddleware(`)', () => {
    const def = { ...passage(0, 'lib/middleware.ts', 'export class GlobalMiddleware {\n  addCoerceMiddleware(\n    callback: MiddlewareCallback,\n    option: string\n  ): YargsInstance {\n    (callback as Middleware).option = option;\n    return this.addMiddleware(callback, true, true, true);\n  }\n}'), language: 'typescript', symbol: 'GlobalMiddleware › addCoerceMiddleware', retrieval: 1 };
    const use = { ...passage(1, 'lib/yargs-factory.ts', '  coerce(keys: string, value: CoerceCallback): YargsInstance {\n    this.#globalMiddleware.addCoerceMiddleware(\n      (argv: Arguments) => argv,\n      keys\n    );\n    return this;\n  }'), language: 'typescript', symbol: 'YargsInstance › coerce', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('addCoerceMiddleware', [def, use]), [1, 0]);
    const ranked = rankPlaces('where is `addCoerceMiddleware` called?', [def]);
    assert.doesNotMatch(leadSentence(ranked, 'addCoerceMiddleware'), /calls it/);
  });

  it('"where is X called?": a named function expression (`X.prototype.destroy = function destroy(…)`) defines X, and calls nothing (express-session)', () => {
    const def = { ...passage(0, 'session/memory.js', 'MemoryStore.prototype.destroy = function destroy(sessionId, callback) {\n  delete this.sessions[sessionId]\n  callback && defer(callback)\n}'), language: 'javascript', symbol: 'MemoryStore.prototype.destroy', retrieval: 1 };
    const use = { ...passage(1, 'index.js', '    if (req.session) {\n      store.destroy(req.sessionID, function ondestroy(err) {\n        if (err) next(err)\n      })\n    }'), language: 'javascript', symbol: 'session', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('destroy', [def, use]), [1, 0]);
    assert.ok(!callPattern('destroy').test('X.prototype.destroy = function destroy(id) {'), 'its own name');
    assert.ok(!callPattern('gen').test('const g = function* gen() {'), 'a generator');
    assert.ok(callPattern('destroy').test('return store.destroy(id, function () {})'), 'a call');
    assert.doesNotMatch(leadSentence(rankPlaces('where is `destroy` called?', [def]), 'destroy'), /calls it/);
  });

  it('a quote inside a function given to a member (`Store.prototype.createSession = function(…)`) goes by that function, not the chunk\'s first name (express-session)', () => {
    const text = 'Store.prototype.load = function(sid, fn){\n  var self = this;\n  this.get(sid, function(err, sess){\n    fn(null, self.createSession(req, sess))\n  });\n};\n\n/**\n * Create session from JSON `sess` data.\n */\n\nStore.prototype.createSession = function(req, sess){\n  var expires = sess.cookie.expires\n  sess.cookie = new Cookie(sess.cookie);\n  if (typeof expires === \'string\') {\n    // convert expires to a Date object\n    sess.cookie.expires = new Date(expires)\n  }\n  req.session = new Session(req, sess);\n  return req.session;\n};';
    const p = { ...passage(0, 'session/store.js', text), language: 'javascript', symbol: 'load, createSession', retrieval: 1 };
    const ranked = rankPlaces('how does the store rebuild the cookie, turning the stored expires string back into a Date?', [p]);
    assert.match(leadSentence(ranked), /^`createSession` in /);
    assert.ok(definitionRe('createSession').test('exports.createSession = (req) => {'), 'an arrow function given to an export');
    assert.ok(!definitionRe('createSession').test('  x = self.createSession(req, sess)'), 'a call');
  });

  it('"how is X tested?": a test that passes X to be called (schedule\'s `assertRaises(Error, job._schedule_next_run)`) comes before the code that calls X, and tests it', () => {
    const caller = { ...passage(0, 'schedule/__init__.py', 'class Job:\n    def do(self, job_func):\n        self.job_func = job_func\n        self._schedule_next_run()\n        return self'), language: 'python', symbol: 'Job › do', retrieval: 1 };
    const test = { ...passage(1, 'test_schedule.py', 'class SchedulerTests(unittest.TestCase):\n    def test_time_units(self):\n        job_instance = schedule.Job(interval=2)\n        self.assertRaises(ScheduleValueError, job_instance._schedule_next_run)'), language: 'python', symbol: 'SchedulerTests › test_time_units', retrieval: 0.7 };
    assert.deepEqual(callSitesFirst('Job._schedule_next_run', [caller, test], true), [1, 0]);
    assert.deepEqual(callSitesFirst('Job._schedule_next_run', [caller, test]), [0, 1], 'asked where it is called, the code first');
    const ordered = [test, caller].map((p, k) => ({ ...p, index: k }));
    const q = 'How is `Job._schedule_next_run` tested?';
    assert.match(leadSentence(citedPlaces(q, rankPlaces(q, ordered)), callSiteSymbol(q), true), /^`SchedulerTests[.\w]*` in \[`test_schedule\.py:[\d-]+`\]\([^)]+\) tests it;/);
  });

  it('"how is X tested?" where no test calls, names or reaches X by its class or module: the closest test the search found comes before the code that calls X, and the answer says so (minimatch)', () => {
    const caller = { ...passage(0, 'src/ast.ts', 'static #parseGlob(glob: string) {\n  const [src, needUflag] = parseClass(glob, i)\n  return src\n}'), language: 'typescript', symbol: 'AST › #parseGlob', retrieval: 1 };
    const test = { ...passage(1, 'test/class-edge-cases.js', "t.test('character classes', t => {\n  t.ok(minimatch('a', '[[:alpha:]]'))\n  t.end()\n})"), language: 'javascript', retrieval: 0.7 };
    assert.deepEqual(callSitesFirst('parseClass', [caller, test], true), [1, 0]);
    const ranked = rankPlaces('how is `parseClass` tested?', [caller, test]);
    const first = ranked.find((m) => m.passage === test)!;
    assert.match(leadSentence([first, ...ranked.filter((m) => m !== first)], 'parseClass', true), /^No test found calls `parseClass` directly; the closest test found is \[`test\/class-edge-cases\.js/);
  });

  it('an entry of a literal or an argument list (`SameSite: options.SameSite,`) defines nothing; a member\'s declaration or a function given to a key does', () => {
    assert.ok(!definitionRe('SameSite').test('\t\tSameSite:    options.SameSite,'), 'a Go struct literal\'s field value (gorilla/sessions)');
    assert.ok(!definitionRe('retry').test('    retry: "RetryBaseT" = retry_if_exception_type(),'), 'a parameter of a signature over lines (tenacity)');
    for (const [n, l] of [['SameSite', '  SameSite: http.SameSite'], ['handler', '  handler: string;'], ['handler', '  handler: (req) => reply(req),'], ['handler', '  handler: function (req) {']]) assert.ok(definitionRe(n!).test(l!), l);
    const lit = { ...passage(0, 'cookie.go', '// newCookieFromOptions returns an http.Cookie with the options set.\nfunc newCookieFromOptions(name, value string, options *Options) *http.Cookie {\n\treturn &http.Cookie{\n\t\tName:        name,\n\t\tSameSite:    options.SameSite,\n\t}\n}'), language: 'go', symbol: 'newCookieFromOptions', retrieval: 1 };
    assert.doesNotMatch(leadSentence(rankPlaces('How does the package copy my Options (path, SameSite) onto an http.Cookie?', [lit])), /`SameSite`.*defines it/);
  });

  it('"where is X called?": a C function returning a struct or qualified type (`struct json_object *json_object_get(…)`) is its definition, not a call (json-c)', () => {
    for (const l of ['struct json_object *json_object_get(struct json_object *jso)', 'const char *json_object_get(void)', 'static unsigned long json_object_get(int x) {']) assert.ok(definitionRe('json_object_get').test(l), l);
    assert.ok(!definitionRe('json_object_get').test('\tobj = json_object_get(current);'), 'a call');
    const def = { ...passage(0, 'json_object.c', 'struct json_object *json_object_get(struct json_object *jso)\n{\n\tif (!jso)\n\t\treturn jso;\n\tjso->_ref_count++;\n\treturn jso;\n}'), language: 'c', symbol: 'json_object_get', retrieval: 1 };
    const use = { ...passage(1, 'json_tokener.c', 'case json_tokener_state_eatws:\n\tobj = json_object_get(current);\n\tbreak;'), language: 'c', symbol: 'json_tokener_parse_ex', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('json_object_get', [def, use]), [1, 0]);
  });

  it('"where is X called?": a C# method returning a generic type with spaces (`FrozenDictionary<string, T>`) or a named tuple is its definition, not a call (Humanizer)', () => {
    for (const l of ['    public static FrozenDictionary<string, T> GetDehumanized() =>', '    internal static Dictionary<string, List<T>> GetDehumanized()', '    public static (string Text, bool IsMetadata) GetDehumanized(T input)']) assert.ok(definitionRe('GetDehumanized').test(l), l);
    for (const l of ['        var dehumanized = EnumCache<T>.GetDehumanized();', '    return GetDehumanized();', '    if (a < b, c > d) GetDehumanized()']) assert.ok(!definitionRe('GetDehumanized').test(l), l);
    const def = { ...passage(0, 'src/Humanizer/EnumCache.cs', '    public static FrozenDictionary<string, T> GetDehumanized() =>\n        DefaultInfo.Value.Dehumanized;'), language: 'csharp', symbol: 'EnumCache › GetDehumanized', retrieval: 1 };
    const use = { ...passage(1, 'src/Humanizer/EnumDehumanizeExtensions.cs', '    static T DehumanizeToPrivate<T>(string input)\n    {\n        var dehumanized = EnumCache<T>.GetDehumanized();\n    }'), language: 'csharp', symbol: 'EnumDehumanizeExtensions › DehumanizeToPrivate', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('EnumCache.GetDehumanized', [def, use]), [1, 0]);
  });

  it('"where is X called?": Ruby\'s class method (`def self.fabricate(…)`) is its definition, not a call (hanami-router)', () => {
    assert.ok(definitionRe('fabricate').test('      def self.fabricate(segment, **constraints)'), 'def self.');
    assert.ok(definitionRe('fabricate').test('  def Segment.fabricate(segment)'), 'def Class.');
    const def = { ...passage(0, 'lib/hanami/router/segment.rb', 'class Segment\n  def self.fabricate(segment, **constraints)\n    Mustermann.new(segment, type: :rails)\n  end\nend'), language: 'ruby', symbol: 'Hanami › Router › Segment › fabricate', retrieval: 1 };
    const use = { ...passage(1, 'lib/hanami/router.rb', 'def path(path, to:)\n  prefix = Segment.fabricate(path, **constraints)\nend'), language: 'ruby', symbol: 'Hanami › Router › path', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('Hanami.Router.Segment.fabricate', [def, use]), [1, 0]);
  });

  it('a name with `::` (`ConnectionPool::TimedStack.shutdown`) is carried to "where is that called from?" and read there as one dotted name', () => {
    const lead = '`ConnectionPool::TimedStack.shutdown` in [`lib/connection_pool/timed_stack.rb:62-121`](lib/connection_pool/timed_stack.rb#L62-L121) is where this happens';
    assert.equal(entitiesOf(lead).symbols[0], 'ConnectionPool::TimedStack.shutdown');
    const q = 'Where is `ConnectionPool::TimedStack.shutdown` called from?';
    assert.equal(callSiteSymbol(q), 'ConnectionPool.TimedStack.shutdown');
    assert.equal(callSiteSymbol('where is `Router::new` called?'), 'Router.new');
    // One name, not a class `ConnectionPool` (whose definition had come first) and `TimedStack.shutdown`.
    assert.deepEqual(queryTerms(q).symbols, ['ConnectionPool.TimedStack.shutdown']);
  });

  it('"where is X called?": a Kotlin extension function\'s definition (`fun KSClassDeclaration.isKotlinClass()`) is no call', () => {
    assert.ok(definitionRe('isKotlinClass').test('internal fun KSClassDeclaration.isKotlinClass(): Boolean {'), 'an extension function');
    assert.ok(definitionRe('findAnnotationWithType').test('internal inline fun <reified T : Annotation> KSAnnotated.findAnnotationWithType(): T? {'), 'with type parameters');
    assert.ok(!definitionRe('isKotlinClass').test('  if (!classDecl.isKotlinClass()) {'), 'a call');
    const def = { ...passage(0, 'ksp/KspUtil.kt', 'internal fun KSClassDeclaration.asType() = asType(emptyList())\n\ninternal fun KSClassDeclaration.isKotlinClass(): Boolean {\n  return origin == KOTLIN\n}'), language: 'kotlin', symbol: 'asType, isKotlinClass', retrieval: 1 };
    const use = { ...passage(1, 'ksp/TargetTypes.kt', 'internal fun targetType(type: KSDeclaration): TargetType? {\n  if (!classDecl.isKotlinClass()) {\n    return null\n  }\n}'), language: 'kotlin', symbol: 'targetType', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('isKotlinClass', [def, use]), [1, 0]);
  });

  it('"where is X called?": a definition is no call where its type parameters nest (kotlin-result) or its brace opens on the next line (cxxopts)', () => {
    assert.ok(definitionRe('tryMapIndexedNotNullTo').test('public inline fun <V, E, U : Any, C : MutableCollection<in U>> Iterable<V>.tryMapIndexedNotNullTo('), 'nested type parameters');
    const kt = { ...passage(0, 'result/Try.kt', '@IgnorableReturnValue\npublic inline fun <V, E, U : Any, C : MutableCollection<in U>> Iterable<V>.tryMapIndexedNotNullTo(\n    destination: C,\n    transform: (index: Int, V) -> Result<U, E>?,\n): Result<C, E> {\n    val values = mapIndexedNotNullTo(destination) { index, element ->'), language: 'kotlin', symbol: 'tryMapIndexedNotNullTo', retrieval: 1 };
    const ktUse = { ...passage(1, 'result/Deprecated.kt', 'public inline fun <V, E, U : Any, C : MutableCollection<in U>> Iterable<V>.mapIndexedNotNullTo(\n    destination: C,\n): Result<C, E> {\n    return tryMapIndexedNotNullTo(destination, transform)\n}'), language: 'kotlin', symbol: 'mapIndexedNotNullTo', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('tryMapIndexedNotNullTo', [kt, ktUse]), [1, 0]);
    const cpp = { ...passage(0, 'include/cxxopts.hpp', '  const std::string\n  arguments_string() const\n  {\n    std::string result;\n    for(const auto& kv: m_sequential)\n    {'), language: 'cpp', symbol: 'cxxopts.ParseResult.arguments_string', retrieval: 1 };
    const cppUse = { ...passage(1, 'src/example.cpp', '    std::cout << result.arguments_string() << std::endl;\n    return 0;'), language: 'cpp', symbol: 'parse', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('arguments_string', [cpp, cppUse]), [1, 0]);
    // A call whose statement goes on below is still a call.
    const call = { ...passage(0, 'src/a.c', '  if (ok)\n    arguments_string(x);\n  {\n  }'), language: 'c', symbol: 'f', retrieval: 1 };
    assert.deepEqual(callSitesFirst('arguments_string', [call, cppUse]), [0, 1]);
  });

  it('"I get X_ERROR…", "…throws a XException": where the code throws it or sets it, and an enum\'s member is its definition, no use (tinyxml2, CsvHelper)', () => {
    assert.equal(callSiteSymbol('I get XML_ERROR_PARSING_DECLARATION for a file that has a declaration after a comment — where are declarations allowed?'), 'XML_ERROR_PARSING_DECLARATION');
    assert.equal(callSiteSymbol('Why does creating the reader throw a ConfigurationException when the quote is the delimiter?'), 'ConfigurationException');
    assert.equal(callSiteSymbol('Why do I get NoMethodError "The property \'x\' is not defined for MyDash" when I build a Dash?'), null, 'naming other code');
    const header = { ...passage(0, 'tinyxml2.h', '// WARNING: must match XMLDocument::_errorNames[]\nenum XMLError {\n    XML_SUCCESS = 0,\n    XML_NO_ATTRIBUTE,\n    XML_ERROR_PARSING_DECLARATION,\n    XML_ERROR_COUNT\n};'), language: 'cpp', symbol: 'tinyxml2.XMLError', retrieval: 1 };
    const use = { ...passage(1, 'tinyxml2.cpp', 'char* XMLDeclaration::ParseDeep(char* p, StrPair*, int* curLineNumPtr)\n{\n    p = _value.ParseText(p, "?>", StrPair::NEEDS_NEWLINE_NORMALIZATION, curLineNumPtr);\n    if (p == 0) {\n        _document->SetError( XML_ERROR_PARSING_DECLARATION, _parseLineNum, 0 );\n    }\n    return p;\n}'), language: 'cpp', symbol: 'XMLDeclaration::ParseDeep', retrieval: 0.8 };
    assert.deepEqual(callSitesFirst('XML_ERROR_PARSING_DECLARATION', [header, use]), [1, 0]);
    // A call that passes it on a line of its own is still a use.
    const arg = { ...passage(0, 'src/a.cpp', 'void f() {\n    SetError(\n        XML_ERROR_PARSING_DECLARATION,\n        line);\n}'), language: 'cpp', symbol: 'f', retrieval: 1 };
    assert.deepEqual(callSitesFirst('XML_ERROR_PARSING_DECLARATION', [header, arg]), [1, 0]);
  });

  it('Ruby\'s predicates keep their `?` (rake\'s `out_of_date?`): a name asked about, defined, called with or without parentheses, and carried to a follow-up', () => {
    const q = 'where is `Rake.FileTask.out_of_date?` called?';
    assert.equal(callSiteSymbol(q), 'Rake.FileTask.out_of_date?');
    assert.deepEqual(analyzeQuestion(q).symbols.map((x) => x.name), ['Rake.FileTask.out_of_date?']);
    assert.equal(analyzeQuestion(q).intent, 'usage');
    assert.ok(definitionRe('out_of_date?').test('    def out_of_date?(stamp)'), 'its def');
    assert.ok(!definitionRe('out_of_date?').test('        out_of_date?(File.mtime(name)) || @application.options.build_all'), 'a call');
    for (const line of ['out_of_date?(File.mtime(name))', 'return true if task.out_of_date?', 'user.save!']) assert.ok(callPattern(line.includes('save') ? 'save!' : 'out_of_date?').test(line), line);
    assert.ok(!callPattern('out_of_date?').test('out_of_date_now(x)'), 'another name');
    assert.deepEqual(entitiesOf('`Rake.FileTask.out_of_date?` in [`lib/rake/file_task.rb:1-58`](lib/rake/file_task.rb#L1-L58) is where this happens').symbols[0], 'Rake.FileTask.out_of_date?');
    const def = { ...passage(0, 'lib/rake/file_task.rb', 'class FileTask < Task\n  def needed?\n    begin\n      out_of_date?(File.mtime(name)) || @application.options.build_all\n    end\n  end\n\n  def out_of_date?(stamp)\n    all_prerequisite_tasks.any? { |prereq| prereq.timestamp > stamp }\n  end\nend'), language: 'ruby', symbol: 'Rake › FileTask › needed?, out_of_date?', retrieval: 1 };
    assert.match(leadSentence(rankPlaces(q, [def]), callSiteSymbol(q)), /calls it/);
    const caller = { ...passage(1, 'lib/rake/file_creation_task.rb', 'class FileCreationTask < FileTask\n  def needed?\n    !File.exist?(name) || task.out_of_date?\n  end\nend'), language: 'ruby', symbol: 'Rake › FileCreationTask › needed?', retrieval: 0.5 };
    assert.deepEqual(callSitesFirst('Rake.FileTask.out_of_date?', [{ ...def, symbol: 'Rake › FileTask › out_of_date?' }, caller]), [1, 0]);
  });

  it('"where is X used?": a call of a class\'s static member (`ErrorMiddleware.default(…)`) uses the class, before its definition', () => {
    const def = { ...passage(0, 'Sources/Vapor/Middleware/ErrorMiddleware.swift', 'public final class ErrorMiddleware: Middleware {\n    public static func `default`(environment: Environment) -> ErrorMiddleware {\n        return .init { req, error in Response(status: .internalServerError) }\n    }\n}'), language: 'swift', symbol: 'ErrorMiddleware', retrieval: 1 };
    const use = { ...passage(1, 'Sources/Vapor/Middleware/Application+Middleware.swift', 'var new = Middlewares()\nnew.use(ErrorMiddleware.default(environment: self.environment))\nreturn new'), language: 'swift', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('ErrorMiddleware', [def, use]), [1, 0]);
    // A lower-case name followed by a member is an object's method, not the name used.
    const obj = { ...passage(1, 'src/app.ts', 'const n = config.load(path);'), language: 'typescript', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('config', [{ ...passage(0, 'src/config.ts', 'export function config() {\n  return {};\n}'), language: 'typescript', retrieval: 1 }, obj]), [0, 1]);
  });

  it('a file\'s head of imports alone is no place to cite (AutoMapper\'s `using System.Collections;` for "how are collections mapped?"), a head with a doc comment is', () => {
    const head = { ...passage(0, 'src/AutoMapper/Mappers/CollectionMapper.cs', 'using System.Collections;\nusing System.Collections.ObjectModel;\nusing System.Collections.Specialized;\nnamespace AutoMapper.Internal.Mappers;\nusing static ReflectionHelper;'), language: 'csharp', retrieval: 1 };
    const code = { ...passage(1, 'src/AutoMapper/Mappers/CollectionMapper.cs', 'public Expression MapExpression(IGlobalConfiguration configuration, Expression sourceExpression)\n{\n    var destinationCollectionType = destExpression.Type;\n    return MapCollectionCore(destExpression);\n}'), language: 'csharp', symbol: 'CollectionMapper › MapExpression', retrieval: 0.9 };
    assert.equal(rankPlaces('how are collections mapped?', [head, code])[0]!.passage.index, 1);
    // A Python package's `__init__.py` that re-exports, with imports for type checkers and a
    // fallback import (uvicorn's `supervisors/__init__.py` led "how does the server reload when files
    // change?"); a TypeScript barrel file; a Rust crate root of modules and `pub use`.
    const reload = { ...passage(1, 'uvicorn/supervisors/watchfilesreload.py', 'class WatchFilesReload(BaseReload):\n    def should_restart(self) -> list[Path] | None:\n        changes = next(self.watcher)\n        if changes:\n            return unique_paths\n        return None'), symbol: 'WatchFilesReload › should_restart', retrieval: 0.7 };
    const heads = [
      'from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nfrom uvicorn.supervisors.basereload import BaseReload\n\nif TYPE_CHECKING:\n    ChangeReload: type[BaseReload]\nelse:\n    try:\n        from uvicorn.supervisors.watchfilesreload import WatchFilesReload as ChangeReload\n    except ImportError:  # pragma: no cover\n        from uvicorn.supervisors.statreload import StatReload as ChangeReload\n\n__all__ = [\n    "Multiprocess",\n    "ChangeReload",\n]',
      "export * from './reload/watch'\nexport { default as changeReload, type ReloadOptions } from './reload/change'\nexport {\n  statReload,\n} from './reload/stat'",
      '#![doc = "Reloads."]\npub mod watch;\nmod stat;\n\npub use crate::watch::{\n    WatchReload,\n    ChangeReload,\n};',
    ];
    for (const text of heads) assert.equal(rankPlaces('how does the server reload when files change?', [{ ...passage(0, 'uvicorn/supervisors/__init__.py', text), retrieval: 1 }, reload])[0]!.passage.index, 1, text);
    // A head that goes on into code is code.
    assert.equal(rankPlaces('how does the server reload when files change?', [{ ...passage(0, 'uvicorn/supervisors/__init__.py', heads[0] + '\n\ndef reload_files(changes):\n    return [c for c in changes]'), retrieval: 1 }, reload])[0]!.passage.index, 0);
    // hono's compose.ts starts with its imports and `compose`'s doc comment: that chunk is compose's.
    const documented = { ...passage(0, 'src/compose.ts', "import type { Context } from './context'\n\n/**\n * Compose middleware functions into a single function.\n */"), symbol: 'compose', retrieval: 1 };
    const other = { ...passage(1, 'src/middleware/combine/index.ts', 'export const some = (...middleware) => {\n  return async function some(c, next) {}\n}'), symbol: 'some', retrieval: 0.5 };
    assert.equal(rankPlaces('how are middleware composed?', [documented, other])[0]!.passage.index, 0);
  });

  it('asked how the code does something, a document\'s page on it comes after the code (pino\'s docs/redaction.md); asked how to do it, or why, in its order', () => {
    const doc = { ...passage(0, 'docs/redaction.md', '# Redaction\n\nRedaction of sensitive fields: pino redacts the paths given in `redact`, replacing each value with `[Redacted]`.'), language: 'markdown', symbol: 'Redaction', retrieval: 1 };
    const code = { ...passage(1, 'lib/redaction.js', "function redaction (opts, serialize) {\n  const { paths, censor } = handle(opts)\n  const fields = paths.reduce((o, str) => o, {})\n  return fastRedact({ paths, censor })\n}"), language: 'javascript', symbol: 'redaction', retrieval: 0.8 };
    assert.deepEqual(answerOrder('how are sensitive fields redacted?', [doc, code]).order, [1, 0]);
    assert.deepEqual(answerOrder('how do I redact sensitive fields?', [doc, code]).order, [0, 1], 'how to use it: the guide answers');
    assert.deepEqual(answerOrder('why are sensitive fields redacted twice?', [doc, code]).order, [0, 1], 'why: the document may say');
    // Code that is all comment is such a page: Go's doc.go (cron).
    const docGo = { ...passage(2, 'doc.go', '/*\nPackage cron implements a cron spec parser and job runner.\n\nEach field may be a range like 10-30, a step like */15 or a list.\n*/\npackage cron'), language: 'go', retrieval: 1 };
    const parser = { ...passage(3, 'parser.go', '// getRange returns the bits indicated by the given expression: number | number "-" number [ "/" number ]\nfunc getRange(expr string, r bounds) (uint64, error) {\n\trangeAndStep := strings.Split(expr, "/")\n\treturn getBits(start, end, step), nil\n}'), language: 'go', symbol: 'getRange', retrieval: 0.8 };
    assert.deepEqual(answerOrder('how is a field like a range with a step turned into its values?', [docGo, parser]).order, [1, 0]);
    // A piece from inside doc.go's one long block comment, neither end in it (go-playground/form).
    const middle = { ...passage(4, 'doc.go', 'Omitempty\n\nyou can tell form to omit empty fields using `,omitempty` in the tag\n\n    type MyStruct struct {\n        Field  string `form:",omitempty"`\n    }\n\nSlices of structs are encoded with keys like Items[0].Name'), language: 'go', retrieval: 1 };
    const encoder = { ...passage(5, 'encoder.go', 'func (e *encoder) traverseStruct(v reflect.Value, namespace []byte, idx int) {\n\tfor _, f := range s.fields {\n\t\tnamespace = append(namespace, f.name...)\n\t\te.setFieldByType(v.Field(f.idx), namespace, f.idx, f.isOmitEmpty)\n\t}\n}'), language: 'go', symbol: 'encoder.traverseStruct', retrieval: 0.8 };
    assert.deepEqual(answerOrder('when I encode a slice of structs, how are the keys of the struct fields named?', [middle, encoder]).order, [1, 0]);
  });

  it('asked how the code does something, a declaration file comes after the code (joi\'s `index.d.ts`), unless the question is about types', () => {
    const decl = { ...passage(0, 'lib/index.d.ts', '/**\n * Validates a value against a schema and throws if validation fails.\n */\nassert(value: any, schema: Schema, message?: string): void;'), symbol: 'Joi › Root › assert', retrieval: 1 };
    const code = { ...passage(1, 'lib/validator.js', 'exports.validate = function (value, schema, state, prefs) {\n  const result = schema._validate(value, state, prefs);\n  return result;\n};'), language: 'javascript', symbol: 'validate', retrieval: 0.8 };
    assert.deepEqual(answerOrder('how is a value validated against a schema?', [decl, code]).order, [1, 0]);
    assert.deepEqual(answerOrder('what type does validating a value against a schema return?', [decl, code]).order, [0, 1], 'about types: the declaration answers');
  });

  it('asked in plain words how the code does something, a passage of interfaces alone comes after the class that implements them (AutoMapper\'s `IProfileConfiguration`); a question that names the type keeps it first', () => {
    const iface = { ...passage(0, 'src/AutoMapper/Configuration/Profile.cs', 'public interface IProfileConfiguration\n{\n    bool? AllowNullCollections { get; }\n    bool? AllowNullDestinationValues { get; }\n}'), language: 'csharp', symbol: 'IProfileConfiguration', retrieval: 1 };
    const impl = { ...passage(1, 'src/AutoMapper/Mappers/CollectionMapper.cs', 'public sealed class CollectionMapper : IObjectMapper\n{\n    public Expression MapExpression(Expression source)\n    {\n        return MapCollectionCore(source);\n    }\n}'), language: 'csharp', symbol: 'CollectionMapper › MapExpression', retrieval: 0.8 };
    assert.deepEqual(answerOrder('how are null collections mapped?', [iface, impl]).order, [1, 0]);
    assert.deepEqual(answerOrder('show me the code for `IProfileConfiguration`', [iface, impl]).order, [0, 1]);
    // A question that names something else (json-c's `NaN`) still wants the code, not a header's prototype.
    const header = { ...passage(0, 'json_object.h', '/** Get the double value of a json_object.\n * If strings cannot be converted, NaN is returned.\n */\nJSON_EXPORT double json_object_get_double(const struct json_object *obj);'), language: 'c', symbol: 'json_object_get_double', retrieval: 1 };
    const code = { ...passage(1, 'json_object.c', 'static int json_object_double_to_json_string_format(struct json_object *jso, struct printbuf *pb)\n{\n\tif (isnan(jso->o.c_double))\n\t\tsize = snprintf(buf, sizeof(buf), "NaN");\n\treturn size;\n}'), language: 'c', symbol: 'json_object_double_to_json_string_format', retrieval: 0.8 };
    assert.deepEqual(answerOrder('when a double is turned into JSON text, how is NaN written?', [header, code]).order, [1, 0]);
  });

  it('"where is X called?": a call comes first, not an import or export list that names X', () => {
    const ps: Passage[] = [
      passage(0, 'packages/router/index.ts', 'export {\n  createBrowserRouter,\n  createHashRouter,\n} from "./lib/dom";\nimport {\n  createBrowserRouter as cbr,\n} from "./lib/dom";'),
      { ...passage(1, 'pkg/__init__.py', 'from .dom import (\n    create_browser_router,\n    create_hash_router,\n)\n'), language: 'python' },
      passage(2, 'docs/start.md', 'let router = createBrowserRouter([\n  { path: "/", Component: Root },\n]);'),
      passage(3, 'src/app.ts', 'render(createBrowserRouter(routes), root);'),
    ];
    assert.deepEqual(callSitesFirst('createBrowserRouter', ps).slice(0, 2), [3, 2], 'the code\'s call, then the document\'s');
    assert.deepEqual(callSitesFirst('createBrowserRouter', ps, false, true).slice(0, 2), [2, 3], 'asked for an example, in their order');
    // A document's direct call comes after the code that passes X along too.
    const value = passage(4, 'src/routes.ts', 'routers.register(createBrowserRouter, { hash: false });');
    assert.deepEqual(callSitesFirst('createBrowserRouter', [ps[2]!, value]), [1, 0]);
    assert.equal(callSitesFirst('create_browser_router', ps.slice(1, 2).concat(passage(1, 'pkg/app.py', 'router = create_browser_router(routes)')))[0], 1);
  });

  it('"where is Client.send called?" quotes the call, not the docstring\'s example of it, and says the place calls it', () => {
    const text = [
      '    def request(self, method, url, *, auth=None, follow_redirects=True):',
      '        """',
      '        Build and send a request.',
      '',
      '        Equivalent to:',
      '',
      '        ```python',
      '        request = client.build_request(...)',
      '        response = client.send(request, ...)',
      '        ```',
      '',
      '        See `Client.build_request()`, `Client.send()` and',
      '        [Merging of configuration][0] for how the various parameters',
      '        are merged with client-level configuration.',
      '        """',
      '        request = self.build_request(method=method, url=url)',
      '        return self.send(request, auth=auth, follow_redirects=follow_redirects)',
    ].join('\n');
    const ps = [{ ...passage(0, 'httpx/_client.py', text), language: 'python', symbol: 'Client › request', retrieval: 1 }];
    const ranked = rankPlaces('Where is `Client.send` called?', ps);
    assert.ok(ranked[0]!.quote.some((l) => l.includes('return self.send(')), ranked[0]!.quote.join('\n'));
    assert.ok(!ranked[0]!.quote.some((l) => l.includes('response = client.send(')), 'not the example');
    assert.match(leadSentence(ranked, callSiteSymbol('Where is `Client.send` called?')), /^`Client\.request` in \[`httpx\/_client\.py:[0-9-]+`\]\([^)]+\) calls it/);
  });

  it('"where is Command.Execute called?": a call on the class (a Go method\'s receiver), also beside the definition, before a call on something else named so', () => {
    const ps: Passage[] = [
      { ...passage(0, 'cobra.go', 'func tmpl(text string) *tmplFunc {\n\treturn &tmplFunc{fn: func(w io.Writer, data any) error {\n\t\tt := template.New("top")\n\t\treturn t.Execute(w, data)\n\t}}\n}'), language: 'go', symbol: 'tmpl' },
      { ...passage(1, 'command.go', '// ExecuteContext is the same as Execute(), but sets the ctx on the command.\nfunc (c *Command) ExecuteContext(ctx context.Context) error {\n\tc.ctx = ctx\n\treturn c.Execute()\n}\n\n// Execute uses the args (os.Args[1:] by default).\nfunc (c *Command) Execute() error {\n\t_, err := c.ExecuteC()\n\treturn err\n}'), language: 'go', symbol: 'ExecuteContext, Execute' },
    ];
    assert.deepEqual(callSitesFirst('Command.Execute', ps), [1, 0]);
    assert.deepEqual(callSitesFirst('Execute', ps), [0, 1], 'a plain name: any call first, the definition\'s place after');
    // Python: on self inside the class, or on a receiver named after it.
    const py: Passage[] = [
      { ...passage(0, 'pkg/render.py', 'def render(tpl, data):\n    return tpl.send(data)'), language: 'python', symbol: 'render' },
      { ...passage(1, 'httpx/_client.py', 'def request(self, method, url):\n    request = self.build_request(method, url)\n    return self.send(request)'), language: 'python', symbol: 'Client › request' },
    ];
    assert.deepEqual(callSitesFirst('Client.send', py), [1, 0]);
  });

  it('"where is ErrorHandler.response called?": a call assigned to a local named like the method calls it; a value passed along does not outrank it', () => {
    const query = 'Where is `ErrorHandler.response` called?';
    assert.equal(callSiteSymbol(query), 'ErrorHandler.response');
    const caller = { ...passage(0, 'sanic/app.py', 'async def handle_exception(self, request, exception):\n    try:\n        response = self.error_handler.response(request, exception)\n        if isawaitable(response):\n            response = await response\n    except Exception as e:\n        response = HTTPResponse("error", status=500)\n    return response'), language: 'python', symbol: 'Sanic › handle_exception', retrieval: 0.8 };
    const value = { ...passage(1, 'sanic/asgi.py', 'def respond(self, response):\n    if self.response is not None:\n        self.response.stream = None\n    body = getattr(self.response, "body", None)\n    return response'), language: 'python', symbol: 'ASGIApp › respond', retrieval: 0.9 };
    assert.deepEqual(callSitesFirst('ErrorHandler.response', [value, caller].map((p, i) => ({ ...p, index: i }))), [1, 0]);
    const [m] = rankPlaces(query, [caller]);
    assert.ok(m!.quote.some((l) => l.includes('self.error_handler.response(')), m!.quote.join('\n'));
    assert.match(leadSentence([m!], callSiteSymbol(query)), /^`Sanic\.handle_exception` in .* calls it\.$/);
    // A function assigned to the name still defines it.
    const arrow = { ...passage(0, 'src/handler.ts', 'class ErrorHandler {\n  response = (req: Request) => render(req)\n}'), symbol: 'ErrorHandler' };
    assert.deepEqual(callSitesFirst('ErrorHandler.response', [arrow, { ...caller, index: 1 }]), [1, 0]);
  });

  it('"where is MethodNotAllowed raised?": the place that raises it, not its definition, nor a docstring\'s "Raises:" section or example', () => {
    const query = 'Where is MethodNotAllowed raised?';
    assert.equal(callSiteSymbol(query), 'MethodNotAllowed');
    assert.equal(callSiteSymbol('Where is the RouteExists exception thrown?'), 'RouteExists');
    for (const [name, line] of [['MethodNotAllowed', '            raise MethodNotAllowed('], ['check', '    assert check(x)'], ['Close', '\tdefer Close(f)'], ['serve', '\tgo serve(conn)']]) {
      assert.ok(!definitionRe(name!).test(line!), `${line!.trim()} defines nothing`);
    }
    const router = {
      ...passage(0, 'sanic/router.py', [
        'class Router(BaseRouter):', '    """The router implementation."""  # noqa: E501', '',
        '    def _get(self, path, method, host):', '        try:', '            return self.resolve(path=path, method=method)',
        '        except NoMethod as e:', '            raise MethodNotAllowed(', '                f"Method {method} not allowed for URL {path}",', '            ) from None', '',
        '    def get(self, path, method, host):', '        """Retrieve a route.', '', '        Raises:', '            MethodNotAllowed: if the method is not allowed for the route', '        """',
        '        return self._get(path, method, host)',
      ].join('\n')), language: 'python', symbol: 'Router › _get, get', retrieval: 1,
    };
    const definition = { ...passage(1, 'sanic/exceptions.py', 'class MethodNotAllowed(HTTPException):\n    """405 Method Not Allowed."""\n    status_code = 405'), language: 'python', symbol: 'MethodNotAllowed', retrieval: 0.4 };
    assert.deepEqual(callSitesFirst('MethodNotAllowed', [definition, { ...router, index: 1 }]), [1, 0]);
    const [m] = rankPlaces(query, [router]);
    assert.deepEqual(m!.defines, [], 'a docstring\'s "Raises:" line defines nothing');
    assert.match(leadSentence([m!], callSiteSymbol(query)), /^`Router\._get` in .* raises it\.$/);
    // Python makes one by calling the class; a docstring's example (`group = group(bp1, bp2)`) is no definition of `group`.
    const group = { ...passage(0, 'sanic/blueprints.py', '        """Group blueprints.\n\n        .. code-block:: python\n\n            group = group(bp1, bp2, version=2)\n        """\n        bps = BlueprintGroup(url_prefix=url_prefix)\n        return bps'), language: 'python', symbol: 'Blueprint › group', retrieval: 1 };
    const [g] = rankPlaces('Where is BlueprintGroup instantiated?', [group]);
    assert.match(leadSentence([g!], callSiteSymbol('Where is BlueprintGroup instantiated?')), /^`Blueprint\.group` in .* creates one\.$/);
  });

  it('"where is next called?": a trailing comment that names next() calls nothing; the call in the code does', () => {
    assert.equal(withoutTrailingComment('\tmatchIndex int    // pre-resolved endpoint index for next()'), '\tmatchIndex int');
    assert.equal(withoutTrailingComment('x = "a // b" + y  # see run()'), 'x = "a // b" + y');
    for (const same of ['url = "http://example.com/#top"', '#[test]', 'this.#next = 1', "s = 'it # is'"]) assert.equal(withoutTrailingComment(same), same);
    const query = 'Where is `next` called?';
    const comment = { ...passage(0, 'router_skip.go', 'type skipResult struct {\n\tmatchIndex int    // pre-resolved endpoint index for next()\n\tok         bool\n}'), language: 'go', symbol: 'skipResult', retrieval: 1 };
    const caller = { ...passage(1, 'ctx.go', 'func (c *DefaultCtx) Next() error {\n\t_, err := c.app.next(c)\n\treturn err\n}'), language: 'go', symbol: 'Next', retrieval: 0.5 };
    assert.deepEqual(callSitesFirst('next', [comment, caller]), [1, 0]);
    const [m] = rankPlaces(query, [comment]);
    assert.doesNotMatch(leadSentence([m!], callSiteSymbol(query)), /calls it/);
  });

  it('"where is the GsonBuilder\'s setPrettyPrinting called?": a Java or Go declaration is no call of it, and the possessive names the method', () => {
    const query = "where is the GsonBuilder's setPrettyPrinting called?";
    assert.equal(callSiteSymbol(query), 'GsonBuilder.setPrettyPrinting');
    const def = { ...passage(0, 'gson/src/main/java/com/google/gson/GsonBuilder.java', '/** Configures Gson to output JSON that fits in a page for pretty printing. */\n@CanIgnoreReturnValue\npublic GsonBuilder setPrettyPrinting() {\n  return setFormattingStyle(FormattingStyle.PRETTY);\n}'), language: 'java', symbol: 'GsonBuilder › setPrettyPrinting', retrieval: 1 };
    const guide = { ...passage(1, 'UserGuide.md', 'Gson gson = new GsonBuilder().setPrettyPrinting().create();\nString jsonOutput = gson.toJson(someObject);'), language: 'markdown', symbol: 'Compact Vs. Pretty Printing', retrieval: 0.6 };
    assert.deepEqual(callSitesFirst('GsonBuilder.setPrettyPrinting', [def, guide]), [1, 0]);
    const [m] = rankPlaces(query, [def]);
    assert.doesNotMatch(leadSentence([m!], callSiteSymbol(query)), /calls it/);
    // Go names a method's receiver first: `func (e *Echo) ServeHTTP(` defines it.
    const goDef = { ...passage(0, 'echo.go', '// ServeHTTP implements `http.Handler` interface, which serves HTTP requests.\nfunc (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\te.serveHTTPFunc(w, r)\n}'), language: 'go', symbol: 'ServeHTTP', retrieval: 1 };
    const goCall = { ...passage(1, 'vhost.go', 'func NewVirtualHostHandler(vhosts map[string]*Echo) http.Handler {\n\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tvhosts[r.Host].ServeHTTP(w, r)\n\t})\n}'), language: 'go', symbol: 'NewVirtualHostHandler', retrieval: 0.5 };
    assert.deepEqual(callSitesFirst('Echo.ServeHTTP', [goDef, goCall]), [1, 0]);
    const [g] = rankPlaces("where is the Echo's ServeHTTP called?", [goDef]);
    assert.doesNotMatch(leadSentence([g!], callSiteSymbol("where is the Echo's ServeHTTP called?")), /calls it/);
  });

  it('C: a function after its export macro defines it, and a call inside a function whose brace is on its own line is that function\'s (cJSON)', () => {
    const src = [
      '/* Delete a cJSON structure. */',
      'CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)',
      '{',
      '    cJSON *next = NULL;',
      '    while (item != NULL)',
      '    {',
      '        next = item->next;',
      '        global_hooks.deallocate(item);',
      '        item = next;',
      '    }',
      '}',
    ].join('\n');
    const def = { ...passage(0, 'cJSON.c', src), language: 'c', symbol: 'cJSON_Delete', retrieval: 1 };
    const [d] = rankPlaces('where is cJSON_Delete defined?', [def]);
    assert.match(leadSentence([d!]), /^`cJSON_Delete` in .* defines it\.$/);
    assert.ok(definitionRe('cJSON_Delete').test('CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)'));
    assert.ok(definitionRe('internal_malloc').test('static void *internal_malloc(size_t size)'));
    assert.ok(!definitionRe('cJSON_Delete').test('    cJSON_Delete(item->child);'), 'a call is no definition');
    // C++'s specifiers and qualifier macros, a trailing return type (fmt's `parse_align`); not a call after a label.
    for (const line of ['FMT_CONSTEXPR inline auto parse_align(char c) -> align {', 'FMT_CONSTEXPR auto parse_align(const Char* begin, const Char* end,', 'std::string parse_align(char c) const {'])
      assert.ok(definitionRe('parse_align').test(line), line);
    for (const line of ['    else: parse_align(c)', '  onError: parse_align(err)', '  auto a = parse_align(c);']) assert.ok(!definitionRe('parse_align').test(line), line);
    // The caller's head is the line above its brace; a chunk named by other definitions names the quote by it.
    const callers = [
      'CJSON_PUBLIC(void) cJSON_DeleteItemFromArray(cJSON *array, int which)',
      '{',
      '    cJSON_DetachItemFromArray(array, which);',
      '}',
      '',
      'CJSON_PUBLIC(void) cJSON_DeleteItemFromObject(cJSON *object, const char *string)',
      '{',
      ...Array.from({ length: 8 }, (_, i) => `    check_${i}(object, string);`),
      '    cJSON_Delete(cJSON_DetachItemFromObject(object, string));',
      '}',
    ].join('\n');
    const call = { ...passage(0, 'cJSON.c', callers), language: 'c', symbol: 'cJSON_DeleteItemFromArray', retrieval: 1 };
    const query = 'where is cJSON_Delete called?';
    const [c] = rankPlaces(query, [call]);
    assert.match(leadSentence([c!], callSiteSymbol(query)), /^`cJSON_DeleteItemFromObject` in .* calls it\.$/);
  });

  it('"where is X called?" of a class the code uses without calling it: that use answers, before a test\'s or a benchmark\'s `new X()` (p-queue)', () => {
    const query = 'Where is `PriorityQueue` called from?';
    const def = { ...passage(0, 'source/priority-queue.ts', 'export default class PriorityQueue implements Queue<RunFunction> {\n\treadonly #queue = [];\n\tenqueue(run) {\n\t\tthis.#queue.push(run);\n\t}\n}'), language: 'typescript', symbol: 'PriorityQueue', retrieval: 1 };
    const test = { ...passage(1, 'test/priority-queue.ts', "test('enqueue', () => {\n\tconst queue = new PriorityQueue();\n\tqueue.enqueue(run);\n});"), language: 'typescript', retrieval: 0.9 };
    const bench = { ...passage(2, 'bench.ts', "addBenchmark('dequeue', async () => {\n\tconst queue = new PriorityQueue();\n});"), language: 'typescript', retrieval: 0.8 };
    const use = { ...passage(3, 'source/index.ts', "import PriorityQueue from './priority-queue.js';\nexport default class PQueue<QueueType extends Queue = PriorityQueue, Options = QueueAddOptions> {\n\tsetPriority(id, priority) {\n\t\tif (this.#queue instanceof PriorityQueue) {\n\t\t\tthis.#queue.setPriority(id, priority);\n\t\t}\n\t}\n}"), language: 'typescript', symbol: 'PQueue', retrieval: 0.7 };
    const ps = [def, test, bench, use];
    const byScore = answerOrder(query, ps).order.map((i) => ps[i]!);
    const ordered = callSitesFirst('PriorityQueue', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query)), /^`PQueue` in \[`source\/index\.ts:1`\]\([^)]+\) uses it;/);
    assert.ok(ordered.findIndex((p) => p.path === 'bench.ts') > ordered.findIndex((p) => p.path === 'source/index.ts'), ordered.map((p) => p.path).join(', '));
  });

  it('"who calls X?" where only tests call X: a page of documentation that shows the call (javadoc\'s HTML, AsciiDoc) is no code that calls it (jcommander)', () => {
    for (const p of ['docs/apidocs/com/beust/jcommander/X.html', 'site/api/index.html', 'docs/index.adoc', 'docs/usage.rst', 'README.md']) assert.ok(isDocumentPage(p), p);
    for (const p of ['src/main/java/X.java', 'public/index.html', 'templates/page.html', 'src/app.ts']) assert.ok(!isDocumentPage(p), p);
    const query = 'Who calls `EnvironmentVariableDefaultProvider`?';
    const test = { ...passage(0, 'src/test/java/EnvironmentVariableDefaultProviderTest.java', 'public final class EnvironmentVariableDefaultProviderTest {\n  @Test\n  public void shouldParseEnvironmentVariable() {\n    final IDefaultProvider defaultProvider = new EnvironmentVariableDefaultProvider(null, "-", variableResolver);\n  }\n}'), language: 'java', symbol: 'EnvironmentVariableDefaultProviderTest', retrieval: 1 };
    const html = { ...passage(1, 'docs/apidocs/com/beust/jcommander/defaultprovider/EnvironmentVariableDefaultProvider.html', '<section class="detail" id="&lt;init&gt;()">\n<div class="member-signature"><span class="modifiers">public</span>&nbsp;<span class="element-name">EnvironmentVariableDefaultProvider</span>()</div>\n</section>'), language: 'html', retrieval: 0.32 };
    const adoc = { ...passage(2, 'docs/index.adoc', '[source,java]\n----\nJCommander.newBuilder().defaultProvider(new EnvironmentVariableDefaultProvider()).build();\n----'), language: 'text', retrieval: 0.2 };
    const byScore = answerOrder(query, [test, html, adoc]).order.map((i) => [test, html, adoc][i]!);
    const ordered = callSitesFirst('EnvironmentVariableDefaultProvider', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
    assert.equal(ordered[0]!.path, test.path);
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query)), /^`[\w.]+` in \[`src\/test\/java\/EnvironmentVariableDefaultProviderTest\.java:[\d-]+`\]\([^)]+\) creates one \(only tests call it\)/);
  });

  it('"where is X called?" where only tests call X: the test that calls it answers, said so; a header\'s prototype calls nothing (hiredis)', () => {
    const query = 'where is redisFormatCommand called?';
    const def = { ...passage(0, 'hiredis.c', '/* Format a command according to the Redis protocol.\n * len = redisFormatCommand(target, "GET %s", mykey);\n */\nint redisFormatCommand(char **target, const char *format, ...) {\n    va_list ap;\n    int len = redisvFormatCommand(target,format,ap);\n    return len;\n}'), language: 'c', symbol: 'redisFormatCommand', retrieval: 1 };
    const header = { ...passage(1, 'hiredis.h', '/* Functions to format a command according to the protocol. */\nint redisvFormatCommand(char **target, const char *format, va_list ap);\nint redisFormatCommand(char **target, const char *format, ...);\nvoid redisFreeCommand(char *cmd);'), language: 'c', symbol: 'redisReply', retrieval: 0.9 };
    const test = { ...passage(2, 'test.c', 'static void test_format_commands(void) {\n    char *cmd;\n    int len;\n    len = redisFormatCommand(&cmd,"SET foo bar");\n    hi_free(cmd);\n}'), language: 'c', symbol: 'test_format_commands', retrieval: 0.3 };
    const answer = (ps: Passage[]) => {
      // As the answer orders them: answerOrder, then the places that call it first.
      const byScore = answerOrder(query, ps).order.map((i) => ps[i]!);
      const ordered = callSitesFirst('redisFormatCommand', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
      return leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query));
    };
    assert.match(answer([def, header, test]), /^`test_format_commands` in \[`test\.c:1`\]\([^)]+\) calls it \(only tests call it\)/);
    assert.doesNotMatch(answer([def, header]), /calls it/, 'a prototype is no call');
    // Code that calls it comes first, and nothing is said of tests.
    const caller = { ...passage(3, 'async.c', 'int redisAsyncCommand(redisAsyncContext *ac, const char *format, ...) {\n    len = redisFormatCommand(&cmd, format, ap);\n    return status;\n}'), language: 'c', symbol: 'redisAsyncCommand', retrieval: 0.5 };
    assert.match(answer([def, header, test, caller]), /^`redisAsyncCommand` in .* calls it;/);
    // Only a document shows the call: it answers, and the answer says no code calls it (sds' README).
    const readme = { ...passage(4, 'README.md', 'Formatting\n---\n\n```c\nchar *cmd;\nint len = redisFormatCommand(&cmd, "SET %s %s", key, val);\n```'), language: 'markdown', retrieval: 0.8 };
    assert.match(answer([def, header, readme]), /^No code found calls `redisFormatCommand`; \[`README\.md:1`\]\([^)]+\) shows it called/);
  });

  it('"where is X called?" in Ruby: a call without parentheses is one (sinatra\'s `invoke { dispatch! }`), not the method\'s own definition', () => {
    const query = 'where is `invoke` called?';
    const def = { ...passage(0, 'lib/sinatra/base.rb', '    # Run the block, catching halts.\n    def invoke(&block)\n      res = catch(:halt, &block)\n      res\n    end'), language: 'ruby', symbol: 'Sinatra › Base › invoke', retrieval: 1 };
    const caller = { ...passage(1, 'lib/sinatra/base.rb', '    def call!(env)\n      @env = env\n      invoke { dispatch! }\n      invoke { error_block!(response.status) } unless @env[\'sinatra.error\']\n    end'), language: 'ruby', symbol: 'Sinatra › Base › call!', retrieval: 0.6 };
    const byScore = answerOrder(query, [def, caller]).order.map((i) => [def, caller][i]!);
    const ordered = callSitesFirst('invoke', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
    assert.equal(ordered[0]!.symbol, 'Sinatra › Base › call!');
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query)), /^`Sinatra\.Base\.call!` in .* calls it/);
  });

  it('"who calls X?": a method reference passed on (Kotlin\'s `.let(::createStackElementTag)`) calls it, before a test that overrides it', () => {
    const query = 'who calls `DebugTree.createStackElementTag`?';
    const tree = { ...passage(0, 'timber/src/main/java/timber/log/Timber.kt', '  open class DebugTree : Tree() {\n    override val tag: String?\n      get() = super.tag ?: Throwable().stackTrace\n          .first { it.className !in fqcnIgnore }\n          .let(::createStackElementTag)\n\n    protected open fun createStackElementTag(element: StackTraceElement): String? {\n      return element.className\n    }'), language: 'kotlin', symbol: 'Timber › DebugTree', retrieval: 0.8 };
    const test = { ...passage(1, 'timber/src/test/java/timber/log/TimberTest.kt', '  @Test fun debugTreeCanAlterCreatedTag() {\n    Timber.plant(object : Timber.DebugTree() {\n      override fun createStackElementTag(element: StackTraceElement): String? {\n        return super.createStackElementTag(element) + \' -- \' + element.lineNumber\n      }\n    })\n  }'), language: 'kotlin', symbol: 'TimberTest › debugTreeCanAlterCreatedTag', retrieval: 1 };
    const ps = [test, tree];
    const byScore = answerOrder(query, ps).order.map((i) => ps[i]!);
    const ordered = callSitesFirst('DebugTree.createStackElementTag', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query)), /^`Timber\.DebugTree` in \[`timber\/src\/main\/java\/timber\/log\/Timber\.kt:1`\]\([^)]+\) calls it/);
  });

  it('"where is X called?": a string that names the call calls nothing (Slim\'s "… in order to use `App::run()`"); an interpolated one may', () => {
    const query = 'where is `App.run` called?';
    const def = { ...passage(0, 'Slim/App.php', '    public function run(?ServerRequestInterface $request = null): void\n    {\n        $response = $this->handle($request);\n    }'), language: 'php', symbol: 'App › run', retrieval: 1 };
    const factory = { ...passage(1, 'Slim/Factory/ServerRequestCreatorFactory.php', '    public static function determineServerRequestCreator()\n    {\n        throw new RuntimeException(\n            "Please install a supported implementation in order to use `App::run()` " .\n            "without having to pass in a `ServerRequest` object."\n        );\n    }'), language: 'php', symbol: 'ServerRequestCreatorFactory › determineServerRequestCreator', retrieval: 0.9 };
    const test = { ...passage(2, 'tests/AppTest.php', '    public function testRun(): void\n    {\n        $app = new App($responseFactory);\n        $app->run($request);\n    }'), language: 'php', symbol: 'AppTest › testRun', retrieval: 0.5 };
    const ps = [def, factory, test];
    const byScore = answerOrder(query, ps).order.map((i) => ps[i]!);
    const ordered = callSitesFirst('App.run', byScore).map((i, k) => ({ ...byScore[i]!, index: k }));
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, ordered)), callSiteSymbol(query)), /^`AppTest\.testRun` in .* calls it \(only tests call it\)/);
    assert.equal(withoutStrings('log(`ran ${run(x)}`, "run()", \'run()\')'), 'log(`ran ${run(x)}`, "", \'\')');
    assert.equal(withoutStrings("fn run<'a>(x: &'a str) { go(\"run()\") }", '"'), "fn run<'a>(x: &'a str) { go(\"\") }");
  });

  it('a document defines a name by a heading only, not by a quoted error message (pyparsing\'s release notes)', () => {
    const query = 'why does reading a missing result give an empty string instead of raising an AttributeError?';
    const notes = { ...passage(0, 'docs/whats_new.rst', 'now raises this Python exception::\n\n    AttributeError: \'ParseResults\' object has no attribute \'xyz\'\n\nTo add new attribute values, use indexed notation.'), language: 'restructuredtext', retrieval: 1 };
    const [m] = rankPlaces(query, [notes]);
    assert.deepEqual(m!.defines, []);
    assert.doesNotMatch(leadSentence([m!]), /defines it/);
    const heading = { ...passage(1, 'docs/errors.md', '## AttributeError\n\nRaised when a result is read that was never set.'), language: 'markdown', retrieval: 1 };
    assert.deepEqual(rankPlaces(query, [heading])[0]!.defines, ['AttributeError'], 'a Markdown heading names it');
  });

  it('a protocol method named bare (`__init__`) that several files define is none of theirs: no "defines it"; one file\'s is', () => {
    const factory = { ...passage(0, 'src/attr/_make.py', 'class Factory:\n    def __init__(self, factory, takes_self=False):\n        self.factory = factory\n        self.takes_self = takes_self'), language: 'python', symbol: 'Factory, __init__', retrieval: 1 };
    const error = { ...passage(1, 'src/attr/exceptions.py', 'class NotCallableError(TypeError):\n    def __init__(self, msg, value):\n        super(TypeError, self).__init__(msg, value)\n        self.msg = msg'), language: 'python', symbol: 'NotCallableError, __init__', retrieval: 0.8 };
    const query = 'how is __init__ generated for a class?';
    assert.doesNotMatch(leadSentence(citedPlaces(query, rankPlaces(query, [factory, error]))), /defines it/);
    assert.match(leadSentence(citedPlaces(query, rankPlaces(query, [factory]))), /^`__init__` in .* defines it/, 'one file defines it: that is the one meant');
  });

  it('quotes the code that says the question\'s words, not the imports that name them (Django REST framework views)', () => {
    const views = { ...passage(0, 'conduit/apps/profiles/views.py', [
      'from rest_framework.exceptions import NotFound',
      'from rest_framework.response import Response',
      'from .renderers import ProfileJSONRenderer',
      '', '',
      'class ProfileRetrieveAPIView(RetrieveAPIView):',
      '    permission_classes = (AllowAny,)',
      '    queryset = Profile.objects.select_related("user")',
      '    serializer_class = ProfileSerializer',
      '', '    def retrieve(self, request, username):',
      '        try:',
      '            profile = self.queryset.get(user__username=username)',
      '        except Profile.DoesNotExist:',
      '            raise NotFound("A profile with this username does not exist.")',
      '        return Response(serializer.data, renderer=ProfileJSONRenderer())',
    ].join('\n')), language: 'python', symbol: 'ProfileRetrieveAPIView, retrieve', retrieval: 1 };
    const [m] = rankPlaces('how are exceptions turned into JSON responses?', [views]);
    assert.ok(!m!.quote.some((l) => /^\s*from\s/.test(l)), m!.quote.join('\n'));
  });

  it('"who uses the Binder interface?": a struct field of that type uses it; a line break is never inside a definition\'s head', () => {
    const query = 'who uses the Binder interface?';
    assert.equal(callSiteSymbol(query), 'Binder');
    assert.equal(callSiteSymbol('what else uses app.config.from_object?'), 'app.config.from_object');
    assert.equal(callSiteSymbol('what uses the most memory?'), null, 'plain English after "uses" names no code');
    assert.equal(callSiteSymbol('WHO USES the Binder interface?'), 'Binder');
    // "Where is the X (class) used?" names X; "where is the cache used?" names nothing.
    assert.equal(callSiteSymbol('where is the CallableResolver used?'), 'CallableResolver');
    assert.equal(callSiteSymbol('where is the Binder interface used?'), 'Binder');
    assert.equal(callSiteSymbol('where is the url_for helper called?'), 'url_for');
    assert.equal(callSiteSymbol('where is the `compose` function called?'), 'compose');
    assert.equal(callSiteSymbol('where is the cache used?'), null);
    assert.equal(callSiteSymbol('where is the error handler called?'), null);
    assert.equal(callSiteSymbol(`where is the X${'y'.repeat(100_000)} class used?`), null, 'no name of 100,000 characters (nor a pattern built from one)');
    const struct = [
      '// Echo is the top-level framework instance. Each field has its type',
      'type Echo struct {',
      '\tserveHTTPFunc func(http.ResponseWriter, *http.Request)',
      '',
      '\tBinder Binder',
      '',
      '\t// Filesystem is the file system used for serving static files.',
      '\tFilesystem fs.FS',
      '}',
    ].join('\n');
    const def = definitionRe('Binder');
    assert.ok(!def.test(struct), 'neither `func(…)` nor a comment ending in "type" on the line above makes `Binder Binder` a definition');
    assert.ok(def.test('type Binder interface {\n\tBind(c *Context, target any) error\n}'));
    assert.ok(definitionRe('ServeHTTP').test('func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {'));
    const p = { ...passage(0, 'echo.go', struct), language: 'go', symbol: 'Echo', retrieval: 1 };
    const [m] = rankPlaces(query, [p]);
    assert.deepEqual(m!.defines, []);
    assert.match(leadSentence([m!], callSiteSymbol(query)), /^`Echo` in .* uses it\.$/);
    // `new X(…)` makes one.
    const factory = { ...passage(0, 'gson/src/main/java/com/google/gson/internal/bind/TypeAdapters.java', 'public static <TT> TypeAdapterFactory newFactory(TypeToken<TT> type, TypeAdapter<TT> typeAdapter) {\n  return new TypeAdapterFactory() {\n    @Override\n    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> typeToken) {\n      return typeToken.equals(type) ? (TypeAdapter<T>) typeAdapter : null;\n    }\n  };\n}'), language: 'java', symbol: 'TypeAdapters › newFactory', retrieval: 1 };
    const made = 'who uses the TypeAdapterFactory interface?';
    const [f] = rankPlaces(made, [factory]);
    assert.match(leadSentence([f!], callSiteSymbol(made)), /^`TypeAdapters\.newFactory` in .* creates one\.$/);
  });

  it('"how is X tested?" where no cited test calls X says so before the code that calls it', () => {
    const query = 'how is `handle_exception` tested?';
    const code = { ...passage(0, 'rest_framework/schemas/views.py', '    def handle_exception(self, exc):\n        # Schema renderers do not render exceptions.\n        self.renderer_classes = [renderers.JSONRenderer]\n        return super().handle_exception(exc)'), language: 'python', symbol: 'SchemaView › handle_exception', retrieval: 1 };
    const test = { ...passage(1, 'tests/test_views.py', 'def test_400_parse_error(self):\n    request = factory.post("/", "f00bar", content_type="application/json")\n    response = self.view(request)\n    assert response.status_code == 400'), language: 'python', symbol: 'test_400_parse_error', retrieval: 0.8 };
    const places = rankPlaces(query, [code, test]);
    const first = places.find((m) => m.passage === code)!;
    assert.match(leadSentence([first, places.find((m) => m !== first)!], callSiteSymbol(query), true), /^No test found calls `handle_exception` directly; `SchemaView\.handle_exception` in .* calls it/);
    const calling = { ...test, text: 'def test_handle_exception(self):\n    response = self.view.handle_exception(ValueError())\n    assert response.status_code == 500', symbol: 'test_handle_exception' };
    const [t] = rankPlaces(query, [calling]);
    assert.match(leadSentence([t!], callSiteSymbol(query), true), /^`test_handle_exception` in .* tests it\.$/);
    // A quote that starts at its chunk's class is that class, once.
    const klass = { ...code, text: `class SchemaView(APIView):\n${code.text}` };
    const [k] = rankPlaces(query, [klass]);
    assert.equal(quotedSymbol(k!), 'SchemaView', k!.quote.join('\n'));
  });

  it('a chunk that starts inside a Python docstring knows it: its examples call nothing, and the lead passes them by', () => {
    // sanic's `BlueprintGroup`: the class line in one chunk, its long docstring with examples in the next.
    const inside = ['    The `BlueprintGroup` class allows grouping blueprints.', '', '    ```python', '    bp1 = Blueprint("bp1", url_prefix="/bp1")', '', '    @bp1.route("/")', '    async def index(request):', '        return text("bp1")', '    ```', '    """  # noqa: E501', '', '    __slots__ = ("_blueprints",)', '', '    def append(self, bp):', '        self._blueprints.append(Blueprint.check(bp))'].join('\n');
    assert.deepEqual(docstringLines(inside, 'sanic/blueprints.py').map(Number).join(''), '111111111100000');
    // An opening mark alone on its line after a header, an assignment or an open call still opens one.
    for (const text of ['def f():\n    """\n    Return a tuple.\n    """\n    return 1', 'HELP = (\n    """\n    Usage: run\n    """\n)', 'doc =\n    """\n    text\n    """']) {
      assert.deepEqual(docstringLines(text, 'a.py').slice(0, 4), [false, true, true, true], text);
    }
    const q = 'where is the Blueprint class used?';
    const doc = { ...passage(0, 'sanic/blueprints.py', inside), language: 'python', symbol: 'BlueprintGroup', retrieval: 1 };
    const [d] = rankPlaces(q, [doc]);
    assert.doesNotMatch(leadSentence([d!], callSiteSymbol(q)), /creates one|calls it/, 'a docstring\'s example makes no Blueprint');
  });

  it('a Javadoc without a star on each line is a comment: its example creates nothing, and its quote goes by the method after it', () => {
    // jsoup's Cleaner: Javadoc in its own style, an example that makes a Cleaner, then the method.
    const text = [
      '/**',
      ' Creates a new, clean document, from the original dirty document, containing only elements allowed by the safelist.',
      ' The original document is not modified.',
      ' <pre>',
      ' Cleaner cleaner = new Cleaner(Safelist.relaxed());',
      ' boolean isValid = cleaner.isValid(inputDoc);',
      ' </pre>',
      ' @param dirtyDocument Untrusted base document to clean.',
      ' @return cleaned document.',
      ' @since 1.14.1',
      ' @author jhy',
      ' @apiNote thread-safe',
      ' */',
      'public Document clean(Document dirtyDocument) {',
      '    Validate.notNull(dirtyDocument);',
      '    Document clean = Document.createShell(dirtyDocument.baseUri());',
      '    copySafeNodes(dirtyDocument.body(), clean.body());',
      '    return clean;',
      '}',
    ].join('\n');
    assert.equal(docstringLines(text, 'src/main/java/org/jsoup/safety/Cleaner.java').map(Number).join(''), '1111111111111000000');
    // A chunk that starts inside one, and a comment after code, in TypeScript and Go.
    assert.equal(docstringLines(' * a line of the comment\n */\nexport function f() {}\n/* one line */\nconst x = 1; /* after code */', 'a.ts').map(Number).join(''), '11010');
    assert.equal(docstringLines('/*\nPackage gin implements a HTTP web framework.\n*/\npackage gin', 'gin.go').map(Number).join(''), '1110');
    const p = { ...passage(0, 'src/main/java/org/jsoup/safety/Cleaner.java', text), language: 'java', symbol: 'Cleaner › clean, copySafeNodes', retrieval: 1 };
    const [m] = rankPlaces('how is untrusted HTML cleaned with a safelist?', [p]);
    assert.ok(!m!.quote.some((l) => l.includes('public Document clean')), m!.quote.join('\n'));
    assert.equal(quotedSymbol(m!), 'Cleaner.clean');
    const used = 'where is the Cleaner class used?';
    const [u] = rankPlaces(used, [p]);
    assert.doesNotMatch(leadSentence([u!], callSiteSymbol(used)), /creates one|calls it/, 'a Javadoc example makes no Cleaner');
    // A Python docstring is inside the class above it, not a comment on the method after it (flask's `ScriptInfo`).
    const py = [
      'class ScriptInfo:',
      '    """Helper object to deal with Flask applications.',
      '',
      '    This is usually not necessary to interface with as it is used',
      '    internally in the dispatching to click.',
      '    """',
      '',
      '    def __init__(self, app_import_path=None, create_app=None):',
      '        self.app_import_path = app_import_path',
      '        self.create_app = create_app',
      '        self.data = {}',
      '        self._loaded_app = None',
      '',
      '    def load_app(self):',
      '        return self._loaded_app',
    ].join('\n');
    const [s] = rankPlaces('what helper object deals with flask applications in the dispatching to click?', [{ ...passage(0, 'src/flask/cli.py', py), language: 'python', symbol: 'ScriptInfo › __init__, load_app' }]);
    assert.ok(!s!.quote[0]!.startsWith('class'), s!.quote.join('\n'));
    assert.equal(quotedSymbol(s!), 'ScriptInfo');
  });

  it('"where is X used?": an example in a Python docstring, or X as a type in an annotation, is no call of it', () => {
    const q = 'where is the Rule class used?';
    const doc = { ...passage(0, 'src/werkzeug/routing/rules.py', ['class Subdomain(RuleFactory):', '    """All URLs provided by this factory have the subdomain set::', '', '        url_map = Map([', "            Rule('/', endpoint='index'),", '        ])', '    """', '', '    def get_rules(self, map: Map) -> t.Iterator[Rule]:', '        for rulefactory in self.rules:', '            yield from rulefactory.get_rules(map)'].join('\n')), language: 'python', symbol: 'Subdomain', retrieval: 1 };
    const code = { ...passage(1, 'src/werkzeug/routing/map.py', ['    def add(self, rulefactory: RuleFactory) -> None:', '        for rule in rulefactory.get_rules(self):', '            rule.bind(self)', '            self._rules.append(Rule(rule.rule, endpoint=rule.endpoint))'].join('\n')), language: 'python', symbol: 'Map › add', retrieval: 0.5 };
    assert.deepEqual(callSitesFirst('Rule', [doc, code]), [1, 0]);
    const [d] = rankPlaces(q, [doc]);
    assert.doesNotMatch(leadSentence([d!], callSiteSymbol(q)), /calls it/);
    const [c] = rankPlaces(q, [code]);
    assert.match(leadSentence([c!], callSiteSymbol(q)), /^`Map\.add` in .* creates one\.$/);
  });

  it('names a TypeScript method signature the chunk\'s names leave out by its owner ("Router.navigate"), and a possessive\'s name is no term of its own', () => {
    const iface = [
      'export interface Router {',
      '  initialize(): Router;',
      '  subscribe(fn: RouterSubscriber): () => void;',
      '  enableScrollRestoration(',
      '    savedScrollPositions: Record<string, number>,',
      '  ): () => void;',
      '',
      '  /**',
      '   * Navigate forward/backward in the history stack',
      '   * @param to Delta to move in the history stack',
      '   */',
      '  navigate(to: number): Promise<void>;',
      '}',
    ].join('\n');
    const def = { ...passage(0, 'packages/react-router/lib/router/router.ts', iface), symbol: 'Router › initialize, subscribe, enableScrollRestoration', retrieval: 1 };
    const use = { ...passage(1, 'packages/react-router/lib/dom/lib.tsx', 'export function useSubmit(): SubmitFunction {\n  let routerFetch = router.fetch;\n  let routerNavigate = router.navigate;\n  return routerNavigate;\n}'), symbol: 'useSubmit', retrieval: 0.69 };
    const places = rankPlaces("where is the Router's navigate method defined?", [def, use]);
    assert.equal(places[0]!.passage, def, places.map((m) => m.passage.path).join(', '));
    assert.match(places[0]!.quote.join('\n'), /navigate\(to: number\)/);
    assert.equal(quotedSymbol(places[0]!), 'Router.navigate');
  });

  it('a call that starts a line (`halt(*args)`, `setup(app)`) is no definition of it; a method with a body or a typed signature is', () => {
    const rb = { ...passage(0, 'lib/sinatra/base.rb', '# Halt processing and redirect to the URI provided.\ndef redirect(uri, *args)\n  status 302\n  response[\'Location\'] = uri(uri.to_s, settings.absolute_redirects?)\n  halt(*args)\nend'), language: 'ruby', symbol: 'Sinatra › Helpers › redirect' };
    const [m] = rankPlaces('where is `halt` called?', [rb]);
    assert.deepEqual(m!.defines, []);
    assert.match(leadSentence([m!], 'halt'), /`Sinatra\.Helpers\.redirect` in .* calls it/);
    for (const [line, name] of [['  match(path: string) {', 'match'], ['  navigate(to: number): Promise<void>;', 'navigate'], ['  onError = (handler) => {', 'onError']]) {
      const [d] = rankPlaces(`where is \`${name}\` defined?`, [passage(0, 'src/a.ts', line!)]);
      assert.deepEqual(d!.defines, [name], line);
    }
  });

  it('a comment that names a call is no call ("via multiple `Dispose()` calls"), and a C# method with modifiers and a return type names its quote', () => {
    const comment = { ...passage(0, 'src/Serilog/Core/Sinks/Batching/BatchingSink.cs', '// A mutex is required because the queue writer `Complete()` call is not idempotent and will throw if\n// called multiple times, e.g. via multiple `Dispose()` calls on this sink.\nreadonly object _stateLock = new();'), language: 'csharp', symbol: 'BatchingSink › _queue', retrieval: 1 };
    const call = { ...passage(1, 'src/Serilog/Core/Sinks/DisposingAggregateSink.cs', 'public void Dispose()\n{\n    foreach (var sink in _sinks)\n    {\n        if (sink is IDisposable disposable) disposable.Dispose();\n    }\n}'), language: 'csharp', symbol: 'DisposingAggregateSink › Dispose', retrieval: 0.8 };
    assert.deepEqual(callSitesFirst('Dispose', [comment, call]), [1, 0]);
    const [c] = rankPlaces('where is Dispose called?', [comment]);
    assert.doesNotMatch(leadSentence([c!], 'Dispose'), /calls it/);
    const log = ['public static ILogger ForContext<TSource>() => Logger.ForContext<TSource>();', '', '/// <summary>Create a logger that enriches log events with the source type.</summary>', '/// <returns>A logger that will enrich log events as specified.</returns>', 'public static ILogger ForContext(Type source) => Logger.ForContext(source);'].join('\n');
    const [l] = rankPlaces('how does a logger enrich log events with the source type?', [{ ...passage(0, 'src/Serilog/Log.cs', log), language: 'csharp', symbol: 'Log › ForContext' }]);
    assert.match(l!.quote.join('\n'), /ForContext\(Type source\)/);
    assert.equal(quotedSymbol(l!), 'Log.ForContext');
    // Java: an annotation among the modifiers (jsoup's DataUtil, whose chunk names three other methods).
    const java = ['private static @Nullable String detectCharsetFromBom(ControllableInputStream input) throws IOException {', '    byte[] bom = new byte[4];', '    input.read(bom, 0, 4);', '    // the BOM decides the charset', '    return null;', '}'].join('\n');
    const [j] = rankPlaces('what happens when the input has a BOM?', [{ ...passage(0, 'src/main/java/org/jsoup/helper/DataUtil.java', java), language: 'java', symbol: 'DataUtil › getCharsetFromContentType, validateCharset, mimeBoundary' }]);
    assert.equal(quotedSymbol(j!), 'DataUtil.detectCharsetFromBom');
  });

  it('"what does X return?" quotes X\'s return statement, not its signature', () => {
    const text = [
      'def url_for(',
      '    endpoint: str,',
      '    *,',
      '    _anchor: str | None = None,',
      '    _external: bool | None = None,',
      ') -> str:',
      '    """Generate a URL to the given endpoint with the given values.',
      '',
      '    :param endpoint: The endpoint name associated with the URL to generate.',
      '    :param _anchor: If given, append this as ``#anchor`` to the URL.',
      '    """',
      '    app = current_app',
      '    if app is None:',
      '        raise RuntimeError("url_for needs an app")',
      '    return app.url_for(endpoint, _anchor=_anchor, _external=_external)',
    ].join('\n');
    const ps = [{ ...passage(0, 'src/flask/helpers.py', text), language: 'python', symbol: 'url_for' }];
    const [r] = rankPlaces('What does `url_for` return?', ps);
    assert.ok(r!.quote.some((l) => l.includes('return app.url_for(')), r!.quote.join('\n'));
    const [d] = rankPlaces('What does `url_for` do?', ps);
    assert.equal(d!.quoteStart, 0, 'other questions still quote the definition from its head');
  });

  it('among the best files, the words of the question still choose', () => {
    const ps = passages().slice(0, 3).concat(passage(3, 'src/views.ts', '/** When a view raises an exception, this handles it. */\nexport function onViewException(view: string, exception: Error) {}'));
    ps.forEach((p, i) => (p.retrieval = 1 - i * 0.1));
    const { order } = answerOrder('What happens when a view raises an exception?', ps);
    assert.equal(ps[order[0]!]!.path, 'src/views.ts', 'third file in retrieval, first by its words');
  });

  it('"how does the router match a URL to a route?": a function named so does it; an interface named with the same words only declares its shape', () => {
    // The search ranks the function first (index/symbols.ts prefers, between names of the same words, the one that does something).
    const iface = passage(1, 'lib/router/utils.ts', [
      'export interface RouteMatch<ParamKey extends string = string> {',
      '  /** The names and values of dynamic parameters in the URL. */',
      '  params: Params<ParamKey>;',
      '  /** The portion of the URL pathname that was matched. */',
      '  pathname: string;',
      '  /** The route object that was used to match. */',
      '  route: RouteObject;',
      '}',
      '',
      'export interface DataRouteMatch extends RouteMatch<string, DataRouteObject> {}',
    ].join('\n'));
    iface.symbol = 'RouteMatch, DataRouteMatch';
    const fn = passage(0, 'lib/router/utils.ts', [
      '/** Matches the given routes to a location and returns the match data. */',
      'export function matchRoutes(routes: RouteObject[], locationArg: Partial<Location> | string): RouteMatch[] | null {',
      '  return matchRoutesImpl(routes, locationArg, false);',
      '}',
    ].join('\n'));
    fn.symbol = 'mergeRouteUpdates, matchRoutes';
    iface.retrieval = 0.9;
    fn.retrieval = 1;
    const ps = [fn, iface];
    assert.equal(ps[answerOrder('how does the router match a URL to a route?', ps).order[0]!], fn);
    // Named outright, the interface is what is asked about (and the search ranks it first).
    iface.retrieval = 1;
    fn.retrieval = 0.9;
    assert.equal(ps[answerOrder('what does a `RouteMatch` hold?', ps).order[0]!], iface);
  });

  it('"where is the response body set?": a document\'s heading is no name of code, unless the question asks how to do something', () => {
    const code = [
      '  /**',
      '   * Set response body.',
      '   */',
      '  set body (val) {',
      '    const original = this._body',
      '    this._body = val',
      '  },',
    ].join('\n');
    const doc = '### response.body=\n\nSet response body to one of the following:\n\n- `string` written\n- `Buffer` written\n';
    const ps = [
      { ...passage(0, 'docs/api/response.md', doc), language: 'markdown', symbol: 'response.body=', retrieval: 0.77 },
      { ...passage(1, 'lib/response.js', code), language: 'js', symbol: 'body', retrieval: 1 },
    ];
    const ask = (q: string) => ps[answerOrder(q, ps).order[0]!]!.path;
    assert.equal(ask('Where is the response body set?'), 'lib/response.js');
    assert.equal(ask('How do I set the response body?'), 'docs/api/response.md', 'a how-to still reads the section named for it');
  });

  it('"how does ctx.throw work?": the one file that defines the name has its words, where several do none has', () => {
    const koa = [
      '  /**',
      '   * Throw an error with `status` (default 500) and `msg`.',
      '   *',
      '   *    this.throw(403)',
      '   */',
      '  throw (...args) {',
      '    throw createError(...args)',
      '  },',
    ].join('\n');
    const doc = '### ctx.throw([status], [msg], [properties])\n\nHelper method to throw an error with a `.status` property:\n\n```js\nctx.throw(400);\nctx.throw(400, \'name required\');\n```\n';
    const ps = [
      { ...passage(0, 'docs/api/context.md', doc), language: 'markdown', symbol: 'ctx.throw([status], [msg], [properties])', retrieval: 0.85 },
      { ...passage(1, 'lib/context.js', koa), language: 'js', symbol: 'proto › throw', retrieval: 1 },
    ];
    assert.equal(ps[answerOrder('How does ctx.throw work?', ps).order[0]!]!.path, 'lib/context.js');
    // Hono: `c` is a `Context`, and `HonoRequest` has a `json` of its own: `c.json`'s words are neither's.
    const context = 'export class Context {\n  /**\n   * app.get(\'/api\', (c) => {\n   *   return c.json({ message: \'Hello!\' })\n   * })\n   */\n  json: JSONRespond = (object, arg, headers) => this.#newResponse(JSON.stringify(object), arg, headers)\n}';
    const request = 'export class HonoRequest {\n  json<T = any>(): Promise<T> {\n    return this.#cachedBody(\'text\').then((text: string) => JSON.parse(text))\n  }\n}';
    const hono = [
      { ...passage(0, 'src/request.ts', request), symbol: 'HonoRequest › json', retrieval: 0.9 },
      { ...passage(1, 'src/context.ts', context), symbol: 'Context › json', retrieval: 0.85 },
    ];
    const ranked = rankPlaces('Where is c.json implemented?', hono);
    assert.deepEqual(ranked.map((m) => m.defines), [['c.json'], ['c.json']], 'both define a `json`');
    assert.equal(ranked[0]!.passage.path, 'src/context.ts', 'the one whose text says `c.json`');
  });
});

describe('hints without a model', () => {
  it('asks where functions are called and where constants and types are used; documents get file-level hints only', () => {
    const code: Passage = { ...passage(0, 'src/auth/session.ts', SESSION), symbol: 'SESSION_TTL_MS, Session', retrieval: 1 };
    const doc: Passage = { ...passage(1, 'README.md', '# shopfront\n\nA tiny shop.'), language: 'markdown', symbol: 'shopfront', retrieval: 0.9 };
    const hints = hintsRules([code, doc], 'How are sessions validated?').map((x) => x.text);
    assert.ok(hints.length >= 3 && hints.length <= 5, hints.join(' | '));
    assert.ok(hints.includes('Where is `SESSION_TTL_MS` used?'), hints.join(' | '));
    assert.ok(!hints.some((x) => /SESSION_TTL_MS` called|`Session` called/.test(x)), hints.join(' | '));
    assert.ok(!hints.some((x) => x.includes('`shopfront`')), `no symbol hints from a document: ${hints.join(' | ')}`);
  });
});

describe('extractive answerer: the places cited', () => {
  it('cites a definition once when it comes in pieces, side by side or far apart, and still cites another definition next to it', () => {
    const group = (index: number, startLine: number, endLine: number, symbol: string, text: string): Passage => ({ index, path: 'sanic/blueprints.py', startLine, endLine, text, symbol, language: 'py', entry: {} });
    const passages = [
      group(0, 613, 681, 'BlueprintGroup', '    URL prefix, version and other shared attributes of a blueprint group.\n    The app loads each blueprint of the group.\n    """'),
      group(1, 611, 612, 'BlueprintGroup', 'class BlueprintGroup(bpg_base):\n    """This class groups blueprints."""'),
      group(2, 682, 700, 'BlueprintGroup › __init__', '    def __init__(self, url_prefix=None):\n        """A blueprint group of the app."""\n        self._blueprints = []'),
      { ...group(3, 1, 20, 'Blueprint groups', '## Blueprint groups\n\nAn app loads a blueprint group as one.'), path: 'guide/blueprints.md', language: 'md' },
    ];
    const cited = citedPlaces('how does the app load a blueprint group?', rankPlaces('how does the app load a blueprint group?', passages));
    // The class's two-line head and its docstring, side by side: one place, from the class line.
    assert.deepEqual(cited.map((m) => `${m.passage.path}:${m.passage.startLine}-${m.passage.endLine}`), ['sanic/blueprints.py:611-681', 'sanic/blueprints.py:682-700', 'guide/blueprints.md:1-20']);
    assert.match(cited[0]!.passage.text, /^class BlueprintGroup\(bpg_base\):\n[^]*\n    The app loads each blueprint of the group\./);
    // A class's head line whose next piece holds its methods (`TokenAuthentication › authenticate`), in either order.
    const auth = (index: number, startLine: number, endLine: number, symbol: string, text: string): Passage => ({ index, path: 'rest_framework/authentication.py', startLine, endLine, text, symbol, language: 'py', entry: {} });
    const body = auth(0, 152, 156, 'TokenAuthentication › authenticate', '    """Simple token based authentication."""\n    keyword = "Token"\n\n    def authenticate(self, request):\n        return self.authenticate_credentials(token)');
    const head = auth(1, 151, 151, 'TokenAuthentication', 'class TokenAuthentication(BaseAuthentication):');
    const token = citedPlaces('how does token authentication work?', rankPlaces('how does token authentication work?', [body, head]));
    assert.deepEqual(token.map((m) => `${m.passage.startLine}-${m.passage.endLine}`), ['151-156']);
    // A long method's first and last pieces, far apart: one definition, cited once.
    const route = (index: number, startLine: number, endLine: number, text: string): Passage => ({ index, path: 'sanic/mixins/routes.py', startLine, endLine, text, symbol: 'RouteMixin › route', language: 'py', entry: {} });
    const far = citedPlaces('what does the blueprint route decorator do?', rankPlaces('what does the blueprint route decorator do?', [route(0, 38, 56, '    def route(self, uri):\n        """Decorate a function to be registered as a route of the blueprint."""'), route(1, 210, 211, '        return decorator  # the route decorator of the blueprint'), { ...passages[3]!, index: 2 }]));
    assert.deepEqual(far.map((m) => `${m.passage.path}:${m.passage.startLine}`), ['sanic/mixins/routes.py:38', 'guide/blueprints.md:1']);
  });

  it('a chunk inside the class asked about does not define the class: the lead names what it quotes', () => {
    const query = 'How does ModelSerializer build fields for a model?';
    const method = { ...passage(0, 'rest_framework/serializers.py', '    def build_field(self, field_name, info, model_class, nested_depth):\n        """\n        Return a two tuple of (cls, kwargs) to build a serializer field with.\n        """\n        if field_name in info.fields_and_pk:\n            return self.build_standard_field(field_name, info.fields_and_pk[field_name])'), startLine: 1239, endLine: 1244, language: 'python', symbol: 'ModelSerializer › build_field', retrieval: 1 };
    const klass = { ...passage(1, 'rest_framework/serializers.py', 'class ModelSerializer(Serializer):\n    """A `ModelSerializer` is just a regular `Serializer`, with default fields for a model."""'), startLine: 907, endLine: 908, language: 'python', symbol: 'ModelSerializer', retrieval: 0.6 };
    const cited = citedPlaces(query, rankPlaces(query, [method, klass]));
    assert.match(leadSentence(cited), /^`ModelSerializer\.build_field` in \[`rest_framework\/serializers\.py:1239-1244`\]\([^)]+\) is where this happens/);
    assert.match(leadSentence(cited.slice(1)), /^`ModelSerializer` in \[`rest_framework\/serializers\.py:907-908`\]\([^)]+\) defines it/);
  });

  it('cites a Python function by its body, once, not by the typing overloads before it, in another chunk named otherwise', () => {
    const piece = (index: number, startLine: number, endLine: number, symbol: string, text: string): Passage => ({ index, path: 'src/werkzeug/wrappers/request.py', startLine, endLine, text, symbol, language: 'py', entry: {}, retrieval: 1 - index * 0.1 });
    const passages = [
      piece(0, 375, 410, 'Request › data, get_data', [
        '    @t.overload', '    def get_data(', '        self, cache: bool = True, as_text: t.Literal[False] = False', '    ) -> bytes: ...', '',
        '    @t.overload', '    def get_data(', '        self, cache: bool = True, as_text: t.Literal[True] = ...', '    ) -> str: ...',
      ].join('\n')),
      piece(1, 411, 459, 'Request › get_data, form', [
        '    def get_data(', '        self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False', '    ) -> bytes | str:',
        '        """This reads the buffered incoming data from the client into one bytes object."""', '        return self._cached_data',
      ].join('\n')),
      { index: 2, path: 'docs/request_data.rst', startLine: 61, endLine: 116, text: 'Request data\n\nget_data reads the request body.', symbol: 'Request data', language: 'rst', entry: {}, retrieval: 0.5 },
    ];
    const query = 'What does Request.get_data do?';
    const cited = citedPlaces(query, rankPlaces(query, passages));
    assert.deepEqual(cited.map((m) => `${m.passage.path}:${m.passage.startLine}`), ['src/werkzeug/wrappers/request.py:411', 'docs/request_data.rst:61']);
    assert.match(leadSentence(cited), /^`Request\.get_data` in \[`src\/werkzeug\/wrappers\/request\.py:411-459`\]\([^)]+\) defines it/);
  });
});
