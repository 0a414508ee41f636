import * as path from 'node:path';
import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import type { Language as TSLanguage, Node as TSNode, Parser as TSParser } from 'web-tree-sitter';
import { assignedFunction, classField, declaratorName, implTypeName, isFunctionValue, languageOfExt, unfieldedName, type LanguageInfo } from './languages';

/** One piece of a file: what is searched, embedded and returned as a snippet. */
export interface Chunk {
  /** 1-based inclusive. */
  startLine: number;
  endLine: number;
  text: string;
  /** Enclosing or contained definition names, outermost first (`Router › match`). */
  symbol?: string;
  /** sha1 of the text: what the embedding cache is keyed by. */
  hash: string;
}

/**
 * Budgets: about 60 lines is where BM25 over chunks ranked files best on the dev data, and
 * 2,400 characters stays near MiniLM's 256-token window.
 */
/** A chunk's place and name, as a chunk, a hit or an answer's passage has them. */
interface NamedSpan {
  startLine?: number;
  endLine?: number;
  symbol?: string;
}

/**
 * A definition's head that is a chunk of its own, under four lines: click's `def invoke(`
 * signature (its docstring and body too big to join it), django-rest-framework's one-line
 * `class TokenAuthentication(BaseAuthentication):`.
 */
export function isBareHead(c: NamedSpan): boolean {
  return !!c.symbol && c.startLine !== undefined && c.endLine !== undefined && c.endLine - c.startLine < 3;
}

/** Whether `next` goes on with the bare head `head`: right after it, named as it or as a member of it (`TokenAuthentication › authenticate`). */
export function goesOnWith(head: NamedSpan, next: NamedSpan): boolean {
  const sym = head.symbol;
  return isBareHead(head) && next.startLine === head.endLine! + 1 && (next.symbol === sym || !!next.symbol?.startsWith(sym + ' › '));
}

export const MAX_LINES = 60;
export const MAX_CHARS = 2400;
/** Bigger files are cut into line windows without parsing (tree-sitter time grows with size). */
const MAX_PARSE_BYTES = 512 * 1024;

export function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

// ---- tree-sitter ----------------------------------------------------------------------

type TS = typeof import('web-tree-sitter');
let tsModule: Promise<TS> | undefined;
const languages = new Map<string, Promise<TSLanguage | null>>();
let parser: TSParser | undefined;

function grammarDir(): string {
  return path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
}

/** A grammar file by its name in `@vscode/tree-sitter-wasm`, or by `package/path` in another package. */
function grammarPath(file: string): string {
  const slash = file.indexOf('/');
  if (slash < 0) return path.join(grammarDir(), file);
  return path.join(path.dirname(require.resolve(`${file.slice(0, slash)}/package.json`)), file.slice(slash + 1));
}

async function loadTs(): Promise<TS> {
  tsModule ??= (async () => {
    const ts = (await import('web-tree-sitter')) as TS;
    await ts.Parser.init();
    return ts;
  })();
  return tsModule;
}

async function grammar(file: string): Promise<TSLanguage | null> {
  let p = languages.get(file);
  if (!p) {
    p = (async () => {
      try {
        const ts = await loadTs();
        return await ts.Language.load(grammarPath(file));
      } catch {
        return null;
      }
    })();
    languages.set(file, p);
  }
  return p;
}

const DEF = /function|method|class|interface|struct|enum|impl|trait|module|namespace|type_alias|constructor|decorated_definition|lexical_declaration|variable_declaration|type_declaration|object_declaration|export_statement|arrow_function|macro_definition|protocol_declaration|init_declaration/;

/**
 * A declared name as a chunk's name list can hold it: not a destructuring pattern (`{ green, red }`,
 * whose comma reads as two names) nor a module's string (`declare module '*.vue'`).
 */
function nameLike(text: string): string | undefined {
  return text.length < 100 && !/^[{[("'`]|[\s,]/.test(text) ? text : undefined;
}

/**
 * C's export macro before a declaration (`CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)`, `LUA_API int
 * lua_gettop (…)`) is no grammar's, and reads as a declarator of its own in the parse's error node:
 * it names nothing. What follows it on the same line is the declaration.
 */
function isExportMacro(n: TSNode): boolean {
  if (n.type !== 'function_declarator' || n.parent?.type !== 'ERROR') return false;
  const name = n.childForFieldName('declarator');
  const next = n.nextNamedSibling ?? n.parent.nextNamedSibling;
  return !!name && /^[A-Z][A-Z0-9_]*$/.test(name.text) && !!next && next.startPosition.row === n.endPosition.row;
}

/** A parse error node that holds only an export macro ({@link isExportMacro}). */
function isMacroPrefix(n: TSNode): boolean {
  return n.type === 'ERROR' && n.namedChildCount === 1 && isExportMacro(n.namedChildren[0]!);
}

/** The name a definition node declares, if any. */
function defName(n: TSNode): string | undefined {
  const field = classField(n);
  if (field) {
    // `produce = (base, recipe) => {…}` in a class body: a method in all but syntax (immer's
    // `Immer.produce`, a React component's handlers). A plain field names nothing.
    return field.name && field.value && isFunctionValue(field.value) ? nameLike(field.name.text) : undefined;
  }
  if (n.type === 'expression_statement') {
    // `exports.entry = function (…) {…}`, `Router.prototype.use = function use(…)`: CommonJS's definitions.
    const assigned = assignedFunction(n);
    return assigned ? nameLike(assigned.name) : undefined;
  }
  // C#'s `namespace Polly;` holds nothing: a chunk of its usings and a class's doc comment is not `Polly`.
  if (!DEF.test(n.type) || n.type === 'file_scoped_namespace_declaration' || isExportMacro(n)) return undefined;
  const name = n.childForFieldName('name') ?? unfieldedName(n);
  if (name) return nameLike(name.text);
  if (n.type === 'decorated_definition' || n.type === 'export_statement') {
    const inner = n.childForFieldName('definition') ?? n.childForFieldName('declaration') ?? n.namedChildren.find((c) => c && DEF.test(c.type));
    return inner ? defName(inner) : undefined;
  }
  if (n.type === 'lexical_declaration' || n.type === 'variable_declaration') {
    const decl = n.namedChildren.find((c) => c?.type === 'variable_declarator');
    const nm = decl?.childForFieldName('name');
    // CommonJS's import (`const fs = require('../fs')`, `const u = require('universalify').fromPromise`)
    // defines nothing: fs-extra's chunk of them and `symlinkPaths`' doc comment was `path, fs, u`.
    if (/^require\s*\(/.test(decl?.childForFieldName('value')?.text ?? '')) return undefined;
    return nm ? nameLike(nm.text) : undefined;
  }
  // Go: `type Echo struct { … }` is a declaration around a spec that holds the name.
  if (n.type === 'type_declaration') {
    const spec = n.namedChildren.find((c) => c?.type === 'type_spec' || c?.type === 'type_alias');
    const nm = spec?.childForFieldName('name');
    if (nm) return nameLike(nm.text);
  }
  // Rust: `impl<S, E> MethodRouter<S, E>` is named `MethodRouter` (chunk names are listed with commas).
  // An impl for a tuple or an array of them (`impl<K, V, const N: usize> IntoResponse for [(K, V); N]`)
  // goes by its methods: a comma would read as two names.
  if (n.type === 'impl_item') {
    const raw = n.childForFieldName('type')?.text;
    return raw && !(/^[([]/.test(raw) && raw.includes(',')) ? implTypeName(raw) : undefined;
  }
  // C/C++: the name sits inside nested declarators (`static int *parse(...)`).
  let d = n.childForFieldName('declarator');
  for (let i = 0; d && i < 5; i++) {
    if (/identifier$/.test(d.type) || d.type === 'field_identifier' || d.type === 'qualified_identifier') return d.text.length < 100 ? declaratorName(d.text) : undefined;
    d = d.childForFieldName('declarator') ?? d.childForFieldName('name');
  }
  return undefined;
}

/** Definition names inside a node, outermost first (a namespace, then its class, then methods). */
function collectNames(n: TSNode, depth: number, out: string[]): void {
  if (out.length >= 4 || depth > 3) return;
  const name = defName(n);
  if (name) out.push(name);
  // Names inside a function body are its locals, not what the chunk defines.
  if (FUNCTION_LIKE.test(n.type)) return;
  for (const c of n.namedChildren) if (c && c.namedChildCount > 0) collectNames(c, isWrapper(c, n) ? depth : depth + 1, out);
}

/**
 * C's wrappers around what a header declares: an include guard and `#ifdef __cplusplus` around
 * `extern "C" { … }`, a `typedef` around its struct, a declaration around its declarator. They
 * are no level of nesting (hiredis' `alloc.h` declares `hiredisAllocFuncs` five wrappers deep).
 */
const WRAPPER = /^(preproc_(?:if|ifdef|else|elif|elifdef)|linkage_specification|type_definition|declaration)$/;

function isWrapper(n: TSNode, parent: TSNode): boolean {
  // `extern "C"`'s braces (a C# or Rust body is a `declaration_list` too, and a level).
  if (WRAPPER.test(n.type) || (n.type === 'declaration_list' && parent.type === 'linkage_specification')) return true;
  // A Vue component's options (`export default { methods: { onPublish() {…} } }`): its methods are its definitions.
  if (n.type === 'object') return isComponentOptions(n) || (parent.type === 'pair' && !!parent.parent && isComponentOptions(parent.parent));
  return n.type === 'pair' && isComponentOptions(parent);
}

const COMPONENT_CALL = /^(?:defineComponent|Vue\.extend|Vue\.component)$/;

/** The object a module exports by default, or gives `defineComponent(…)`: a Vue component's options. */
function isComponentOptions(n: TSNode): boolean {
  const p = n.parent;
  if (n.type !== 'object' || !p) return false;
  if (p.type === 'export_statement') return true;
  return p.type === 'arguments' && COMPONENT_CALL.test(p.parent?.childForFieldName('function')?.text ?? '');
}

const FUNCTION_LIKE = /function|method|arrow_function|constructor|lambda|closure/;

/** Ruby's modules, C#'s, C++'s and PHP's block namespaces, TypeScript's `namespace`. */
const NAMESPACE = /^(module|namespace_declaration|namespace_definition|internal_module)$/;
const BODY = /^(body_statement|declaration_list|compound_statement|statement_block|class_body|field_declaration_list)$/;
/** A class, struct or interface declaration, whose body holds its members. */
const CLASS_LIKE = /^(class|class_declaration|struct_declaration|interface_declaration|record_declaration|class_specifier|struct_specifier)$/;

/** A namespace's body, or the node itself where the grammar has none. */
function bodyOf(ns: TSNode): TSNode {
  return ns.childForFieldName('body') ?? ns.namedChildren.find((c): c is TSNode => !!c && BODY.test(c.type)) ?? ns;
}

/**
 * The namespaces a piece lies in, each the only definition of the one around it, as its parents:
 * a small Ruby file's `module Grape; module Validations; module Validators; class SameAsValidator`
 * is `Grape › Validations › Validators › SameAsValidator › validate_param!`, where listing them
 * beside each other (four names at most) named it `Grape, Validations` and left the class out.
 * Returns the node whose definitions name the piece, and the namespaces' names.
 */
function namespaceChain(n: TSNode): { node: TSNode; chain: string[] } {
  const chain: string[] = [];
  let node = n;
  for (let k = 0; k < 8; k++) {
    let ns: TSNode | undefined = NAMESPACE.test(node.type) ? node : undefined;
    if (!ns) {
      const defs = node.namedChildren.filter((c): c is TSNode => !!c && defName(c) !== undefined);
      // `export namespace Parse {…}` is an export node around the namespace.
      const only = defs.length === 1 ? (defs[0]!.type === 'export_statement' ? defs[0]!.childForFieldName('declaration') : defs[0]) : undefined;
      if (only && NAMESPACE.test(only.type)) ns = only;
    }
    const name = ns && defName(ns);
    // A namespace without a body (PHP's `namespace Slim;`) is a statement, not what holds the piece.
    const body = ns && bodyOf(ns);
    if (!ns || !name || body === ns) break;
    chain.push(name);
    node = body!;
  }
  // The one class in them is a parent too: `SameAsValidator`'s methods are its own, not the
  // namespace's (a reader's `Grape.Validations.Validators.validate_param!` had lost the class).
  // So is the one class in that class: hanami's `module Hanami; class Router; class Segment` is
  // `Hanami › Router › Segment › fabricate` (`Segment, fabricate` beside each other had named
  // `Hanami.Router.fabricate`).
  for (let k = 0; chain.length && k < 4; k++) {
    const defs = node.namedChildren.filter((c): c is TSNode => !!c && defName(c) !== undefined);
    const only = defs.length === 1 ? defs[0]! : undefined;
    const body = only && CLASS_LIKE.test(only.type) ? bodyOf(only) : undefined;
    if (!only || !body || body === only) break;
    chain.push(defName(only)!);
    node = body;
  }
  return { node, chain };
}

interface Piece {
  start: number; // 0-based row
  end: number; // 0-based row, inclusive
  chars: number;
  names: string[];
  parents: string[];
  /** A doc comment's: the definition it documents (the chunk's name when it holds no definition). */
  doc?: string;
}

function splitNode(n: TSNode, parents: string[], out: Piece[], lines: string[], inFunction = false): void {
  const start = n.startPosition.row;
  const end = n.endPosition.column === 0 && n.endPosition.row > start ? n.endPosition.row - 1 : n.endPosition.row;
  const chars = n.endIndex - n.startIndex;
  const name = defName(n);
  if ((end - start + 1 <= MAX_LINES && chars <= MAX_CHARS) || n.namedChildCount === 0) {
    const names: string[] = [];
    // A piece of a big function's body is named by the function (its parent), not by its locals.
    const { node, chain } = inFunction ? { node: n, chain: [] } : namespaceChain(n);
    if (!inFunction) collectNames(node, 0, names);
    // A decorated definition too big for one piece names its parts; the definition inside it is
    // that one name, not a second level (`Mixin › set_policy`, not `Mixin › set_policy › set_policy`).
    const own = name && parents.at(-1) === name && names[0] === name ? parents.slice(0, -1) : parents;
    out.push({ start, end, chars, names, parents: chain.length ? [...own, ...chain] : own });
    return;
  }
  // `export function f` is an export node around a function node, both named f: one level, not two.
  const inner = name && parents.at(-1) !== name ? [...parents, name] : parents;
  const children = n.namedChildren.filter((c): c is TSNode => !!c);
  // A big node without structure inside (a long string, a table): line windows. A string's parts
  // (Python's `string_start`, `string_content`, `string_end`) are none: cut apart, marshmallow's
  // module docstring was a chunk of its opening line and one that began inside the docstring.
  if (children.length === 0 || STRING_NODE.test(n.type)) {
    for (let s = start; s <= end; s += MAX_LINES) out.push({ start: s, end: Math.min(end, s + MAX_LINES - 1), chars: 0, names: [], parents: inner });
    return;
  }
  let cursor = start;
  for (const [i, c] of children.entries()) {
    // An export macro's error node goes with the definition it stands before, on its line.
    if (isMacroPrefix(c)) continue;
    const cs = c.startPosition.row;
    // The node's own header (`class Foo {`, a signature) joins the first child's piece.
    if (cs > cursor) out.push({ start: cursor, end: cs - 1, chars: sumChars(lines, cursor, cs - 1), names: name && cursor === start ? [name] : [], parents: inner });
    const from = out.length;
    splitNode(c, inner, out, lines, inFunction || FUNCTION_LIKE.test(n.type));
    // A doc comment is named by the definition it documents, also where it is a chunk of its own
    // (rack's 85-line comment on `class Static` was two chunks named `Rack`).
    const documented = COMMENT_NODE.test(c.type) && !inFunction && !FUNCTION_LIKE.test(n.type) ? documentedBy(children, i) : undefined;
    if (documented) for (let k = from; k < out.length; k++) out[k]!.doc = documented;
    cursor = Math.max(cursor, out[out.length - 1]!.end + 1);
  }
  if (cursor <= end) out.push({ start: cursor, end, chars: sumChars(lines, cursor, end), names: [], parents: inner });
}

const COMMENT_NODE = /comment/;
const STRING_NODE = /^(string|string_literal|raw_string_literal|interpreted_string_literal|template_string|heredoc_body|nowdoc_body|verbatim_string_literal)$/;
/** What may stand between a doc comment and its definition: C#'s `#pragma warning disable …`, C's `#if`. */
const PREPROC_NODE = /^preproc_/;

/**
 * The name of the definition right after the comment `children[i]` (and the comments after it),
 * one blank line at most between (rack writes one before `class Sendfile`).
 */
function documentedBy(children: TSNode[], i: number): string | undefined {
  let end = children[i]!.endPosition.row;
  for (let k = i + 1; k < children.length; k++) {
    const c = children[k]!;
    if (c.startPosition.row > end + 2) return undefined;
    if (COMMENT_NODE.test(c.type) || PREPROC_NODE.test(c.type) || isMacroPrefix(c)) {
      end = c.endPosition.row;
      continue;
    }
    // Ruby holds a module's definitions in a body node that starts where the first one does.
    for (let d: TSNode | null | undefined = c, depth = 0; d && depth < 3; d = d.namedChildren[0], depth++) {
      if (d.startPosition.row !== c.startPosition.row) return undefined;
      const name = defName(d);
      if (name) return name;
    }
    return undefined;
  }
  return undefined;
}

function sumChars(lines: string[], a: number, b: number): number {
  let n = 0;
  for (let i = a; i <= b && i < lines.length; i++) n += lines[i]!.length + 1;
  return n;
}

/**
 * The pieces at the end of `cur` that are the doc comment of the definition `p` starts, where they
 * and `p` fit one chunk together and something else stays behind in `cur`.
 */
function docBefore(cur: Piece[], p: Piece): Piece[] {
  let k = cur.length;
  const level = p.parents.join('›');
  while (k > 1 && cur[k - 1]!.doc !== undefined && p.names.includes(cur[k - 1]!.doc!) && cur[k - 1]!.parents.join('›') === level) k--;
  const doc = cur.slice(k);
  if (!doc.length || p.end - doc[0]!.start + 1 > MAX_LINES || doc.reduce((a, d) => a + d.chars, p.chars) > MAX_CHARS) return [];
  return doc;
}

/** Adjacent pieces merge while they fit the budget; every line of the file lands in exactly one chunk. */
function mergePieces(pieces: Piece[], lines: string[]): Chunk[] {
  const sorted = pieces.filter((p) => p.end >= p.start).sort((a, b) => a.start - b.start);
  const groups: Piece[][] = [];
  let cur: Piece[] = [];
  let curStart = 0;
  let curChars = 0;
  let next = 0; // first row not yet covered
  for (const p0 of sorted) {
    if (p0.end < next) continue;
    const p = p0.start < next ? { ...p0, start: next } : p0;
    const lineCount = p.end - (cur.length ? curStart : p.start) + 1;
    const sameParent = !cur.length || cur[0]!.parents.join('›') === p.parents.join('›');
    if (cur.length && (lineCount > MAX_LINES || curChars + p.chars > MAX_CHARS || !sameParent)) {
      // A definition's doc comment goes on with it into the next chunk: connection_pool's
      // `TimedStack#pop`, cut from the comment that says it waits (`timeout`, "Wait this many
      // seconds…"), was quoted by the next method's comment, `shutdown`'s.
      const doc = docBefore(cur, p);
      groups.push(cur.slice(0, cur.length - doc.length));
      cur = doc;
      curChars = doc.reduce((a, d) => a + d.chars, 0);
      if (doc.length) curStart = doc[0]!.start;
    }
    if (!cur.length) curStart = p.start;
    cur.push(p);
    curChars += p.chars;
    next = p.end + 1;
  }
  if (cur.length) groups.push(cur);
  const chunks: Chunk[] = [];
  let covered = 0;
  for (const g of groups) {
    const start = Math.min(covered, g[0]!.start);
    const end = g[g.length - 1]!.end;
    covered = end + 1;
    let names = [...new Set(g.flatMap((p) => p.names))].slice(0, 3);
    if (!names.length) names = [...new Set(g.flatMap((p) => (p.doc ? [p.doc] : [])))].slice(0, 3);
    // Nesting reads `Outer › Inner`; the definitions side by side in one chunk read `a, b, c`.
    const symbol = [...g[0]!.parents, names.join(', ')].filter(Boolean).join(' › ') || undefined;
    pushChunk(chunks, lines, start, end, symbol);
  }
  if (covered < lines.length) pushChunk(chunks, lines, covered, lines.length - 1, undefined);
  return chunks;
}

function pushChunk(chunks: Chunk[], lines: string[], start: number, end: number, symbol: string | undefined): void {
  // Oversized leftovers (a single 300-line statement) still respect the line budget.
  for (let s = start; s <= end; s += MAX_LINES * 2) {
    const e = Math.min(end, s + MAX_LINES * 2 - 1);
    const text = lines.slice(s, e + 1).join('\n');
    if (!text.trim()) continue;
    chunks.push({ startLine: s + 1, endLine: e + 1, text, symbol, hash: hashText(text) });
  }
}

// ---- fallbacks ------------------------------------------------------------------------

export function lineWindows(lines: string[]): Chunk[] {
  const chunks: Chunk[] = [];
  let s = 0;
  while (s < lines.length) {
    let e = Math.min(lines.length - 1, s + MAX_LINES - 1);
    let chars = 0;
    for (let i = s; i <= e; i++) {
      chars += lines[i]!.length + 1;
      if (chars > MAX_CHARS * 1.5 && i > s) {
        e = i;
        break;
      }
    }
    pushChunk(chunks, lines, s, e, undefined);
    s = e + 1;
  }
  return chunks;
}

const inlineMarkdown = new MarkdownIt('commonmark');

/**
 * A Markdown heading as the words a reader sees, to name its section: links by their text,
 * badges (images), inline HTML and `*` emphasis left out, entities decoded, code kept in backticks
 * and names kept with their underscores (`__init__`). serilog's
 * `# Serilog&nbsp;[![Build status](https://…/badge.svg)](https://…)` is `Serilog`.
 */
export function headingText(raw: string): string | undefined {
  const out: string[] = [];
  for (const t of inlineMarkdown.parseInline(raw, {})[0]?.children ?? []) {
    if (t.type === 'text') out.push(t.content);
    else if (t.type === 'code_inline') out.push(`\`${t.content}\``);
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out.push(' ');
    // `__init__` and `_private` are names, not emphasis; `**bold**` is emphasis.
    else if (/^(?:em|strong)_(?:open|close)$/.test(t.type) && t.markup.startsWith('_')) out.push(t.markup);
  }
  const text = out.join('').replace(/\s+/g, ' ').trim().slice(0, 120);
  return text || undefined;
}

/** Markdown by headings: each section (with its heading as the symbol) up to the budget. */
function markdownSections(lines: string[]): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  let heading: string | undefined;
  let fence = false;
  const flush = (end: number) => {
    if (end < start) return;
    const sub = lineWindows(lines.slice(start, end + 1));
    for (const c of sub) chunks.push({ ...c, startLine: c.startLine + start, endLine: c.endLine + start, symbol: heading });
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    const m = !fence && /^(#{1,6})\s+(.*)$/.exec(l);
    if (m && i > start) {
      flush(i - 1);
      start = i;
    }
    if (m) heading = headingText(m[2]!.replace(/\s+#+\s*$/, ''));
  }
  flush(lines.length - 1);
  return chunks;
}

/**
 * The syntax tree of a file's root, for whoever reads definitions from the same parse: its lines,
 * and the file's line the parsed text starts at (1, but for a component's `<script>` block).
 */
export type TreeVisitor = (root: TSNode, lines: string[], firstLine: number) => void;

/** Chunks of one file's text, by syntax where a grammar exists; `visit` sees the parse tree (if any). */
export async function chunkText(text: string, lang: LanguageInfo, visit?: TreeVisitor): Promise<Chunk[]> {
  const lines = text.split(/\r?\n/);
  if (lang.markdown) return markdownSections(lines);
  if (isComponent(lang)) return componentChunks(lines, visit);
  if (!lang.grammar || text.length > MAX_PARSE_BYTES) return lineWindows(lines);
  const chunks = await withTree(text, lang, (root) => {
    visit?.(root, lines, 1);
    const pieces: Piece[] = [];
    splitNode(root, [], pieces, lines);
    return mergePieces(pieces, lines);
  });
  return chunks ?? lineWindows(lines);
}

const SINGLE_FILE_COMPONENT = new Set(['vue', 'svelte']);
const SCRIPT_OPEN = /^\s*<script\b([^>]*)>\s*$/i;
const SCRIPT_CLOSE = /^\s*<\/script>\s*$/i;

/** A component's `<script>` block: its rows (0-based, the tags excluded) and the grammar that reads it. */
function componentScript(lines: string[]): { open: number; close: number; script: LanguageInfo } | undefined {
  const open = lines.findIndex((l) => SCRIPT_OPEN.test(l));
  const close = open < 0 ? -1 : lines.findIndex((l, i) => i > open && SCRIPT_CLOSE.test(l));
  if (open < 0 || close < 0 || close === open + 1) return undefined;
  const ts = /\blang\s*=\s*["']ts["']/.test(SCRIPT_OPEN.exec(lines[open]!)![1]!);
  return { open, close, script: languageOfExt(ts ? 'ts' : 'js') };
}

/**
 * A Vue or Svelte component: its `<script>` block chunked by the JavaScript or TypeScript grammar
 * (the realworld app's `ArticleEdit.vue` was two line windows named nothing), the template and
 * styles around it in line windows. The block's definitions are the file's (`visit` is told of its
 * tree, at the line it starts).
 */
async function componentChunks(lines: string[], visit?: TreeVisitor): Promise<Chunk[]> {
  const block = componentScript(lines);
  if (!block) return lineWindows(lines);
  const { open, close, script } = block;
  const shifted = (chunks: Chunk[], by: number) => chunks.map((c) => ({ ...c, startLine: c.startLine + by, endLine: c.endLine + by }));
  const inner = visit && ((root: TSNode, ls: string[]) => visit(root, ls, open + 2));
  return [
    ...lineWindows(lines.slice(0, open + 1)),
    ...shifted(await chunkText(lines.slice(open + 1, close).join('\n'), script, inner), open + 1),
    ...shifted(lineWindows(lines.slice(close)), close),
  ];
}

/** Parses without chunking (the symbol index rebuilt from stored chunks at start); a component's `<script>` block alone. */
export async function parseText(text: string, lang: LanguageInfo, visit: TreeVisitor): Promise<boolean> {
  const lines = text.split(/\r?\n/);
  if (isComponent(lang)) {
    const block = componentScript(lines);
    const body = block ? lines.slice(block.open + 1, block.close) : [];
    const script = body.join('\n');
    if (!block || script.length > MAX_PARSE_BYTES) return false;
    return (await withTree(script, block.script, (root) => (visit(root, body, block.open + 2), true))) ?? false;
  }
  if (!lang.grammar || text.length > MAX_PARSE_BYTES) return false;
  return (await withTree(text, lang, (root) => (visit(root, lines, 1), true))) ?? false;
}

/** Whether a language's files are Vue or Svelte components, whose `<script>` block the grammars read. */
export function isComponent(lang: LanguageInfo): boolean {
  return SINGLE_FILE_COMPONENT.has(lang.id);
}

/**
 * C's and C++'s macros that the grammar cannot expand: one alone on its line at the file's top
 * level opens or closes a region (`FMT_BEGIN_NAMESPACE`, `QT_BEGIN_NAMESPACE`, `G_BEGIN_DECLS`),
 * and ones that lead a declaration qualify it (`FMT_CONSTEXPR FMT_INLINE auto write_int(…)`,
 * `FMT_API void vprint(…)`). The grammar reads either as the declaration's type, so fmt's
 * `format.h` was ninety-six chunks named `detail` and `detail › FMT_BEGIN_EXPORT › size_padding`.
 * A macro's name is in capitals with an underscore; a type spelled so loses only its word.
 */
const REGION_MACRO_LINE = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*(?=\r?$)/gm;
const LEADING_MACROS = /^([ \t]*)((?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]+)+)(?=[A-Za-z_~])/gm;

/**
 * A Kotlin class whose primary constructor starts the next line (ktfmt's `public class FileSpec` /
 * `private constructor(builder: Builder) : … {`): the grammar reads a declaration of a property named
 * `constructor` there, and the class's body as a lambda, whose members are no definitions (kotlinpoet's
 * `FileSpec.Builder.addFunction` was missing, and its override read as a call).
 */
const KOTLIN_CONSTRUCTOR_ON_NEXT_LINE = /^([ \t]*(?:[\w@]+[ \t]+)*(?:class|object)[ \t]+[A-Za-z_]\w*(?:<[^>\n]*>)?)\r?\n([ \t]*(?:(?:private|internal|protected|public)[ \t]+)?(?:@[\w.]+(?:\([^)\n]*\))?[ \t]+)*)(?=constructor\b)/gm;

/**
 * The text the grammar reads: C's and C++'s macros of regions and qualifiers blanked, every offset
 * kept; Kotlin's line break before a primary constructor inside a comment (`class FileSpec/*` /
 * `*\/      constructor(`), every row kept and every offset after those two lines.
 */
function forGrammar(text: string, lang: LanguageInfo): string {
  if (lang.id === 'kotlin') {
    return text.replace(KOTLIN_CONSTRUCTOR_ON_NEXT_LINE, (m, head: string, lead: string) => (lead.length >= 4 ? `${head}/*\n*/${' '.repeat(lead.length - 4)}` : m));
  }
  if (lang.id !== 'c' && lang.id !== 'cpp') return text;
  return text.replace(REGION_MACRO_LINE, (m) => ' '.repeat(m.length)).replace(LEADING_MACROS, (_m, indent: string, macros: string) => indent + ' '.repeat(macros.length));
}

async function withTree<T>(text: string, lang: LanguageInfo, fn: (root: TSNode) => T): Promise<T | undefined> {
  const g = await grammar(lang.grammar!);
  if (!g) return undefined;
  const ts = await loadTs();
  parser ??= new ts.Parser();
  parser.setLanguage(g);
  const tree = parser.parse(forGrammar(text, lang));
  if (!tree) return undefined;
  try {
    return fn(tree.rootNode);
  } finally {
    tree.delete();
  }
}
