import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { IndexStatus, WorkspaceFileEvents } from '../../server/src/protocol/workspace';
import { SymbolsFind, SymbolsReferences } from '../../server/src/protocol/symbols';
import { QgptRelevance } from '../../server/src/protocol/qgpt';
import { analyzeQuestion } from '../../server/src/index/question';
import { callSiteSymbol } from '../../server/src/qgpt/intent';
import { leadSentence, quotedSymbol, rankPlaces } from '../../server/src/qgpt/extractive';
import type { Passage } from '../../server/src/qgpt/seeds';
import { chunkText, parseText } from '../../server/src/index/chunker';
import { languageOf } from '../../server/src/index/languages';
import { extractDefinitions, findReferences, isTestNamedAfter, isTestOfModule, SymbolIndex, type FileSymbol } from '../../server/src/index/symbols';
import { assertLifts, realCore, rankedFiles } from '../helpers/core';
import { makeSymbolRepo } from '../helpers/symbolRepo';

async function defsOf(rel: string, text: string): Promise<FileSymbol[]> {
  let defs: FileSymbol[] = [];
  await parseText(text, languageOf(rel), (root, lines) => (defs = extractDefinitions(root, lines)));
  return defs;
}

describe('symbols: definitions from the parse', () => {
  it('reads qualified definitions with kinds and lines in TypeScript, Python, Go and Rust', async () => {
    const ts = await defsOf('a.ts', 'export const A_B = 1\nconst local = 2\nexport class K {\n  m() { function inner() {} }\n  f = () => 1\n}\nexport type T = string\nenum E { X }\nconst g = () => 3\n');
    assert.deepEqual(ts.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`), [
      'constant A_B 1-1', 'class K 3-6', 'method K.m 4-4', 'method K.f 5-5', 'type T 7-7', 'enum E 8-8', 'function g 9-9',
    ]);
    const py = await defsOf('a.py', 'LIMIT = 3\nlimit = 4\n\n@dec\ndef top():\n    def inner():\n        pass\n\nclass A:\n    class B:\n        def m(self):\n            pass\n');
    assert.deepEqual(py.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}`), ['constant LIMIT 1', 'function top 5', 'class A 9', 'class A.B 10', 'method A.B.m 11']);
    assert.equal(py[1]!.signature, 'def top():');
    const go = await defsOf('a.go', 'package p\n\ntype Router struct{}\n\nfunc (r *Router) Match() {}\n\nfunc New() *Router { return nil }\n');
    assert.deepEqual(go.map((d) => `${d.kind} ${d.qualifiedName}`), ['class Router', 'method Router.Match', 'function New']);
    const rs = await defsOf('a.rs', 'pub struct Tok;\nimpl Tok {\n    pub fn next(&self) {}\n}\npub fn split() {}\n');
    assert.deepEqual(rs.map((d) => `${d.kind} ${d.qualifiedName}`), ['class Tok', 'method Tok.next', 'function split']);
    // serde_json: a macro is called as a function is; an impl for a mutable reference is the type's.
    const serde = await defsOf('ser.rs', "macro_rules! json {\n    () => {};\n}\nimpl<'a, W> ser::Serializer for &'a mut Serializer<W> {\n    fn serialize_map(self) {}\n}\n");
    assert.deepEqual(serde.map((d) => `${d.kind} ${d.qualifiedName}`), ['function json', 'method Serializer.serialize_map']);
    // C: an export macro or a calling convention before the name is not the name.
    const c = await defsOf('cJSON.c', 'CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)\n{\n}\nstatic void * CJSON_CDECL internal_malloc(size_t size)\n{\n    return malloc(size);\n}\n');
    assert.deepEqual(c.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}`), ['function cJSON_Delete 1', 'function internal_malloc 4']);
  });

  it('reads CommonJS\'s definitions: a function assigned to `exports.x`, to a prototype\'s or an object\'s property (joi\'s validator.js defined nothing); its chunk is named by it', async () => {
    const src = [
      "'use strict';",
      'exports.entry = function (value, schema, prefs) {',
      '  return internals.entry(value, schema, prefs);',
      '};',
      'module.exports.standard = async (value) => value;',
      'internals.entry = function (value, schema) {',
      '  return schema.$_validate(value);',
      '};',
      'Router.prototype.use = function use(fn) {',
      '  this.stack.push(fn);',
      '};',
      'internals.Mainstay = class {};',
      'exports.limit = 10;',
      'exports[name] = function () {};',
      '',
    ].join('\n');
    // winston's transports: `module.exports = class File extends TransportStream {…}` is `File`, with its methods.
    const winston = await defsOf('lib/winston/transports/file.js', 'module.exports = class File extends TransportStream {\n  log(info, callback) {\n    callback();\n  }\n};\nmodule.exports = function () {};\n');
    assert.deepEqual(winston.map((d) => `${d.kind} ${d.qualifiedName}`), ['class File', 'method File.log']);
    const defs = await defsOf('lib/validator.js', src);
    assert.deepEqual(defs.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`), [
      'function entry 2-4', 'function standard 5-5', 'method internals.entry 6-8', 'method Router.use 9-11', 'class internals.Mainstay 12-12',
    ]);
    const body = Array.from({ length: 70 }, (_, i) => `  const v${i} = value + ${i};`).join('\n');
    const chunks = await chunkText(`exports.entry = function (value) {\n${body}\n  return value;\n};\n`, languageOf('validator.js')!);
    assert.ok(chunks.every((c) => c.symbol === 'entry'), chunks.map((c) => c.symbol).join(' | '));
  });

  it('reads a Vue or Svelte component\'s `<script>` definitions, at their lines in the file, when chunking and when parsing stored text', async () => {
    const vue = ['<template>', '  <div>{{ title }}</div>', '</template>', '', '<script>', 'import api from "./api";', 'function slugify(title) {', '  return title.toLowerCase();', '}', 'export default {', '  methods: { slugify },', '};', '</script>', ''].join('\n');
    const svelte = ['<script lang="ts">', '  export let name: string;', '  function handleClick(): void {', '    name = name.trim();', '  }', '</script>', '', '<button on:click={handleClick}>{name}</button>', ''].join('\n');
    for (const [file, text, want] of [['ArticleEdit.vue', vue, 'function slugify 7-9'], ['Button.svelte', svelte, 'function handleClick 3-5']] as const) {
      let chunked: FileSymbol[] = [];
      await chunkText(text, languageOf(file), (root, lines, firstLine) => (chunked = extractDefinitions(root, lines, firstLine)));
      assert.deepEqual(chunked.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`), [want], file);
      let parsed: FileSymbol[] = [];
      assert.ok(await parseText(text, languageOf(file), (root, lines, firstLine) => (parsed = extractDefinitions(root, lines, firstLine))));
      assert.deepEqual(parsed, chunked, `${file}: the symbol index rebuilt from stored text reads the same`);
    }
  });

  it('reads the attributes a Python class\'s `__init__` sets on self, once each, as the class\'s (not its locals, nor a nested function\'s)', async () => {
    const py = await defsOf('req.py', 'class Request:\n    def __init__(self, body=None):\n        self.body = body or b""\n        if body:\n            self.parsed: dict = {}\n        self.body = b"x"\n        local = 1\n        def cb():\n            self.hidden = 2\n\n    def json(self):\n        self.cache = 1\n');
    assert.deepEqual(py.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}${d.attribute ? ' attribute' : ''}`), [
      'class Request 1', 'method Request.__init__ 2', 'variable Request.body 3 attribute', 'variable Request.parsed 5 attribute', 'method Request.json 11',
    ]);
    const idx = new SymbolIndex();
    idx.setFile('/w/req.py', 'req.py', 'python', py);
    assert.deepEqual(idx.find('Request.body').map((d) => `${d.qualifiedName}:${d.startLine}`), ['Request.body:3'], 'by its qualified name');
    assert.deepEqual(idx.find('body'), [], 'not by the bare name, which every class sets');
    assert.ok(!idx.hasName('body'));
    assert.equal(idx.enclosing('/w/req.py', 3)?.qualifiedName, 'Request.__init__', 'a reference on that line is in __init__');
    assert.equal(idx.size, 3, 'counted apart from the definitions');
  });

  it('reads a TypeScript class\'s fields and what its constructor sets on `this`, and a Go struct\'s named fields, as attributes', async () => {
    const ts = await defsOf('hono.ts', 'export class Hono {\n  router: Router = new TrieRouter()\n  private errorHandler = (e) => e\n  constructor(options = {}) {\n    this.getPath = options.getPath ?? getPath\n    if (options.strict) { this.strict = true }\n    const f = () => { this.hidden = 1 }\n  }\n}\n');
    assert.deepEqual(ts.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}${d.attribute ? ' attribute' : ''}`), [
      'class Hono 1', 'variable Hono.router 2 attribute', 'method Hono.errorHandler 3', 'method Hono.constructor 4', 'variable Hono.getPath 5 attribute', 'variable Hono.strict 6 attribute',
    ]);
    const go = await defsOf('app.go', 'package fiber\n\ntype App struct {\n\tconfig Config\n\tmutex, lock sync.Mutex\n\t*Router\n}\n');
    assert.deepEqual(go.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}${d.attribute ? ' attribute' : ''}`), [
      'class App 3', 'variable App.config 4 attribute', 'variable App.mutex 5 attribute', 'variable App.lock 5 attribute',
    ]);
  });

  it('reads Java\'s and C#\'s fields, C#\'s and PHP\'s properties, Rust\'s and C++\'s struct fields, Ruby\'s `initialize` as attributes, not a method\'s declaration', async () => {
    const attrs = async (rel: string, text: string) => (await defsOf(rel, text)).map((d) => `${d.kind} ${d.qualifiedName}${d.attribute ? ' attribute' : ''}`);
    assert.deepEqual(await attrs('Gson.java', 'public final class Gson {\n  private final List<TypeAdapterFactory> factories, extra;\n  public Gson() { }\n}\n'),
      ['class Gson', 'variable Gson.factories attribute', 'variable Gson.extra attribute', 'method Gson.Gson']);
    assert.deepEqual(await attrs('Logger.cs', 'public sealed class Logger : ILogger\n{\n    readonly ILogEventSink _sink;\n    public LogEventLevel MinimumLevel { get; }\n    public void Write(LogEvent e) { }\n}\n'),
      ['class Logger', 'variable Logger._sink attribute', 'variable Logger.MinimumLevel attribute', 'method Logger.Write']);
    assert.deepEqual(await attrs('App.php', '<?php\nclass App\n{\n    protected ?RouteResolverInterface $routeResolver = null;\n    public function run(): void {}\n}\n'),
      ['class App', 'variable App.routeResolver attribute', 'method App.run']);
    assert.deepEqual(await attrs('router.rs', 'pub struct Router<S> {\n    inner: Arc<RouterInner<S>>,\n    pub(crate) fallback: bool,\n}\n'),
      ['class Router', 'variable Router.inner attribute', 'variable Router.fallback attribute']);
    assert.deepEqual(await attrs('server.cpp', 'struct Server {\n  int port;\n  void start();\n};\n'), ['class Server', 'variable Server.port attribute']);
    // Ruby: what `initialize` sets (`@app = app`, `@cache ||= …`), not a block's.
    assert.deepEqual(await attrs('base.rb', 'class Base\n  def initialize(app = nil)\n    @app = app\n    @cache ||= Cache.new\n    [1].each { @hidden = 1 }\n  end\n\n  def call(env)\n    @env = env\n  end\nend\n'),
      ['class Base', 'method Base.initialize', 'variable Base.app attribute', 'variable Base.cache attribute', 'method Base.call']);
  });

  it('reads Ruby, Java, C# and PHP definitions too (sinatra\'s `halt` was found by no name)', async () => {
    const rb = await defsOf('base.rb', [
      'module Sinatra',
      '  class Base',
      '    def halt(*response)',
      '      throw :halt, response',
      '    end',
      '',
      '    def self.settings',
      '      self',
      '    end',
      '',
      '    class << self',
      '      def get(path, &block)',
      '        route(path, &block)',
      '      end',
      '    end',
      '  end',
      'end',
      '',
    ].join('\n'));
    assert.deepEqual(rb.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`), [
      'module Sinatra 1-17', 'class Sinatra.Base 2-16', 'method Sinatra.Base.halt 3-5', 'method Sinatra.Base.settings 7-9', 'method Sinatra.Base.get 12-14',
    ]);
    const java = await defsOf('Gson.java', 'public final class Gson {\n  public String toJson(Object src) {\n    return "";\n  }\n}\n');
    assert.deepEqual(java.map((d) => `${d.kind} ${d.qualifiedName}`), ['class Gson', 'method Gson.toJson']);
    const cs = await defsOf('Log.cs', 'namespace Serilog\n{\n    public static class Log\n    {\n        public static void Write(string m) { }\n    }\n}\n');
    assert.deepEqual(cs.map((d) => `${d.kind} ${d.qualifiedName}`), ['module Serilog', 'class Serilog.Log', 'method Serilog.Log.Write']);
    const php = await defsOf('App.php', '<?php\nclass App\n{\n    public function run(): void\n    {\n    }\n}\n');
    assert.deepEqual(php.map((d) => `${d.kind} ${d.qualifiedName}`), ['class App', 'method App.run']);
  });
  it('reads Kotlin and Swift definitions, by grammars of their own (javalin\'s .kt files had no names)', async () => {
    const kt = await defsOf('Router.kt', [
      'package io.javalin',
      '',
      '/** Routes requests. */',
      'class Router(private val cfg: Config) : Base(), Handler {',
      '  override fun match(path: String): Handler? {',
      '    return handlers.find { it.matches(path) }',
      '  }',
      '  companion object {',
      '    fun create(): Router = Router(Config())',
      '  }',
      '}',
      '',
      'object Util { fun helper() = 1 }',
      'interface Handler { fun handle(ctx: Context) }',
      'fun topLevel(x: Int): Int = x + 1',
      '',
    ].join('\n'));
    assert.deepEqual(kt.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}`), [
      'class Router 4', 'method Router.match 5', 'method Router.create 9', 'class Util 13', 'method Util.helper 13', 'interface Handler 14', 'method Handler.handle 14', 'function topLevel 15',
    ]);
    assert.deepEqual(kt[0]!.bases, ['Base', 'Handler'], 'the primary constructor names no base');
    const swift = await defsOf('Session.swift', [
      'import Foundation',
      '',
      'open class Session: BaseSession {',
      '    public func request(_ url: URL) -> DataRequest {',
      '        return DataRequest(url)',
      '    }',
      '}',
      '',
      'protocol RequestInterceptor {',
      '    func adapt(_ request: URLRequest) -> URLRequest',
      '}',
      'func topLevel() {}',
      '',
    ].join('\n'));
    assert.deepEqual(swift.map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}`), [
      'class Session 3', 'method Session.request 4', 'interface RequestInterceptor 9', 'method RequestInterceptor.adapt 10', 'function topLevel 12',
    ]);
    const chunks = await chunkText('class Router {\n  fun match(path: String) = path\n}\n', languageOf('Router.kt'));
    assert.equal(chunks[0]!.symbol, 'Router, match');
    // A definition's line reads as one in the answer too: the quote inside `fun match(` is `Router.match`'s.
    const text = ['class Router(private val cfg: Config) {', '  val routes = mutableListOf<Route>()', '  val names = mutableMapOf<String, Route>()', '', '  fun register(route: Route) {', '    routes.add(route)', '    names[route.name] = route', '  }', '', '  fun match(path: String): Handler? {', '    val found = routes.firstOrNull { it.matches(path) }', '    return found?.handler', '  }', '}'].join('\n');
    const [whole] = await chunkText(text, languageOf('Router.kt'));
    assert.equal(whole!.symbol, 'Router, register, match');
    const p: Passage = { index: 0, path: 'src/main/kotlin/Router.kt', startLine: 1, language: 'kotlin', entry: {}, symbol: 'Router › register, match', text };
    const [m] = rankPlaces('how are routes matched to a handler?', [p]);
    assert.equal(quotedSymbol(m!), 'Router.match', m!.quote.join('\n'));
    // A quote stops where the next definition starts, modifiers and all (`override fun`, `public func`).
    const [added] = rankPlaces('how is a route registered?', [{ ...p, text: text.replace('  fun match(', '  override fun match(') }]);
    assert.ok(added!.quote.some((l) => l.includes('names[route.name] = route')), added!.quote.join('\n'));
    assert.ok(!added!.quote.some((l) => l.includes('fun match(')), added!.quote.join('\n'));
  });

});

describe('symbols: what a class inherits', () => {
  it('reads a class\'s bases in every language the index parses, without type arguments, keyword arguments or lifetimes', async () => {
    const basesOf = async (rel: string, text: string) => (await defsOf(rel, text)).filter((d) => d.bases).map((d) => `${d.qualifiedName}: ${d.bases!.join(' ')}`);
    assert.deepEqual(await basesOf('app.py', 'class Sanic(\n    Generic[config_type, ctx_type],\n    StaticHandleMixin,\n    base.BaseSanic,\n    metaclass=TouchUpMeta,\n):\n    pass\n\n\nclass Plain:\n    pass\n'), ['Sanic: Generic StaticHandleMixin BaseSanic']);
    assert.deepEqual(await basesOf('client.ts', 'export class QueryClient<T extends Key = Key> extends core.QueryClient<T> implements Client, Store<T> {\n  m() {}\n}\ninterface Ref extends Readable, Writable { x(): void }\n'), ['QueryClient: QueryClient Client Store', 'Ref: Readable Writable']);
    assert.deepEqual(await basesOf('GsonBuilder.java', 'public final class GsonBuilder<T> extends Builder<T> implements Cloneable {\n  void m() {}\n}\n'), ['GsonBuilder: Builder Cloneable']);
    assert.deepEqual(await basesOf('Logger.cs', 'public sealed class Logger : ILogger, ILogEventSink, IDisposable\n{\n    void M() { }\n}\n'), ['Logger: ILogger ILogEventSink IDisposable']);
    assert.deepEqual(await basesOf('base.rb', 'class Base < Sinatra::Helpers\n  def halt; end\nend\n'), ['Base: Helpers']);
    // A comment above the first method is no base (rake's `class FileTask < Task` had "Is", "this", "file" as bases).
    assert.deepEqual(await basesOf('file_task.rb', 'module Rake\n  class FileTask < Task\n\n    # Is this file task needed?  Yes if it does not exist.\n    def needed?\n      true\n    end\n  end\nend\n'), ['Rake.FileTask: Task']);
    assert.deepEqual(await basesOf('App.php', '<?php\nclass App extends RouteCollectorProxy implements RequestHandlerInterface\n{\n    public function run() {}\n}\n'), ['App: RouteCollectorProxy RequestHandlerInterface']);
    assert.deepEqual(await basesOf('handler.rs', "pub trait Handler<T>: Clone + Send + 'static {\n    fn call(self);\n}\npub struct Plain<T> { a: T }\n"), ['Handler: Clone Send']);
    // Go: a struct's embedded fields, not its named ones.
    assert.deepEqual(await basesOf('app.go', 'package fiber\n\ntype App struct {\n\t*Router\n\tmutex sync.Mutex\n\tcore.Hooks\n}\n'), ['App: Router Hooks']);
  });

  it('a class\'s method that the class does not define is the one its bases define, depth first; its own definition wins; a cycle ends', async () => {
    const index = new SymbolIndex();
    const add = async (rel: string, text: string) => index.setFile(`/r/${rel}`, rel, languageOf(rel).id, await defsOf(rel, text));
    await add('app.py', 'from .base import BaseApp\nfrom .startup import StartupMixin\n\n\nclass App(BaseApp, StartupMixin):\n    def stop(self):\n        pass\n');
    await add('base.py', 'class RouteMixin:\n    def route(self, uri):\n        pass\n\n\nclass BaseApp(RouteMixin):\n    def stop(self):\n        pass\n');
    await add('startup.py', 'class StartupMixin:\n    def run(self):\n        pass\n\n    def route(self, uri):\n        pass\n');
    await add('loop.py', 'class Ping(Pong):\n    pass\n\n\nclass Pong(Ping):\n    pass\n');
    const where = (name: string) => index.find(name, { exact: true }).filter((d) => d.match <= 1).map((d) => `${d.relativePath} ${d.qualifiedName}`);
    assert.deepEqual(where('App.run'), ['startup.py StartupMixin.run']);
    // Depth first and left to right: BaseApp's RouteMixin before StartupMixin.
    assert.deepEqual(where('App.route'), ['base.py RouteMixin.route']);
    assert.deepEqual(where('App.stop'), ['app.py App.stop'], 'the class\'s own method, not its base\'s');
    assert.deepEqual(where('Ping.run'), []);
    assert.deepEqual(where('app.run'), [], 'an instance is no class');
  });
  it('an interface\'s method is defined where its implementations define it: declared (`implements Ctx`) or, in Go, a type named after it that embeds the method\'s owner', async () => {
    const index = new SymbolIndex();
    const add = async (rel: string, text: string) => index.setFile(`/r/${rel}`, rel, languageOf(rel).id, await defsOf(rel, text));
    await add('ctx_interface.go', 'package fiber\n\n// Ctx is the request context.\ntype Ctx interface {\n\t// JSON sends a JSON response.\n\tJSON(data any) error\n\tfmt.Stringer\n}\n');
    await add('ctx.go', 'package fiber\n\ntype DefaultCtx struct {\n\tDefaultRes\n\tapp *App\n}\n');
    await add('res.go', 'package fiber\n\ntype DefaultRes struct{}\n\nfunc (r *DefaultRes) JSON(data any) error {\n\treturn nil\n}\n');
    await add('bind.go', 'package fiber\n\ntype Bind struct{}\n\nfunc (b *Bind) JSON(out any) error {\n\treturn nil\n}\n');
    await add('store.ts', 'export interface Store {\n  get(key: string): string\n}\nexport class MemoryStore implements Store {\n  get(key: string) { return this.map[key] }\n}\nexport class Cache {\n  get(key: string) { return null }\n}\n');
    const where = (name: string) => index.find(name, { exact: true }).filter((d) => d.match <= 1).map((d) => `${d.relativePath} ${d.qualifiedName}`);
    assert.deepEqual(where('Ctx.JSON').sort(), ['ctx_interface.go Ctx.JSON', 'res.go DefaultRes.JSON']);
    assert.deepEqual(where('Store.get').sort(), ['store.ts MemoryStore.get', 'store.ts Store.get']);
    assert.deepEqual(index.implementations('DefaultRes', 'JSON'), [], 'a struct is no interface');
    assert.deepEqual((await defsOf('ctx_interface.go', 'package fiber\n\ntype Ctx interface {\n\tJSON(data any) error\n\tfmt.Stringer\n}\n')).map((d) => `${d.kind} ${d.qualifiedName} ${(d.bases ?? []).join(' ')}`), ['interface Ctx Stringer', 'method Ctx.JSON ']);
  });

});

describe('symbols: names an issue writes as words', function () {
  this.timeout(120_000);
  const def = (name: string, startLine = 1): FileSymbol => ({ name, qualifiedName: name, kind: 'function', startLine, endLine: startLine + 2 });

  it('finds the tests named after a name: "test" and the name\'s words, maybe more after them, in test files only', () => {
    const idx = new SymbolIndex();
    idx.setFile('/w/bind.go', 'bind.go', 'go', [{ ...def('BindQueryParams', 5), kind: 'method', qualifiedName: 'DefaultBinder.BindQueryParams' }, def('TestLikeHelperBindQueryParams', 20)]);
    idx.setFile('/w/bind_test.go', 'bind_test.go', 'go', [def('TestBindQueryParamsCaseInsensitive', 30), def('TestBindQueryParams', 3), def('TestBindForm', 12), def('TestRebindQueryParams', 40)]);
    idx.setFile('/w/tests/test_binding.py', 'tests/test_binding.py', 'python', [def('test_bind_query_params_repeated', 8)]);
    assert.deepEqual(idx.testsNamedAfter('DefaultBinder.BindQueryParams').map((x) => x.def.name), ['TestBindQueryParams', 'test_bind_query_params_repeated', 'TestBindQueryParamsCaseInsensitive']);
    assert.ok(isTestNamedAfter('test_bind_query_params', 'BindQueryParams'));
    assert.ok(!isTestNamedAfter('TestRebindQueryParams', 'BindQueryParams'), 'another name that ends like it');
    assert.ok(!isTestNamedAfter('TestRun', 'run'), 'a name too short to say');
  });

  it('finds a definition whose whole name is two or three neighbouring words, not one split by a dot, in a test, or defined everywhere', () => {
    const idx = new SymbolIndex();
    idx.setFile('/w/core/formatting.py', 'core/formatting.py', 'python', [def('helper'), def('dataset_repr', 7)]);
    idx.setFile('/w/printing/latex.py', 'printing/latex.py', 'python', [{ ...def('LatexPrinter', 3), kind: 'class' }]);
    idx.setFile('/w/matrices/dense.py', 'matrices/dense.py', 'python', [def('matrix_zeros', 4)]);
    idx.setFile('/w/tests/test_repr.py', 'tests/test_repr.py', 'python', [def('long_repr_check')]);
    for (const f of ['a', 'b', 'c', 'd']) idx.setFile(`/w/${f}.py`, `${f}.py`, 'python', [def('load_config')]);
    assert.deepEqual([...idx.phraseMatches('It would be nice to show units in the `Dataset` repr, as the LaTeX printer does.')], [
      ['/w/core/formatting.py', 7],
      ['/w/printing/latex.py', 3],
    ]);
    // `Matrix.zeros(0, 3)` is a call, not the words "matrix zeros"; words of an identifier are not apart.
    assert.deepEqual([...idx.phraseMatches('Matrix.zeros(0, 3) and dataset_repr_html changed')], []);
    assert.deepEqual([...idx.phraseMatches('a long repr check in the tests, and we load config at start')], [], 'a test\'s name, and a name four files define, say nothing');
  });

  it('between names of the question\'s words that score the same, the one that does something: a function before an interface or a type', () => {
    const idx = new SymbolIndex();
    idx.setFile('/w/router/utils.ts', 'router/utils.ts', 'typescript', [
      { ...def('RouteMatch', 10), kind: 'interface' },
      { ...def('DataRouteMatch', 30), kind: 'interface' },
      { ...def('matchRoutes', 60), kind: 'function' },
    ]);
    idx.setFile('/w/other.ts', 'other.ts', 'typescript', [def('createBrowserHistory')]);
    const query = new Map([['router', 1], ['match', 1], ['url', 1], ['rout', 1]]);
    const found = idx.nameMatches(query, () => 3);
    assert.equal(found.get('/w/router/utils.ts')?.def.name, 'matchRoutes');
    // Alone with its words, the interface is still found.
    idx.setFile('/w/router/utils.ts', 'router/utils.ts', 'typescript', [{ ...def('RouteMatch', 10), kind: 'interface' }]);
    assert.equal(idx.nameMatches(query, () => 3).get('/w/router/utils.ts')?.def.name, 'RouteMatch');
  });

  describe('in the core', () => {
    const cores = realCore('phrases');

    it('"the text of an element" names `Element.text`, and "the outer html of an element" the `outerHtml` an element inherits', async () => {
      const { dir: repo, write } = cores.repo();
      const filler = (n: number) => Array.from({ length: n }, (_, i) => `  public int counter${i}() { return ${i}; }`).join('\n');
      write('src/nodes/Node.java', `public abstract class Node {\n  /** The node and its children as markup. */\n  public String outerHtml() {\n    StringBuilder accum = new StringBuilder();\n    outerHtmlHead(accum);\n    return accum.toString();\n  }\n  abstract void outerHtmlHead(StringBuilder accum);\n${filler(30)}\n}\n`);
      write('src/nodes/Element.java', `public class Element extends Node {\n${filler(40)}\n  /** Gets the combined text of this element and all its children. */\n  public String text() {\n    StringBuilder accum = new StringBuilder();\n    return accum.toString().trim();\n  }\n${filler(40)}\n  void outerHtmlHead(StringBuilder accum) {}\n}\n`);
      write('src/select/Elements.java', [
        'public class Elements extends ArrayList<Element> {',
        '  /** The combined text of all the matched elements: each element\'s text, joined by a space. */',
        '  public String text() {',
        '    StringBuilder sb = new StringBuilder();',
        '    for (Element element : this) {',
        '      if (sb.length() != 0) sb.append(" ");',
        '      sb.append(element.text());',
        '    }',
        '    return sb.toString();',
        '  }',
        '  /** The outer html of each element, joined. */',
        '  public String outerHtml() {',
        '    StringBuilder sb = new StringBuilder();',
        '    for (Element element : this) sb.append(element.outerHtml());',
        '    return sb.toString();',
        '  }',
        '}',
        '',
      ].join('\n'));
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const first = (q: string) => engine.search(q).hits[0]!.chunk;
      const text = first('how do I get the text of an element?');
      assert.equal(text.rel, 'src/nodes/Element.java', rankedFiles(engine, 'how do I get the text of an element?').join(', '));
      assert.match(text.text, /public String text\(\)/);
      assert.equal(first('what is the outer html of an element?').rel, 'src/nodes/Node.java');
      // Of the elements (plural, the list's class), the list's own method.
      assert.equal(first('how is the text of all the elements joined?').rel, 'src/select/Elements.java');
    });

    it('a question (and, weighed in, an issue) that writes a function\'s name as words ranks the file defining it higher', async () => {
      const { dir: repo, write } = cores.repo();
      write('pkg/formatting.py', [
        'def summarize_units(var):',
        "    # A variable's units, shown as in metres or in mm, for the units of coordinates and data variables.",
        '    return var.attrs.get("units", "")',
        '',
        'def dataset_repr(ds):',
        '    """The text shown for a dataset: its coordinates and data variables."""',
        '    lines = [summarize_header(ds)]',
        '    lines += [summarize_variable(name, var) for name, var in ds.items()]',
        '    return "\\n".join(lines)',
        '',
      ].join('\n'));
      // The issue's other words.
      write('pkg/dataset.py', 'class Dataset:\n    """A dataset: coordinates and data variables, each with its units and attributes."""\n    def __repr__(self):\n        return formatting.dataset_repr(self)\n');
      write('pkg/units.py', 'def convert_units(variable, units):\n    """Convert the units of a data variable; the units of coordinates are kept. Units in metres, units in mm."""\n    return variable.to(units)\n');
      write('pkg/coordinates.py', 'class Coordinates:\n    """The coordinates of a dataset."""\n');
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const issue = [
        'Feature request: show units in dataset overview',
        '',
        'It would be really nice if the units of the coordinates and of the data variables were shown in the `Dataset` repr, for example:',
        '```',
        'Coordinates:',
        '  * x, in metres   (x)   float64',
        'Data variables:',
        '    rainfall, in mm   (time, y, x)   float32',
        '```',
      ].join('\n');
      // Off by default for issue and commit texts (it cost more rows than it gained on commits of
      // seven repositories outside the dev sets), still there to weigh in.
      // With it, the file defining dataset_repr.
      assertLifts(engine, issue, 'pkg/formatting.py', {}, { phraseTextW: 0.15 }, 'the phrase');
      const question = 'How are the units of each coordinate and data variable shown in the dataset repr?';
      // A question also reads a name's words anywhere in it (nameW); the neighbouring words alone lift the file too.
      assert.equal(rankedFiles(engine, question, { nameW: 0, phraseW: 0 })[0], 'pkg/dataset.py');
      assert.equal(rankedFiles(engine, question, { nameW: 0 })[0], 'pkg/formatting.py');
    });
  });
});

describe('symbols: a method defined in several files', function () {
  this.timeout(60_000);
  const cores = realCore('overrides');

  it('asked how a method works, the method a subclass overrides and calls through super comes before the override (TypeScript, Python)', async () => {
    const { dir: repo, write } = cores.repo();
    // A framework wrapper's subclass (vue-query's QueryClient) says the name more often than the core.
    write('packages/core/src/queryClient.ts', [
      'export class QueryClient {',
      '  invalidateQueries(filters = {}) {',
      '    this.cache.findAll(filters).forEach((query) => query.invalidate())',
      '    return this.refetchQueries(filters)',
      '  }',
      '}',
      '',
    ].join('\n'));
    write('packages/vue/src/queryClient.ts', [
      "import { QueryClient as QC } from '@core/queryClient'",
      '// invalidateQueries with reactive filters: invalidateQueries unwraps them, then invalidateQueries of the core.',
      'export class QueryClient extends QC {',
      '  invalidateQueries(filters: Ref<Filters>): Promise<void>',
      '  invalidateQueries(filters = {}) {',
      '    const cloned = cloneDeepUnref(filters)',
      "    super.invalidateQueries({ ...cloned, refetchType: 'none' })",
      '    return nextTick().then(() => super.refetchQueries(cloned))',
      '  }',
      '}',
      '',
    ].join('\n'));
    write('app/models.py', [
      'class Model:',
      '    def save(self, using=None):',
      '        """Write the row to the database."""',
      '        self._do_insert(using)',
      '',
      '',
      'class Timestamped(Model):',
      '    def save(self, *args, **kwargs):',
      '        self.updated = now()',
      '        super().save(*args, **kwargs)',
      '',
    ].join('\n'));
    write('app/admin.py', [
      'from .models import Model',
      '',
      '',
      'class AuditedModel(Model):',
      '    """save: each save of an audited model is logged before save writes it."""',
      '    def save(self, *args, **kwargs):',
      '        audit.log("save", self)',
      '        return super(AuditedModel, self).save(*args, **kwargs)',
      '',
    ].join('\n'));
    const core = await cores.open(repo);
    const engine = core.index.engine;
    assert.deepEqual(rankedFiles(engine, 'how does invalidateQueries work?').slice(0, 2), ['packages/core/src/queryClient.ts', 'packages/vue/src/queryClient.ts']);
    // The file that defines the overridden method keeps its place though it overrides it as well.
    assert.deepEqual(rankedFiles(engine, 'how does save work?').slice(0, 2), ['app/models.py', 'app/admin.py']);
  });

  it('a qualified name resolves to its own declaration, even in a passage that does not show its class, unless something implements it', async () => {
    const { dir: repo, write } = cores.repo('resolved');
    write('src/ILogger.cs', ['namespace Serilog', '{', '    public interface ILogger', '    {', '        /// <summary>Write an event to the log.</summary>', '        void Write(LogEvent logEvent);', '    }', '}', ''].join('\n'));
    write('src/SilentLogger.cs', ['namespace Serilog', '{', '    class SilentLogger : ILogger, ILogEventSink', '    {', '        public void Write(LogEvent logEvent) { }', '    }', '    class OtherLogger : ILogger', '    {', '        public void Write(LogEvent logEvent) { }', '    }', '    class ThirdLogger : ILogger', '    {', '        public void Write(LogEvent logEvent) { }', '    }', '    class FourthLogger : ILogger', '    {', '        public void Write(LogEvent logEvent) { }', '    }', '}', ''].join('\n'));
    const core = await cores.open(repo);
    await core.index.symbolsReady();
    // Four implementations name none: the interface's own declaration is what `ILogger.Write` is.
    assert.deepEqual(core.index.definitionsOf('ILogger.Write').map((d) => [path.basename(d.path), d.qualifiedName, d.via ?? '']), [['ILogger.cs', 'Serilog.ILogger.Write', '']]);
    assert.deepEqual(core.index.definitionsOf('Write'), [], 'a plain name');
    // The answer knows the declaration's passage for the definition asked about, though it shows no `interface ILogger`.
    const decl: Passage = { index: 0, path: 'src/ILogger.cs', startLine: 5, endLine: 6, text: '        /// <summary>Write an event to the log.</summary>\n        void Write(LogEvent logEvent);', language: 'cs', symbol: 'Write', retrieval: 0.9, entry: {}, resolved: [{ name: 'ILogger.Write', definition: 'Serilog.ILogger.Write' }] };
    const silent: Passage = { index: 1, path: 'src/SilentLogger.cs', startLine: 3, endLine: 6, text: '    class SilentLogger : ILogger, ILogEventSink\n    {\n        public void Write(LogEvent logEvent) { }\n    }', language: 'cs', symbol: 'SilentLogger', retrieval: 1, entry: {} };
    const [first] = rankPlaces('what does ILogger.Write do?', [decl, silent]);
    assert.equal(first!.passage.path, 'src/ILogger.cs');
    assert.match(leadSentence([first!]), /^`ILogger\.Write` in .* defines it\.$/);
  });

  it('asked where a class is used, code that makes one comes before a docstring\'s examples, which references list after the code', async () => {
    const { dir: repo, write } = cores.repo('docstrings');
    write('routing/rules.py', [
      'class Rule:',
      '    """A URL rule."""',
      '',
      '',
      'class Subdomain:',
      '    """All URLs of this factory have the subdomain set::',
      '',
      '        url_map = Map([',
      "            Rule('/', endpoint='index'),",
      "            Rule('/about', endpoint='about'),",
      "            Rule('/help', endpoint='help'),",
      '        ])',
      '    """',
      '',
      '    def get_rules(self, map):',
      '        return self.rules',
      '',
    ].join('\n'));
    write('routing/map.py', 'from .rules import Rule\n\n\nclass Map:\n    def add_url(self, path, endpoint):\n        self.rules.append(Rule(path, endpoint=endpoint))\n');
    const core = await cores.open(repo);
    assert.equal(rankedFiles(core.index.engine, 'where is the Rule class used?')[0], 'routing/map.py');
    const pieces = [
      { file: path.join(repo, 'routing/rules.py'), rel: 'routing/rules.py', startLine: 1, text: fs.readFileSync(path.join(repo, 'routing/rules.py'), 'utf8') },
      { file: path.join(repo, 'routing/map.py'), rel: 'routing/map.py', startLine: 1, text: fs.readFileSync(path.join(repo, 'routing/map.py'), 'utf8') },
    ];
    const refs = findReferences('Rule', pieces, new SymbolIndex());
    assert.deepEqual(refs.filter((r) => r.kind === 'call').map((r) => [r.relativePath, r.startLine, !!r.inDocstring]), [['routing/map.py', 6, false], ['routing/rules.py', 9, true], ['routing/rules.py', 10, true], ['routing/rules.py', 11, true]]);
  });
});

describe('symbols: SymbolsFind and SymbolsReferences in the real worker', function () {
  this.timeout(120_000);
  let dataDir: string;
  let repo: string;
  let w: WorkerHandle | undefined;
  const noModels = { ASKCODE_MODELS_DIR: path.join(os.tmpdir(), 'askcode-no-models') };
  const ready = (h: WorkerHandle) =>
    waitFor(async () => {
      const s = await h.request(IndexStatus, undefined);
      return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
    }, 'the index to be ready');

  /** Writes a file of the repository, its folders first. */
  const writeLines = (rel: string, lines: string[]) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), lines.join('\n'));
  };

  /** Writes `files` into the repository and starts the real worker on it, indexed. */
  const indexed = async (files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      fs.writeFileSync(path.join(repo, rel), text);
    }
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    return w;
  };
  /** Where `name` is referenced in a repository of `files`. */
  const referencesIn = async (files: Record<string, string>, name: string) => (await (await indexed(files)).request(SymbolsReferences, { name })).references;
  /** The answer's text to `query` over a repository of `files`. */
  const answerFor = async (files: Record<string, string>, query: string) =>
    (await (await indexed(files)).request(QgptRelevance, { query, options: { database: true, question: true } })).answer!.answers.iterable[0]!.text;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-sym-'));
    repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-symrepo-')));
    makeSymbolRepo(repo);
  });
  afterEach(async () => {
    await w?.stop();
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('finds definitions by plain, qualified and partial names, code before tests', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const { definitions: router } = await w.request(SymbolsFind, { name: 'TrieRouter' });
    assert.equal(router.length, 1);
    assert.deepEqual(
      { ...router[0], path: path.relative(repo, router[0]!.path) },
      { path: 'src/router/trie.ts', relativePath: 'src/router/trie.ts', startLine: 3, endLine: 14, name: 'TrieRouter', qualifiedName: 'TrieRouter', kind: 'class', language: 'typescript', signature: 'export class TrieRouter {' },
    );
    const { definitions: he } = await w.request(SymbolsFind, { name: 'Flask.handle_exception' });
    assert.deepEqual(he.map((d) => [d.relativePath, d.qualifiedName, d.kind, d.startLine]), [['pkg/app.py', 'Flask.handle_exception', 'method', 7]]);
    const { definitions: byRust } = await w.request(SymbolsFind, { name: 'Flask::handle_exception' });
    assert.equal(byRust[0]?.qualifiedName, 'Flask.handle_exception');
    const { definitions: partial } = await w.request(SymbolsFind, { name: 'handle_exc' });
    assert.deepEqual(partial.map((d) => d.qualifiedName), ['Flask.handle_exception'], 'a prefix matches');
    const { definitions: consts } = await w.request(SymbolsFind, { name: 'MAX_CONTENT_LENGTH', kind: 'constant' });
    assert.equal(consts[0]?.relativePath, 'pkg/app.py');
    assert.equal((await w.request(SymbolsFind, { name: 'TrieRouter', kind: 'function' })).definitions.length, 0);
    assert.equal((await w.request(SymbolsFind, { name: 'trierouter' })).definitions[0]?.name, 'TrieRouter', 'case-insensitive last');
    assert.equal((await w.request(SymbolsFind, { name: 'inner_local_nowhere' })).definitions.length, 0);
  });

  it('finds a Vue component\'s `<script>` definitions in the real worker, also after a restart reads them from the stored index', async () => {
    writeLines('src/components/ArticleEdit.vue', [
      '<template>',
      '  <input v-model="title" @change="onTitle" />',
      '</template>',
      '',
      '<script>',
      'function slugifyTitle(title) {',
      '  return title.toLowerCase().replace(/\\s+/g, "-");',
      '}',
      'export default { methods: { slugifyTitle } };',
      '</script>',
      '',
    ]);
    const want = [['src/components/ArticleEdit.vue', 'slugifyTitle', 'function', 6, 'vue']];
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const first = (await w.request(SymbolsFind, { name: 'slugifyTitle' })).definitions;
    assert.deepEqual(first.map((d) => [d.relativePath, d.qualifiedName, d.kind, d.startLine, d.language]), want);
    await w.stop();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const again = (await w.request(SymbolsFind, { name: 'slugifyTitle' })).definitions;
    assert.deepEqual(again.map((d) => [d.relativePath, d.qualifiedName, d.kind, d.startLine, d.language]), want, 'rebuilt from the stored chunks');
  });

  it('finds Kotlin and Swift definitions in the real worker, by the grammars it loads for them', async () => {
    fs.mkdirSync(path.join(repo, 'src', 'main', 'kotlin'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'main', 'kotlin', 'ExceptionMapper.kt'), [
      'package io.javalin.router',
      '',
      'class ExceptionMapper(private val cfg: RouterConfig) {',
      '  fun handle(exception: Exception, ctx: Context) {',
      '    val handler = findByClass(exception.javaClass)',
      '    handler?.handle(exception, ctx) ?: uncaughtException(ctx, exception)',
      '  }',
      '}',
      '',
    ].join('\n'));
    fs.mkdirSync(path.join(repo, 'Source'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'Source', 'Session.swift'), [
      'import Foundation',
      '',
      'open class Session {',
      '    public func request(_ url: URL) -> DataRequest {',
      '        return DataRequest(url)',
      '    }',
      '}',
      '',
    ].join('\n'));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const { definitions: kt } = await w.request(SymbolsFind, { name: 'ExceptionMapper.handle' });
    assert.deepEqual(kt.map((d) => [d.relativePath, d.qualifiedName, d.kind, d.startLine, d.language]), [['src/main/kotlin/ExceptionMapper.kt', 'ExceptionMapper.handle', 'method', 4, 'kotlin']]);
    const { definitions: swift } = await w.request(SymbolsFind, { name: 'Session.request' });
    assert.deepEqual(swift.map((d) => [d.relativePath, d.qualifiedName, d.kind, d.startLine]), [['Source/Session.swift', 'Session.request', 'method', 4]]);
  });

  it('a qualified name finds the method a class inherits from a mixin named after it, or a module\'s definition; callers in code come before examples and tests', async () => {
    fs.mkdirSync(path.join(repo, 'web', 'config'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'web', 'config', 'routes.py'), [
      'class RoutesConfiguratorMixin:',
      '    def add_route(self, name, pattern):',
      '        self.routes[name] = pattern',
      '',
      '    def add_route_predicate(self, name, factory):',
      '        self.predicates[name] = factory',
      '',
      '',
      'def route_url(name):',
      "    return '/' + name",
      '',
      '',
      'class URLMethodsMixin:',
      '    def route_url(self, name):',
      '        return route_url(name)',
      '',
    ].join('\n'));
    fs.writeFileSync(path.join(repo, 'web', 'config', '__init__.py'), 'from .routes import RoutesConfiguratorMixin\n\n\nclass Configurator(RoutesConfiguratorMixin):\n    def commit(self):\n        pass\n');
    // Callers in the code, in a documentation example and in a test.
    fs.writeFileSync(path.join(repo, 'web', 'app.py'), 'def main(config):\n    config.add_route("home", "/")\n');
    // A template literal: its text is a message, its `${…}` code.
    fs.writeFileSync(path.join(repo, 'web', 'guard.ts'), 'export function guard(ok: boolean, add_route: (n: string) => string) {\n  if (!ok) throw new Error(`add_route() may be used only inside a configurator`);\n  return `${add_route(\'x\')} added`;\n}\n');
    fs.mkdirSync(path.join(repo, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'docs', 'example.py'), 'config.add_route("hello", "/hello")\n');
    fs.mkdirSync(path.join(repo, 'tests'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'tests', 'test_routes.py'), 'def test_add(config):\n    config.add_route("a", "/a")\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const { definitions } = await w.request(SymbolsFind, { name: 'Configurator.add_route' });
    assert.deepEqual(definitions.map((d) => d.qualifiedName), ['RoutesConfiguratorMixin.add_route', 'RoutesConfiguratorMixin.add_route_predicate'], 'the inherited method, then the prefix');
    const { definitions: unrelated } = await w.request(SymbolsFind, { name: 'Flask.add_route' });
    assert.ok(!unrelated.some((d) => d.qualifiedName === 'RoutesConfiguratorMixin.add_route'), 'an owner that does not hold the name asked is no match');
    // A module path before the name: the definition in that module.
    const { definitions: byModule } = await w.request(SymbolsFind, { name: 'web.config.routes.route_url' });
    assert.deepEqual(byModule.map((d) => [d.relativePath, d.qualifiedName]), [['web/config/routes.py', 'route_url']]);
    const { definitions: byPackage } = await w.request(SymbolsFind, { name: 'config.Configurator' });
    assert.equal(byPackage[0]?.relativePath, 'web/config/__init__.py', 'a package names its __init__.py');
    // Who calls it: the project's code, then the documentation's example, then the test.
    const { references } = await w.request(SymbolsReferences, { name: 'Configurator.add_route', callsOnly: true });
    assert.deepEqual(references.map((r) => `${r.relativePath}:${r.startLine}`), ['web/app.py:2', 'web/guard.ts:3', 'docs/example.py:1', 'tests/test_routes.py:2']);
  });

  it('asked what a class\'s inherited method does, the search ranks and the answer cites the base that defines it, saying the class inherits it', async () => {
    fs.mkdirSync(path.join(repo, 'srv', 'mixins'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'srv', 'app.py'), [
      'from .mixins.startup import StartupMixin',
      '',
      '',
      'class App(StartupMixin):',
      '    """The app: run its delayed tasks with App.run_delayed_task once the app runs."""',
      '',
      '    async def run_delayed_task(self, task):',
      '        """Run a delayed task of the app once the app runs; the app awaits each run."""',
      '        await task(self)',
      '',
    ].join('\n'));
    fs.writeFileSync(path.join(repo, 'srv', 'mixins', 'startup.py'), 'class StartupMixin:\n    def run(self, host=None, port=None):\n        """Serve until stopped."""\n        self.serve(host, port)\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const { definitions } = await w.request(SymbolsFind, { name: 'App.run' });
    assert.equal(definitions[0]?.qualifiedName, 'StartupMixin.run');
    const out = await w.request(QgptRelevance, { query: 'what does App.run do?', options: { database: true, question: true } });
    assert.equal(path.relative(repo, out.relevant.iterable[0]?.path ?? ''), path.join('srv', 'mixins', 'startup.py'));
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`StartupMixin\.run` in \[`srv\/mixins\/startup\.py:1-4`\]\([^)]+\) defines it \(`App` inherits it\)/, text);
  });

  it('a qualified name finds the attribute a class\'s `__init__` sets, also one the class inherits, and the answer cites it', async () => {
    fs.mkdirSync(path.join(repo, 'srv'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'srv', 'base.py'), 'class App:\n    """The application."""\n\n    def __init__(self, name):\n        self.name = name\n        #: The configuration of the app, a dict of its settings.\n        self.config = make_config(name)\n');
    fs.writeFileSync(path.join(repo, 'srv', 'web.py'), 'from .base import App\n\n\nclass Web(App):\n    """The web application: its config, its routes."""\n\n    def route(self, rule):\n        return self.config.get(rule)\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    assert.deepEqual((await w.request(SymbolsFind, { name: 'Web.config' })).definitions.map((d) => `${d.qualifiedName}:${d.startLine}:${d.kind}`), ['App.config:7:variable']);
    assert.deepEqual((await w.request(SymbolsFind, { name: 'config' })).definitions, [], 'not by the bare name');
    const out = await w.request(QgptRelevance, { query: 'what is Web.config?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`App\.config` in \[`srv\/base\.py:[0-9-]+`\]\([^)]+\) defines it \(`Web` inherits it\)/, text);
  });

  it('asked what a method does whose head is a chunk of its own, the search brings the piece after it and the answer cites both as one place, from its head into its docstring; asked where it is called, code before a document\'s example', async () => {
    // A method too big for one chunk whose body just fits one: a three-line head, then the body.
    const body = Array.from({ length: 26 }, (_, i) => `        step_${i} = self._prepare(callback, "argument number ${i} of the call", kwargs)`);
    const py = ['class Context:', '    """The state of one command run."""', '', '    def invoke(', '        self, callback: Command | t.Callable[..., V], /, *args: t.Any, **kwargs: t.Any, **more: t.Any', '    ):',
      '        """Invokes a command callback in exactly the way it expects.', '', '        The other arguments are forwarded to it.', '        """', ...body, '        return callback(*args, **kwargs)', '',
      '    def forward(self, cmd, /, *args, **kwargs):', '        """Like invoke, with the arguments of this context filled in."""', '        return self.invoke(cmd, *args, **kwargs)', ''].join('\n');
    fs.mkdirSync(path.join(repo, 'cli'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'cli', 'core.py'), py);
    fs.writeFileSync(path.join(repo, 'docs', 'commands.md'), '# Decorating commands\n\nA decorator that invokes the command in its context:\n\n```python\ndef new_func(ctx, *args, **kwargs):\n    return ctx.invoke(f, ctx.obj, *args, **kwargs)\n```\n\nThe Context.invoke method calls the function the right way.\n');
    const chunks = await chunkText(py, languageOf('core.py'));
    assert.deepEqual(chunks.filter((c) => c.symbol === 'Context › invoke').map((c) => [c.startLine, c.endLine]), [[4, 6], [7, 37]], 'a bare head, then the docstring and body');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'What does Context.invoke do?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`Context\.invoke` in \[`cli\/core\.py:4-37`\]\([^)]+\) defines it/, text);
    assert.match(text, /\ndef invoke\(\n.*\n\):\n    """Invokes a command callback in exactly the way it expects\./, 'quoted from its head into its docstring');
    const called = await w.request(QgptRelevance, { query: 'Where is Context.invoke called?', options: { database: true, question: true } });
    const lead = called.answer!.answers.iterable[0]!.text;
    assert.match(lead, /^`Context\.forward` in \[`cli\/core\.py:[0-9-]+`\]\([^)]+\) calls it; see also[^\n]*docs\/commands\.md/, lead);
  });

  it('asked what an interface\'s method does (Go), the answer cites what implements it', async () => {
    fs.writeFileSync(path.join(repo, 'ctx_interface.go'), 'package fiber\n\n// Ctx is the context of a request: its JSON, its status, its body.\ntype Ctx interface {\n\t// JSON sends a JSON response with the context\'s status.\n\tJSON(data any) error\n\tStatus(code int) Ctx\n}\n');
    fs.writeFileSync(path.join(repo, 'ctx.go'), 'package fiber\n\n// DefaultCtx is the default context.\ntype DefaultCtx struct {\n\tDefaultRes\n\tapp *App\n}\n');
    fs.writeFileSync(path.join(repo, 'res.go'), 'package fiber\n\ntype DefaultRes struct{ body []byte }\n\nfunc (r *DefaultRes) JSON(data any) error {\n\traw, err := encode(data)\n\tr.body = raw\n\treturn err\n}\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'what does Ctx.JSON do?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`DefaultRes\.JSON` in \[`res\.go:[0-9-]+`\]\([^)]+\) implements it/, text);
  });

  it('"where is the Recovery middleware registered?" asks where it is passed to what registers it (Go), not how registering works', async () => {
    fs.writeFileSync(path.join(repo, 'recovery.go'), 'package gin\n\n// Recovery returns a middleware that recovers from any panics and writes a 500 if there was one.\nfunc Recovery() HandlerFunc {\n\treturn CustomRecoveryWithWriter(DefaultErrorWriter, nil)\n}\n');
    fs.writeFileSync(path.join(repo, 'gin.go'), 'package gin\n\n// Default returns an Engine instance with the Logger and Recovery middleware already attached.\nfunc Default() *Engine {\n\tengine := New()\n\tengine.Use(Logger(), Recovery())\n\treturn engine\n}\n');
    assert.equal(analyzeQuestion('Where are routes registered?').intent, 'definition', 'a plain word: how registering works');
    assert.equal(callSiteSymbol('Where are routes registered?'), null);
    assert.equal(callSiteSymbol('how are schemas referenced by $id resolved?'), null, 'ajv: schemas in plain words, plural');
    assert.equal(callSiteSymbol('where are the handlers called?'), null);
    assert.equal(callSiteSymbol('how are `handlers` used?'), 'handlers');
    assert.equal(callSiteSymbol('where is compose called?'), 'compose');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'Where is the Recovery middleware registered?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`Default` in \[`gin\.go:[0-9-]+`\]\([^)]+\) calls it/, text);
  });

  it('a piece of a long Go method, whose `func` line is in an earlier chunk, is named by its receiver too (`App › next`, "`App.next` … calls it")', async () => {
    const steps = Array.from({ length: 70 }, (_, i) => `\tc.step${i} = app.config.stage(${i}, c.path)`);
    const go = ['package fiber', '', '// next finds the next route that matches the request.', 'func (app *App) next(c *Ctx) (bool, error) {', ...steps,
      '\tfor _, route := range app.tree {', '\t\tif route.prefixRejects(c.path) {', '\t\t\tcontinue', '\t\t}', '\t\treturn true, nil', '\t}', '\treturn false, nil', '}', ''].join('\n');
    fs.writeFileSync(path.join(repo, 'router.go'), go);
    fs.writeFileSync(path.join(repo, 'route.go'), 'package fiber\n\n// prefixRejects tells whether the path cannot match the route.\nfunc (r *Route) prefixRejects(path string) bool {\n\treturn !strings.HasPrefix(path, r.prefix)\n}\n');
    const chunks = await chunkText(go, languageOf('router.go'));
    assert.ok(chunks.length >= 2 && chunks.at(-1)!.symbol === 'next' && !chunks.at(-1)!.text.includes('func '), chunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'Where is prefixRejects called?', options: { database: true, question: true } });
    const seed = out.relevant.iterable.find((s) => !!s.path?.endsWith('router.go') && s.askcode!.startLine === chunks.at(-1)!.startLine)!;
    assert.equal(seed.askcode!.symbol, 'App › next');
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`App\.next` in \[`router\.go:[0-9-]+`\]\([^)]+\) calls it/, text);
  });

  it('a Go chunk of several methods of one receiver is named by it (`SugaredLogger › Infof, Warnf, Errorf`); one that mixes receivers or functions is not', async () => {
    const method = (recv: string, name: string) => [`// ${name} formats the message with its arguments and logs it.`, `func (s *${recv}) ${name}(template string, args ...interface{}) {`, `\ts.log(${name.length}, template, args)`, '}', ''];
    const go = ['package zap', '', 'type SugaredLogger struct {', ...Array.from({ length: 56 }, (_, i) => `\tfield${i} int`), '}', '',
      ...method('SugaredLogger', 'Infof'), ...method('SugaredLogger', 'Warnf'), ...method('SugaredLogger', 'Errorf'),
      'type Logger struct {', ...Array.from({ length: 56 }, (_, i) => `\tfield${i} int`), '}', '',
      ...method('SugaredLogger', 'Debugf'), ...method('Logger', 'Printf'), 'func formatMessage(template string) string {', '\treturn template', '}', ''].join('\n');
    fs.writeFileSync(path.join(repo, 'sugar.go'), go);
    const chunks = await chunkText(go, languageOf('sugar.go'));
    assert.ok(chunks.some((c) => c.symbol === 'Infof, Warnf, Errorf'), chunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'how does the sugared logger format a message with its arguments?', options: { database: true } });
    const symbols = out.relevant.iterable.map((s) => s.askcode!.symbol);
    assert.ok(symbols.includes('SugaredLogger › Infof, Warnf, Errorf'), symbols.join('; '));
    assert.ok(!symbols.some((n) => n?.includes('› Debugf, Printf')), symbols.join('; '));
  });

  it('a chunk of a long doc comment alone is named by the definition it documents (`Buf › reserve`, Rust), also past an attribute', async () => {
    const rust = ['pub struct Buf {', '    len: usize,', '}', '', 'impl Buf {', '    /// The number of bytes in the buffer.', '    pub fn len(&self) -> usize {', ...Array.from({ length: 50 }, (_, i) => `        let _n${i} = self.len;`), '        self.len', '    }', '',
      '    /// Reserves room for more data: the buffer makes space by shifting its bytes to the front,',
      ...Array.from({ length: 62 }, (_, i) => (i < 8 ? `    /// or by growing its allocation (note ${i}).` : `    /// It reallocates by a doubling strategy (note ${i}).`)),
      '    #[inline]', '    pub fn reserve(&mut self, additional: usize) {', '        self.grow(additional);', '    }', '',
      '    fn grow(&mut self, n: usize) {', '        self.len += n;', '    }', '}', ''].join('\n');
    fs.writeFileSync(path.join(repo, 'buf.rs'), rust);
    const chunks = await chunkText(rust, languageOf('buf.rs'));
    const doc = chunks.find((c) => c.text.includes('(note 30)'))!;
    assert.ok(doc && !doc.text.includes('fn reserve') && doc.symbol !== 'Buf › reserve', chunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'which doubling strategy reallocates?', options: { database: true } });
    const seed = out.relevant.iterable.find((x) => x.path?.endsWith('buf.rs') && x.askcode!.startLine === doc.startLine);
    assert.equal(seed?.askcode!.symbol, 'Buf › reserve', out.relevant.iterable.map((x) => `${x.askcode!.startLine} ${x.askcode!.symbol}`).join('; '));
  });

  it('"where is the TypeAdapter for dates registered?" is not answered by the TypeAdapter class (Java)', async () => {
    fs.mkdirSync(path.join(repo, 'gson'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'gson', 'TypeAdapter.java'), 'package gson;\n\n/** Converts Java objects to and from JSON. */\npublic abstract class TypeAdapter<T> {\n  public abstract void write(JsonWriter out, T value);\n  public abstract T read(JsonReader in);\n}\n');
    fs.writeFileSync(path.join(repo, 'gson', 'GsonBuilder.java'), 'package gson;\n\npublic final class GsonBuilder {\n  /** Registers the type adapters for dates, in the date pattern or style given. */\n  private static void addDateTypeAdapters(String datePattern, List<TypeAdapterFactory> factories) {\n    TypeAdapterFactory dateAdapterFactory = DefaultDateTypeAdapter.DateType.DATE.createAdapterFactory(datePattern);\n    factories.add(dateAdapterFactory);\n  }\n}\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'Where is the TypeAdapter for dates registered?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`(?:GsonBuilder\.)?addDateTypeAdapters` in \[`gson\/GsonBuilder\.java:[0-9-]+`\]/, text);
  });

  it('a Capitalised word the question does not call a class names a function or method spelled so (Go\'s `Next`), never a class', async () => {
    fs.writeFileSync(path.join(repo, 'ctx.go'), 'package fiber\n\n// Next runs the following handler of the route.\nfunc (c *DefaultCtx) Next() error {\n\tc.index++\n\treturn c.route.Handlers[c.index](c)\n}\n');
    fs.mkdirSync(path.join(repo, 'middleware'), { recursive: true });
    const mw = (name: string) => `package ${name}\n\n// New makes the ${name} middleware: a middleware in the chain that calls next unless skipped.\nfunc New(cfg Config) Handler {\n\treturn func(c Ctx) error {\n\t\t// middleware chain: skip when next says so\n\t\tif cfg.Next != nil && cfg.Next(c) {\n\t\t\treturn c.Next()\n\t\t}\n\t\treturn c.Next()\n\t}\n}\n`;
    fs.writeFileSync(path.join(repo, 'middleware', 'logger.go'), mw('logger'));
    fs.writeFileSync(path.join(repo, 'middleware', 'limiter.go'), mw('limiter'));
    fs.writeFileSync(path.join(repo, 'pkg', 'errors.py'), '"""How the Flask application handles errors: the Flask app turns errors into responses."""\n\n\ndef handle_errors(app):\n    """The Flask application handles errors here."""\n    return app\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const first = async (query: string) => path.relative(repo, (await w!.request(QgptRelevance, { query, options: { database: true } })).relevant.iterable[0]?.path ?? '');
    assert.equal(await first('How is middleware chained with Next?'), 'ctx.go');
    assert.equal(await first('How does the Flask application handle errors?'), path.join('pkg', 'errors.py'), 'the class Flask is not what the project\'s name means');
  });

  it('asked what an interface\'s method does, the answer leads with what implements it, not a piece of the interface named after the method', async () => {
    // A big interface is chunked in pieces named by their first methods (`Ctx › Locals, App, BaseURL`), as fiber's is.
    const methods = ['Locals', 'App', 'BaseURL', 'Cookies', 'Drop', 'Fresh', 'Hostname', 'IP', 'Method', 'Params', 'Path', 'Protocol', 'Query', 'Range', 'Secure', 'Stale'];
    fs.writeFileSync(path.join(repo, 'ctx_interface_gen.go'), ['package fiber', '', '// Ctx represents the Context which hold the HTTP request and response.', 'type Ctx interface {',
      ...methods.flatMap((m) => [`\t// ${m} returns the ${m.toLowerCase()} of the request that this ctx holds,`, '\t// read from the underlying request of the ctx, valid until the handler returns.',
        m === 'Locals' ? '\t// Locals makes it possible to pass values under keys scoped to the request: ctx locals.' : `\t// See the documentation of ${m}.`, `\t${m}(key any, value ...any) any`]),
      '}', ''].join('\n'));
    fs.writeFileSync(path.join(repo, 'ctx.go'), 'package fiber\n\n// DefaultCtx is the default context.\ntype DefaultCtx struct {\n\tDefaultReq\n\tapp *App\n}\n');
    fs.writeFileSync(path.join(repo, 'req.go'), [
      'package fiber', '', 'type DefaultReq struct{ c *DefaultCtx }', '',
      'func (r *DefaultReq) Locals(key any, value ...any) any {',
      '\tif len(value) == 0 {', '\t\treturn r.c.fasthttp.UserValue(key)', '\t}',
      '\tr.c.fasthttp.SetUserValue(key, value[0])', '\treturn value[0]', '}', '',
    ].join('\n'));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'what does Ctx.Locals do?', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`DefaultReq\.Locals` in \[`req\.go:[0-9-]+`\]\([^)]+\) implements it/, text);
  });

  it('asked how a function is tested where no test calls it by name, the search and the answer lead with the test named after it (Go)', async () => {
    fs.writeFileSync(path.join(repo, 'bind.go'), [
      'package echo', '', '// Bind binds the request to i: path values, then query parameters, then the body.',
      'func (b *DefaultBinder) Bind(c Context, i any) error {', '\tif err := b.BindPathValues(c, i); err != nil {', '\t\treturn err', '\t}',
      '\treturn b.BindQueryParams(c, i)', '}', '',
      '// BindQueryParams binds the query parameters of the request to i.',
      'func (b *DefaultBinder) BindQueryParams(c Context, i any) error {', '\treturn bindData(i, c.QueryParams(), "query")', '}', '',
    ].join('\n'));
    fs.writeFileSync(path.join(repo, 'bind_test.go'), [
      'package echo', '',
      'func TestBindForm(t *testing.T) {', '\tc := newContext("POST", "/", userForm)', '\tassert.NoError(t, c.Bind(new(user)))', '}', '',
      'func TestBindQueryParams(t *testing.T) {', '\tc := newContext("GET", "/?id=1&name=Jon+Snow", "")', '\tu := new(user)',
      '\tif assert.NoError(t, c.Bind(u)) {', '\t\tassert.Equal(t, "Jon Snow", u.Name)', '\t}', '}', '',
    ].join('\n'));
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'how is BindQueryParams tested?', options: { database: true, question: true } });
    assert.equal(path.relative(repo, out.relevant.iterable[0]?.path ?? ''), 'bind_test.go');
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^`TestBindQueryParams` in \[`bind_test\.go:[0-9-]+`\]\([^)]+\) is the test named after it \(no test found calls `BindQueryParams` directly\)/, text);
  });

  it('asked for the tests of a method no test calls nor is named after, the answer leads with the tests of its class, and says so (okio\'s `SegmentPool.recycle`)', async () => {
    fs.writeFileSync(path.join(repo, 'pool.ts'), [
      'export class SegmentPool {', '  static byteCount = 0;', '', '  /** Returns a segment to the pool, unless the pool is full. */',
      '  static recycle(segment: Segment): void {', '    if (SegmentPool.byteCount >= MAX_SIZE) return;', '    SegmentPool.byteCount += segment.size;', '  }', '}', '',
    ].join('\n'));
    fs.writeFileSync(path.join(repo, 'buffer.ts'), [
      "import { SegmentPool } from './pool';", '', 'export class Buffer {', '  skip(count: number): void {', '    const segment = this.head;', '    this.head = segment.pop();', '    SegmentPool.recycle(segment);', '  }', '}', '',
    ].join('\n'));
    fs.writeFileSync(path.join(repo, 'buffer.test.ts'), [
      "import { SegmentPool } from './pool';", "import { Buffer } from './buffer';", '',
      "test('filling and draining the buffer fills the pool', () => {", '  const buffer = new Buffer();', '  buffer.write(new Uint8Array(MAX_SIZE));', '  buffer.skip(MAX_SIZE);', '  expect(SegmentPool.byteCount).toBe(MAX_SIZE);', '});', '',
    ].join('\n'));
    assert.equal(callSiteSymbol('show me the tests for `SegmentPool.recycle`'), 'SegmentPool.recycle');
    assert.equal(callSiteSymbol('which tests cover `SegmentPool.recycle`?'), 'SegmentPool.recycle');
    assert.equal(callSiteSymbol('show me the tests for routing'), null, 'a plain word is no name');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const out = await w.request(QgptRelevance, { query: 'show me the tests for `SegmentPool.recycle`', options: { database: true, question: true } });
    const text = out.answer!.answers.iterable[0]!.text;
    assert.match(text, /^No test found calls `recycle` directly; .*\[`buffer\.test\.ts:[0-9-]+`\]\([^)]+\) tests `SegmentPool`/, text);
  });

  it('asked how a function is tested that no test calls, names or reaches through its class, the answer leads with the tests of its module, and says so (python-dotenv)', async () => {
    const text = await answerFor({
      'src/dotenv/variables.py': 'def parse_variables(value):\n    """Split a value into literals and variable references."""\n    return [expand_reference(part) for part in value.split("$")]\n\n\ndef expand_reference(part):\n    """Look a reference up in the environment, or use its default."""\n    return os.environ.get(part, "")\n',
      'src/dotenv/main.py': 'from .variables import expand_reference\n\n\ndef resolve_all(values):\n    return {k: expand_reference(v) for k, v in values.items()}\n',
      'tests/test_variables.py': 'from dotenv.variables import parse_variables\n\n\ndef test_parse_variables():\n    assert parse_variables("a$b") == ["a", ""]\n',
      'tests/test_main.py': 'from dotenv.main import resolve_all\n\n\ndef test_resolve_all():\n    assert resolve_all({}) == {}\n',
    }, 'how is `expand_reference` tested?');
    assert.match(text, /^No test found calls `expand_reference` directly; `test_parse_variables` in \[`tests\/test_variables\.py:[0-9-]+`\]\([^)]+\) tests its module, `src\/dotenv\/variables\.py`/, text);
    // Named so in other ecosystems: debug's `test.node.js` tests `src/node.js`, okio's `BufferTest.kt` `Buffer.kt`.
    for (const [t, m] of [['test.node.js', 'src/node.js'], ['src/BufferTest.kt', 'src/Buffer.kt'], ['router.spec.ts', 'src/router.ts']]) assert.ok(isTestOfModule(t!, m!), t);
    assert.ok(!isTestOfModule('test.node.js', 'src/index.js') && !isTestOfModule('test.browser.js', 'src/node.js'));
  });

  it('of a class\'s method, calls on something else (`net.listen`) come after those that may be its own, even an example\'s', async () => {
    const refs = await referencesIn({
      'server.ts': "import * as net from 'node:net';\nexport class App {\n  listen(port: number) {\n    return net.listen(port);\n  }\n  restart() {\n    return this.listen(0);\n  }\n}\n",
      'examples/start.ts': "import { App } from '../server';\n\nconst app = new App();\napp.listen(3000);\n",
      'worker.ts': 'export function start(s: Server, cb: () => void) {\n  s.listen(8080);\n}\n',
    }, 'App.listen');
    assert.deepEqual(refs.filter((r) => r.kind === 'call').map((r) => `${r.relativePath}:${r.startLine}`), ['server.ts:7', 'worker.ts:2', 'examples/start.ts:4', 'server.ts:4']);
    const plain = await w!.request(SymbolsReferences, { name: 'listen', callsOnly: true });
    assert.deepEqual(plain.references.map((r) => `${r.relativePath}:${r.startLine}`), ['server.ts:4', 'server.ts:7', 'worker.ts:2', 'examples/start.ts:4'], 'a plain name keeps the code first');
  });

  it('Ruby calls a method without parentheses: a block, an index, an argument; a symbol, a hash key, an assigned local or a word of a `%i[…]` list is no call', async () => {
    const refs = await referencesIn({
      'lib/base.rb': [
        'class Base',
        '  def invoke(&block)',
        '    block.call',
        '  end',
        '',
        '  def call!(env)',
        '    invoke { dispatch! }',
        '    invoke do',
        '      route!',
        '    end',
        '    settings[:invoke] = { invoke: 1 }',
        '    respond_to?(:invoke)',
        '  end',
        '',
        '  def run',
        '    invoke = 2',
        '    log invoke',
        '  end',
        '  ENGINES = %i[',
        '    erb invoke',
        '  ]',
        'end',
      ].join('\n'),
    }, 'invoke');
    assert.deepEqual(refs.filter((r) => r.kind === 'call').map((r) => r.startLine), [7, 8, 17], 'calls');
    assert.deepEqual(refs.filter((r) => r.kind === 'reference').map((r) => r.startLine), [11, 12, 16], 'references');
  });

  it('a name in a trailing comment is no reference of it (Go, Python)', async () => {
    const refs = await referencesIn({
      'skip.go': 'package fiber\n\ntype skipResult struct {\n\tmatchIndex int // pre-resolved endpoint index for next()\n}\n\nfunc (c *DefaultCtx) Next() error {\n\t_, err := c.app.next(c)\n\treturn err\n}\n',
      'loop.py': 'def drain(items):\n    total = 0  # next() would raise here\n    return next(iter(items))\n',
    }, 'next');
    assert.deepEqual(refs.map((r) => `${r.relativePath}:${r.startLine}`), ['loop.py:3', 'skip.go:8']);
  });

  it('an annotated method\'s own line is its definition, not a call of it (Java)', async () => {
    const java = [
      'public class Builder {',
      '  @CanIgnoreReturnValue',
      '  @Deprecated',
      '  public Builder setPretty() {',
      '    return this;',
      '  }',
      '',
      '  public Builder copy() {',
      '    return new Builder().setPretty();',
      '  }',
      '}',
      '',
    ].join('\n');
    const references = await referencesIn({ 'Builder.java': java }, 'Builder.setPretty');
    assert.deepEqual(references.map((r) => `${r.relativePath}:${r.startLine}:${r.kind}:${r.enclosing}`), ['Builder.java:9:call:Builder.copy']);
  });

  it("lists a call in Rust's unit tests (`mod tests` in the source file) after the code's calls", async () => {
    const paths = [
      'pub fn set_matched_path(id: u32) -> u32 {',
      '    id',
      '}',
      '',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '',
      '    #[test]',
      '    fn sets_it() {',
      '        assert_eq!(set_matched_path(1), 1);',
      '    }',
      '}',
      '',
    ].join('\n');
    const router = 'pub fn call_with_state(id: u32) -> u32 {\n    crate::paths::set_matched_path(id)\n}\n';
    const references = await referencesIn({ 'paths.rs': paths, 'router.rs': router }, 'set_matched_path');
    assert.deepEqual(references.map((r) => `${r.relativePath}:${r.startLine}:${r.enclosing}`), ['router.rs:2:call_with_state', 'paths.rs:11:tests.sets_it']);
  });

  it('finds call sites first, with the enclosing definition, never the definition, a comment or a string', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const { references } = await w.request(SymbolsReferences, { name: 'handle_exception' });
    assert.deepEqual(references.map((r) => [r.relativePath, r.startLine, r.kind, r.enclosing]), [
      ['pkg/app.py', 16, 'call', 'Flask.full_dispatch_request'],
      ['tests/test_app.py', 5, 'call', 'test_handle_exception'],
      ['pkg/app.py', 24, 'reference', 'make_app'],
    ]);
    assert.equal(references[0]!.text, 'return self.handle_exception(e)');
    const calls = await w.request(SymbolsReferences, { name: 'Flask.handle_exception', callsOnly: true, limit: 1 });
    assert.deepEqual(calls.references.map((r) => r.startLine), [16]);
    const ts = await w.request(SymbolsReferences, { name: 'compilePattern' });
    assert.deepEqual(ts.references.map((r) => `${r.relativePath}:${r.startLine}:${r.kind}`), [
      'src/app.ts:7:call', 'src/router/trie.ts:9:call', 'src/app.test.ts:2:call', 'src/app.ts:1:reference', 'src/app.test.ts:1:reference',
    ]);
  });

  it('follows file changes and deletions, and rebuilds from the stored index after a restart', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels });
    await ready(w);
    const file = path.join(repo, 'src/router/trie.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/compilePattern/g, 'buildPattern'));
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: file }] });
    const found = (name: string) => w!.request(SymbolsFind, { name }).then((r) => r.definitions);
    await waitFor(async () => ((await found('buildPattern')).length ? true : undefined), 'the renamed function');
    assert.equal((await found('buildPattern'))[0]?.startLine, 16);
    assert.equal((await found('compilePattern')).length, 0);
    fs.rmSync(path.join(repo, 'pkg/app.py'));
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'deleted', path: path.join(repo, 'pkg/app.py') }] });
    await waitFor(async () => ((await found('Flask')).length ? undefined : true), 'the deleted class to leave');
    await w.stop();

    // Nothing changed on disk since: the restarted worker reads its definitions from the stored chunks.
    w = await startWorker({ dataDir, folders: [repo], autoIndex: false, env: noModels });
    const { definitions } = await w.request(SymbolsFind, { name: 'TrieRouter.match' });
    assert.deepEqual(definitions.map((d) => [d.relativePath, d.startLine, d.endLine, d.kind]), [['src/router/trie.ts', 8, 10, 'method']]);
    assert.equal((await w.request(SymbolsFind, { name: 'buildPattern' })).definitions.length, 1);
    assert.equal((await w.request(SymbolsFind, { name: 'Flask' })).definitions.length, 0);
  });

  it('rejects bad parameters with a clear error naming the field', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: false, env: noModels });
    const bad = async (method: string, params: unknown, field: string, msg: RegExp) => {
      const e = await rpcError(w!.raw(method, params));
      assert.equal(e.data?.kind, 'invalid', e.message);
      assert.equal(e.data?.field, field);
      assert.match(e.message, msg);
    };
    await bad(SymbolsFind.method, { name: '' }, 'name', /non-empty string|not be empty/);
    await bad(SymbolsFind.method, 'Flask', 'name', /object/);
    await bad(SymbolsFind.method, { name: 'Flask', kind: 'klass' }, 'kind', /one of class/);
    await bad(SymbolsFind.method, { name: 'Flask', limit: 0 }, 'limit', /integer from 1|at least 1/);
    await bad(SymbolsReferences.method, { name: 'Flask', callsOnly: 'yes' }, 'callsOnly', /boolean/);
  });
});
