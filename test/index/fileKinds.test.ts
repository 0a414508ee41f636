/**
 * Files that repeat the code's words without being where anything happens: type declarations
 * (`.d.ts`, `.pyi`, PHP's `Interfaces/*Interface.php`), translation catalogs (`LC_MESSAGES/`, `.po`), a project's settings
 * (`tsconfig.json`, `package.json`), vendored code (`vendor/`, `third_party/`) and the maintainers' scripts
 * (`scripts/`, `misc/`). Through the real core over
 * a repository written by the test, the implementation comes first, unless the question is about
 * the types or the translations.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Core } from '../../server/src/core/core';
import type { RankParams } from '../../server/src/index/searchEngine';
import { isCatalogPath, isDeclarationPath, isDocumentationOnly, isExceptionFile, isGeneratedCode, isInterfaceOnly, isProjectConfigPath, isToolingPath, isVendoredPath } from '../../server/src/index/languages';
import { SearchEngine } from '../../server/src/index/searchEngine';
import { realCore, rankedFiles } from '../helpers/core';

describe('declarations, translation catalogs, project settings and vendored code', function () {
  this.timeout(120_000);

  it('knows declaration files by their paths', () => {
    for (const p of ['client.d.ts', 'types/importGlob.d.ts', 'src/types/ws.d.mts', 'lib/index.d.cts', 'stubs/requests/api.pyi',
      // PHP's interfaces by the PSR naming: Slim's `Interfaces/RouteParserInterface.php`, Laravel's `Contracts/`.
      'Slim/Interfaces/RouteParserInterface.php', 'src/Illuminate/Contracts/Cache/Repository.php', 'src/Http/MiddlewareInterface.php'])
      assert.ok(isDeclarationPath(p), p);
    for (const p of ['src/d.ts', 'src/plugins/css.ts', 'src/types.ts', 'src/app.py', 'src/pyi.py', 'Slim/Routing/RouteParser.php', 'src/interfaces/user.ts', 'src/Interfaces/Parser.java']) assert.ok(!isDeclarationPath(p), p);
  });

  it('knows Java, C# and Kotlin files of interfaces only by their declarations', () => {
    const interfaceOnly = (language: string, texts: string[]) => isInterfaceOnly(language, texts.map((text) => ({ text })));
    const javaInterface = '/** Creates instances of a type that has no no-args constructor. */\npublic interface InstanceCreator<T> {\n  /** Creates a new instance of the class. */\n  T createInstance(Type type);\n}\n';
    assert.ok(interfaceOnly('java', [javaInterface]));
    assert.ok(interfaceOnly('java', ['@FunctionalInterface\npublic interface ExclusionStrategy {\n  boolean shouldSkipField(FieldAttributes f);\n}\n']));
    assert.ok(interfaceOnly('csharp', ['namespace Serilog.Core;\n\n/// A destination for log events.\npublic interface ILogEventSink\n{\n    void Emit(LogEvent logEvent);\n}\n']));
    assert.ok(interfaceOnly('kotlin', ['fun interface Handler {\n    fun handle(call: Call)\n}\n']));
    // A class (or enum, record) beside its interface is where things happen; other languages have their own rules.
    assert.ok(!interfaceOnly('java', [javaInterface + 'final class DefaultCreator implements InstanceCreator<Object> {\n  public Object createInstance(Type type) { return null; }\n}\n']));
    assert.ok(!interfaceOnly('java', ['public final class ConstructorConstructor {\n  /** Each interface of the type is checked. */\n  interface Probe { }\n}\n']));
    // Chunk by chunk: a class in another chunk of the file counts the same.
    assert.ok(!interfaceOnly('java', [javaInterface, 'final class DefaultCreator implements InstanceCreator<Object> {\n}\n']));
    assert.ok(!interfaceOnly('csharp', ['public sealed class Logger : ILogger\n{\n}\npublic interface ILogger { }\n']));
    assert.ok(!interfaceOnly('go', ['type Env interface {\n    Bindings() object\n}\n']));
    assert.ok(!interfaceOnly('java', ['/** The interface of the parser is described here. */\npublic class Parser {\n}\n']));
  });

  it('knows a Python module of protocols and abstract classes alone (jsonschema\'s `protocols.py`): stubs, not code', () => {
    const interfaceOnly = (texts: string[]) => isInterfaceOnly('python', texts.map((text) => ({ text })));
    const protocols = '"""\ntyping.Protocol classes for jsonschema interfaces.\n"""\nfrom __future__ import annotations\nfrom typing import TYPE_CHECKING, Any, ClassVar, Protocol\n\nif TYPE_CHECKING:\n    from collections.abc import Mapping\n    import jsonschema\n\n@runtime_checkable\nclass Validator(Protocol):\n    """\n    The protocol to which all validator classes adhere.\n    """\n\n    #: An object representing the validator\'s META_SCHEMA.\n    META_SCHEMA: ClassVar[Mapping]\n\n    def __init__(\n        self,\n        schema: Mapping | bool,\n        resolver=None,  # deprecated\n        *,\n        registry: SchemaRegistry = ...,\n    ) -> None: ...\n\n    @classmethod\n    def check_schema(cls, schema: Mapping | bool) -> None:\n        """\n        Validate the given schema against the validator\'s META_SCHEMA.\n        """\n\n    def is_valid(self, instance: Any) -> bool:\n        """Check if the instance is valid."""\n'
    assert.ok(interfaceOnly([protocols]));
    assert.ok(interfaceOnly(['import abc\n\nT = TypeVar("T")\n\nclass Sink(abc.ABC):\n    @abc.abstractmethod\n    def write(self, record: T) -> None:\n        raise NotImplementedError\n\n    def close(self) -> None:\n        pass\n']));
    // A method that does something, or a class that is no protocol, is code.
    assert.ok(!interfaceOnly([protocols + '\n    def iter_errors(self, instance):\n        return iter(self._errors)\n']));
    assert.ok(!interfaceOnly([protocols, 'class Draft7Validator:\n    """A validator."""\n']));
    assert.ok(!interfaceOnly(['class Sink(ABC):\n    def write(self, record):\n        self.records.append(record)\n']));
    assert.ok(!interfaceOnly(['from typing import Protocol\n']), 'no protocol declared');
  });

  it('knows a C or C++ header of prototypes and settings alone (inih\'s `ini.h`), not one with code in it', () => {
    const header = '/* Parse given INI-style file. Returns 0 on success, line number of first error on parse error. */\nint ini_parse(const char* filename, ini_handler handler, void* user);\n\n#ifndef INI_ALLOW_MULTILINE\n#define INI_ALLOW_MULTILINE 1\n#endif\n\ntypedef int (*ini_handler)(void* user, const char* section,\n                           const char* name, const char* value);\n';
    assert.ok(isInterfaceOnly('c', [{ text: header }], 'ini.h'));
    assert.ok(isInterfaceOnly('c', [{ text: '/* Nonzero to allow multi-line value parsing. */\n#ifndef INI_ALLOW_MULTILINE\n#define INI_ALLOW_MULTILINE 1\n#endif\n' }], 'ini.h'), 'a passage of settings');
    assert.ok(!isInterfaceOnly('c', [{ text: header }], 'ini.c'), 'the implementation');
    assert.ok(!isInterfaceOnly('cpp', [{ text: header + 'inline int ini_count(const char* s) {\n  return 0;\n}\n' }], 'ini.hpp'), 'inline code');
    assert.ok(!isInterfaceOnly('cpp', [{ text: 'class Reader {\n public:\n  int size() const { return n_; }\n};\n' }], 'reader.h'), 'a method with its body');
    assert.ok(!isInterfaceOnly('c', [{ text: header + '#define HASH_ADD(head, add) \\\n  do { (add)->next = (head); } while (0)\n' }], 'uthash.h'), 'macros that do the work');
  });

  it('knows TypeScript files of types only, whose doc comments\' examples make no values', () => {
    const typesOnly = (texts: string[]) => isInterfaceOnly('typescript', texts.map((text) => ({ text })));
    const retryOptions = "import type {HttpMethod} from './common.js';\n\nexport type RetryOptions = {\n\t/**\n\tThe delay before each retry.\n\n\t@example\n\t```\n\tconst api = ky.extend({retry: {delay: n => 300}});\n\t```\n\t*/\n\tdelay?: (attemptCount: number) => number;\n};\n";
    assert.ok(typesOnly([retryOptions]));
    assert.ok(typesOnly(['export interface Env {\n  Bindings: object\n}\n', 'export declare function env(): Env;\n']));
    // A value beside the types is where something happens.
    for (const value of ['export const defaultRetry = {limit: 2};\n', 'export function computeDelay(n: number) {\n  return n;\n}\n', 'export class Retry {}\n', 'export enum Method { Get }\n', 'export default {limit: 2};\n']) {
      assert.ok(!typesOnly([retryOptions, value]), value);
    }
    assert.ok(!typesOnly(['export const api = ky.create();\n']), 'no types at all');
  });

  it('knows code a tool wrote by its header, and weighs it down as another project\'s code unless the question asks about generated code', () => {
    const generated = (text: string, startLine = 1) => isGeneratedCode([{ text, startLine }]);
    assert.ok(generated('// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: user.proto\n\npackage userpb\n'));
    assert.ok(generated('// Generated by the protocol buffer compiler.  DO NOT EDIT!\n#include "user.pb.h"\n'));
    assert.ok(generated('# -*- coding: utf-8 -*-\n# automatically generated by utils/generate-snowball.py\nSTOPWORDS = {}\n'));
    assert.ok(generated('/*\n * @generated by the parser generator\n */\nexport const TABLE = [];\n'));
    assert.ok(generated('# The contents of this file are automatically written by\n# tools/generate_schema_wrapper.py. Do not modify directly.\n\nfrom __future__ import annotations\n'), "altair's schema wrappers");
    assert.ok(generated('# THIS FILE IS GENERATED FROM setup.py\n# DO NOT MODIFY\nversion = "1.0"\n'));
    assert.ok(generated('<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<!-- Generated by javadoc (21) -->\n<title>Flags (jcommander 3.0 API)</title>\n'), 'a page of API documentation');
    // Not code that says so further down, nor a comment about generating.
    assert.ok(!generated('package user\n\nimport "fmt"\n\n// Render writes the page.\n// DO NOT EDIT the template below by hand.\nfunc Render() {}\n'));
    assert.ok(!generated('def build(site):\n    """Build the site."""\n    # DO NOT EDIT\n', 40), 'a later chunk of a file');
    assert.ok(!generated('# Generated by Django 4.2 on 2024-01-01 12:00\nfrom django.db import migrations\n'), 'a migration is the project\'s own');
    assert.ok(!generated('"""Generate the changelog."""\nimport sys\n'));
    const e = new SearchEngine();
    const add = (rel: string, text: string) => e.setFile(rel, rel, [{ id: rel, file: rel, rel, startLine: 1, endLine: 9, text, hash: rel, language: 'go', ext: 'go', code: true }]);
    add('api/user.pb.go', '// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: user.proto\n\npackage api\n\n// LookupUserRequest looks up a user by name.\ntype LookupUserRequest struct {\n\tName string\n}\n\nfunc (x *LookupUserRequest) GetName() string { return x.Name }\n');
    add('service/user.go', 'package service\n\n// LookupUser finds a user by name.\nfunc LookupUser(name string) (*api.User, error) {\n\treturn store.Find(name)\n}\n');
    assert.equal(e.search('how is a user name looked up?').hits[0]?.chunk.rel, 'service/user.go');
    assert.equal(e.search('where is the generated protobuf code for the user name?').hits[0]?.chunk.rel, 'api/user.pb.go');
  });

  it('knows a file named for the exception class it declares, and a Python module of exceptions', () => {
    const one = [{ text: 'class CommandNotFoundException extends \\InvalidArgumentException {}' }];
    for (const p of ['Exception/CommandNotFoundException.php', 'source/errors/HTTPError.ts', 'src/Polly.Core/Timeout/TimeoutRejectedException.cs', 'src/requests/exceptions.py', 'lib/rack/QueryParserError.rb',
      // Python's modules of exceptions by their other names: itsdangerous' `exc.py`, httpx's `_exceptions.py`.
      'src/itsdangerous/exc.py', 'httpx/_exceptions.py', 'pkg/errors.py'])
      assert.ok(isExceptionFile(p, one), p);
    for (const p of ['Application.php', 'src/error-handler.js', 'lib/errors.ts', 'src/flask/app.py', 'src/ErrorBoundary.tsx', 'src/Error.ts', 'src/handleError.ts', 'src/exec.py', 'src/error_pages.py'])
      assert.ok(!isExceptionFile(p, one), p);
    assert.ok(!isExceptionFile('src/ValidationError.ts', [...one, ...one, ...one, ...one]), 'a long file does more than declare it');
  });

  it('knows translation catalogs by their paths', () => {
    for (const p of ['sphinx/locale/fr/LC_MESSAGES/sphinx.po', 'sphinx/locale/fr/LC_MESSAGES/sphinx.js', 'po/de.po', 'locale/messages.pot', 'django/conf/locale/de/formats.py',
      'public/locales/pt-BR/translation.json', 'src/i18n/fr.json', 'config/locales/en.yml', 'resources/lang/en/auth.php', 'po/DE.PO', 'src/Humanizer/Locales/en.yml', 'src/Humanizer/Locales/pt-BR.yml'])
      assert.ok(isCatalogPath(p), p);
    for (const p of ['sphinx/locale/__init__.py', 'sphinx/util/i18n.py', 'src/poll.py', 'src/repo.ts', 'django/utils/formats.py', 'src/locales/index.ts', 'src/i18n/loader.ts', 'django/conf/locale/__init__.py', 'src/Humanizer/Localisation/Formatters/DefaultFormatter.cs']) assert.ok(!isCatalogPath(p), p);
  });

  it('knows a project\'s build and tool settings by their paths', () => {
    for (const p of ['tsconfig.json', 'perf-measures/tsconfig.build.json', 'package.json', 'pyproject.toml', 'uv.lock', '.github/workflows/ci.yml', 'vitest.config.ts', 'setup.cfg',
      'packages/solid-query/vite.config.ts', 'meson_options.txt', 'meson.build', 'CMakeLists.txt', 'cmake/FindZlib.cmake', 'Package.swift', 'SwiftyJSON.podspec', 'rake.gemspec', 'packages/react-router/tsdown.config.ts', 'examples/app/next.config.js', 'webpack.config.cjs', 'integration/playwright.config.ts', 'karma.conf.cjs', 'test/wdio.conf.js', 'Gruntfile.js', 'gulpfile.mjs',
      'go.mod', 'go.sum', 'axum-core/Cargo.toml', '.golangci.yaml', '.github/stale.yml', 'requirements-dev.txt', 'docs/requirements.txt', 'Gemfile', 'pom.xml', 'gson/src/main/java/module-info.java', 'src/Serilog/Serilog.csproj', 'Serilog.sln', 'Directory.Build.props',
      'LICENSE', 'LICENSE.md', 'CONTRIBUTING.md', 'MAINTAINERS.md', 'SECURITY.md', '.github/CODEOWNERS', 'AUTHORS.rst',
      // Notes for AI assistants (echo's llms-full.txt and CLAUDE.md).
      'CLAUDE.md', 'AGENTS.md', 'packages/core/AGENTS.md', 'llms.txt', 'llms-full.txt', 'docs/llms.txt', '.cursorrules', '.cursor/rules/style.mdc', '.github/copilot-instructions.md', '.windsurfrules',
      // Citation records (tqdm's .zenodo.json).
      '.zenodo.json', 'CITATION.cff', 'codemeta.json',
      // Documentation tools' settings (json-c's doc/Doxyfile.in).
      'doc/Doxyfile.in', 'Doxyfile', 'mkdocs.yml',
      // Build tools' wrapper scripts (clikt's `gradlew`, which had led "how are quotes and backslashes in an @argfile handled?").
      'gradlew', 'gradlew.bat', 'mvnw', 'mvnw.cmd'])
      assert.ok(isProjectConfigPath(p), p);
    for (const p of ['src/package.ts', 'src/config.ts', 'src/flask/config.py', 'docs/config.rst', 'src/json/tsconfig.ts', 'src/node/config.ts', 'src/configs.config/index.ts', 'src/cargo.rs', 'pkg/go/mod.go', 'src/requirements.py', '.github/ISSUE_TEMPLATE/bug.md', 'src/werkzeug/security.py', 'src/license.ts', 'docs/contributing/index.md', 'lib/conf.js', 'src/server.conf.py',
      'src/agents.md', 'src/llms.ts', 'lib/agents/index.ts', 'src/cursor/rules.ts', 'src/doxyfile.c', 'src/mkdocs.py', 'src/gradlew.kt']) assert.ok(!isProjectConfigPath(p), p);
  });

  it('knows vendored code by its paths', () => {
    for (const p of ['vendor/github.com/pkg/errors/errors.go', 'src/pip/_vendor/requests/api.py', 'third_party/zlib/inflate.c', 'astropy/extern/ply/lex.py', 'django/contrib/admin/static/admin/js/vendor/jquery/jquery.js', 'lib/vendored/six.py', 'sklearn/externals/_arff.py', 'seaborn/external/husl.py', 'include/spdlog/fmt/bundled/format.h',
      // pipenv's patched copy of pip; a library's build copied in (nicegui's Vue, in the top 5 of seven of its questions).
      'pipenv/patched/pip/_internal/network/auth.py', 'nicegui/static/vue.esm-browser.js', 'static/vue.esm-browser.prod.js', 'assets/chart.umd.js', 'static/js/jquery.min.js'])
      assert.ok(isVendoredPath(p), p);
    for (const p of ['src/vendors.ts', 'src/vendor.py', 'app/models/vendor_invoice.rb', 'src/node/external.ts', 'src/externalize.ts', 'src/thirdparty.ts', 'src/bundler.ts', 'src/bundled.ts', 'src/patched.py', 'tasks/patches/pip.patch', 'src/umd.js', 'src/esm-browser.ts', 'nicegui/static/nicegui.js']) assert.ok(!isVendoredPath(p), p);
  });

  it("knows the maintainers' scripts at the top of the repository by their paths", () => {
    for (const p of ['misc/sync-typeshed.py', 'scripts/release.ts', 'script/bump_changelog.py', 'tools/gen_docs.py', 'build_tools/github/check_wheels.py', 'maint_tools/sort_whats_new.py', 'dev/update_versions.py', 'ci/run.sh', '.github/scripts/label.js'])
      assert.ok(isToolingPath(p), p);
    for (const p of ['src/scripts/loader.ts', 'mypy/misc.py', 'packages/vite/scripts/build.ts', 'django/core/management/commands/runserver.py', 'src/tools/index.ts', 'lib/ci.js', 'scripts.py', 'tooling.md']) assert.ok(!isToolingPath(p), p);
  });

  describe('in the core', () => {
    const cores = realCore('declarations');

    /** Indexes `repo` in a core of its own and hands `check` the engine and a question's files in order. */
    async function inCore(repo: string, check: (engine: Core['index']['engine'], files: (q: string) => string[]) => void): Promise<void> {
      const engine = (await cores.open(repo, `${path.basename(repo)}-data`)).index.engine;
      check(engine, (q) => rankedFiles(engine, q));
    }

    /**
     * The kind's factor at 1 lets `onWords` win `question` on words; with it `first` comes first;
     * a question `about` the kind gets `aboutFirst`.
     */
    function weighedDown(engine: Core['index']['engine'], files: (q: string) => string[], c: {
      question: string; neutral: Partial<RankParams>; onWords: string | RegExp; first: string; about: string; aboutFirst: string | RegExp;
    }): void {
      const is = (rel: string | undefined, want: string | RegExp) => (typeof want === 'string' ? rel === want : want.test(rel ?? ''));
      const without = rankedFiles(engine, c.question, c.neutral);
      assert.ok(is(without[0], c.onWords), `without the factor ${c.onWords} wins on words: ${without.join(', ')}`);
      assert.equal(files(c.question)[0], c.first, files(c.question).join(', '));
      const about = files(c.about);
      assert.ok(is(about[0], c.aboutFirst), `a question about it wants ${c.aboutFirst}: ${about.join(', ')}`);
    }

    it("Rust's unit tests beside the code (`#[cfg(test)] mod tests`) count as tests: the code that does it comes first, unless the question is about tests", async () => {
      const { dir: repo, write } = cores.repo('repo-rust-tests');
      write('src/extract/path.rs', [
        '/// Extracts the path parameters of a request as the route captured them.',
        'pub fn path_params(uri: &str, route: &Route) -> Vec<(String, String)> {',
        '    route.captures(uri).map(|(k, v)| (k.to_owned(), percent_decode(v))).collect()',
        '}',
        '',
      ].join('\n'));
      write('src/routing/router.rs', [
        'pub struct Router { routes: Vec<Route> }',
        '',
        'impl Router {',
        '    pub fn route(mut self, path: &str) -> Self {',
        '        self.routes.push(Route::new(path));',
        '        self',
        '    }',
        '}',
        '',
        '#[cfg(test)]',
        'mod tests {',
        '    use super::*;',
        '',
        '    #[test]',
        '    fn extracts_path_parameters() {',
        '        let params = path_params("/users/7", &Route::new("/users/:id"));',
        '        assert_eq!(params, vec![("id".into(), "7".into())], "path parameters of the request");',
        '    }',
        '',
        '    #[tokio::test]',
        '    async fn extracts_percent_encoded_path_parameters() {',
        '        let params = path_params("/files/a%20b", &Route::new("/files/:name"));',
        '        assert_eq!(params[0].1, "a b", "decoded path parameters of the request");',
        '    }',
        '}',
        '',
      ].join('\n'));
      const engine = (await cores.open(repo)).index.engine;
      const question = 'How are the path parameters of a request extracted?';
      assert.equal(rankedFiles(engine, question, { testFactor: 1, questionTestFactor: 1 })[0], 'src/routing/router.rs', 'on words alone the unit tests win');
      assert.equal(rankedFiles(engine, question)[0], 'src/extract/path.rs');
      assert.equal(rankedFiles(engine, 'Which tests cover extracting the path parameters of a request?')[0], 'src/routing/router.rs', 'asked about tests, the tests');
    });

    it("Go's `doc.go` (a package's documentation in a comment) reads as documentation: the code that validates comes first", async () => {
      const { dir: repo, write } = cores.repo('repo-go-doc');
      const doc = ['/*', 'Package validator implements value validations for structs and individual fields based on tags.', ''];
      for (let i = 0; i < 12; i++) doc.push(`The required validation checks that the field value is not the zero value (${i}).`, 'Dive validates each element of slices and maps.', '');
      write('doc.go', [...doc, '*/', 'package validator', ''].join('\n'));
      write('baked_in.go', [
        'package validator',
        '',
        '// hasValue is the required validation: the field is not its zero value.',
        'func hasValue(fl FieldLevel) bool {',
        '\tfield := fl.Field()',
        '\treturn !field.IsZero()',
        '}',
        '',
      ].join('\n'));
      const engine = (await cores.open(repo)).index.engine;
      const question = 'how does the required validation work?';
      assert.equal(rankedFiles(engine, question, { questionProseFactor: 1 })[0], 'doc.go', 'on words alone the documentation wins');
      assert.equal(rankedFiles(engine, question)[0], 'baked_in.go');
      assert.ok(isDocumentationOnly('go', [{ text: doc.join('\n') + '\n*/\npackage validator\n' }]));
      assert.ok(!isDocumentationOnly('go', [{ text: '// Package validator validates.\n// It has rules.\npackage validator\n\nfunc hasValue() bool { return true }\n' }]), 'code after the comment');
      assert.ok(!isDocumentationOnly('python', [{ text: doc.join('\n') }]), 'another comment syntax');
      // Rust modules written to be read on docs.rs (clap's `src/_concepts.rs`): inner attributes, a `use` for links, module declarations.
      const rustDoc = Array.from({ length: 12 }, (_, i) => `//! The parser reads each argument in turn (${i}).`).join('\n');
      assert.ok(isDocumentationOnly('rust', [{ text: `${rustDoc}\n#![allow(unused_imports)]\n#![doc = include_str!("../examples/demo.rs")]\nuse clap_builder::Arg;\npub mod _tutorial;\n` }]));
      assert.ok(!isDocumentationOnly('rust', [{ text: `${rustDoc}\npub mod parser;\npub fn parse() {}\n` }]), 'a function besides');
      assert.ok(!isDocumentationOnly('rust', [{ text: `${rustDoc}\npub use parser::Parser;\n` }]), 'a re-export is the crate\'s interface');
    });

    it("a Python module of docstrings (mpmath's `function_docs.py`) reads as documentation: the code that computes comes first", async () => {
      const { dir: repo, write } = cores.repo('repo-py-docs');
      const docs = ['"""', 'Extended docstrings for functions.py', '"""', '', 'hyper = r"""'];
      for (let i = 0; i < 30; i++) docs.push(`Evaluates the generalized hypergeometric series with the given parameters (${i}).`, 'The summation adds working precision when a denominator parameter is close to a nonpositive integer.', '');
      docs.push('"""', '', 'gammaprod = r"""', 'Computes the product and quotient of gamma functions.', '"""', '');
      write('mpmath/function_docs.py', docs.join('\n'));
      write('mpmath/ctx_mp.py', [
        'def hypsum(ctx, p, q, coeffs, z, maxterms=6000):',
        '    # The hypergeometric series summation adds working precision when a denominator parameter is',
        '    # close to a nonpositive integer: the series then cancels.',
        '    if any(abs(b - round(b)) < ctx.eps for b in coeffs):',
        '        ctx.prec += 20',
        '    return ctx._hypsum(p, q, coeffs, z, maxterms)',
        '',
      ].join('\n'));
      const engine = (await cores.open(repo)).index.engine;
      const question = 'Why does the hypergeometric series summation add working precision when a denominator parameter is close to a nonpositive integer?';
      assert.equal(rankedFiles(engine, question, { questionProseFactor: 1 })[0], 'mpmath/function_docs.py', 'on words alone the documentation wins');
      assert.equal(rankedFiles(engine, question)[0], 'mpmath/ctx_mp.py');
      assert.ok(isDocumentationOnly('python', [{ text: docs.join('\n') }]));
      assert.ok(!isDocumentationOnly('python', [{ text: docs.join('\n') + '\ndef hyper(*args):\n    return hypsum(*args)\n' }]), 'a function besides');
      assert.ok(!isDocumentationOnly('python', [{ text: 'x = """short"""\n' }]), 'too short to be documentation');
    });

    it('the code that processes comes before the declaration that repeats its words, unless the question is about types', async () => {
      const { dir: repo, write } = cores.repo();
      write('src/plugins/css.ts', [
        '/** Compiles a stylesheet; class names of CSS modules are made unique per file. */',
        'export function compileCss(code: string, id: string) {',
        '  const modules = isCssModule(id) ? scopeClassNames(code, id) : undefined;',
        '  return { code: postcss(code), modules };',
        '}',
        '',
      ].join('\n'));
      // The declaration says the same words, more often: on words alone it wins.
      write('client.d.ts', [
        '/** CSS modules: each import of a .module.css file gives the class names of the CSS module. */',
        "declare module '*.module.css' {",
        '  /** The class names of the CSS module, made unique. */',
        '  const classes: CSSModuleClasses',
        '  export default classes',
        '}',
        "declare module '*.module.scss' {",
        '  /** The class names of the CSS module. */',
        '  const classes: CSSModuleClasses',
        '  export default classes',
        '}',
        '',
      ].join('\n'));
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const files = (q: string) => rankedFiles(engine, q);
      const question = 'How are the class names of CSS modules made unique?';

      assert.equal(rankedFiles(engine, question, { declarationFactor: 1 })[0], 'client.d.ts', 'without the factor the declaration wins on words');
      assert.equal(files(question)[0], 'src/plugins/css.ts', files(question).join(', '));
      assert.equal(files('Where is the type of the CSS module class names declared?')[0], 'client.d.ts', 'a question about types wants the declaration');
    });

    it('the code that computes comes before a TypeScript file of types that documents it in the question\'s words (ky\'s `types/retry.ts`), unless the question is about the type', async () => {
      const { dir: repo, write } = cores.repo('repo-ts-types');
      write('source/core/retry-timing.ts', [
        "import type {RetryOptions} from '../types/retry.js';",
        '',
        'export function calculateRetryTimingDelay(options: RetryOptions, attemptCount: number): number {',
        '  const delay = options.delay(attemptCount);',
        '  return Math.min(options.backoffLimit, delay);',
        '}',
        '',
      ].join('\n'));
      // The options' type documents the delay in more of the question's words than the code says them.
      write('source/types/retry.ts', [
        'export type RetryOptions = {',
        '  /**',
        '  The delay before each retry is computed from the attempt count: the retry delay grows with each attempt.',
        '',
        '  @example',
        '  ```',
        '  const api = ky.extend({retry: {delay: attemptCount => 0.3 * (2 ** (attemptCount - 1)) * 1000}});',
        '  ```',
        '  */',
        '  delay?: (attemptCount: number) => number;',
        '  /** The most the computed retry delay can be. */',
        '  backoffLimit?: number;',
        '};',
        '',
      ].join('\n'));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How is the retry delay computed?', neutral: { declarationFactor: 1 },
          onWords: 'source/types/retry.ts', first: 'source/core/retry-timing.ts',
          about: 'Which type declares the retry delay option?', aboutFirst: 'source/types/retry.ts',
        });
      });
    });

    it('a class comes before the interface that documents it in the question\'s words (PHP by its PSR name, Java by its declarations), unless the question is about the interface; a commit message still finds a Java interface', async () => {
      const { dir: repo, write } = cores.repo('repo-interfaces');
      write('Slim/Routing/RouteParser.php', [
        '<?php',
        'class RouteParser implements RouteParserInterface',
        '{',
        '    public function urlFor(string $routeName, array $data = []): string',
        '    {',
        '        $route = $this->routeCollector->getNamedRoute($routeName);',
        '        return $this->basePath . $this->fill($route->getPattern(), $data);',
        '    }',
        '}',
        '',
      ].join('\n'));
      // The interface documents every method in the words a question uses, more often than the code says them.
      write('Slim/Interfaces/RouteParserInterface.php', [
        '<?php',
        'interface RouteParserInterface',
        '{',
        '    /** Build the URL for a named route: the route name and the data that fills the route pattern give the URL path. */',
        '    public function relativeUrlFor(string $routeName, array $data = []): string;',
        '    /** Build the URL for a named route, with the base path: the URL of the named route. */',
        '    public function urlFor(string $routeName, array $data = []): string;',
        '    /** Build the full URL for a named route, with the scheme and host of the URL. */',
        '    public function fullUrlFor(string $routeName, array $data = []): string;',
        '}',
        '',
      ].join('\n'));
      write('src/main/java/com/example/internal/ConstructorConstructor.java', [
        'package com.example.internal;',
        '',
        '/** Returns how to create an instance of a class: its no-args constructor, or an instance made without a constructor. */',
        'public final class ConstructorConstructor {',
        '  public <T> ObjectConstructor<T> get(TypeToken<T> typeToken) {',
        '    ObjectConstructor<T> defaultConstructor = newDefaultConstructor(typeToken.getRawType());',
        '    if (defaultConstructor != null) return defaultConstructor;',
        '    return newUnsafeAllocator(typeToken.getRawType());',
        '  }',
        '}',
        '',
      ].join('\n'));
      // The public interface says the question's words in its Javadoc, more often than the code does.
      write('src/main/java/com/example/InstanceCreator.java', [
        'package com.example;',
        '',
        '/**',
        ' * Creates an instance of a class that has no no-args constructor. Without an instance creator',
        ' * for a class with no no-args constructor, the library creates the instance of the class',
        ' * without calling a constructor.',
        ' */',
        'public interface InstanceCreator<T> {',
        '  /** Creates a new instance of the class: called for each class without a no-args constructor. */',
        '  T createInstance(Type type);',
        '}',
        '',
      ].join('\n'));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How does the route parser build the URL for a named route?', neutral: { declarationFactor: 1 },
          onWords: 'Slim/Interfaces/RouteParserInterface.php', first: 'Slim/Routing/RouteParser.php',
          about: 'Which interface declares how the URL for a named route is built?', aboutFirst: 'Slim/Interfaces/RouteParserInterface.php',
        });
        weighedDown(engine, files, {
          question: 'How does it create an instance of a class that has no no-args constructor?', neutral: { declarationFactor: 1 },
          onWords: 'src/main/java/com/example/InstanceCreator.java', first: 'src/main/java/com/example/internal/ConstructorConstructor.java',
          about: 'Which interface lets me create an instance of a class with no no-args constructor?', aboutFirst: 'src/main/java/com/example/InstanceCreator.java',
        });
        const commit = files('Document that an instance creator is used for a class without a no-args constructor');
        assert.equal(commit[0], 'src/main/java/com/example/InstanceCreator.java', `a commit message is weighed as before: ${commit.join(', ')}`);
      });
    });

    it('the code comes before a project setting that lists the words, unless the question is about the settings', async () => {
      const { dir: repo, write } = cores.repo('repo-project');
      write('src/context.ts', 'export class Context {\n  /** Returns a JSON response. */\n  json(object: unknown): Response {\n    return new Response(JSON.stringify(object), { headers: { \'content-type\': \'application/json\' } })\n  }\n}\n');
      // A tsconfig that references every other tsconfig: "json" a dozen times.
      const refs = ['build', 'spec', 'bun', 'node', 'deno', 'workerd', 'lambda', 'fastly'].map((n) => `    { "path": "./tsconfig.${n}.json" }`);
      write('tsconfig.json', `{\n  "files": [],\n  "references": [\n${refs.join(',\n')}\n  ]\n}\n`);
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How do I return JSON?', neutral: { projectFactor: 1 }, onWords: 'tsconfig.json', first: 'src/context.ts',
          about: 'Which tsconfig files does the build reference?', aboutFirst: 'tsconfig.json',
        });
      });
    });

    it('the code comes before a vendored library that says the words at length, unless the question is about vendored code', async () => {
      const { dir: repo, write } = cores.repo('repo-vendor');
      write('admin/widgets.py', 'class AutocompleteSelect:\n    """A select box whose options are fetched as the user types."""\n    def options(self, term):\n        return search(term)\n');
      // A bundled select library: "select", "options" and "fetched" over and over.
      write('admin/static/js/vendor/select2/select2.js', Array.from({ length: 6 }, (_, i) => `// The select box fetches its options as the user types; select options ${i}, fetched options, select\nfunction selectOptions${i}(select) { return select.options }\n`).join(''));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How does the select box fetch its options as the user types?', neutral: { vendoredFactor: 1 }, onWords: /vendor\//, first: 'admin/widgets.py',
          about: 'Which version of the vendored select2 library fetches the options?', aboutFirst: /vendor\//,
        });
      });
    });

    it('the code comes before an exception class whose name says the question\'s words, unless the question is about errors (symfony\'s CommandNotFoundException)', async () => {
      const { dir: repo, write } = cores.repo('repo-exceptions');
      write('Application.php', [
        '<?php',
        'class Application',
        '{',
        '    /** Finds a command by name. */',
        '    public function find(string $name): Command',
        '    {',
        '        return $this->commands[$name] ?? $this->findAlternatives($name);',
        '    }',
        '}',
        '',
      ].join('\n'));
      // The exception's name and message say "command", "found" and "name" more often than the code does.
      write('Exception/CommandNotFoundException.php', [
        '<?php',
        '/** Represents an incorrect command name typed in the console: the command was not found by that name. */',
        'class CommandNotFoundException extends \\InvalidArgumentException',
        '{',
        '    /** @param string[] $alternatives Commands with a name like the one given. */',
        '    public function __construct(string $message, private array $alternatives = []) { parent::__construct($message); }',
        '}',
        '',
      ].join('\n'));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How does a command get found by its name?', neutral: { exceptionFactor: 1 }, onWords: 'Exception/CommandNotFoundException.php', first: 'Application.php',
          about: 'What is thrown when a command is not found by its name?', aboutFirst: 'Exception/CommandNotFoundException.php',
        });
      });
    });

    it("the code comes before a maintainers' script that says the words more often, unless the question is about the scripts; a commit message still finds the script", async () => {
      const { dir: repo, write } = cores.repo('repo-tooling');
      write('mypkg/version.py', [
        'from mypkg import git',
        '',
        '__version__ = "1.4.0+dev"',
        'if __version__.endswith("+dev") and git.is_git_repo(HERE):',
        '    # A development checkout: the version string gets the commit hash.',
        '    __version__ += "." + git.revision(HERE)',
        '',
      ].join('\n'));
      // A release script: "version", "commit" and "hash" at every step.
      write('misc/release.py', Array.from({ length: 8 }, (_, i) => `def step${i}(version, commit):\n    """Add the commit hash to the version string of the development checkout: check the version string, step ${i}."""\n    return version_of(commit), hash_of(commit)\n`).join('\n'));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          question: 'How does a development checkout add the commit hash to the version string?', neutral: { toolingFactor: 1 }, onWords: 'misc/release.py', first: 'mypkg/version.py',
          about: 'Which release script checks the version string and the commit hash?', aboutFirst: 'misc/release.py',
        });
        const commit = files('Check the commit hash of the development checkout against the version string');
        assert.equal(commit[0], 'misc/release.py', `a commit message is weighed as before: ${commit.join(', ')}`);
      });
    });

    it('the code that builds comes before the catalogs that repeat its messages, unless the question is about translations', async () => {
      const { dir: repo, write } = cores.repo('repo-i18n');
      write('docs/search/index.py', 'def build_search_index(pages):\n    """Build the search index: each word of the pages maps to the pages that hold it."""\n    return {w: pages_with(w) for w in words(pages)}\n');
      for (const lang of ['de', 'fr', 'pt'])
        write(`docs/locale/${lang}/LC_MESSAGES/docs.po`, ['msgid "Search index"', `msgstr "Search index (${lang})"`, '', 'msgid "Building the search index of the pages"', `msgstr "Search index ${lang}"`, '', 'msgid "Search the pages"', `msgstr "Search ${lang}"`, ''].join('\n'));
      await inCore(repo, (engine, files) => {
        weighedDown(engine, files, {
          // Without "search index" as `search/index.py`'s folder and name, which lifts it too.
          question: 'How is the search index of the pages assembled?', neutral: { catalogFactor: 1, phraseW: 0 }, onWords: /LC_MESSAGES/, first: 'docs/search/index.py',
          about: 'Where is the French translation of "Search index"?', aboutFirst: /LC_MESSAGES/,
        });
      });
    });
  });
});
