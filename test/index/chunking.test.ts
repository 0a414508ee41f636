import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { terms, splitIdentifier, pathTerms, noValueTerms } from '../../server/src/index/tokens';
import { chunkText, MAX_LINES, parseText } from '../../server/src/index/chunker';
import { extractDefinitions, type FileSymbol } from '../../server/src/index/symbols';
import { languageOf, isTestPath, docstringLines } from '../../server/src/index/languages';
import { walk } from '../../server/src/index/walker';
import { parseQuery } from '../../server/src/index/query';
import { SearchEngine } from '../../server/src/index/searchEngine';
import { recordOf } from '../../server/src/index/catalog';

const SOURCES: Record<string, string> = {
  'a.ts': 'export class Router {\n  match(path: string) {\n    return path;\n  }\n}\nexport function parseQueryString(q: string) { return q; }\n',
  'a.tsx': 'export function Button(props: { label: string }) {\n  return <button>{props.label}</button>;\n}\n',
  'a.js': 'function wildcardMatch(a, b) {\n  return a === b;\n}\nmodule.exports = { wildcardMatch };\n',
  'a.py': 'class FixtureManager:\n    def get_fixture_closure(self, names):\n        return names\n\ndef main():\n    pass\n',
  'a.go': 'package main\n\nfunc HandleRequest(w int) int {\n\treturn w\n}\n',
  'a.rs': 'pub struct Tokenizer {}\n\nimpl Tokenizer {\n    pub fn split_words(&self) -> usize { 0 }\n}\n',
  'a.java': 'public class OrderService {\n  public int totalPrice(int a) { return a; }\n}\n',
  'a.c': 'static int parse_header(const char *s) {\n  return 0;\n}\n',
  'a.cpp': 'namespace net {\nclass Socket {\n public:\n  int connectTo(int port) { return port; }\n};\n}\n',
  'a.cs': 'namespace App {\n  public class UserRepository {\n    public int FindUser(int id) { return id; }\n  }\n}\n',
  'a.rb': 'class InvoiceMailer\n  def deliver_invoice(x)\n    x\n  end\nend\n',
  'a.php': '<?php\nclass CartController {\n  public function addItem($id) { return $id; }\n}\n',
};

describe('index: tokens, chunks and the walk', () => {
  it('splits identifiers on case, underscores, dashes and digits, keeping the whole', () => {
    assert.deepEqual(splitIdentifier('parseHTTPRequest2x_fast-path'), ['parse', 'HTTP', 'Request', '2x', 'fast', 'path']);
    const t = terms('getUserName = fetch_all_rows(myHTTPClient)');
    assert.ok(t.includes('=getusername'), 'keeps the whole identifier');
    for (const part of ['user', 'name', 'fetch', 'row', 'client', 'http']) assert.ok(t.includes(part), `has ${part}: ${t.join(' ')}`);
    assert.ok(!t.includes('the'));
    assert.ok(pathTerms('src/helper/accepts/accepts.ts').includes('accept'));
    // A letter and a digit in a question's prose name a file (uuid's `src/v7.ts` for "v7 IDs"); in code they are no term.
    assert.ok(parseQuery('how are v7 IDs kept in order?').terms.some((t) => t.term === '=v7'));
    assert.ok(pathTerms('src/v7.ts').includes('=v7'));
    assert.ok(!terms('M1 = Matrix.zeros(0, 0)').includes('=m1'));
    const pasted = 'hstack changed in 1.1:\n```\nM1 = sy.Matrix.zeros(0, 0)\nsy.Matrix.hstack(M1, M2).shape\n```\nreturns (0, 3); f(x1) and x0[0] too';
    assert.ok(!parseQuery(pasted).terms.some((t) => /^=[a-z][0-9]$/.test(t.term)), 'a pasted example\'s variables are no names');
  });

  it('keeps the words a question asks about: `undefined`, `None` and `null` spelled as anything but code\'s literal', () => {
    // Code's literals are no words; any other spelling is, and a question's words are.
    assert.deepEqual(terms('if value is None or other === undefined or rest == null'), terms('if value is or other === or rest =='));
    assert.ok(terms('class StrictUndefined(Undefined):').includes('undefin'));
    assert.ok(terms('def is_none(value):').includes('none'));
    assert.deepEqual(noValueTerms('what happens when a variable is undefined, or returns None?'), [...terms('Undefined'), ...terms('NONE')]);
    assert.deepEqual(noValueTerms('the Undefined class'), [], 'a word the terms keep is not added again');
    const e = new SearchEngine();
    const add = (rel: string, text: string) =>
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: 3, text, hash: rel, language: 'python', ext: 'py', code: true }]);
    add('src/runtime.py', 'class Undefined:\n    """The default undefined type: printing it gives an empty string."""\n    def __str__(self):\n        return ""\n');
    add('src/meta.py', 'def find_variables(ast):\n    """Returns the set of all names in the AST."""\n    return set()\n');
    assert.equal(e.search('what happens when a variable is undefined?').hits[0]?.chunk.rel, 'src/runtime.py');
  });

  it('finds a folder or file named for an agent by its verb ("routing" → router/, "handle" → handler.ts)', () => {
    assert.ok(pathTerms('src/router/trie-router/router.ts').includes(terms('routing')[0]!));
    assert.ok(pathTerms('src/adapter/lambda/handler.ts').includes(terms('handle')[0]!));
    assert.ok(!terms('the router').includes(terms('routing')[0]!), 'the stemmer alone keeps them apart');
    assert.ok(!pathTerms('src/user.ts').includes('us'), 'a short word keeps its -er');
  });

  it('reads an acronym\'s plural as one word ("JWTs" is jwt, not "JW" and "Ts")', () => {
    assert.deepEqual(terms('How are JWTs verified?'), terms('How are the jwt verified?'));
    assert.deepEqual(terms('URLs'), terms('urls'));
    assert.deepEqual(splitIdentifier('parseURLsFrom'), ['parse', 'urls', 'From']);
    assert.deepEqual(splitIdentifier('HTTPServer'), ['HTTP', 'Server'], 'an acronym before a word is unchanged');
  });

  it('reads commit scopes, named files and dotted modules out of a query', () => {
    const q = parseQuery('fix(reg-exp-router): keep `*/*` working\n\nsee sympy.core.basic and src/router/trie.ts');
    assert.ok(q.pathTerms.some((t) => t.term === 'router'));
    assert.ok(q.pathHints.includes('src/router/trie.ts'));
    assert.ok(q.pathHints.includes('sympy/core/basic'));
    assert.equal(q.aboutTests, false);
  });

  for (const [file, src] of Object.entries(SOURCES)) {
    it(`chunks ${file} by syntax with its symbols`, async () => {
      const lang = languageOf(file);
      assert.ok(lang.grammar, `${file} has a grammar`);
      const chunks = await chunkText(src, lang);
      assert.ok(chunks.length >= 1);
      const symbols = chunks.map((c) => c.symbol ?? '').join(' | ');
      const expected = /class (\w+)|func(?:tion)? (\w+)|struct (\w+)|def (\w+)|int (\w+)\(/.exec(src)!.slice(1).find(Boolean)!;
      assert.ok(symbols.includes(expected), `${file}: symbols '${symbols}' name ${expected}`);
      // Every line of the file is in exactly one chunk.
      const lines = src.split('\n').length;
      let next = 1;
      for (const c of chunks) {
        assert.ok(c.startLine >= next, 'no overlap');
        next = c.endLine + 1;
      }
      assert.ok(next - 1 <= lines);
    });
  }

  it('names a chunk by its nesting (`Outer › inner`) and lists neighbouring definitions once each (`a, b`)', async () => {
    const src = [
      'const TTL_MS = 1000;',
      'export function createSession(id: string) { return { id, at: TTL_MS }; }',
      'export function revokeSession(id: string) { return id; }',
      '',
    ].join('\n');
    const [only] = await chunkText(src, languageOf('session.ts')!);
    assert.equal(only.symbol, 'TTL_MS, createSession, revokeSession');
    const klass = await chunkText(SOURCES['a.cs'], languageOf('a.cs')!);
    for (const c of klass) assert.ok(!/(\b\w+\b) › \1\b/.test(c.symbol ?? ''), `no name repeated as its own parent: ${c.symbol}`);
  });

  it('names a Rust impl block by its type without type arguments (`MethodRouter`, not `MethodRouter<S, E>`, whose comma reads as a list)', async () => {
    const methods = Array.from({ length: 30 }, (_, i) => `    pub fn method_${i}(self) -> Self {\n        self\n    }`).join('\n');
    const src = `pub struct MethodRouter<S, E> { s: S, e: E }\n\nimpl<S, E> MethodRouter<S, E>\nwhere\n    S: Clone,\n{\n${methods}\n}\n`;
    const chunks = await chunkText(src, languageOf('method_routing.rs')!);
    assert.ok(chunks.some((c) => (c.symbol ?? '').startsWith('MethodRouter › method_')), chunks.map((c) => c.symbol).join(' | '));
    for (const c of chunks) assert.ok(!(c.symbol ?? '').includes('<'), `no type arguments: ${c.symbol}`);
    // An impl for an array of tuples goes by its methods: its comma would read as two names.
    const arr = await chunkText('impl<K, V, const N: usize> IntoResponse for [(K, V); N] {\n    fn into_response(self) -> Response {\n        todo!()\n    }\n}\n', languageOf('into_response.rs')!);
    assert.equal(arr[0]!.symbol, 'into_response');
    // An index stored before keeps `MethodRouter<S, E> › …`: read back without them.
    const row = { id: 'c1', path: 'src/method_routing.rs', start: 1, end: 3, symbol: 'MethodRouter<S, Infallible> › default_fallback', hash: 'h', lang: 'rust', ext: 'rs', code: true, text: 'x', mtime: 0, size: 1 };
    assert.equal(recordOf('/w', row).symbol, 'MethodRouter › default_fallback');
    assert.equal(recordOf('/w', { ...row, lang: 'markdown', symbol: '`Option<Path<T>>` behavior' }).symbol, '`Option<Path<T>>` behavior', 'a heading is kept as written');
  });

  it('names a Rust `macro_rules!` by its macro and an impl for `&\'a mut T` by `T`', async () => {
    const src = 'macro_rules! json {\n    ($($json:tt)+) => {\n        json_internal!($($json)+)\n    };\n}\n\nimpl<\'a, W, F> ser::Serializer for &\'a mut Serializer<W, F>\nwhere\n    W: io::Write,\n{\n    fn serialize_map(self) -> Result<()> {\n        Ok(())\n    }\n}\n';
    const chunks = await chunkText(src, languageOf('ser.rs')!);
    assert.equal(chunks[0]!.symbol, 'json, Serializer, serialize_map');
  });

  it('cuts a long docstring into line windows from its first line, not into its opening line and the rest (marshmallow\'s decorators.py)', async () => {
    const prose = Array.from({ length: 45 }, (_, i) => `Register a pre-processing method number ${i} that runs before the data is loaded into the schema.`);
    const src = ['"""Decorators for registering schema pre-processing and post-processing methods.', '', 'Example:', '', '    @pre_load(pass_many=True)', '    def remove_envelope(self, data, many, **kwargs):', '        return data["results"]', '', ...prose, '"""', '', 'import functools', '', 'PRE_LOAD = "pre_load"', '', 'def pre_load(fn=None, pass_many=False):', '    return functools.partial(fn, pass_many)', ''].join('\n');
    const chunks = await chunkText(src, languageOf('decorators.py')!);
    const spans = chunks.map((c) => `${c.startLine}-${c.endLine}`).join(' ');
    assert.equal(chunks[0]!.startLine, 1, spans);
    assert.ok(chunks[0]!.endLine > 5, `the example is in the chunk that opens the docstring: ${spans}`);
    // So the chunk's text shows the example as the docstring's, which no "where is it called?" reads as a call.
    const first = chunks[0]!;
    const inDoc = docstringLines(first.text, 'decorators.py');
    assert.ok(inDoc[first.text.split('\n').findIndex((l) => l.includes('@pre_load'))], 'the example is inside the docstring');
  });

  it('chunks a Vue component\'s script by the JavaScript (or TypeScript) grammar, its template in line windows', async () => {
    const template = ['<template>', ...Array.from({ length: 70 }, (_, i) => `  <p class="row">{{ article.title }} ${i}</p>`), '</template>', ''];
    const script = ['<script lang="ts">', 'export default {', '  name: "ArticleEdit",', '  methods: {', '    onPublish(slug: string) {', '      return this.$store.dispatch("publish", slug);', '    },', '  },', '};', '</script>', '', '<style>', 'p { margin: 0; }', '</style>'];
    const src = [...template, ...script].join('\n');
    const chunks = await chunkText(src, languageOf('ArticleEdit.vue')!);
    const lines = src.split('\n');
    const publish = lines.findIndex((l) => l.includes('onPublish(')) + 1;
    const holder = chunks.find((c) => c.startLine <= publish && publish <= c.endLine)!;
    assert.match(holder.symbol ?? '', /onPublish/, chunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join(' | '));
    assert.equal(holder.text, lines.slice(holder.startLine - 1, holder.endLine).join('\n'), 'the chunk holds the file\'s own lines');
    // Every line is in one chunk, in order.
    assert.equal(chunks[0]!.startLine, 1);
    for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i]!.startLine, chunks[i - 1]!.endLine + 1);
    assert.equal(chunks.at(-1)!.endLine, lines.length);
  });

  it('names a C function after its export macro by its own name, its head line in its own chunk (cJSON\'s `CJSON_PUBLIC(void) cJSON_Delete(…)`)', async () => {
    const body = (name: string) => `CJSON_PUBLIC(void) ${name}(cJSON *item)\n{\n${Array.from({ length: 40 }, (_, i) => `    step_${i}(item);`).join('\n')}\n}\n`;
    const src = `/* Supply malloc, realloc and free functions to cJSON */\n${body('cJSON_InitHooks')}\n/* Delete a cJSON structure. */\n${body('cJSON_Delete')}\nstatic void * CJSON_CDECL internal_malloc(size_t size)\n{\n    return malloc(size);\n}\n`;
    const chunks = await chunkText(src, languageOf('cJSON.c')!);
    const names = chunks.map((c) => c.symbol ?? '');
    assert.ok(!names.some((n) => n.includes('CJSON_PUBLIC') || n.includes('CJSON_CDECL')), names.join(' | '));
    const lines = src.split('\n');
    const head = lines.findIndex((l) => l.includes('cJSON_Delete(')) + 1;
    const holder = chunks.find((c) => c.startLine <= head && head <= c.endLine)!;
    assert.match(holder.symbol ?? '', /^cJSON_Delete\b/, `the head line ${head} is in ${holder.startLine}-${holder.endLine} (${holder.symbol})`);
    assert.ok(names.some((n) => n.includes('internal_malloc')), names.join(' | '));
    // A header's include guard, `#ifdef __cplusplus` and `extern "C"` are no level of nesting (hiredis' alloc.h).
    const guarded = await chunkText([
      '#ifndef HIREDIS_ALLOC_H', '#define HIREDIS_ALLOC_H', '', '#include <stddef.h>', '',
      '#ifdef __cplusplus', 'extern "C" {', '#endif', '',
      '/* Structure pointing to our actually configured allocators */', 'typedef struct hiredisAllocFuncs {', '    void *(*mallocFn)(size_t);', '    void (*freeFn)(void*);', '} hiredisAllocFuncs;', '',
      'hiredisAllocFuncs hiredisSetAllocators(hiredisAllocFuncs *ha);', 'void hiredisResetAllocators(void);', '',
      '#ifdef __cplusplus', '}', '#endif', '', '#endif', '',
    ].join('\n'), languageOf('alloc.h')!);
    assert.deepEqual(guarded.map((c) => c.symbol), ['hiredisAllocFuncs, hiredisSetAllocators, hiredisResetAllocators']);
    // A C++ method defined outside its class template is named without the template's arguments (spdlog).
    const inl = await chunkText('template<typename Mutex>\nSPDLOG_INLINE void rotating_file_sink<Mutex>::sink_it_(const details::log_msg &msg) {\n    rotate_();\n}\n', languageOf('rotating_file_sink-inl.h')!);
    assert.match(inl[0]!.symbol ?? '', /\brotating_file_sink::sink_it_$/, inl[0]!.symbol);
    // A header's prototypes keep their names after the macro.
    const header = await chunkText('CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);\nCJSON_PUBLIC(char *) cJSON_Print(const cJSON *item);\n', languageOf('cJSON.h')!);
    assert.equal(header[0]!.symbol, 'cJSON_Parse, cJSON_Print');
    // Macros the grammar cannot expand (fmt's): a region's `FMT_BEGIN_NAMESPACE` alone on its line and a
    // declaration's leading `FMT_CONSTEXPR` are no type; the names are the code's.
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `  unsigned field${i} = ${i};`).join('\n');
    const fmtNames = async (lines: string[]) => (await chunkText(lines.join('\n'), languageOf('include/fmt/format.h')!)).map((c) => c.symbol ?? '');
    assert.deepEqual(await fmtNames(['FMT_BEGIN_NAMESPACE', 'namespace detail {', 'FMT_CONSTEXPR inline void abort_fuzzing_if(bool condition) {', filler(30), '}', '',
      'template <typename T> struct size_padding {', filler(30), '};', '}  // namespace detail', 'FMT_END_NAMESPACE']).then((n) => n.slice(0, 2)), ['detail › abort_fuzzing_if', 'detail › size_padding']);
    assert.match((await fmtNames(['namespace fmt {', 'FMT_BEGIN_EXPORT', '', '// The buffer size.', 'enum { inline_buffer_size = 500 };', '', 'template <typename T>', 'class basic_memory_buffer {', filler(30), '};', 'FMT_END_EXPORT', '}']))[0]!, /^fmt › inline_buffer_size\b/);
  });

  it('names a decorated method too big for one piece once, not as its own parent (pyramid\'s `@action_method def set_authentication_policy`)', async () => {
    // The method fits one piece (MAX_LINES), with its decorator it does not.
    const doc = Array.from({ length: MAX_LINES - 7 }, (_, i) => `        Line ${i} of its docstring.`).join('\n');
    const src = `class SecurityConfiguratorMixin:\n    @action_method\n    def set_authentication_policy(self, policy):\n        """\n${doc}\n        """\n        def register():\n            self.registry.registerUtility(policy)\n\n        self.action(None, register)\n\n    def set_authorization_policy(self, policy):\n        pass\n`;
    const chunks = await chunkText(src, languageOf('config/security.py')!);
    assert.ok(chunks.some((c) => c.symbol === 'SecurityConfiguratorMixin › set_authentication_policy' && c.text.includes('def set_authentication_policy')), chunks.map((c) => c.symbol).join(' | '));
    for (const c of chunks) assert.ok(!/(\b\w+\b) › \1\b/.test(c.symbol ?? ''), `no name repeated as its own parent: ${c.symbol}`);
    // An index stored before keeps the name twice: read back once.
    const row = { id: 'c1', path: 'src/pyramid/config/security.py', start: 59, end: 117, symbol: 'SecurityConfiguratorMixin › set_authentication_policy › set_authentication_policy', hash: 'h', lang: 'python', ext: 'py', code: true, text: 'x', mtime: 0, size: 1 };
    assert.equal(recordOf('/w', row).symbol, 'SecurityConfiguratorMixin › set_authentication_policy');
  });

  it('names a class field holding a function by the field (immer\'s `produce = (base, recipe) => {…}`), in TypeScript and JavaScript', async () => {
    const body = Array.from({ length: 60 }, (_, i) => `    const step${i} = base + ${i};`).join('\n');
    for (const file of ['immerClass.ts', 'immerClass.js']) {
      const typed = file.endsWith('.ts') ? ': number' : '';
      const src = `export class Immer {\n  autoFreeze${typed} = true;\n  produce = (base${typed}) => {\n${body}\n    return base;\n  };\n  finish(x${typed}) { return x; }\n}\n`;
      const chunks = await chunkText(src, languageOf(file)!);
      const names = chunks.map((c) => c.symbol ?? '');
      assert.ok(names.some((n) => /^Immer › produce\b/.test(n)), `${file}: ${names.join(' | ')}`);
      assert.ok(!names.some((n) => /autoFreeze/.test(n)), `a plain field names nothing: ${names.join(' | ')}`);
    }
  });

  it('names a small file\'s piece by the namespaces around it as parents (grape\'s `Grape › Validations › Validators › SameAsValidator › validate_param!`), in Ruby, C# and TypeScript', async () => {
    const rb = '# frozen_string_literal: true\n\nmodule Grape\n  module Validations\n    module Validators\n      class SameAsValidator < Base\n        def validate_param!(attr_name, params)\n          raise ValidationErrors\n        end\n      end\n    end\n  end\nend\n';
    const [only] = await chunkText(rb, languageOf('same_as_validator.rb')!);
    assert.equal(only!.symbol, 'Grape › Validations › Validators › SameAsValidator › validate_param!');
    const cs = 'namespace Dapper\n{\n    internal sealed class DbString\n    {\n        public void AddParameter(IDbCommand command, string name) { }\n    }\n}\n';
    assert.equal((await chunkText(cs, languageOf('DbString.cs')!))[0]!.symbol, 'Dapper › DbString › AddParameter');
    const ts = 'export namespace Parse {\n  export function frame(src: string): number {\n    return src.length;\n  }\n}\n';
    assert.equal((await chunkText(ts, languageOf('frame.ts')!))[0]!.symbol, 'Parse › frame');
    // A class alone in a class is a parent too (hanami's `Hanami › Router › Segment › fabricate`).
    const nested = 'module Hanami\n  class Router\n    class Segment\n      def self.fabricate(segment)\n        Mustermann.new(segment)\n      end\n    end\n  end\nend\n';
    assert.equal((await chunkText(nested, languageOf('segment.rb')!))[0]!.symbol, 'Hanami › Router › Segment › fabricate');
    // Two modules side by side are names beside each other, as before.
    const two = 'module Alpha\n  def self.a; end\nend\n\nmodule Beta\n  def self.b; end\nend\n';
    assert.match((await chunkText(two, languageOf('ab.rb')!))[0]!.symbol ?? '', /^Alpha, /);
  });

  it('reads a Kotlin class whose primary constructor starts the next line (ktfmt\'s style, kotlinpoet\'s `FileSpec`) with its members, rows kept', async () => {
    const src = 'package a\n\npublic class FileSpec\nprivate constructor(builder: Builder, private val tagMap: TagMap = builder.buildTagMap()) :\n  Taggable by tagMap, Annotatable {\n  public val name: String = builder.name\n\n  public class Builder internal constructor(public val name: String) {\n    override fun addFunction(funSpec: FunSpec): Builder = apply {\n      members += funSpec\n    }\n  }\n}\n';
    let defs: FileSymbol[] = [];
    await parseText(src, languageOf('FileSpec.kt')!, (root, lines) => (defs = extractDefinitions(root, lines)));
    const add = defs.find((d) => d.name === 'addFunction');
    assert.equal(add?.qualifiedName, 'FileSpec.Builder.addFunction');
    assert.equal(add?.startLine, 9);
    const chunks = await chunkText(src, languageOf('FileSpec.kt')!);
    assert.equal(chunks[0]!.symbol, 'FileSpec, Builder');
    assert.equal(chunks.map((c) => c.text).join('\n').includes('/*'), false, 'the text is the file\'s');
  });

  it('names a Go type declaration by its type (`Echo`), not by the methods of an interface after it', async () => {
    const src = 'package echo\n\n// Echo is the top-level framework instance.\ntype Echo struct {\n\tBinder Binder\n\tDebug  bool\n}\n\n// JSONSerializer is the interface that encodes and decodes JSON.\ntype JSONSerializer interface {\n\tSerialize(c *Context, i any, indent string) error\n\tDeserialize(c *Context, i any) error\n}\n';
    const [only] = await chunkText(src, languageOf('echo.go')!);
    assert.equal(only!.symbol, 'Echo, JSONSerializer');
  });

  it('names a Markdown section by the words of its heading: no badges, link targets, HTML or entities; code and names kept', async () => {
    const badges = '[![Build status](https://github.com/serilog/serilog/actions/workflows/ci.yml/badge.svg?branch=dev)](https://github.com/serilog/serilog/actions)&nbsp;[![NuGet Version](https://img.shields.io/nuget/v/Serilog.svg?style=flat)](https://www.nuget.org/packages/Serilog/)';
    const src = `# Serilog&nbsp;${badges}\n\nSerilog is a diagnostic logging library.\n\n## Using [message templates](https://messagetemplates.org) with \`@\` and __init__ <sup>new</sup>\n\nThe \`@\` operator serializes the object.\n`;
    const chunks = await chunkText(src, languageOf('README.md')!);
    assert.deepEqual(chunks.map((c) => c.symbol), ['Serilog', 'Using message templates with `@` and __init__ new']);
    // An index stored before holds the heading as written, cut at 120 characters inside a link.
    const row = { id: 'c1', path: 'README.md', start: 1, end: 46, symbol: `Serilog&nbsp;${badges}`.slice(0, 120), hash: 'h', lang: 'markdown', ext: 'md', code: false, text: 'x', mtime: 0, size: 1 };
    assert.equal(recordOf('/w', row).symbol, 'Serilog');
    assert.equal(recordOf('/w', { ...row, symbol: 'Query Matching with `invalidateQueries`' }).symbol, 'Query Matching with `invalidateQueries`');
  });

  it('lists only names in a chunk\'s name list: no destructuring pattern (`{ green, red }`) nor a module\'s string', async () => {
    const src = "import * as fs from 'node:fs';\nconst { green, red } = require('picocolors');\nconst [first] = process.argv;\n\nexport function write(file: string) {\n  fs.writeFileSync(file, green('ok'));\n}\n";
    const [only] = await chunkText(src, languageOf('typegen/index.ts')!);
    assert.equal(only!.symbol, 'write');
    const [shim] = await chunkText("declare module '*.vue' {\n  const component: unknown;\n  export default component;\n}\n", languageOf('shims-vue.d.ts')!);
    assert.ok(!/\*\.vue/.test(shim!.symbol ?? ''), `no module string as a name: ${shim!.symbol}`);
    // CommonJS's imports name nothing: fs-extra's chunk of them and a doc comment goes by the comment's function.
    const doc = Array.from({ length: 24 }, (_, i) => ` * Returns the two paths of a symlink, line ${i}.`).join('\n');
    const cjs = `'use strict'\n\nconst path = require('path')\nconst fs = require('../fs')\nconst u = require('universalify').fromPromise\n\n/**\n${doc}\n */\n\nasync function symlinkPaths (srcpath, dstpath) {\n${'  await fs.lstat(srcpath)\n'.repeat(36)}}\n`;
    const [head] = await chunkText(cjs, languageOf('lib/ensure/symlink-paths.js')!);
    assert.equal(head!.symbol, 'symlinkPaths', `${head!.startLine}-${head!.endLine}`);
    assert.equal((await chunkText("const app = createApp()\nconst port = 3000\n", languageOf('server.js')!))[0]!.symbol, 'app, port', 'other declarations name it');
  });

  it('names the pieces of a function too big for one chunk by the function, never by its locals', async () => {
    const body = Array.from({ length: 150 }, (_, i) => `  const localValue${i} = input * ${i};`).join('\n');
    const src = `export function transformLedger(input: number) {\n${body}\n  return input;\n}\n`;
    const chunks = await chunkText(src, languageOf('ledger.ts')!);
    assert.ok(chunks.length > 1, 'split into several chunks');
    for (const c of chunks) {
      assert.ok((c.symbol ?? '').startsWith('transformLedger'), `named by the function: ${c.symbol}`);
      assert.ok(!/localValue/.test(c.symbol ?? ''), `no locals in the name: ${c.symbol}`);
    }
  });

  it('names a doc comment that is a chunk of its own by the definition right after it, in Ruby, TypeScript and Java', async () => {
    const doc = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} The static middleware serves files under the url prefix, line ${i}.`).join('\n');
    // rack's sendfile.rb: a long comment on `class Sendfile`, a blank line before it, in a module whose
    // definitions sit in a body node.
    const rb = `module Rack\n${doc('  #', 70)}\n\n  class Static\n    def call(env)\n${'      env\n'.repeat(40)}    end\n  end\nend\n`;
    const rbChunks = await chunkText(rb, languageOf('static.rb')!);
    const rbDoc = rbChunks.filter((c) => c.startLine < 70);
    assert.ok(rbDoc.length >= 2, rbChunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    for (const c of rbDoc) assert.equal(c.symbol, 'Rack › Static', `${c.startLine}-${c.endLine}`);
    // A JSDoc too long to share a chunk with its function.
    const ts = `// Helpers for routes.\n\nexport function mergeRoutes(a: number) {\n${'  a += 1;\n'.repeat(50)}  return a;\n}\n\n/**\n${doc(' *', 55)}\n */\nexport function matchRoutes(routes: string[]) {\n${'  routes.sort();\n'.repeat(30)}  return routes;\n}\n`;
    const tsChunks = await chunkText(ts, languageOf('utils.ts')!);
    const tsDoc = tsChunks.find((c) => c.text.includes('line 10.'))!;
    assert.ok(!tsDoc.text.includes('function mergeRoutes') && !tsDoc.text.includes('function matchRoutes'), tsChunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    assert.equal(tsDoc.symbol, 'matchRoutes');
    // Java: a Javadoc on a method inside a class, and a method's body comments name no local.
    const java = `public class Safelist {\n  /**\n${doc('   *', 70)}\n   */\n  public boolean isSafeTag(String tag) {\n    // a local comment\n    int localCount = 1;\n    return localCount > 0;\n  }\n}\n`;
    const javaDoc = (await chunkText(java, languageOf('Safelist.java')!)).find((c) => c.text.includes('line 10.'))!;
    assert.equal(javaDoc.symbol, 'Safelist › isSafeTag');
    // C#: a file-scoped namespace names nothing, and a #pragma may stand between the comment and the class (Polly).
    const cs = `using System;\n\nnamespace Polly;\n\n/// <summary>\n${doc('///', 12)}\n/// </summary>\n#pragma warning disable S1694\npublic abstract class ResiliencePipelineBuilderBase\n#pragma warning restore S1694\n{\n${Array.from({ length: 60 }, (_, i) => `    public int Counter${i}() => ${i};`).join('\n')}\n}\n`;
    const csDoc = (await chunkText(cs, languageOf('ResiliencePipelineBuilderBase.cs')!)).find((c) => c.text.includes('line 10.'))!;
    assert.equal(csDoc.symbol, 'ResiliencePipelineBuilderBase');
  });


  it('keeps a method\'s doc comment in the method\'s chunk where the budget runs out between them (connection_pool\'s `TimedStack#pop`), in Ruby and TypeScript', async () => {
    const filler = (n: number, line: string) => Array.from({ length: n }, () => line).join('\n');
    const rb = `class TimedStack\n  def push(obj)\n${filler(40, '    @que.push obj')}\n  end\n\n  ##\n  # Retrieves a connection from the stack, waiting up to +timeout+ seconds.\n  # @option options [Float] :timeout (0.5) Wait this many seconds for an available entry\n  def pop(timeout: 0.5)\n${filler(20, '    @resource.wait(@mutex, to_wait)')}\n  end\nend\n`;
    const rbChunks = await chunkText(rb, languageOf('timed_stack.rb')!);
    const pop = rbChunks.find((c) => c.text.includes('def pop'))!;
    assert.ok(pop.text.includes('Wait this many seconds'), rbChunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    assert.equal(pop.symbol, 'TimedStack › pop');
    assert.ok(!rbChunks.find((c) => c.text.includes('def push'))!.text.includes('Retrieves'));
    const ts = `export class Queue {\n  add(item: number) {\n${filler(40, '    this.items.push(item);')}\n  }\n\n  /** Waits until the queue is empty: resolves when the last item is done. */\n  onEmpty(): Promise<void> {\n${filler(25, '    this.pending += 0;')}\n    return this.idle;\n  }\n}\n`;
    const tsChunks = await chunkText(ts, languageOf('queue.ts')!);
    assert.ok(tsChunks.find((c) => c.text.includes('onEmpty('))!.text.includes('Waits until'), tsChunks.map((c) => `${c.startLine}-${c.endLine} ${c.symbol}`).join('; '));
    // Every line still lands in exactly one chunk.
    assert.equal(rbChunks.map((c) => c.text).join('\n'), rb.replace(/\n$/, ''));
  });
  it('cuts a big file into pieces within the line budget, and markdown by headings', async () => {
    const fns = Array.from({ length: 80 }, (_, i) => `function helper${i}(x: number) {\n  const y = x * ${i};\n  return y + 1;\n}\n`).join('\n');
    const chunks = await chunkText(fns, languageOf('big.ts'));
    assert.ok(chunks.length > 3);
    for (const c of chunks) assert.ok(c.endLine - c.startLine + 1 <= MAX_LINES * 2);
    const md = await chunkText('# Install\nnpm i\n\n## Usage\nrun it\n\n```\n# not a heading\n```\n', languageOf('README.md'));
    assert.deepEqual(md.map((c) => c.symbol), ['Install', 'Usage']);
  });

  it('walks honouring .gitignore, skipping binaries, huge files and symlink loops', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-walk-'));
    try {
      fs.mkdirSync(path.join(dir, 'src', 'gen'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'node_modules', 'x'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.gitignore'), 'gen/\n*.log\n');
      fs.writeFileSync(path.join(dir, 'src', 'main.ts'), 'export const a = 1;\n');
      fs.writeFileSync(path.join(dir, 'src', 'gen', 'out.ts'), 'export const b = 2;\n');
      fs.writeFileSync(path.join(dir, 'debug.log'), 'x\n');
      fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
      fs.writeFileSync(path.join(dir, 'huge.txt'), 'x'.repeat(2000));
      fs.writeFileSync(path.join(dir, 'node_modules', 'x', 'index.js'), 'module.exports = 1;\n');
      fs.symlinkSync(dir, path.join(dir, 'src', 'loop'));
      const files = (await walk(dir, { maxFileSize: 1000, exclude: ['*.md'] })).map((f) => f.rel);
      assert.deepEqual(files.sort(), ['.gitignore', 'src/main.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a class\'s bare head line among a file\'s best chunks brings the piece that goes on with it, named as a member of it', () => {
    const e = new SearchEngine();
    const rel = 'rest_framework/authentication.py';
    const chunk = (startLine: number, endLine: number, symbol: string, text: string) => ({ id: `${rel}:${startLine}`, file: rel, rel, startLine, endLine, text, hash: `${rel}:${startLine}`, language: 'python', ext: 'py', code: true, symbol });
    e.setFile(rel, rel, [
      chunk(1, 40, 'SessionAuthentication, authenticate', 'class SessionAuthentication(BaseAuthentication):\n    """Session authentication, not token authentication: no token class."""\n' + '    def authenticate(self, request):\n        # no token authentication here\n        user = getattr(request._request, "user", None)\n'.repeat(4)),
      chunk(41, 41, 'TokenAuthentication', 'class TokenAuthentication(BaseAuthentication):'),
      chunk(42, 60, 'TokenAuthentication › authenticate', '    """\n    Simple token based authentication.\n    """\n    keyword = "Token"\n\n    def authenticate(self, request):\n        auth = get_authorization_header(request).split()\n        return self.authenticate_credentials(auth[1])\n'),
    ]);
    const lines = e.search('token authentication class').hits.filter((h) => h.chunk.rel === rel).map((h) => h.chunk.startLine);
    assert.ok(lines.includes(41) && lines.includes(42), `the head and the piece after it: ${lines.join(', ')}`);
  });

  it('ranks the implementation above its test and names the matched terms', () => {
    const e = new SearchEngine();
    const add = (rel: string, text: string) =>
      e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: 3, text, hash: rel, language: 'typescript', ext: 'ts', code: true }]);
    add('src/router/trie.ts', 'export function insertRoute(trie, path) { /* wildcard segments */ }');
    add('src/router/trie.test.ts', 'test("insertRoute wildcard", () => insertRoute(trie, "/a/*"))');
    add('src/utils/url.ts', 'export function splitPath(path) { return path.split("/") }');
    assert.ok(isTestPath('src/router/trie.test.ts'));
    const { hits } = e.search('fix(router): wildcard routes in insertRoute');
    assert.equal(hits[0]!.chunk.rel, 'src/router/trie.ts');
    assert.ok(hits[0]!.matched.includes('wildcard'));
    e.removeFile('src/router/trie.ts');
    assert.notEqual(e.search('insertRoute wildcard').hits[0]?.chunk.rel, 'src/router/trie.ts');
  });
});
