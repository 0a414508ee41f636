import * as path from 'node:path';
import type { Node as TSNode } from 'web-tree-sitter';

/** A language askcode knows by file extension, and the prebuilt grammar (if any) that parses it. */
export interface LanguageInfo {
  /** Short id, also used as the fragment's `metadata.ext` (ClassificationSpecificEnum codes). */
  id: string;
  ext: string;
  /**
   * File name in `@vscode/tree-sitter-wasm/wasm/`, or `package/file` for a grammar another package
   * holds (Kotlin's and Swift's, in `tree-sitter-wasms/out/`); absent → line windows (or headings).
   */
  grammar?: string;
  markdown?: boolean;
}

const G = (id: string, ext: string, grammar?: string): LanguageInfo => ({ id, ext, grammar });

// C has no grammar of its own in the package; C++'s parses C's declarations the same way.
const BY_EXT: Record<string, LanguageInfo> = {
  '.ts': G('typescript', 'ts', 'tree-sitter-typescript.wasm'),
  '.mts': G('typescript', 'ts', 'tree-sitter-typescript.wasm'),
  '.cts': G('typescript', 'ts', 'tree-sitter-typescript.wasm'),
  '.tsx': G('tsx', 'tsx', 'tree-sitter-tsx.wasm'),
  '.js': G('javascript', 'js', 'tree-sitter-javascript.wasm'),
  '.mjs': G('javascript', 'js', 'tree-sitter-javascript.wasm'),
  '.cjs': G('javascript', 'js', 'tree-sitter-javascript.wasm'),
  '.jsx': G('javascript', 'jsx', 'tree-sitter-javascript.wasm'),
  '.py': G('python', 'py', 'tree-sitter-python.wasm'),
  '.pyi': G('python', 'py', 'tree-sitter-python.wasm'),
  '.go': G('go', 'go', 'tree-sitter-go.wasm'),
  '.rs': G('rust', 'rs', 'tree-sitter-rust.wasm'),
  '.java': G('java', 'java', 'tree-sitter-java.wasm'),
  '.c': G('c', 'c', 'tree-sitter-cpp.wasm'),
  '.h': G('c', 'h', 'tree-sitter-cpp.wasm'),
  '.cc': G('cpp', 'cpp', 'tree-sitter-cpp.wasm'),
  '.cpp': G('cpp', 'cpp', 'tree-sitter-cpp.wasm'),
  '.cxx': G('cpp', 'cpp', 'tree-sitter-cpp.wasm'),
  '.hpp': G('cpp', 'hpp', 'tree-sitter-cpp.wasm'),
  '.hh': G('cpp', 'hpp', 'tree-sitter-cpp.wasm'),
  '.cs': G('csharp', 'cs', 'tree-sitter-c-sharp.wasm'),
  '.rb': G('ruby', 'rb', 'tree-sitter-ruby.wasm'),
  '.php': G('php', 'php', 'tree-sitter-php.wasm'),
  '.md': { id: 'markdown', ext: 'md', markdown: true },
  '.mdx': { id: 'markdown', ext: 'md', markdown: true },
  '.rst': G('restructuredtext', 'txt'),
  '.txt': G('text', 'txt'),
  '.json': G('json', 'json'),
  '.yaml': G('yaml', 'yaml'),
  '.yml': G('yaml', 'yaml'),
  '.toml': G('toml', 'toml'),
  '.html': G('html', 'html'),
  '.vue': G('vue', 'vue'),
  '.svelte': G('svelte', 'svelte'),
  '.css': G('css', 'css'),
  '.scss': G('scss', 'scss'),
  '.less': G('less', 'less'),
  '.sh': G('shell', 'sh'),
  '.bash': G('shell', 'sh'),
  '.kt': G('kotlin', 'kt', 'tree-sitter-wasms/out/tree-sitter-kotlin.wasm'),
  '.kts': G('kotlin', 'kt', 'tree-sitter-wasms/out/tree-sitter-kotlin.wasm'),
  '.swift': G('swift', 'swift', 'tree-sitter-wasms/out/tree-sitter-swift.wasm'),
  '.scala': G('scala', 'scala'),
  '.lua': G('lua', 'lua'),
  '.sql': G('sql', 'sql'),
  '.xml': G('xml', 'xml'),
  '.ini': G('ini', 'ini'),
  '.cfg': G('ini', 'ini'),
};

export function languageOf(file: string): LanguageInfo {
  const ext = path.extname(file).toLowerCase();
  return BY_EXT[ext] ?? { id: ext ? ext.slice(1) : 'text', ext: ext ? ext.slice(1) : 'txt' };
}

/** A language by fragment ext code (`py`, `ts`…), for inline seeds. */
export function languageOfExt(ext: string | undefined): LanguageInfo {
  if (!ext) return { id: 'text', ext: 'txt' };
  return BY_EXT['.' + ext.toLowerCase()] ?? { id: ext.toLowerCase(), ext: ext.toLowerCase() };
}

/**
 * The type a Rust `impl` is for, as a name: `MethodRouter<S, E>` → `MethodRouter`, and serde_json's
 * `impl<'a, W, F> ser::Serializer for &'a mut Serializer<W, F>` → `Serializer` (a reference's `&'a mut`
 * is not part of the name).
 */
export function implTypeName(raw: string): string {
  return raw.replace(/^&\s*(?:'\w+\s+)?(?:mut\s+)?/, '').replace(/^dyn\s+/, '').replace(/<.*$/s, '');
}

/**
 * The name a C or C++ declarator declares: a calling-convention macro before it reads as a qualifier
 * (`void * CJSON_CDECL internal_malloc(…)`: the name is last), and a class template's arguments are no
 * part of a method's name (spdlog's `rotating_file_sink<Mutex>::sink_it_` is `rotating_file_sink::sink_it_`).
 */
export function declaratorName(text: string): string {
  return text.replace(/<[^<>()]*>(?=::)/g, '').split(/\s+/).at(-1)!;
}

const EXCEPTION_FILE = /(?:^|\/)(?:[A-Z][A-Za-z0-9]*(?:Exception|Error)\.(?:php|java|cs|kt|ts|js|mjs|py|rb|swift|scala|dart)|_?(?:exceptions|errors|exc)\.py)$/;

/**
 * A file named for the exception class it declares (symfony's `CommandNotFoundException.php`, ky's
 * `HTTPError.ts`, Polly's `TimeoutRejectedException.cs`) or a Python module of exceptions (`exceptions.py`,
 * `errors.py`, itsdangerous' `exc.py`, httpx's `_exceptions.py`): its name
 * repeats a question's words ("found", "timeout") where nothing but the failure is declared.
 */
export function isExceptionFile(relPath: string, chunks: readonly { text: string }[]): boolean {
  return EXCEPTION_FILE.test(relPath.replace(/\\/g, '/')) && chunks.length <= 3;
}

/**
 * A generated file's header, in a comment among its first lines: Go's `// Code generated by
 * protoc-gen-go. DO NOT EDIT.`, protoc's, `@generated` (Rust, Java, Meta's tools), "auto-generated",
 * altair's schema wrappers (`# The contents of this file are automatically written by
 * tools/generate_schema_wrapper.py. Do not modify directly.`). Not a migration's `# Generated by Django`:
 * the project's own, as its history.
 */
const GENERATED_HEADER = /^\s*(?:\/\/|#|\/?\*+|--|;)[^\n]*(?:\bDO NOT (?:EDIT|MODIFY)\b|@generated\b|\b(?:auto-?generated|automatically (?:generated|written|created))\b)|^\s*<!--\s*Generated by\b/im;
const HEADER_LINES = 5;

/**
 * Code a tool wrote, by its header ({@link GENERATED_HEADER}): searchable, but seldom where the
 * project does what a question asks. A page of API documentation too (jcommander's
 * `docs/apidocs/…/EnvironmentVariableDefaultProvider.html`, `<!-- Generated by javadoc (21) -->`).
 */
export function isGeneratedCode(chunks: readonly { text: string; startLine?: number }[]): boolean {
  const first = chunks[0];
  if (!first || (first.startLine ?? 1) > 1) return false;
  return GENERATED_HEADER.test(first.text.split('\n', HEADER_LINES).join('\n'));
}

/** Languages whose comments are `//` and `/* … *\/`. */
const C_COMMENTS = new Set(['go', 'c', 'cpp', 'csharp', 'java', 'kotlin', 'swift', 'javascript', 'typescript', 'tsx', 'rust', 'php', 'scala']);
/**
 * A package clause (`package validator`), which a file of documentation holds besides its comment;
 * in Rust an inner attribute (`#![doc = include_str!("../examples/demo.rs")]`), a `use` for the
 * comment's links and a module declaration (clap's `src/_concepts.rs`, `_derive/mod.rs`, modules
 * that exist to be read on docs.rs).
 */
const PACKAGE_CLAUSE = /^(?:package\s+[\w.]+;?|<\?php|#!\[.*\]|use\s+[\w:{}, *]+;|(?:pub(?:\([\w:]+\))?\s+)?mod\s+\w+;)$/;
/** Comment lines a file of documentation holds at least. */
const DOC_FILE_LINES = 10;

/**
 * A code file of comments alone, besides its package clause: Go's `doc.go` (go-playground/validator's
 * 1,600 lines of the package's documentation answered "how does the required validation work?",
 * "how does dive validate slices?" and "what happens when a field is a nil pointer?"). It reads as
 * documentation does, not as where anything is done. A Python module of docstrings alike
 * ({@link isPythonDocumentationOnly}).
 */
export function isDocumentationOnly(language: string, chunks: readonly { text: string }[]): boolean {
  if (language === 'python') return isPythonDocumentationOnly(chunks);
  if (!C_COMMENTS.has(language)) return false;
  let inBlock = false;
  let comments = 0;
  for (const chunk of chunks) {
    for (const raw of chunk.text.split('\n')) {
      const line = raw.trim();
      if (inBlock) {
        comments++;
        const end = line.indexOf('*/');
        if (end >= 0) {
          if (line.slice(end + 2).trim()) return false;
          inBlock = false;
        }
      } else if (!line || PACKAGE_CLAUSE.test(line)) continue;
      else if (line.startsWith('//')) comments++;
      else if (line.startsWith('/*')) {
        comments++;
        const end = line.indexOf('*/', 2);
        if (end < 0) inBlock = true;
        else if (line.slice(end + 2).trim()) return false;
      } else return false;
    }
  }
  return comments >= DOC_FILE_LINES;
}

/** Lines inside string literals a Python module of documentation holds at least. */
const PY_DOC_FILE_LINES = 50;
/** The opening of a triple-quoted string on a line (`pi = r"""`, `"""`), with its quotes. */
const PY_TRIPLE_QUOTE = /[rRbBuUfF]{0,2}("""|\'\'\')/;

/**
 * A Python module of documentation: no function or class, and nearly every line inside a
 * triple-quoted string (mpmath's `function_docs.py`, 10,000 lines of docstrings assigned to names,
 * which `functions.py` attaches; it had led four questions about how the functions work).
 */
function isPythonDocumentationOnly(chunks: readonly { text: string }[]): boolean {
  let open: string | undefined;
  let inStrings = 0;
  let other = 0;
  for (const chunk of chunks) {
    for (const raw of chunk.text.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (open) {
        inStrings++;
        if (line.includes(open)) open = undefined;
        continue;
      }
      if (line.startsWith('#')) continue;
      if (/^(?:async\s+def|def|class)\s/.test(line)) return false;
      const m = PY_TRIPLE_QUOTE.exec(line);
      if (m) {
        inStrings++;
        if (!line.slice(m.index + m[0].length).includes(m[1]!)) open = m[1];
      } else other++;
    }
  }
  return inStrings >= PY_DOC_FILE_LINES && other <= 0.05 * (inStrings + other);
}

/** Source code (as opposed to prose, data or config): what "where is this implemented" is about. */
export function isCode(lang: LanguageInfo): boolean {
  return !!lang.grammar || ['vue', 'svelte', 'scala', 'lua', 'shell', 'sql'].includes(lang.id);
}

const TEST_PATH = /(^|\/)(tests?|tests?[-_][\w.-]+|(?:unit|integration|functional|acceptance|system|smoke|regression|component|contract)(?:[-_]tests?|tests)|test(?:helpers?|utils?|support|lib)|test[-_]?suites?|__tests__|__mocks__|__fixtures__|__testfixtures__|testing|testdata|test-data|spec|specs|e2e|runtime-tests?|playground|fixtures?|mocks?|fuzz|fuzzing|fuzzers?|fuzz_targets|oss-?fuzz)\/|(^|\/)[^/]*[-_.]tests?\/|\.(test|spec|e2e|mock|cy)\.[a-z]+$|\.test-d\.[cm]?tsx?$|[-_]mocks?\.[a-z]+$|(^|\/)mocks?_[^/]*$|(^|\/)test_[^/]*$|_(tests?|spec)\.[a-z]+$|-tests?\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|php|cs)$|(^|\/)(conftest|tests)\.py$|(^|\/)tests?\.(?:c|cc|cpp|cxx|sh|bash|[cm]?[jt]sx?|rs)$|(^|\/)tests?\.[a-z]+\.[cm]?[jt]sx?$|\.feature$|(^|\/)features\/(?:steps|step_definitions|support)\//i;

/** JUnit's, NUnit's and XCTest's test classes by name (`CartTest.java`, `CartTests.cs`); case-sensitive, as `latest.java` is none. */
const TEST_CLASS_FILE = /(^|\/|[a-z0-9])Tests?\.(java|kt|cs|swift)$/;

/**
 * Gradle's and Kotlin Multiplatform's test source sets (`src/commonTest/`, `src/jvmTest/`,
 * `src/androidTest/`, `src/integrationTest/`, `src/testFixtures/`); case-sensitive, as `src/latest/` is none.
 */
const TEST_SOURCE_SET = /(^|\/)src\/(?:[a-z][A-Za-z]*(?:Test|Tests|TestFixtures)|testFixtures)\//;

/**
 * Go's packages of helpers for tests, named `<package>test` by the standard library's example
 * (`net/http/httptest`, zap's `zaptest/`); case-sensitive, and `latest/`, `attest/`, `contest/` are none.
 */
const GO_TEST_PACKAGE = /(^|\/)(?!(?:la|at|con|pro|de)test\/)[a-z][a-z0-9]+test\/(?:[^/]+\/)*[^/]+\.go$/;

/**
 * A C or C++ project's test program named `<name>test` (tinyxml2's `xmltest.cpp`, whose checks of
 * every error code had led "where are declarations allowed?"); `latest.c`, `contest.c`, `fastest.c` are none.
 */
const C_TEST_PROGRAM = /(^|\/)(?![a-z_]*(?:la|at|con|pro|de|fas|grea|shor|nea|ligh|tigh|brigh|stric|sof|hot|wet)test\.)[a-z][a-z0-9_]*[a-z0-9]test\.(?:c|cc|cpp|cxx)$/;

/**
 * Tests, mocks, fixtures, playgrounds and a project's helpers for its tests (axum's `test_helpers/`,
 * pylint's `testutils/`) in JS/TS, Python, Go, Rust and Java layouts (Django's `tests.py`, .NET's
 * `App.Tests/`, `integration_tests/`, pint's `testsuite/`, RSpec's `_spec.rb`, Cypress's `.cy.ts`, tsd's type tests
 * (chalk's `index.test-d.ts`), jscodeshift's
 * `__testfixtures__/`, rack's `mock_response.rb` and gomock's `mock_store.go`, a file named `test` (hiredis'
 * `test.c`), Cucumber's `.feature` files and steps, Gradle's test source sets (okhttp's
 * `src/commonTest/`), test projects named by their kind (AutoMapper's `src/UnitTests/`,
 * `src/IntegrationTests/`), a test suite's folder (BurntSushi/toml's `internal/toml-test/`), a Rust
 * module's tests in a file of their own (http's `src/uri/tests.rs`), fuzzing harnesses (`fuzz/`,
 * `ossfuzz/`), Go's `zaptest/`, React Router's `integration/rsc-nonce-test.ts` — a hyphen before "test"
 * counts in code files only: a CI workflow's `primer-test.yaml` is no test, and a hyphen before
 * "spec" never counts, `zarr-encoding-spec.rst` being a specification): rarely the answer to
 * "where is this implemented".
 */
export function isTestPath(relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  return TEST_PATH.test(p) || TEST_CLASS_FILE.test(p) || TEST_SOURCE_SET.test(p) || GO_TEST_PACKAGE.test(p) || C_TEST_PROGRAM.test(p);
}

/** A Python module named as a test (`test_set.py`, `set_test.py`). */
const PY_TEST_NAME = /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/;
/** What a Python test file holds: an assertion, pytest or unittest, a `Test…` class. */
const PY_TEST_CONTENT = /\bassert\b|\bpytest\b|\bunittest\b|^\s*class\s+Test|\bself\.assert[A-Z]/m;

/**
 * {@link isTestPath}, but a Python module that is named as a test and holds none, outside any
 * folder of tests, is the project's code: bandit calls its checks "tests", and its
 * `bandit/core/test_set.py` (which checks run) and `test_properties.py` (their decorators) are
 * what questions about rule selection ask for.
 */
export function isTestFile(relPath: string, chunks: readonly { text: string }[]): boolean {
  if (!isTestPath(relPath)) return false;
  const p = relPath.replace(/\\/g, '/');
  if (!PY_TEST_NAME.test(p) || isTestPath(p.replace(/[^/]+$/, 'module.py'))) return true;
  return chunks.some((c) => PY_TEST_CONTENT.test(c.text));
}

/** A test case: pytest's and unittest's, Jest's, Mocha's and Vitest's, Go's, Rust's, JUnit's. */
const TEST_CASE = /^\s*(?:async\s+)?def\s+test\w*\s*\(|^\s*class\s+Test\w*\s*[(:]|^\s*(?:it|test|describe)(?:\.\w+)?\s*\(|^func\s+Test\w*\s*\(|#\[(?:tokio::)?test\]|@Test\b/m;

/** The name of a module, or of its folder, of what a test suite shares: helpers, utilities, fixtures, conftest. */
const TEST_SUPPORT_NAME = /^(?:conftest|settings|_?(?:test[-_]?)?(?:utils?|helpers?|fixtures?|support|common|harness|tools|lib)|testing(?:[-_]utils?)?|test[-_]?cases?|tutil|[\w-]*[-_](?:utils?|helpers?))$/i;

/**
 * A test file that holds no test case and is named for what the suite shares (`conftest.py`,
 * `tests/utils/__init__.py`, pint's `testsuite/helpers.py`, beets' `test/helper.py`): the answer to a
 * question about "the test helper" or "the fixture used throughout the test suite". Not every test
 * file without a test case: TypeORM's test entities and pylint's functional inputs are what single
 * tests use, not what the suite shares. `test`: whether it is a test file, when the caller knows.
 */
export function isTestSupportFile(relPath: string, chunks: readonly { text: string }[], test?: boolean): boolean {
  const parts = relPath.replace(/\\/g, '/').split('/');
  const stem = parts[parts.length - 1]!.replace(/\.[^.]+$/, '');
  const folder = parts[parts.length - 2] ?? '';
  if (!TEST_SUPPORT_NAME.test(stem) && !TEST_SUPPORT_NAME.test(folder)) return false;
  return (test ?? isTestFile(relPath, chunks)) && !chunks.some((c) => TEST_CASE.test(c.text));
}

/**
 * The 1-based line ranges of a Rust file's test modules (`#[cfg(test)]` then `mod tests {`, to the
 * `}` that closes it at the same indentation), from the file's lines.
 */
export function rustTestModules(lines: string[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#\[cfg\(test\)\]\s*$/.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < lines.length && /^\s*(#\[|\/\/)/.test(lines[j]!)) j++;
    const head = /^(\s*)(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{\s*$/.exec(lines[j] ?? '');
    if (!head) continue;
    let end = j + 1;
    while (end < lines.length && lines[end] !== `${head[1]}}`) end++;
    out.push([i + 1, Math.min(end, lines.length - 1) + 1]);
    i = end;
  }
  return out;
}

/**
 * Rust's unit tests, which live beside the code in a `#[cfg(test)] mod tests`: a piece of a `.rs`
 * file whose functions all carry a test attribute (`#[test]`, `#[tokio::test]`, `#[crate::test]`).
 */
export function isRustTestCode(relPath: string | undefined, text: string | undefined): boolean {
  if (!relPath?.endsWith('.rs') || !text) return false;
  const tests = text.match(/^\s*#\[(?:[\w:]+::)?test\b/gm)?.length ?? 0;
  const fns = text.match(/^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s/gm)?.length ?? 0;
  return tests > 0 && tests >= fns;
}

const CHANGELOG_PATH = /(^|\/)(changes|changelogs?|change[-_]log|history|news|release[-_]?notes|releases|whats[-_]?new)(\.[a-z]+)?$|(^|\/)(changelogs?|\.?changes|\.changesets?|blog|(?:prev_|next_)?whats[-_]?new|release[-_]?notes|releases|announce|newsfragments|(?:prev_|next_)?api[-_]changes)\/|(^|\/)release-v?\d+(\.\d+)+\.[a-z]+$/i;

/**
 * Change logs and release notes (`CHANGES.rst`, `CHANGELOG.md`, `doc/whatsnew/…`, towncrier
 * fragments under `changelog/`, and as other projects keep them: `docs/releases/4.2.txt`,
 * `doc/whats_new/v1.3.rst`, `doc/whats-new.rst`, `doc/users/prev_whats_new/…`,
 * `doc/api/next_api_changes/…`, `doc/en/announce/release-2.5.0.rst`, the fragments of Changesets
 * and its kin under `.changeset/` and `.changes/`, a docs site's release announcements under
 * `blog/`): prose that names every
 * feature once, seldom where it is done.
 * Only meant for files that are not code (`sphinx/builders/changes.py` matches the folder rule).
 */
export function isChangelogPath(relPath: string): boolean {
  return CHANGELOG_PATH.test(relPath.replace(/\\/g, '/'));
}

const FAQ_PATH = /(?:^|\/)(?:faqs?|troubleshooting|troubleshoot|known[-_]issues|gotchas|common[-_](?:issues|problems|errors))(?:\.[a-z]+)?$/i;

/**
 * A page of questions users asked and their answers, or of problems and their fixes (Sphinx's
 * `doc/faq.rst`, Vite's `docs/guide/troubleshooting.md`, `FAQ.md`, `known-issues.md`). Only meant
 * for files that are not code.
 */
export function isFaqPath(relPath: string): boolean {
  return FAQ_PATH.test(relPath.replace(/\\/g, '/'));
}

/** A text about types or their declarations: then a declaration file is an answer. */
export const ABOUT_TYPES = /\b(types?|typings?|typed|declarations?|declares?|d\.ts|stubs?|pyi|typescript|interfaces?|generics?)\b/i;

const DECLARATION_PATH = /\.d\.[cm]?ts$|\.pyi$|(^|\/)(Interfaces|Contracts)\/.*\.php$|Interface\.php$/;

/**
 * Type declarations without the code (`client.d.ts`, `types/*.d.ts`, Python `.pyi` stubs, PHP's
 * interfaces as PSR names them: `Interfaces/RouteParserInterface.php`, Laravel's `Contracts/`): they
 * repeat the names and words of what they declare, but nothing happens there.
 */
export function isDeclarationPath(relPath: string): boolean {
  return DECLARATION_PATH.test(relPath);
}

const INTERFACE_DECL = /^[ \t]*(?:(?:public|internal|private|protected|sealed|abstract|static|partial|export|fun|@\w+(?:\([^)\n]*\))?)[ \t]+)*interface[ \t]+[A-Za-z_]\w*/m;
const TYPE_WITH_BODY = /^[ \t]*(?:(?:public|internal|private|protected|sealed|abstract|static|partial|final|data|open|readonly|ref|unsafe|file|@\w+(?:\([^)\n]*\))?)[ \t]+)*(?:class|enum|record|struct|object)[ \t]+[A-Za-z_]\w*/m;
const INTERFACE_LANGUAGES = new Set(['java', 'csharp', 'kotlin']);

/**
 * A Java, C# or Kotlin file (by its chunks) that declares interfaces and no class, enum, record or struct
 * (gson's `InstanceCreator.java`, `ExclusionStrategy.java`), a TypeScript file of types only, a Python
 * module of protocols, or a C or C++ header of prototypes (`relPath` says it is a header): its
 * documentation says what the implementations do, in the words of a question, but nothing happens there.
 */
export function isInterfaceOnly(language: string, chunks: readonly { text: string }[], relPath?: string): boolean {
  // The language first: the index asks this of every code file it adds.
  if (language === 'typescript') return isTypesOnly(chunks.map((c) => c.text).join('\n'));
  if (language === 'python') return isProtocolsOnly(chunks.map((c) => c.text).join('\n'));
  if (language === 'c' || language === 'cpp') return !!relPath && C_HEADER.test(relPath) && isPrototypesOnly(chunks.map((c) => c.text).join('\n'));
  if (!INTERFACE_LANGUAGES.has(language)) return false;
  return chunks.some((c) => INTERFACE_DECL.test(c.text)) && !chunks.some((c) => TYPE_WITH_BODY.test(c.text));
}

const TS_TYPE_DECL = /^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:interface|type)[ \t]+[A-Za-z_$][\w$]*/m;
/** A value a TypeScript file makes: a function, a class, a variable, an enum (`declare` ones are types). */
const TS_VALUE = /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?(?:function\b|(?:abstract[ \t]+)?class[ \t]+[A-Za-z_$]|(?:const|let|var)[ \t]+[\w${[]|enum[ \t]+[A-Za-z_$]|export[ \t]+default\b)/m;
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/**
 * A TypeScript file of types only (ky's `types/options.ts`, `types/hooks.ts`): interfaces and type
 * aliases with long doc comments, whose examples (`const api = ky.extend(…)`) are comments, not values.
 */
function isTypesOnly(text: string): boolean {
  if (!TS_TYPE_DECL.test(text)) return false;
  return !TS_VALUE.test(text.replace(COMMENTS, ''));
}

const C_HEADER = /\.(?:h|hh|hpp|hxx)$/i;
/** A preprocessor directive, with the lines its backslashes carry on. */
const C_DIRECTIVE = /^[ \t]*#(?:[^\n]*\\\n)*[^\n]*/gm;
const C_ANY_DIRECTIVE = /^[ \t]*#/m;
/** A prototype: `int ini_parse(const char* filename, ini_handler handler, void* user);`. */
const C_PROTOTYPE = /[\w*&>][ \t*&]*[A-Za-z_]\w*\s*\([^;{}]*\)\s*;/;
/** A function's body after its parameters: `) {`, `) const {`, `) -> T {`. */
const C_BODY = /\)\s*(?:const\s*)?(?:noexcept\s*)?(?:->\s*[^{};]+)?\{/;

/** A function-like macro, which may be the code itself (`#define HASH_ADD(head, add) do { … } while (0)`). */
const C_MACRO_FUNCTION = /^[ \t]*#[ \t]*define[ \t]+\w+\(/m;

/**
 * A C or C++ header (or a passage of one) of prototypes, types and settings, and no function body
 * nor function-like macro (inih's `ini.h`, whose comments say what `ini_parse` does and what its
 * `INI_ALLOW_MULTILINE` allows in the words of "how is a line parsed into a name and value?", led
 * before `ini.c`). A header with inline code (fmt's) or macros that do the work (uthash's) is code.
 */
function isPrototypesOnly(text: string): boolean {
  if (C_MACRO_FUNCTION.test(text)) return false;
  const code = text.replace(COMMENTS, ' ');
  const declarations = code.replace(C_DIRECTIVE, ' ');
  return !C_BODY.test(declarations) && (C_PROTOTYPE.test(declarations) || C_ANY_DIRECTIVE.test(code));
}

/** A Python class that declares an interface: a `Protocol`, an abstract base class. */
const PROTOCOL_CLASS = /^\s*class\s+\w+\s*\((?:[^)]*\b(?:Protocol|ABC)\b|[^)]*\bmetaclass\s*=\s*(?:abc\.)?ABCMeta\b)[^)]*\)\s*:/;
const PY_STRINGS = /"""[\s\S]*?"""|'''[\s\S]*?'''/g;
/** What a Python stub's body or a module's head may hold besides signatures: no statement that does anything. */
const PY_STUB_LINE = /^\s*(?:\.\.\.|pass|raise\s+NotImplementedError\b.*|@[\w.]+.*|(?:async\s+)?def\s.*|class\s.*|from\s.*|import\s.*|if\s+(?:typing\.)?TYPE_CHECKING\s*:|\w+\s*:\s*[^=]+(?:=\s*\.\.\.)?|\)(?:\s*->\s*[^:]+)?\s*:\s*(?:\.\.\.)?)\s*$/;
/** A module-level name given a value: a type variable, an alias, `__all__`. */
const PY_MODULE_ASSIGN = /^[A-Za-z_]\w*\s*(?::[^=]+)?=/;

/**
 * A Python module of protocols and abstract classes alone (jsonschema's `protocols.py`, whose
 * `Validator` protocol led "how is an instance validated against a schema?"): signatures and
 * docstrings, bodies of `...`, `pass` or `raise NotImplementedError`, and no other class.
 */
function isProtocolsOnly(text: string): boolean {
  const lines = text.replace(PY_STRINGS, '').split('\n');
  let protocols = 0;
  let open = 0;
  for (const raw of lines) {
    const line = raw.replace(/(^|\s)#.*$/, '');
    if (!line.trim()) continue;
    if (open > 0) {
      open = Math.max(0, open + bracketDepth(line));
      continue;
    }
    if (/^\s*class\s/.test(line)) {
      if (!PROTOCOL_CLASS.test(line)) return false;
      protocols++;
    } else if (!PY_STUB_LINE.test(line) && !PY_MODULE_ASSIGN.test(line)) return false;
    open = Math.max(0, bracketDepth(line));
  }
  return protocols > 0;
}

/** How many more brackets a line opens than it closes, outside its strings and trailing comment. */
export function bracketDepth(line: string): number {
  let d = 0;
  let quote = '';
  for (const c of withoutTrailingComment(line)) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') d--;
  }
  return d;
}

const CATALOG_PATH = /(^|\/)LC_MESSAGES\/|\.pot?$/i;
/**
 * A language's folder or file under `locale/`, `locales/`, `i18n/` or `lang/` (`de/`, `pt-BR.json`;
 * Humanizer's `Locales/en.yml`); the code case-sensitive, as language codes are lower-case.
 */
const PER_LANGUAGE_PATH = /(^|\/)([Ll]ocales?|i18n|[Ll]ang)\/[a-z]{2}([_-][A-Za-z]{2,4})?(\/|\.(json|ya?ml|js|ts|properties|toml|ini)$)/;

/**
 * Translation catalogs (gettext `.po` / `.pot` files and everything under `LC_MESSAGES/`, such as
 * Sphinx's `sphinx.js` per language), and a project's files per language under `locale/`,
 * `locales/`, `i18n/` or `lang/` (Django's `conf/locale/de/formats.py`, `locales/pt-BR/translation.json`,
 * `i18n/fr.json`): the code's messages or settings again, once per language.
 */
export function isCatalogPath(relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  return CATALOG_PATH.test(p) || PER_LANGUAGE_PATH.test(p);
}

const PROJECT_CONFIG_PATH =
  /(^|\/)([jt]sconfig[^/]*\.json|package(-lock)?\.json|jsr\.json|deno\.jsonc?|bunfig\.toml|pnpm-(lock|workspace)\.yaml|yarn\.lock|[^/]*\.lock|pyproject\.toml|setup\.cfg|tox\.ini|pytest\.ini|MANIFEST\.in|\.pre-commit-config\.ya?ml|\.readthedocs\.ya?ml|\.editorconfig|\.gitignore|\.gitattributes|\.npmignore|\.eslintrc[^/]*|\.prettierrc[^/]*|(eslint|prettier|vitest|jest|tsup|rollup|babel|commitlint|lint-staged)\.config\.[a-z]+|[\w-]+\.conf(?:ig)?\.[cm]?[jt]s|(?:Gruntfile|gulpfile)\.[cm]?[jt]s|renovate\.json5?|codecov\.ya?ml|\.github\/(workflows\/)?[^/]+\.ya?ml|go\.(mod|sum|work)|Cargo\.toml|\.golangci\.ya?ml|requirements[^/]*\.txt|Gemfile|composer\.json|pom\.xml|build\.gradle(\.kts)?|module-info\.java|[^/]+\.(csproj|fsproj|vbproj|sln)|meson\.build|meson_options\.txt|meson\.options|CMakeLists\.txt|[^/]+\.cmake|vcpkg\.json|Package\.swift|Cartfile|[^/]+\.podspec|[^/]+\.gemspec|Directory\.(Build|Packages)\.(props|targets)|Doxyfile(?:\.in)?|mkdocs\.ya?ml|gradlew(?:\.bat)?|mvnw(?:\.cmd)?)$/i;
/** A project's papers (licence, maintainers, how to contribute or report a vulnerability): by their upper-case names. */
const PROJECT_PAPERS_PATH = /(^|\/)(LICEN[CS]E|COPYING|NOTICE|MAINTAINERS|SECURITY|CODE_OF_CONDUCT|CONTRIBUTING|AUTHORS|CONTRIBUTORS|CODEOWNERS|FUNDING|SUPPORT|GOVERNANCE|CLAUDE|AGENTS|GEMINI)(\.(md|txt|rst|ya?ml))?$/;
/**
 * A project's citation records (tqdm's `.zenodo.json`, `CITATION.cff`) and its notes for AI
 * assistants (`llms.txt`, `llms-full.txt`, Cursor's and Windsurf's rules, Copilot's instructions;
 * `CLAUDE.md` and `AGENTS.md` above): a summary of every part, in the words of every question
 * (echo's `llms-full.txt` answered "how does the recover middleware handle a panic?" beside
 * `middleware/recover.go`), where nothing is done.
 */
const ASSISTANT_NOTES_PATH = /(^|\/)(\.zenodo\.json|CITATION\.(?:cff|bib)|codemeta\.json|llms(?:-full)?\.txt|\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md)$|(^|\/)\.cursor\/rules\//i;

/**
 * A project's build, packaging and tool settings: they list the project's paths and names
 * (`tsconfig.json` references every `*.json`), but no behaviour of the code is there. Any tool's
 * `name.config.ts` / `.js` counts (`vite.config.ts`, `tsdown.config.ts`, `next.config.js`). So do the
 * documentation tools' (json-c's `doc/Doxyfile.in`, two thousand lines of commented settings, had
 * answered "how deeply nested can a document be?").
 */
export function isProjectConfigPath(relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  return PROJECT_CONFIG_PATH.test(p) || PROJECT_PAPERS_PATH.test(p) || ASSISTANT_NOTES_PATH.test(p);
}

const VENDORED_PATH = /(^|\/)(vendors?|_vendor|vendored|bundled|patched|third[-_]?party|extern(?:als?)?)\//i;
/** A library's own build copied in: `vue.esm-browser.js`, `*.umd.js`, `*.min.js`. */
const VENDORED_BUILD = /\.(?:esm-browser(?:\.prod)?|umd(?:\.min)?|min)\.m?js$/i;

/**
 * Another project's code kept inside this one (Go's and Composer's `vendor/`, pip's `_vendor/`,
 * `third_party/`, astropy's `extern/`, scikit-learn's `externals/`, seaborn's `external/`, spdlog's
 * `fmt/bundled/`, pipenv's `patched/pip/`, the
 * jQuery and Select2 under Django's `static/admin/js/vendor/`, a library's build copied in as nicegui's
 * `static/vue.esm-browser.js`): searchable, but seldom where this project does anything.
 */
export function isVendoredPath(relPath: string): boolean {
  const path = relPath.replace(/\\/g, '/');
  return VENDORED_PATH.test(path) || VENDORED_BUILD.test(path);
}

const TOOLING_PATH = /^(scripts?|misc|tools|build[-_]tools|maint[-_]tools|dev[-_]?tools|dev|ci|\.ci|\.github)\//;

/**
 * The maintainers' own tooling at the top of the repository: release, CI, benchmark-runner and
 * code-generation scripts under `scripts/`, `misc/`, `tools/`, `build_tools/`, `maint_tools/`,
 * `dev/`, `ci/`, `.github/` (mypy's `misc/sync-typeshed.py`, vite's `scripts/release.ts`): code
 * about the project, seldom where the project does what a question asks.
 */
export function isToolingPath(relPath: string): boolean {
  return TOOLING_PATH.test(relPath.replace(/\\/g, '/'));
}

const EXAMPLE_PATH = /(^|\/)_?(examples?|samples?|demos?|benchmarks?|benches|bench|asv_bench|perf(?:ormance)?[-_]?test(?:s|ing)?|__perf(?:ormance)?_tests__|__benchmarks__)\/|(^|\/)(?:examples?|samples?|demos?)[-_][^/]+\/|\.playground\/|(^|\/)[^/]+[-_]bench(?:mark)?s?\.(?:[cm]?[jt]sx?|py|rb|go|rs|php)$|(^|\/)(?:prisma|db|database)\/(?:seeds?\.[a-z]+$|seed(?:s|ers)?\/)|\.bench\.[a-z]+$|\.stories\.(?:[cm]?[jt]sx?|mdx|svelte|vue)$|(^|\/)\.storybook\/|^bench(?:mark)?s?\.(?:[cm]?[jt]sx?|py|rb|go|rs|php)$|\.ipynb$|(^|\/)(?:docs?(?:_src)?|website)\/(.*\/)?[^/]+\.(py|pyi|[cm]?[jt]sx?|go|rs|java|rb|php|cs|c|cc|cpp|kt|swift)$|^www\/(.*\/)?[^/]+\.(py|[cm]?[jt]sx?)$/i;

/** An HTML page under a folder of documentation (javadoc's `docs/apidocs/`, a built site's `_build/html/`). */
const DOCS_PAGE = /(?:^|\/)(?:docs?|apidocs?|javadocs?|api-docs|site|_site|_build|html)\/(?:[^/]+\/)*[^/]+\.x?html?$/i;

/** A file of prose by its extension: Markdown, reStructuredText, AsciiDoc, plain text. */
export const PROSE_FILE = /\.(?:md|mdx|markdown|rst|txt|adoc|asciidoc)$/i;

/**
 * A page to read rather than code that runs: a file of prose ({@link PROSE_FILE}) or an HTML page
 * of documentation (jcommander's javadoc `EnvironmentVariableDefaultProvider.html` and
 * `docs/index.adoc` show the constructor called; neither calls it).
 */
export function isDocumentPage(relPath: string): boolean {
  return PROSE_FILE.test(relPath) || DOCS_PAGE.test(relPath.replace(/\\/g, '/'));
}

/**
 * Examples (SnapKit's `Example-iOS/` and Swift playgrounds too), benchmarks (immer's
 * `perf-testing/` and `__performance_tests__/`, chalk's `benchmark.js` at the top of the repository,
 * yarl's `url_benchmark.py`), notebooks (tqdm's
 * `DEMO.ipynb` answered "how does the pandas integration work?"), code inside
 * documentation or a documentation site's folder (nicegui's `website/documentation/content/*.py`,
 * a Docusaurus `website/`, tRPC's `www/` at the top, not a PHP site's web root; their pages had led
 * four of 24 nicegui questions), a database's seed data (`prisma/seed.ts`, `db/seeds.rb`) and a component's
 * Storybook stories (wagtail's `Sidebar.stories.tsx`, whose `standard()` story had led a question
 * about its slug helper): illustrations of the code, not the code.
 */
export function isExamplePath(relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  const root = JVM_SOURCE_ROOT.exec(p);
  if (!root) return EXAMPLE_PATH.test(p) || EXAMPLE_CLASS.test(p);
  // Under a JVM source root the folders are a package's name: `com/example/demo` (Spring
  // Initializr's) and `org/springframework/samples/petclinic` hold a project's own code. A package
  // of examples is the file's own (`org/jsoup/examples/ListLinks.java`).
  const end = root.index + root[0].length;
  return EXAMPLE_PATH.test(p.slice(0, end)) || EXAMPLE_CLASS.test(p) || /^(examples|samples|benchmarks?)$/.test(p.slice(end).split('/').at(-2) ?? '');
}

const JVM_SOURCE_ROOT = /(^|\/)src\/[A-Za-z]+\/(?:java|kotlin|scala|groovy)\//;
/** A benchmark class by its name (gson's `ParseBenchmark.java`), wherever it is. */
const EXAMPLE_CLASS = /[a-z]Benchmarks?\.(java|kt|cs|scala)$/;

/** Not "for example", which gives one of the question's own (cookie's "what makes it throw — for example an invalid domain"). */
const ABOUT_EXAMPLES = /(?<!\bfor\s+)\b(examples?|samples?|demos?|benchmarks?|docs? snippets?|storybook|stories)\b/i;

/** A text that asks about examples, samples, demos or benchmarks: then they are the answer. */
export function asksAboutExamples(text: string): boolean {
  return ABOUT_EXAMPLES.test(text);
}

/**
 * Which lines of a text are inside a Python triple-quoted string (a docstring), or in another
 * language's block comment that starts a line (`/** … *\/`, with or without a `*` on each line):
 * their examples (werkzeug's `Subdomain` shows `Rule('/', endpoint='index')` in its own, jsoup's
 * Cleaner Javadoc `Cleaner cleaner = new Cleaner(Safelist.relaxed());`) call nothing. Ruby and
 * Markdown have none.
 */
export function docstringLines(text: string, path: string | undefined): boolean[] {
  const lines = text.split(/\r?\n/);
  if (BLOCK_COMMENTED.test(path ?? '')) return blockCommentLines(lines);
  const out = lines.map(() => false);
  if (!/\.pyi?$/i.test(path ?? '')) return out;
  let open: string | undefined;
  // A chunk can start inside a docstring: its first mark alone on a line, not after a header, an
  // assignment or an open call that it would open, closes the docstring the text began in (sanic's
  // `BlueprintGroup` is a two-line chunk, then its 70-line docstring with examples that call `Blueprint(…)`).
  let from = 0;
  const first = lines.findIndex((l) => /"""|'''/.test(l));
  const before = lines.slice(0, Math.max(0, first)).filter((l) => l.trim()).at(-1);
  // An opener follows a header (`def f():`, `class A:`), an assignment or an open call.
  if (first > 0 && before !== undefined && /^\s*("""|''')\s*(?:#.*)?$/.test(lines[first]!) && !/(?::|=|\()\s*(?:#.*)?$/.test(before)) {
    for (let i = 0; i <= first; i++) out[i] = true;
    from = first + 1;
  }
  for (let i = from; i < lines.length; i++) {
    const marks = lines[i]!.match(/"""|'''/g) ?? [];
    if (open) out[i] = true;
    for (const m of marks) {
      if (!open) {
        open = m;
        out[i] = true;
      } else if (m === open) open = undefined;
    }
  }
  return out;
}

const BLOCK_COMMENTED = /\.(?:[cm]?[jt]sx?|java|kts?|cs|go|rs|c|h|cc|cpp|cxx|hpp|php|swift|scala|dart)$/i;

/**
 * The lines of block comments that start a line. A text (a chunk) can start inside one: a line
 * that ends one before any line opens one closes the comment the text began in.
 */
function blockCommentLines(lines: string[]): boolean[] {
  const out = lines.map(() => false);
  const opens = (l: string) => /^\s*\/\*/.test(l);
  const firstOpen = lines.findIndex(opens);
  const firstClose = lines.findIndex((l) => /\*\/\s*$/.test(l) && !l.includes('/*'));
  let from = 0;
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    for (let i = 0; i <= firstClose; i++) out[i] = true;
    from = firstClose + 1;
  }
  let open = false;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (open) {
      out[i] = true;
      if (l.includes('*/')) open = false;
    } else if (opens(l)) {
      out[i] = true;
      open = !l.slice(l.indexOf('/*') + 2).includes('*/');
    }
  }
  return out;
}

/**
 * A line without its trailing comment (`matchIndex int // index for next()`, `x = 1  # see run()`):
 * a `//` or `# ` after code and a space, outside any string. What the line's code calls is in
 * what is left.
 */
export function withoutTrailingComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (i > 0 && /\s/.test(line[i - 1]!) && ((ch === '/' && line[i + 1] === '/') || (ch === '#' && (i + 1 === line.length || line[i + 1] === ' ')))) return line.slice(0, i).trimEnd();
  }
  return line;
}

/**
 * A line's code without what its strings say (Slim's `"… in order to use `App::run()` "` calls no
 * `run`): each quoted string emptied, but one that may interpolate code (`{`) kept whole. Rust's
 * `'a` is a lifetime: there only `"` quotes.
 */
export function withoutStrings(line: string, quotes = '"\'`'): string {
  let out = '';
  let start = -1;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) {
        const body = line.slice(start + 1, i);
        out += quote + (body.includes('{') ? body : '') + quote;
        quote = '';
      }
      continue;
    }
    if (quotes.includes(ch)) {
      quote = ch;
      start = i;
    } else out += ch;
  }
  return quote ? out + line.slice(start) : out;
}

/**
 * A file's text as its call sites are read from it, lines kept: Ruby's lists of words and symbols
 * (`%w[erb haml]`, `%i[\n  builder nokogiri\n]`) blanked, their words strings, no calls of methods so
 * named; any other file's as it is.
 */
export function callableText(text: string, relPath: string): string {
  return isRubyPath(relPath) ? text.replace(/%[wWiI](?:\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|<[^>]*>)/g, (m) => m.replace(/[^\n]/g, ' ')) : text;
}

/** A Ruby file: where a method is called without parentheses too. */
export function isRubyPath(relPath: string): boolean {
  return /\.(?:rb|rake|gemspec)$|(?:^|[\\/])(?:Rakefile|Gemfile)$/.test(relPath);
}

const UNFIELDED_DEFINITION = /^(class_declaration|object_declaration|function_declaration)$/;

/**
 * The name node of a definition whose grammar gives it no `name` field: Kotlin's, where a
 * declaration's first identifier is its name (`class Router`, `object Util`, `fun String.trim`).
 */
export function unfieldedName(n: TSNode): TSNode | undefined {
  if (!UNFIELDED_DEFINITION.test(n.type)) return undefined;
  return n.namedChildren.find((c): c is TSNode => !!c && (c.type === 'type_identifier' || c.type === 'simple_identifier'));
}

const FUNCTION_VALUE = /^(function_expression|function|arrow_function|generator_function)$/;

/**
 * A JavaScript or TypeScript class field (`produce = (base, recipe) => {…}`, `router: Router = new
 * TrieRouter()`): its name and its value, if the node is one.
 */
export function classField(n: TSNode): { name: TSNode | null; value: TSNode | null } | undefined {
  if (n.type !== 'public_field_definition' && n.type !== 'field_definition') return undefined;
  return { name: n.childForFieldName('name') ?? n.childForFieldName('property'), value: n.childForFieldName('value') };
}

/** Whether a JavaScript value node is a function (`function (…) {…}`, `(…) => …`, a generator). */
export function isFunctionValue(value: TSNode): boolean {
  return FUNCTION_VALUE.test(value.type);
}

/**
 * A function (or class) that a JavaScript statement assigns to a property, as CommonJS code
 * defines them: `exports.entry = function (…)` is `entry` (joi's validator.js named no chunk and
 * defined nothing), `Router.prototype.use = function use(…)` is `Router`'s `use`, `app.init =
 * function init()` is `app`'s `init`. Its owner is none for `exports` and `module.exports`.
 */
export function assignedFunction(statement: TSNode): { name: string; owner?: string; value: TSNode } | undefined {
  const a = statement.namedChildren[0];
  if (a?.type !== 'assignment_expression') return undefined;
  const left = a.childForFieldName('left');
  const value = a.childForFieldName('right');
  if (left?.type !== 'member_expression' || !value || !(isFunctionValue(value) || value.type === 'class')) return undefined;
  // `module.exports = class File extends Transport {…}` exports what the value names itself (winston's transports).
  if (/^(?:module\.)?exports$/.test(left.text)) {
    const own = value.childForFieldName('name')?.text;
    return own ? { name: own, value } : undefined;
  }
  const name = left.childForFieldName('property')?.text;
  const object = left.childForFieldName('object')?.text.replace(/\.prototype$/, '');
  if (!name || !object || !/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  return { name, owner: /^(exports|module\.exports)$/.test(object) || !/^[A-Za-z_$][\w$]*$/.test(object) ? undefined : object, value };
}

/**
 * An import, include or re-export line, in the languages the index reads: Rust's `pub use` and
 * `mod x;`, TypeScript's `export * from './x'` and `export { a } from './x'` (a barrel file).
 */
export const IMPORT_LINE =
  /^\s*(?:import\s|from\s+[\w.]+\s+import\s|#\s*include\b|using\s+(?:static\s+)?[\w.]+\s*;|(?:pub(?:\([\w:]+\))?\s+)?(?:use\s|mod\s+\w+\s*;|extern\s+crate\s)|require(?:_relative)?[\s(]|(?:const|let|var)\s+[\w{}\s,]+=\s*require\(|export\s+(?:type\s+)?(?:\*|\{)[^;]*\bfrom\s|export\s+\{[^}]*$)/;
