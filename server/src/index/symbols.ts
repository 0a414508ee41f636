import type { Node as TSNode } from 'web-tree-sitter';
import type { SymbolKind, SymbolDefinition, SymbolReference } from '../protocol/symbols';
import { IMPORT_LINE, assignedFunction, classField, declaratorName, docstringLines, implTypeName, isExamplePath, isFunctionValue, callableText, isRubyPath, isTestPath, unfieldedName, withoutTrailingComment } from './languages';
import { isStopWord, splitIdentifier, terms, wordRuns } from './tokens';

/**
 * The symbol index: definitions read from the tree-sitter parse the chunker already does
 * (classes, interfaces, types, enums, functions, methods, module-level constants), qualified by
 * their enclosing definitions, kept in memory per file and replaced with the file. References are
 * found on demand in the chunk texts the search engine holds (candidates from its postings), so
 * the index costs nothing per identifier occurrence: see `findReferences`.
 * One concern in one file (~540 lines): extraction, the index, references, and the files a
 * question's code names point at (`symbolTargets`, `nameMatches`).
 */

/** One definition in one file (lines 1-based, inclusive). */
export interface FileSymbol {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  signature?: string;
  /** A class's (interface's, trait's) bases as written, last part of each name: `class Sanic(BaseSanic, StartupMixin)` → both. */
  bases?: string[];
  /** An instance attribute its class's `__init__` sets (`self.body = b""` → `Request.body`): found by its qualified name only. */
  attribute?: boolean;
}

/** "the text of an element", "the outer html of each element": a member (one or two words) of a thing. */
const MEMBER_OF = /\b((?:[a-z]+\s+)?[a-z]{3,})\s+of\s+(?:a|an|the|each|every|this|that|its)\s+([a-z]{3,})\b/gi;

/** Kinds of definition that declare a shape and do nothing themselves. */
const DECLARES_ONLY = new Set<SymbolKind>(['interface', 'type']);

// ---- extraction ------------------------------------------------------------------------

const CLASS = new Set(['class_definition', 'class_declaration', 'object_declaration', 'class', 'abstract_class_declaration', 'class_specifier', 'struct_specifier', 'struct_item', 'record_declaration', 'union_item']);
const INTERFACE = new Set(['interface_declaration', 'trait_item', 'protocol_declaration']);
const TYPE = new Set(['type_alias_declaration', 'type_item']);
const ENUM = new Set(['enum_declaration', 'enum_item', 'enum_specifier']);
// Rust's `macro_rules! json { … }` is called as a function is (`json!(…)`).
const FUNCTION = new Set(['function_definition', 'function_declaration', 'generator_function_declaration', 'function_item', 'function_signature_item', 'macro_definition']);
// `method` and `singleton_method` (`def self.x`) are Ruby's, as are `class` above and `body_statement` below.
const METHOD = new Set(['method_definition', 'method_declaration', 'constructor_declaration', 'method_signature', 'abstract_method_signature', 'method', 'singleton_method', 'protocol_function_declaration', 'init_declaration']);
const MODULE = new Set(['internal_module', 'module', 'mod_item', 'namespace_definition', 'namespace_declaration']);
/**
 * Nodes walked into for definitions. Only these: a function's insides are its locals, and
 * expressions (data tables, call arguments) hold none worth the walk.
 */
const CONTAINER = /^(export_statement|decorated_definition|block|body_statement|singleton_class|class_body|interface_body|protocol_body|enum_class_body|companion_object|object_type|declaration_list|field_declaration_list|statement_block|if_statement|else_clause|elif_clause|try_statement|except_clause|finally_clause|with_statement|ambient_declaration|type_declaration|const_declaration|preproc_\w+|linkage_specification|template_declaration|namespace_body|program|source_file|translation_unit|compilation_unit)$/;
const UPPER_CONST = /^_?[A-Z][A-Z0-9_]*$/;
const MAX_NAME = 100;

function nameOf(n: TSNode): string | undefined {
  const nm = n.childForFieldName('name') ?? unfieldedName(n);
  if (nm && nm.text.length <= MAX_NAME) return nm.text;
  // C/C++: the name sits inside nested declarators (`static int *parse(...)`).
  let d = n.childForFieldName('declarator');
  for (let i = 0; d && i < 5; i++) {
    if (/identifier$/.test(d.type) || d.type === 'qualified_identifier') return d.text.length <= MAX_NAME ? declaratorName(d.text) : undefined;
    d = d.childForFieldName('declarator') ?? d.childForFieldName('name');
  }
  return undefined;
}

/** Words of a class head that name no base: heritage keywords, and what a generic or a lifetime leaves. */
const NOT_BASES = new Set(['extends', 'implements', 'class', 'interface', 'struct', 'where', 'new', 'public', 'private', 'protected', 'internal', 'virtual', 'sealed', 'static', 'object', 'Object', 'typing', 'abc']);
const MAX_BASES = 12;

/**
 * The bases a class head names, whatever the language: the text between the name and the body
 * (`(Generic[T], BaseSanic, metaclass=M)`, `extends Base<T> implements I`, `: ILogger`, `< Base`,
 * `: Clone + Send`), without type arguments, keyword arguments and lifetimes; each dotted or
 * `::` name by its last part. A Go struct's embedded fields are its bases too (`*Router`).
 */
function basesOf(n: TSNode): string[] | undefined {
  const name = n.childForFieldName('name') ?? unfieldedName(n);
  const body = n.childForFieldName('body') ?? n.namedChildren.find((c) => c?.type === 'class_body' || c?.type === 'enum_class_body');
  let head = '';
  let after = false;
  if (n.type !== 'type_spec') for (const c of n.children) {
    // A comment between the head and the body (Ruby's above its first method) names no base.
    if (!c || /comment/.test(c.type)) continue;
    if (body && c.id === body.id) break;
    // Kotlin's primary constructor (`class Router(private val cfg: Config) : Base()`) is no base.
    if (after && !/^(?:type_parameters?(?:_list)?|primary_constructor)$/.test(c.type)) head += ' ' + c.text;
    if (name && c.id === name.id) after = true;
  }
  if (n.type === 'type_spec') {
    const ty = n.childForFieldName('type');
    const fields = ty?.namedChildren.find((c) => c?.type === 'field_declaration_list');
    for (const f of fields?.namedChildren ?? []) if (f?.type === 'field_declaration' && !f.childForFieldName('name')) head += ' ' + (f.childForFieldName('type')?.text ?? '');
    // An interface's embedded interfaces (`fmt.Stringer`).
    if (ty?.type === 'interface_type') for (const c of ty.namedChildren) if (c?.type === 'type_elem') head += ' ' + c.text;
  }
  if (!head.trim()) return undefined;
  let h = head.replace(/'\w+/g, ' ').replace(/\b[A-Za-z_]\w*\s*=\s*[^,()]*/g, ' ');
  for (let i = 0; i < 5 && /[<\[]/.test(h); i++) h = h.replace(/<[^<>]*>|\[[^\[\]]*\]/g, ' ');
  const out: string[] = [];
  for (const m of h.matchAll(/[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*/g)) {
    const last = m[0].split(/\.|::/).pop()!;
    if (!NOT_BASES.has(last) && !out.includes(last) && last.length <= MAX_NAME) out.push(last);
    if (out.length >= MAX_BASES) break;
  }
  return out.length ? out : undefined;
}

/** A language's constructor (by its node type): its name, what it does not look into, and the attribute an assignment sets. */
interface Constructor {
  name: string;
  skip: RegExp;
  sets: (n: TSNode) => string | undefined;
}

/** What a constructor sets on its instance is the class's attribute (`Request.body`, `Hono.getPath`, `Base.app`). */
const CONSTRUCTORS: Record<string, Constructor> = {
  // Python: `self.body = …` in `__init__`.
  function_definition: {
    name: '__init__',
    skip: /^(function_definition|class_definition|lambda)$/,
    sets: (c) => {
      const left = c.type === 'assignment' ? c.childForFieldName('left') : null;
      return left?.type === 'attribute' && left.childForFieldName('object')?.text === 'self' ? left.childForFieldName('attribute')?.text : undefined;
    },
  },
  // TypeScript and JavaScript: `this.router = router` in `constructor`.
  method_definition: {
    name: 'constructor',
    skip: /function|class|arrow/,
    sets: (c) => {
      const left = c.type === 'assignment_expression' ? c.childForFieldName('left') : null;
      return left?.type === 'member_expression' && left.childForFieldName('object')?.type === 'this' ? left.childForFieldName('property')?.text : undefined;
    },
  },
  // Ruby: `@settings = …` (or `||=`) in `initialize`.
  method: {
    name: 'initialize',
    skip: /^(method|singleton_method|class|module|lambda|block|do_block)$/,
    sets: (c) => {
      const left = c.type === 'assignment' || c.type === 'operator_assignment' ? c.childForFieldName('left') : null;
      return left?.type === 'instance_variable' ? left.text.slice(1) : undefined;
    },
  },
};

/** The receiver type of a Go method (`func (r *Router) Match`) → `Router`. */
function goReceiver(n: TSNode): string | undefined {
  const r = n.childForFieldName('receiver');
  const m = r ? /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*\)\s*$/.exec(r.text) : null;
  return m?.[1];
}

/**
 * Definitions of a parsed file, outermost first, in source order. `firstLine` is the file's line
 * the parsed text starts at (a Vue or Svelte component's `<script>` block).
 */
export function extractDefinitions(root: TSNode, lines: string[], firstLine = 1): FileSymbol[] {
  const defs = definitionsOf(root, lines);
  if (firstLine !== 1) for (const d of defs) (d.startLine += firstLine - 1), (d.endLine += firstLine - 1);
  return defs;
}

function definitionsOf(root: TSNode, lines: string[]): FileSymbol[] {
  const out: FileSymbol[] = [];
  const sig = (row: number) => {
    const l = lines[row]?.trim();
    return l ? l.slice(0, 200) : undefined;
  };
  const push = (n: TSNode, name: string, kind: SymbolKind, scope: string[], at: TSNode = n) => {
    const start = at.startPosition.row;
    const end = n.endPosition.column === 0 && n.endPosition.row > start ? n.endPosition.row - 1 : n.endPosition.row;
    const bases = kind === 'class' || kind === 'interface' ? basesOf(n) : undefined;
    out.push({ name, qualifiedName: [...scope, name].join('.'), kind, startLine: start + 1, endLine: end + 1, signature: sig(start), ...(bases ? { bases } : {}) });
  };

  const attributes = new Set<string>();
  const attribute = (name: string, row: number, scope: string[]) => {
    if (name.length > MAX_NAME || !/^[A-Za-z_$][\w$]*$/.test(name)) return;
    const q = [...scope, name].join('.');
    if (attributes.has(q)) return;
    attributes.add(q);
    out.push({ name, qualifiedName: q, kind: 'variable', startLine: row + 1, endLine: row + 1, signature: sig(row), attribute: true });
  };
  /** The attributes a constructor sets on its instance, in its body but not in a nested function or block. */
  const constructorAttributes = (fn: TSNode, scope: string[], ctor: Constructor) => {
    const walk = (n: TSNode, depth: number) => {
      if (depth > 6) return;
      for (const c of n.namedChildren) {
        if (!c || ctor.skip.test(c.type)) continue;
        const attr = ctor.sets(c);
        if (attr) attribute(attr, c.startPosition.row, scope);
        walk(c, depth + 1);
      }
    };
    walk(fn.childForFieldName('body') ?? fn, 0);
  };

  const visit = (n: TSNode, scope: string[], inClass: boolean, exported: boolean, depth: number): void => {
    if (depth > 40) return;
    const t = n.type;
    let kind: SymbolKind | undefined;
    if (CLASS.has(t)) kind = 'class';
    else if (INTERFACE.has(t)) kind = 'interface';
    else if (TYPE.has(t)) kind = 'type';
    else if (ENUM.has(t)) kind = 'enum';
    else if (MODULE.has(t)) kind = 'module';
    else if (METHOD.has(t)) kind = 'method';
    else if (FUNCTION.has(t)) kind = inClass ? 'method' : 'function';
    // Kotlin's `interface Handler` is a class declaration with the keyword `interface`.
    if (kind === 'class' && n.children.some((c) => c?.type === 'interface')) kind = 'interface';
    if (kind) {
      const name = nameOf(n);
      if (!name) return;
      if (t === 'method_declaration' && !inClass) {
        // Go: a method declared at top level, qualified by its receiver.
        const recv = goReceiver(n);
        push(n, name, 'method', recv ? [...scope, recv] : scope);
        return;
      }
      push(n, name, kind, scope);
      const ctor = CONSTRUCTORS[t];
      if (ctor && inClass && name === ctor.name) constructorAttributes(n, scope, ctor);
      if (kind === 'function' || kind === 'method') return;
      const inner = [...scope, name];
      for (const c of n.namedChildren) if (c) visit(c, inner, kind === 'class' || kind === 'interface', false, depth + 1);
      return;
    }
    const field = inClass ? classField(n) : undefined;
    if (field) {
      // `onError = (handler) => {…}` in a class body: a method in all but syntax.
      const { name, value } = field;
      if (name && name.text.length <= MAX_NAME && value && isFunctionValue(value)) push(n, name.text, 'method', scope);
      // A field (`router: Router = new TrieRouter()`) is the class's attribute.
      else if (name) attribute(name.text, n.startPosition.row, scope);
      return;
    }
    // Java's and C#'s fields, C#'s properties, PHP's properties: the class's attributes.
    if ((t === 'field_declaration' || t === 'property_declaration') && inClass) {
      const names: TSNode[] = [];
      const declarators = [...n.childrenForFieldName('declarator'), ...n.namedChildren.filter((c) => c?.type === 'variable_declaration').flatMap((v) => v!.namedChildren.filter((c) => c?.type === 'variable_declarator'))];
      for (const d of declarators) {
        // C++'s `int port;` declares the name itself (a function declarator is a method, not a field).
        const nm = d && /^(field_)?identifier$/.test(d.type) ? d : (d?.childForFieldName('name') ?? d?.namedChildren.find((c) => c?.type === 'identifier'));
        if (nm) names.push(nm);
      }
      {
        // Rust's `pub router: Router`, C#'s and PHP's named properties.
        const nm = n.childForFieldName('name');
        if (nm && /identifier$/.test(nm.type)) names.push(nm);
        for (const el of n.namedChildren) if (el?.type === 'property_element') for (const v of el.namedChildren) if (v?.type === 'variable_name') names.push(v);
      }
      for (const nm of names) attribute(nm.text.replace(/^\$/, ''), n.startPosition.row, scope);
      return;
    }
    if (t === 'impl_item') {
      // Rust: `impl Router { fn new() }` → Router.new.
      const raw = n.childForFieldName('type')?.text;
      const ty = raw && implTypeName(raw);
      const body = n.childForFieldName('body');
      if (ty && body) for (const c of body.namedChildren) if (c) visit(c, [...scope, ty], true, false, depth + 1);
      return;
    }
    if (t === 'type_spec' || t === 'type_alias') {
      // Go: `type Router struct {…}` / `type Handler interface {…}`, an interface with its methods
      // (`type Ctx interface { JSON(…) error }` → Ctx.JSON).
      const name = nameOf(n);
      const ty = n.childForFieldName('type');
      if (!name) return;
      push(n, name, ty?.type === 'struct_type' ? 'class' : ty?.type === 'interface_type' ? 'interface' : 'type', scope);
      // A struct's named fields (`config Config` → `App.config`) are its attributes.
      if (ty?.type === 'struct_type') {
        const fields = ty.namedChildren.find((c) => c?.type === 'field_declaration_list');
        for (const f of fields?.namedChildren ?? []) {
          if (f?.type !== 'field_declaration') continue;
          for (const nm of f.childrenForFieldName('name')) if (nm) attribute(nm.text, f.startPosition.row, [...scope, name]);
        }
      }
      if (ty?.type === 'interface_type') {
        for (const c of ty.namedChildren) {
          const m = c?.type === 'method_elem' || c?.type === 'method_spec' ? c.childForFieldName('name') : null;
          if (c && m && m.text.length <= MAX_NAME) push(c, m.text, 'method', [...scope, name]);
        }
      }
      return;
    }
    if ((t === 'lexical_declaration' || t === 'variable_declaration') && !inClass) {
      const isConst = n.firstChild?.type === 'const';
      for (const d of n.namedChildren) {
        if (d?.type !== 'variable_declarator') continue;
        const nm = d.childForFieldName('name');
        if (nm?.type !== 'identifier' || nm.text.length > MAX_NAME) continue;
        const value = d.childForFieldName('value');
        if (value && isFunctionValue(value)) push(n, nm.text, 'function', scope, n);
        else if (value && value.type === 'class') push(n, nm.text, 'class', scope, n);
        else if (isConst && (exported || UPPER_CONST.test(nm.text))) push(n, nm.text, 'constant', scope, n);
      }
      return;
    }
    if ((t === 'const_spec' || t === 'const_item' || t === 'static_item') && !inClass) {
      const name = nameOf(n) ?? n.namedChildren.find((c) => c?.type === 'identifier')?.text;
      if (name) push(n, name, 'constant', scope);
      return;
    }
    if (t === 'expression_statement' && scope.length === 0) {
      // JavaScript: `exports.entry = function (…)`, `Router.prototype.use = function use(…)`.
      const assigned = assignedFunction(n);
      if (assigned && assigned.name.length <= MAX_NAME) {
        // A named class (`module.exports = class File extends Transport {…}`) with its members.
        if (assigned.value.type === 'class' && assigned.value.childForFieldName('name')) {
          visit(assigned.value, assigned.owner ? [assigned.owner] : [], false, false, depth + 1);
          return;
        }
        const kind: SymbolKind = assigned.value.type === 'class' ? 'class' : assigned.owner ? 'method' : 'function';
        push(n, assigned.name, kind, assigned.owner ? [assigned.owner] : []);
        return;
      }
      // Python: `MAX_SIZE = 10` at module level.
      const a = n.namedChildren[0];
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
      if (left?.type === 'identifier' && UPPER_CONST.test(left.text)) push(n, left.text, 'constant', scope);
      return;
    }
    if (!CONTAINER.test(t)) return;
    const ex = exported || t === 'export_statement';
    for (const c of n.namedChildren) if (c && c.namedChildCount > 0) visit(c, scope, inClass, ex, depth + 1);
  };
  // The root is walked, not classified (Python's root node is a `module`).
  for (const c of root.namedChildren) if (c && c.namedChildCount > 0) visit(c, [], false, false, 1);
  return out;
}

// ---- the index -------------------------------------------------------------------------

interface FileEntry {
  rel: string;
  language: string;
  test: boolean;
  defs: FileSymbol[];
  /** Instance attributes (`Request.body`), kept apart: only a qualified name finds them. */
  attrs: FileSymbol[];
}

export interface FindOptions {
  kind?: SymbolKind;
  limit?: number;
  /** Exact and qualified names only (no prefix scan over every name): what relevance asks per query. */
  exact?: boolean;
}

/** A definition with the file key it was found in (the engine's key: an absolute path). */
export interface FoundSymbol extends SymbolDefinition {
  /**
   * 0 exact name, 1 qualified suffix, 2 the name in another owner that holds the one asked
   * (not with `exact`), 3 prefix, 4 case-insensitive: what the ranking trusts.
   */
  match: number;
  test: boolean;
}

export class SymbolIndex {
  private readonly files = new Map<string, FileEntry>();
  /** The lower-cased names of the files' folders, made when first asked for after a change. */
  private folderNames: Set<string> | undefined;
  /** Plain name → file keys holding a definition of it. */
  private readonly byName = new Map<string, Set<string>>();
  /** Lower-cased name → plain names (for case-insensitive look-ups). */
  private readonly byLower = new Map<string, Set<string>>();
  /** Lower-cased name without underscores → plain names (`useshallow`, `createjsonstorage`): what a page's name says. */
  private readonly bySquashed = new Map<string, Set<string>>();
  /** Attribute name → file keys whose classes set it. */
  private readonly attrNames = new Map<string, Set<string>>();
  private defs = 0;
  /**
   * Stemmed name part → the definitions whose name has it (`open_resource` → open, resourc). Entries
   * of replaced files are skipped by identity and squeezed out when they outnumber the live ones.
   */
  private readonly parts = new Map<string, { entry: FileEntry; def: FileSymbol; key: string; parts: string[] }[]>();
  private partEntries = 0;
  private deadPartEntries = 0;

  get size(): number {
    return this.defs;
  }
  get fileCount(): number {
    return this.files.size;
  }

  /** `test`: whether the file holds tests, as the search engine read it (`SearchEngine.isTest`); by its path when not told. */
  setFile(key: string, rel: string, language: string, all: FileSymbol[], test = isTestPath(rel)): void {
    this.removeFile(key);
    if (!all.length) return;
    const defs = all.filter((d) => !d.attribute);
    const attrs = all.filter((d) => d.attribute);
    const entry: FileEntry = { rel, language, test, defs, attrs };
    this.folderNames = undefined;
    for (const a of attrs) {
      let s = this.attrNames.get(a.name);
      if (!s) this.attrNames.set(a.name, (s = new Set()));
      s.add(key);
    }
    this.files.set(key, entry);
    this.defs += defs.length;
    for (const def of defs) {
      const parts = [...new Set(terms(def.name))].filter((t) => !t.startsWith('='));
      for (const t of parts) {
        let list = this.parts.get(t);
        if (!list) this.parts.set(t, (list = []));
        list.push({ entry, def, key, parts });
        this.partEntries++;
      }
    }
    for (const d of defs) {
      let s = this.byName.get(d.name);
      if (!s) this.byName.set(d.name, (s = new Set()));
      s.add(key);
      const lower = d.name.toLowerCase();
      let l = this.byLower.get(lower);
      if (!l) this.byLower.set(lower, (l = new Set()));
      l.add(d.name);
      const squashed = squash(d.name);
      let q = this.bySquashed.get(squashed);
      if (!q) this.bySquashed.set(squashed, (q = new Set()));
      q.add(d.name);
    }
  }

  /** Whether a folder of the project has this name, case aside (`django/` for "Django"). */
  hasFolder(name: string): boolean {
    if (!this.folderNames) {
      this.folderNames = new Set();
      for (const f of this.files.values()) for (const part of f.rel.toLowerCase().split(/[\\/]/).slice(0, -1)) this.folderNames.add(part);
    }
    return this.folderNames.has(name.toLowerCase());
  }

  removeFile(key: string): void {
    const f = this.files.get(key);
    if (!f) return;
    this.folderNames = undefined;
    this.files.delete(key);
    for (const a of f.attrs) {
      const s = this.attrNames.get(a.name);
      s?.delete(key);
      if (s && !s.size) this.attrNames.delete(a.name);
    }
    this.defs -= f.defs.length;
    this.deadPartEntries += f.defs.length;
    if (this.deadPartEntries > 10_000 && this.deadPartEntries > this.partEntries / 2) this.compactParts();
    for (const d of f.defs) {
      const s = this.byName.get(d.name);
      if (!s) continue;
      s.delete(key);
      if (s.size) continue;
      this.byName.delete(d.name);
      const lower = d.name.toLowerCase();
      const l = this.byLower.get(lower);
      l?.delete(d.name);
      if (l && !l.size) this.byLower.delete(lower);
      const squashed = squash(d.name);
      const q = this.bySquashed.get(squashed);
      q?.delete(d.name);
      if (q && !q.size) this.bySquashed.delete(squashed);
    }
  }

  private compactParts(): void {
    this.partEntries = 0;
    for (const [t, list] of this.parts) {
      const live = list.filter((x) => this.files.get(x.key) === x.entry);
      if (live.length) this.parts.set(t, live);
      else this.parts.delete(t);
      this.partEntries += live.length;
    }
    this.deadPartEntries = 0;
  }

  /**
   * Definitions whose name the text spells out in its own words ("the method that opens
   * resources" → `open_resource`): each name's parts weighted by `idf`, scored by the weight
   * the text covers, kept when it covers nearly all of the name. Per file, the best definition.
   */
  nameMatches(query: Map<string, number>, idf0: (term: string) => number, maxDefsPerPart = 2000): Map<string, { score: number; def: FileSymbol }> {
    const idfs = new Map<string, number>();
    const idf = (t: string) => {
      let v = idfs.get(t);
      if (v === undefined) idfs.set(t, (v = idf0(t)));
      return v;
    };
    const covered = new Map<FileSymbol, { key: string; got: number; parts: string[] }>();
    for (const [t, w] of query) {
      const list = this.parts.get(t);
      if (!list || list.length > maxDefsPerPart) continue;
      const v = idf(t) * Math.min(1, w);
      for (const x of list) {
        const c = covered.get(x.def);
        if (c) c.got += v;
        else if (this.files.get(x.key) === x.entry) covered.set(x.def, { key: x.key, got: v, parts: x.parts });
      }
    }
    const best = new Map<string, { score: number; def: FileSymbol }>();
    for (const [def, c] of covered) {
      const parts = c.parts;
      // Nothing but a name's one common word in the text: not worth the sum.
      if (parts.length > 1 && c.got < idf(parts[0]!) * 0.5 && c.got < idf(parts[parts.length - 1]!) * 0.5) continue;
      let total = 0;
      for (const t of parts) total += idf(t);
      const coverage = total > 0 ? c.got / total : 0;
      // One-word names match too easily ("get", "run"): they need to be rare.
      if (coverage < 0.99 && (parts.length < 3 || coverage < 0.66)) continue;
      if (parts.length === 1 && idf(parts[0]!) < 4) continue;
      const score = c.got * coverage;
      const prev = best.get(c.key);
      // Between names with the same words, the one that does something: react-router's "how does
      // the router match a URL to a route?" spells `RouteMatch` (an interface) and `matchRoutes`.
      if (!prev || score > prev.score || (score === prev.score && DECLARES_ONLY.has(prev.def.kind) && !DECLARES_ONLY.has(def.kind))) best.set(c.key, { score, def });
    }
    return best;
  }

  /**
   * Test functions named after a name (`TestBindQueryParams`, `test_bind_query_params`,
   * `testBindQueryParamsCaseInsensitive` for `BindQueryParams`): in test files, the name's words in
   * order with nothing but "test" and more words around them. At most `max`, fewest words first.
   */
  testsNamedAfter(name: string, max = 5): { key: string; def: FileSymbol }[] {
    const leaf = plainName(name);
    const parts = [...new Set(terms(leaf))].filter((t) => !t.startsWith('='));
    if (leaf.length < 4 || !parts.length) return [];
    // The rarest part's list holds every such test.
    const lists = parts.map((t) => this.parts.get(t) ?? []);
    const list = lists.reduce((a, b) => (b.length < a.length ? b : a));
    const out: { key: string; def: FileSymbol }[] = [];
    for (const x of list) {
      if (!x.entry.test || this.files.get(x.key) !== x.entry || (x.def.kind !== 'function' && x.def.kind !== 'method')) continue;
      if (isTestNamedAfter(x.def.name, leaf)) out.push({ key: x.key, def: x.def });
    }
    return out.sort((a, b) => a.def.name.length - b.def.name.length).slice(0, max);
  }

  /**
   * The test files named after the module at `rel` (`src/dotenv/variables.py` → `tests/test_variables.py`,
   * `lib/http/request.js` → `test/http/request.test.js`, `tree.go` → `tree_test.go`, `Router.java` →
   * `RouterTest.java`), nearest folder first, with each one's first test definition. At most `max`.
   */
  testsOfModule(rel: string, max = 2): { key: string; def: FileSymbol }[] {
    const dir = rel.split('/').slice(0, -1);
    const near = (r: string) => {
      const d = r.split('/');
      let k = 0;
      while (k < d.length - 1 && k < dir.length && d[k] === dir[k]) k++;
      return k;
    };
    const out: { key: string; def: FileSymbol; near: number }[] = [];
    for (const [key, f] of this.files) if (f.test && f.defs.length && isTestOfModule(f.rel, rel)) out.push({ key, def: f.defs[0]!, near: near(f.rel) });
    return out.sort((a, b) => b.near - a.near).slice(0, max).map(({ key, def }) => ({ key, def }));
  }

  /**
   * Members a question names as "the X of a Y": "the text of an element" is jsoup's `Element.text`,
   * "the body of a request" `Request.body`. Y (or Y less a plural s) is a class, interface or struct
   * defined outside tests; X, one word or two written as one name (`outer html` → `outerHtml`), is a
   * member it defines or inherits (jsoup's `Element.outerHtml` is `Node`'s), outside tests. Qualified names, at most `max`.
   */
  memberPhrases(text: string, max = 2): string[] {
    const out: string[] = [];
    for (const m of text.matchAll(MEMBER_OF)) {
      const words = m[1]!.toLowerCase().split(/\s+/).filter((w) => !isStopWord(w));
      if (!words.length) continue;
      const members = words.length > 1 ? [words.join(''), words.join('_')] : words;
      const owner = m[2]!.toLowerCase();
      for (const o of new Set([owner, owner.replace(/s$/, '')])) {
        for (const ownerName of this.byLower.get(o) ?? []) {
          if (!this.classesNamed(ownerName).some(this.outsideTests)) continue;
          const found = members
            .flatMap((w) => [...(this.byLower.get(w) ?? [])])
            .find((name) => [...this.ownDefinitions(ownerName, name), ...this.inherited(ownerName, name)].some(this.outsideTests));
          if (found && !out.includes(`${ownerName}.${found}`)) out.push(`${ownerName}.${found}`);
          if (out.length >= max) return out;
        }
      }
    }
    return out;
  }

  /** Whether a definition found by key is in a file outside tests. */
  private readonly outsideTests = (d: { key: string }): boolean => !this.files.get(d.key)!.test;

  /**
   * Definitions whose whole name the text writes as two or three neighbouring words ("the
   * `Dataset` repr" → `dataset_repr`, "the latex printer" → `LatexPrinter`): each word three
   * letters or more, written apart (not already one identifier), the name defined outside tests
   * in at most `maxFiles` files. File key → the first line of such a definition there.
   */
  phraseMatches(text: string, maxFiles = 3): Map<string, number> {
    const out = new Map<string, number>();
    for (const ws of wordRuns(text, /[A-Za-z0-9_$]+/g, (w) => /^[A-Za-z]{3,}$/.test(w), /^[`'"]*\s+[`'"]*$/, 2, 3)) {
      for (const lower of [ws.join('_'), ws.join('')]) {
        const keys = new Map<string, number>();
        for (const name of this.byLower.get(lower) ?? []) {
          for (const key of this.byName.get(name) ?? []) {
            const f = this.files.get(key)!;
            const d = f.test ? undefined : f.defs.find((x) => x.name === name);
            if (d) keys.set(key, Math.min(keys.get(key) ?? Infinity, d.startLine));
          }
        }
        if (keys.size > maxFiles) continue;
        for (const [key, line] of keys) if (!out.has(key)) out.set(key, line);
      }
    }
    return out;
  }

  clear(): void {
    this.parts.clear();
    this.partEntries = 0;
    this.deadPartEntries = 0;
    this.files.clear();
    this.byName.clear();
    this.byLower.clear();
    this.bySquashed.clear();
    this.attrNames.clear();
    this.defs = 0;
  }

  /** The path of a file the index holds, relative to its folder. */
  relOf(key: string): string | undefined {
    return this.files.get(key)?.rel;
  }

  hasName(name: string): boolean {
    return this.byName.has(name);
  }

  /** How many files define this plain name (a name defined everywhere says little). */
  fileCountOf(name: string): number {
    return this.byName.get(name)?.size ?? 0;
  }

  definitionsIn(key: string): readonly FileSymbol[] {
    return this.files.get(key)?.defs ?? [];
  }

  /**
   * Whether a name of the workspace spells a word in mixed case by its parts, in a row (case and
   * underscores aside): pylint's `PlantUmlPrinter` spells "PlantUML"; alembic's `PostgresqlImpl`
   * (postgresql, impl) and its tests' `postgresql` do not spell "PostgreSQL" (postgre, sql): its
   * code writes that as one word.
   */
  spellsWord(word: string): boolean {
    const whole = squash(word);
    const want = splitIdentifier(word).map((w) => w.toLowerCase());
    const stems = [...new Set(terms(word))].filter((t) => !t.startsWith('='));
    if (want.length < 2 || !stems.length) return false;
    const lists = stems.map((t) => this.parts.get(t) ?? []);
    const list = lists.reduce((a, b) => (b.length < a.length ? b : a));
    for (const x of list) {
      if (this.files.get(x.key) !== x.entry || !squash(x.def.name).includes(whole)) continue;
      const got = splitIdentifier(x.def.name).map((w) => w.toLowerCase());
      for (let i = 0; i + want.length <= got.length; i++) if (want.every((w, k) => got[i + k] === w)) return true;
    }
    return false;
  }

  /** The names defined outside the tests that are this one, case and underscores aside (`environmentinterface` → `EnvironmentInterface`). */
  namesSquashed(squashed: string): string[] {
    return [...(this.bySquashed.get(squashed) ?? [])].filter((name) => [...(this.byName.get(name) ?? [])].some((key) => !this.files.get(key)?.test));
  }

  /** The files outside the tests that define a name, case and underscores aside (`useshallow` → the file of `useShallow`). */
  filesDefiningSquashed(squashed: string): string[] {
    const out = new Set<string>();
    for (const name of this.bySquashed.get(squashed) ?? []) for (const key of this.byName.get(name) ?? []) if (!this.files.get(key)?.test) out.add(key);
    return [...out];
  }

  /** The innermost definition around a line of a file. */
  enclosing(key: string, line: number): FileSymbol | undefined {
    let best: FileSymbol | undefined;
    for (const d of this.files.get(key)?.defs ?? []) {
      if (d.startLine <= line && line <= d.endLine && (!best || d.endLine - d.startLine <= best.endLine - best.startLine)) best = d;
    }
    return best;
  }

  /**
   * Where `owner.name` resolves when the classes named `owner` do not define `name` themselves: the
   * first of their bases that does, depth first and left to right (Python's method order for all
   * but diamonds), up to {@link MAX_BASE_DEPTH} levels; [] when a class `owner` defines it or none
   * is known. Bases are matched by name, so a base named like several classes looks in each.
   */
  inherited(owner: string, name: string): { key: string; def: FileSymbol }[] {
    if (this.ownDefinitions(owner, name).length) return [];
    const seen = new Set([owner]);
    const walk = (cls: string, depth: number): { key: string; def: FileSymbol }[] => {
      for (const base of this.classesNamed(cls).flatMap((c) => c.def.bases ?? [])) {
        if (seen.has(base)) continue;
        seen.add(base);
        const found = this.ownDefinitions(base, name);
        if (found.length) return found;
        if (depth < MAX_BASE_DEPTH) {
          const up = walk(base, depth + 1);
          if (up.length) return up;
        }
      }
      return [];
    };
    return walk(owner, 1);
  }

  private classesNamed(cls: string): { key: string; def: FileSymbol }[] {
    const out: { key: string; def: FileSymbol }[] = [];
    for (const key of this.byName.get(cls) ?? []) for (const d of this.files.get(key)!.defs) if (d.name === cls && (d.kind === 'class' || d.kind === 'interface')) out.push({ key, def: d });
    return out;
  }

  /** The definitions of `name` whose owner is `cls` itself. */
  private ownDefinitions(cls: string, name: string): { key: string; def: FileSymbol }[] {
    const out: { key: string; def: FileSymbol }[] = [];
    for (const key of this.byName.get(name) ?? []) for (const d of this.files.get(key)!.defs) if (d.name === name && d.qualifiedName.split('.').at(-2) === cls) out.push({ key, def: d });
    if (!out.length) for (const key of this.attrNames.get(name) ?? []) for (const d of this.files.get(key)!.attrs) if (d.name === name && d.qualifiedName.split('.').at(-2) === cls) out.push({ key, def: d });
    return out;
  }

  /**
   * Where the classes implementing the interface `owner` define `name` (their own method or one
   * they inherit): classes that name `owner` among their bases, or in Go, whose types implement
   * interfaces unsaid, a type of the same language whose name holds it (`DefaultCtx` for `Ctx`,
   * which embeds `DefaultRes`, whose `JSON` it is). [] when `owner` is no interface, or when more
   * than {@link MAX_IMPLEMENTATIONS} classes implement it (then none is the one meant).
   */
  implementations(owner: string, name: string): { key: string; def: FileSymbol }[] {
    const ifaces = this.classesNamed(owner);
    if (!ifaces.length || ifaces.some((c) => c.def.kind !== 'interface')) return [];
    const goIface = ifaces.some((c) => this.files.get(c.key)!.language === 'go');
    const low = owner.toLowerCase();
    const out: { key: string; def: FileSymbol }[] = [];
    let n = 0;
    for (const [key, f] of this.files) {
      for (const d of f.defs) {
        if (d.kind !== 'class' || d.name === owner) continue;
        if (!d.bases?.includes(owner) && !(goIface && f.language === 'go' && low.length >= 3 && d.name.toLowerCase().includes(low))) continue;
        const found = this.ownDefinitions(d.name, name);
        const defs = found.length ? found : this.inherited(d.name, name);
        if (!defs.length) continue;
        if (++n > MAX_IMPLEMENTATIONS) return [];
        for (const x of defs) if (!out.some((o) => o.key === x.key && o.def === x.def)) out.push(x);
      }
    }
    return out;
  }

  /**
   * Definitions matching a plain, qualified (`Flask.handle_exception`, `a::b`, `A#m`) or partial
   * name, best first: exact name, then qualified suffix, then (for a qualified name) the same name
   * in an owner whose name holds the one asked — a mixin or base the method is inherited from
   * (`Configurator.add_route` → `RoutesConfiguratorMixin.add_route`) —, then prefix, then
   * case-insensitive. A qualified name its class does not define itself finds what the class
   * inherits ({@link inherited}: `Sanic.run` → `StartupMixin.run`) as a qualified match. Within
   * each tier, code before tests and classes/functions before constants.
   */
  find(query: string, opts: FindOptions = {}): FoundSymbol[] {
    const q = query.trim().replace(/::|#/g, '.').replace(/\(\)$/, '');
    if (!q) return [];
    const limit = Math.max(1, Math.min(opts.limit ?? 20, 1000));
    const parts = q.split('.').filter(Boolean);
    const last = parts[parts.length - 1] ?? q;
    const qualified = parts.length > 1 ? parts.join('.') : undefined;
    const found: FoundSymbol[] = [];
    const seen = new Set<string>();
    const take = (key: string, d: FileSymbol, match: number) => {
      if (opts.kind && d.kind !== opts.kind) return;
      const id = `${key}\0${d.startLine}\0${d.qualifiedName}`;
      if (seen.has(id)) return;
      seen.add(id);
      const f = this.files.get(key)!;
      found.push({
        path: key, relativePath: f.rel, startLine: d.startLine, endLine: d.endLine, name: d.name, qualifiedName: d.qualifiedName,
        kind: d.kind, language: f.language, signature: d.signature, match, test: f.test,
      });
    };
    const scanName = (name: string, tier: (d: FileSymbol, key: string) => number | undefined) => {
      for (const key of this.byName.get(name) ?? []) {
        for (const d of this.files.get(key)!.defs) {
          if (d.name !== name) continue;
          const t = tier(d, key);
          if (t !== undefined) take(key, d, t);
        }
      }
    };
    if (qualified) {
      const owner = qualified.slice(0, qualified.lastIndexOf('.')).split('.').at(-1)!.toLowerCase();
      scanName(last, (d, key) => {
        if (d.qualifiedName === qualified || d.qualifiedName.endsWith('.' + qualified)) return 1;
        // A module path before the name (`pyramid.url.route_url`, `flask.app.Flask.run`): the
        // definition in that module.
        if (qualified.endsWith('.' + d.qualifiedName)) {
          const module = qualified.slice(0, -d.qualifiedName.length - 1);
          const file = this.files.get(key)!.rel.replace(/\.[^./]+$/, '').replace(/\/(?:__init__|index|mod)$/, '').replace(/[\\/]/g, '.');
          if (file === module || file.endsWith('.' + module)) return 1;
        }
        const theirs = d.qualifiedName.split('.').at(-2)?.toLowerCase();
        return !opts.exact && owner.length >= 3 && theirs?.includes(owner) ? 2 : undefined;
      });
      // An attribute its class's `__init__` sets (`Request.body`), where no method has the name.
      if (!found.some((d) => d.match === 1)) {
        for (const key of this.attrNames.get(last) ?? []) {
          for (const d of this.files.get(key)!.attrs) if (d.name === last && (d.qualifiedName === qualified || d.qualifiedName.endsWith('.' + qualified))) take(key, d, 1);
        }
      }
      // `Sanic.run` where `Sanic` does not define `run`: the method it inherits (`StartupMixin.run`).
      if (!found.some((d) => d.match === 1)) for (const { key, def } of this.inherited(parts.at(-2)!, last)) take(key, def, 1);
      // An interface's method (`Ctx.JSON`): also what implements it, as the interface's own declaration.
      for (const { key, def } of this.implementations(parts.at(-2)!, last)) take(key, def, 1);
    } else {
      scanName(last, () => 0);
    }
    if (found.length < limit && last.length >= 3 && !opts.exact) {
      for (const name of this.byName.keys()) {
        if (name !== last && name.startsWith(last)) scanName(name, (d) => (!qualified || d.qualifiedName.includes(qualified.slice(0, qualified.lastIndexOf('.'))) ? 3 : undefined));
      }
    }
    if (found.length < limit) {
      for (const name of this.byLower.get(last.toLowerCase()) ?? []) {
        if (name !== last) scanName(name, (d) => (!qualified || d.qualifiedName.toLowerCase().endsWith(qualified.toLowerCase()) ? 4 : undefined));
      }
    }
    found.sort((a, b) => a.match - b.match || Number(a.test) - Number(b.test) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.relativePath.length - b.relativePath.length || a.startLine - b.startLine);
    return found.slice(0, limit);
  }
}

/** How far up a class's bases {@link SymbolIndex.inherited} looks. */
const MAX_BASE_DEPTH = 6;
/** An interface with more implementations than this names none of them. */
const MAX_IMPLEMENTATIONS = 3;

const KIND_ORDER: Record<SymbolKind, number> = { class: 0, interface: 1, function: 2, method: 3, type: 4, enum: 5, module: 6, constant: 7, variable: 8 };

// ---- references ------------------------------------------------------------------------

/** A piece of text to look for occurrences in (the search engine's chunks). */
export interface TextPiece {
  file: string;
  rel: string;
  startLine: number;
  text: string;
}

export interface ReferenceOptions {
  callsOnly?: boolean;
  limit?: number;
  /** The tests' occurrences before the code's (asked where something is tested), so the limit keeps them. */
  testsFirst?: boolean;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const COMMENT_LINE = /^\s*(#|\/\/|\/\*|\*)/;

/** The plain name a (possibly qualified) query looks for: `Flask.handle_exception` → handle_exception. */
/**
 * Whether a test function's name is a name's with "test" before it and maybe more words after
 * (`TestBindQueryParams`, `test_bind_query_params_case_insensitive` for `BindQueryParams`).
 */
export function isTestNamedAfter(testName: string, name: string): boolean {
  const flat = (n: string) => n.toLowerCase().replace(/_/g, '');
  const t = flat(testName);
  const want = flat(plainName(name));
  return want.length >= 4 && t.startsWith('test') && t.slice(4).startsWith(want);
}

/** Whether a test file is named after a module (`tests/test_variables.py` after `src/dotenv/variables.py`, `RouterTest.java` after `Router.java`). */
export function isTestOfModule(testRel: string, moduleRel: string): boolean {
  const stemOf = (r: string) => (r.split('/').pop() ?? '').replace(/\.[^.]+$/, '').toLowerCase();
  const stem = stemOf(moduleRel).replace(/^_+/, '');
  if (stem.length < 3 || /^(?:index|mod|main|init|lib|utils?|helpers?)$/.test(stem)) return false;
  const t = stemOf(testRel);
  return [`test_${stem}`, `${stem}_test`, `${stem}_tests`, `${stem}test`, `${stem}tests`, `${stem}.test`, `${stem}.spec`, `${stem}_spec`, `test${stem}`, `test.${stem}`].includes(t);
}

/** A name in lower case without underscores (`use_shallow`, `useShallow` → useshallow). */
export function squash(name: string): string {
  return name.replace(/_+/g, '').toLowerCase();
}

export function plainName(query: string): string {
  const parts = query.trim().replace(/::|#/g, '.').replace(/\(\)$/, '').split('.').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/**
 * Occurrences of a name in code, outside comments, strings and the name's own definition lines,
 * call sites (`name(`) first; each with the definition that encloses it. Measured on vite
 * (~1,300 files): a common name's scan over its candidate chunks takes a few milliseconds.
 */
export function findReferences(query: string, pieces: Iterable<TextPiece>, symbols: SymbolIndex, opts: ReferenceOptions = {}): SymbolReference[] {
  const name = plainName(query);
  if (!IDENT.test(name)) return [];
  const limit = Math.max(1, Math.min(opts.limit ?? 100, 1000));
  const esc = name.replace(/\$/g, '\\$');
  const re = new RegExp(`(?<![A-Za-z0-9_$])${esc}(?![A-Za-z0-9_$])`, 'g');
  const calls: SymbolReference[] = [];
  const refs: SymbolReference[] = [];
  const seen = new Set<string>();
  for (const p of pieces) {
    if (!p.text.includes(name)) continue;
    // Ruby calls a method without parentheses too (thor's `invocations[name] = true`, sinatra's
    // `invoke { dispatch! }`): a mention that is no symbol (`:invoke`), variable, hash key or word
    // of a `%w[…]` list calls it.
    const ruby = /^[a-z_]/.test(name) && isRubyPath(p.rel);
    const lines = callableText(p.text, p.rel).split('\n');
    const inDoc = docstringLines(p.text, p.rel);
    // A definition's own line: its first line that says the name (below its annotations and
    // decorators: Java's `@CanIgnoreReturnValue` above `public GsonBuilder setPrettyPrinting() {`).
    const defLines = new Set<number>();
    for (const d of symbols.definitionsIn(p.file)) {
      if (d.name !== name) continue;
      defLines.add(d.startLine);
      for (let ln = d.startLine; ln <= Math.min(d.endLine, d.startLine + 8); ln++) {
        const text = lines[ln - p.startLine];
        if (text?.includes(name) && !COMMENT_LINE.test(text)) {
          defLines.add(ln);
          break;
        }
      }
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.includes(name) || COMMENT_LINE.test(line)) continue;
      const lineNo = p.startLine + i;
      if (defLines.has(lineNo)) continue;
      const key = `${p.file}\0${lineNo}`;
      if (seen.has(key)) continue;
      let kind: 'call' | 'reference' | undefined;
      const code = withoutTrailingComment(line);
      for (const m of line.matchAll(re)) {
        if (m.index! >= code.length || insideString(line, m.index!)) continue;
        const after = line.slice(m.index! + name.length);
        const k = /^\s*(<[^()]*>)?\s*\(/.test(after) || (ruby && !/[:@$]/.test(line[m.index! - 1] ?? '') && !/^(?:[?!]|\s*=(?![=~>])|:(?!:))/.test(after)) ? 'call' : 'reference';
        if (!kind || k === 'call') kind = k;
      }
      if (!kind || (opts.callsOnly && kind !== 'call')) continue;
      seen.add(key);
      const enc = symbols.enclosing(p.file, lineNo);
      const ref: SymbolReference = {
        path: p.file, relativePath: p.rel, startLine: lineNo, endLine: lineNo, name, kind, text: line.trim().slice(0, 300),
        enclosing: enc?.qualifiedName,
        ...(inDoc[i] ? { inDocstring: true } : {}),
      };
      (kind === 'call' ? calls : refs).push(ref);
    }
  }
  // The project's code first, then examples, code in docs and docstrings' examples, then tests.
  const late = (r: SymbolReference) => (isTestReference(r) ? (opts.testsFirst ? -1 : 2) : isExamplePath(r.relativePath) || r.inDocstring ? 1 : 0);
  // A class's method (`App.Listen`): calls on another thing's (`net.Listen`) after the rest, and
  // among the rest those on that class's objects first after the order of code, examples, tests.
  const fit = new Map([...calls, ...refs].map((r) => [r, receiverFit(r, query)]));
  const order = (a: SymbolReference, b: SymbolReference) =>
    Number(fit.get(a) === 2) - Number(fit.get(b) === 2) || late(a) - late(b) || fit.get(a)! - fit.get(b)! || a.relativePath.localeCompare(b.relativePath) || a.startLine - b.startLine;
  return [...calls.sort(order), ...refs.sort(order)].slice(0, limit);
}

/** `super.name(`, `super().name(`, `super(Cls, self).name(`, C#'s `base.Name(`: a call of the overridden method. */
const SUPER_CALL = /(?<![A-Za-z0-9_$.])(?:super\s*(?:\([^()]*\))?|base)\s*\.\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*(?:<[^()]*>)?\s*\(/g;

/**
 * The files among `defs`' whose every definition of that name is a method that calls the method
 * it overrides (its own name on `super` or `base`, inside its lines) or an overload signature
 * right above one, when some other file's definition does not: a subclass's override that
 * extends the method (vue-query's `QueryClient.invalidateQueries` over query-core's).
 */
export function filesOverridingWithSuper(defs: FoundSymbol[], refs: SymbolReference[]): Set<string> | undefined {
  const byFile = new Map<string, FoundSymbol[]>();
  for (const d of defs) byFile.set(d.path, [...(byFile.get(d.path) ?? []), d]);
  const calls = (d: FoundSymbol) => d.kind === 'method' && refs.some((r) => r.path === d.path && r.kind === 'call'
    && d.startLine <= r.startLine && r.startLine <= d.endLine && [...r.text.matchAll(SUPER_CALL)].some((m) => m[1] === d.name));
  const out = new Set<string>();
  for (const [path, ds] of byFile) {
    const sorted = [...ds].sort((a, b) => a.startLine - b.startLine);
    const extending = sorted.map(calls);
    const overload = (i: number) => i + 1 < sorted.length && sorted[i + 1]!.startLine <= sorted[i]!.endLine + 1;
    if (extending.some(Boolean) && sorted.every((_, i) => extending[i] || overload(i))) out.add(path);
  }
  return out.size && out.size < byFile.size ? out : undefined;
}

/**
 * How well a reference of a class's method (`App.Listen`, `ErrorHandler.response`) fits that
 * class, by what it is called on: 0 for a receiver named after the class (`app.Listen(…)`,
 * `self.error_handler.response(…)`, `config.add_route(…)` for `Configurator`, `App.Listen`), or
 * `self`/`this` — or nothing, as Java and C# call their own methods — inside it; 2 for a receiver
 * named after something else (`net.Listen(…)`, another package's function); 1 when it cannot be
 * told (no receiver, a one- or two-letter name). 0 for every reference of a plain name.
 */
export function receiverFit(r: SymbolReference, query: string): number {
  const member = ownerAndMember(query);
  if (!member) return 0;
  const owner = norm(member.owner);
  const esc = r.name.replace(/\$/g, '\\$');
  const inOwner = !!r.enclosing?.split('.').some((p) => norm(p) === owner);
  let best = 1;
  let received = false;
  for (const m of r.text.matchAll(new RegExp(`([A-Za-z_$][\\w$]*)\\s*(?:\\(\\))?\\s*(?:\\.|::|->)\\s*${esc}(?![\\w$])`, 'g'))) {
    const rec = norm(m[1]!);
    received = true;
    if (SELF.has(rec)) {
      if (inOwner) return 0;
      continue;
    }
    if (receiverNamedAfter(m[1]!, member.owner)) return 0;
    if (rec.length > 2) best = 2;
  }
  return !received && inOwner ? 0 : best;
}

/**
 * Whether a receiver's name is the class's (`app` for `App`, `config` for `Configurator`,
 * `error_handler` for `ErrorHandler`, `defaultErrorHandler`), case and `_` aside; a name of one or
 * two letters tells nothing.
 */
export function receiverNamedAfter(receiver: string, owner: string): boolean {
  const [r, o] = [norm(receiver), norm(owner)];
  return r === o || (r.length >= 3 && (o.startsWith(r) || o.endsWith(r) || r.endsWith(o)));
}

function norm(s: string): string {
  return s.toLowerCase().replace(/_/g, '');
}

/** The references that fit a class's method best ({@link receiverFit}): all of them for a plain name. */
export function bestFitting(refs: SymbolReference[], query: string): SymbolReference[] {
  const fits = refs.map((r) => receiverFit(r, query));
  const best = Math.min(...fits);
  return refs.filter((_, i) => fits[i] === best);
}

/** A qualified name's class and member (`a.B.run`, `B::run`, `B#run()` → B, run); undefined for a plain name. */
export function ownerAndMember(query: string): { owner: string; member: string } | undefined {
  const parts = query.trim().replace(/::|#/g, '.').replace(/\(\)$/, '').split('.').filter(Boolean);
  return parts.length < 2 ? undefined : { owner: parts.at(-2)!, member: parts.at(-1)! };
}

/**
 * A reference in a test: in a test file, or inside a test module of a source file (Rust's
 * `#[cfg(test)] mod tests { … }`: its functions are `tests.name`).
 */
export function isTestReference(r: SymbolReference): boolean {
  return isTestPath(r.relativePath) || /(?:^|\.)tests?\./.test(r.enclosing ?? '');
}

/**
 * Is position `at` inside a '…' or "…" literal, or the text of a template literal (not its
 * `${…}`), on this line (quotes before it unbalanced)? A message such as
 * `` `useNavigate() may be used only in a <Router>` `` is no call.
 */
function insideString(line: string, at: number): boolean {
  let single = false;
  let double = false;
  let back = false;
  // Braces open inside a template literal's `${…}`: code again, until they close.
  let expr = 0;
  for (let i = 0; i < at; i++) {
    const ch = line[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (back && expr === 0) {
      if (ch === '`') back = false;
      else if (ch === '$' && line[i + 1] === '{') {
        expr = 1;
        i++;
      }
      continue;
    }
    if (back && !single && !double) {
      if (ch === '{') expr++;
      else if (ch === '}') expr--;
    }
    if (ch === "'" && !double) single = !single;
    else if (ch === '"' && !single) double = !double;
    else if (ch === '`' && !single && !double && !back) back = true;
  }
  return single || double || (back && expr === 0);
}

// ---- symbols named by a question ---------------------------------------------------------

/** A file a question's named symbol points at: how strongly, and the lines to show. */
export interface SymbolTarget {
  bonus: number;
  lines: number[];
  /** Asked where a name is called: this file only defines it, so it is not the answer. */
  definesOnly?: boolean;
  /** This file's definition overrides and calls one in another target file, which comes first. */
  extending?: boolean;
}

/** Files defining more than this many times the same name say nothing about which is meant. */
const MAX_DEFINING_FILES = 6;
/** Receivers that name the class at hand, not one to look up: `self.content` says nothing of where `content` is. */
const SELF = new Set(['self', 'this', 'cls', 'super']);
const CLASS_LIKE = new Set<SymbolKind>(['class', 'interface', 'type', 'enum']);

/**
 * Whether a definition found case aside is the name asked for: `GetPath` for "getPath", `HttpServer`
 * for "HTTPServer" (a name of capitals and small letters both ways), not a lower-case `postgresql`
 * property of alembic's test requirements for "the PostgreSQL backend", nor `ast` for "AST".
 */
function sameButFirstCase(found: string, asked: string): boolean {
  const name = asked.slice(asked.lastIndexOf('.') + 1);
  return found.slice(1) === name.slice(1) || (/[A-Z]/.test(found) && /[a-z]/.test(found) && /[a-z]/.test(name));
}

/** One word, all small or all capital letters: a name English could write as well ("data", "POST"). */
const ENGLISH_SHAPED = /^(?:[a-z]+|[A-Z]+)$/;

/**
 * The files a question's code names point at: each name's definition (or, asked where it is
 * called or used, its call sites), split between the files that define it. A plain Capitalised
 * word counts only as a class-like definition found in few files ("the Rational class"), so
 * English words that happen to be method names elsewhere do not move the ranking.
 */
export function symbolTargets(
  named: { name: string; codeShaped: boolean; kind?: SymbolKind; plain?: boolean; role?: string }[],
  intent: 'definition' | 'usage' | 'about',
  symbols: SymbolIndex,
  aboutTests: boolean,
  references: (name: string) => SymbolReference[],
  opts: { plainTails?: boolean } = {},
): Map<string, SymbolTarget> {
  const out = new Map<string, SymbolTarget>();
  const give = (key: string, bonus: number, line: number) => {
    const t = out.get(key);
    if (t) {
      t.bonus = Math.min(2, t.bonus + bonus);
      t.definesOnly = false;
      if (t.lines.length < 8) t.lines.push(line);
    } else out.set(key, { bonus: Math.min(2, bonus), lines: [line] });
  };
  for (const s of named.slice(0, 8)) {
    // Found once per name: the usage branch and the overrides below both read them.
    let found: SymbolReference[] | undefined;
    const referencesOf = () => (found ??= references(s.name));
    let defs: FoundSymbol[] = [];
    // `app.config.from_prefixed_env` names an instance path, not a qualified name: try its tail;
    // in a question down to one plain word (`c.redirect`, `req.header`) unless the receiver is
    // `self`/`this`. For commit messages and issue texts too: commit-eval dev R@5 0.876 → 0.880,
    // but swe-lite dev lost a row (an issue's `sy.Matrix.zeros` found every `zeros`), so not.
    const parts = s.name.replace(/::|#/g, '.').split('.');
    for (let k = 0; k < parts.length && !defs.length; k++) {
      const tail = parts.slice(k).join('.');
      const plain = !/[_A-Z]/.test(tail.slice(1));
      if (k > 0 && parts.length - k === 1 && (plain || opts.plainTails)) {
        if (plain && (!opts.plainTails || SELF.has(parts[0]!))) break;
        // Nor, in a question, the member of a Capitalised name the project neither defines nor is
        // (a folder of that name): "Django's standard slugify" is another project's, not wagtail's
        // Storybook story `standard()`; "Python's AST" is not marimo's `ast` variables. In Django
        // itself, "Django's slugify" is its own.
        const owner = parts[k - 1]!;
        if (/^[A-Z]/.test(owner) && !symbols.find(owner, { limit: 5, exact: true }).some((d) => d.match <= 1) && !symbols.hasFolder(owner)) break;
      }
      defs = symbols.find(tail, { limit: 50, exact: true }).filter((d) => d.match <= 1 || (s.codeShaped && d.match === 4 && sameButFirstCase(d.name, tail)));
    }
    // A Capitalised word the question does not call a class (`plain`) is a name only where a
    // function or a method is spelled so: Go's and C#'s `Next`, `Listen`, not a class the project
    // is named after ("the Flask application").
    if (!s.codeShaped) defs = defs.filter((d) => (s.plain ? d.kind === 'function' || d.kind === 'method' : CLASS_LIKE.has(d.kind)) && d.match === 0);
    if (!aboutTests && defs.some((d) => !d.test)) defs = defs.filter((d) => !d.test);
    // A value only the tests set, in a question about the code that is not asking for its
    // definition, points at no code: pelican's test settings' `FORMATTED_FIELDS = [...]` is not
    // "how does the Markdown reader process keys listed in FORMATTED_FIELDS" (a settings key). A
    // test's function or class is what a question naming it asks about (requests' `TLSServer`).
    else if (!aboutTests && intent === 'about' && defs.length && defs.every((d) => d.test && (d.kind === 'constant' || d.kind === 'variable'))) continue;
    // A word as English writes it ("the data hook", "the POST method") defined only in the tests or
    // the examples is not the project's code a question about the code asks for: swr's end-to-end
    // site's `data`, tRPC's Next.js example's `POST` route handler. A fixture is the tests' by nature
    // (requests' "the httpbin fixture").
    if (!aboutTests && s.role !== 'fixture' && ENGLISH_SHAPED.test(s.name) && defs.length && defs.every((d) => d.test || isExamplePath(d.relativePath))) continue;
    if (!defs.length || new Set(defs.map((d) => d.path)).size > MAX_DEFINING_FILES) continue;
    // Another case (`GetPath` for "getPath") only where the name itself is defined nowhere; it
    // still counts above for how common the name is.
    if (defs.some((d) => d.match <= 1)) defs = defs.filter((d) => d.match <= 1);
    // "The Context class": of a class and an interface of that name, the class (a name defined all
    // over, like "the example function", stays too common to point anywhere).
    if (s.kind && defs.some((d) => d.kind === s.kind)) defs = defs.filter((d) => d.kind === s.kind);
    const files = new Set(defs.map((d) => d.path));
    if (intent === 'usage') {
      // Asked where it is tested (or used in the tests): the tests' uses; else the code's.
      // A docstring's examples count only where no code uses the name (werkzeug's `Rule`).
      const inCode = referencesOf().filter((r) => !r.inDocstring);
      const all = inCode.length ? inCode : referencesOf();
      const inTests = all.filter(isTestReference);
      const refs = aboutTests ? (inTests.length ? inTests : all) : all.filter((r) => !isTestReference(r));
      // Asked how it is tested where no test uses it by name: the tests named after it
      // (echo's `TestBindQueryParams` binds through `c.Bind`), before the code that calls it.
      // Nor named after it: the tests of its module (python-dotenv's `tests/test_variables.py` for `variables.py`'s `resolve`).
      let named = aboutTests && !inTests.length ? symbols.testsNamedAfter(s.name) : [];
      if (aboutTests && !inTests.length && !named.length && files.size === 1) named = symbols.testsOfModule(symbols.relOf([...files][0]!) ?? '');
      if (named.length) {
        named.forEach(({ key, def }, i) => give(key, 2 / (i + 1), def.startLine));
        for (const d of defs) if (!out.has(d.path)) out.set(d.path, { bonus: 0, lines: [d.startLine], definesOnly: true });
        continue;
      }
      // The project's calls first, then its other uses, before a benchmark's or an example's calls:
      // p-queue's `queueClass: PriorityQueue` answers where `PriorityQueue` is used, not
      // `bench.ts`'s `new PriorityQueue()`. An import or a re-export says that a file uses the
      // name, not where (`import PriorityQueue from './priority-queue.js'`).
      const isCall = (r: SymbolReference) => r.kind === 'call';
      const uses = (list: SymbolReference[]) => list.filter((r) => !IMPORT_LINE.test(r.text));
      const own = refs.filter((r) => !isExamplePath(r.relativePath));
      const calls = bestFitting([own.filter(isCall), uses(own), refs.filter(isCall), uses(refs)].find((l) => l.length) ?? refs, s.name);
      const perFile = new Map<string, SymbolReference[]>();
      for (const r of calls) perFile.set(r.path, [...(perFile.get(r.path) ?? []), r]);
      const ranked = [...perFile].sort((a, b) => b[1].length - a[1].length).slice(0, 5);
      ranked.forEach(([key, rs], i) => give(key, 2 / (i + 1), rs[0]!.startLine));
      if (ranked.length) {
        for (const d of defs) if (!out.has(d.path)) out.set(d.path, { bonus: 0, lines: [d.startLine], definesOnly: true });
        continue;
      }
    }
    const weight = (s.codeShaped ? 1 : 0.6) / files.size;
    // A file counts once, by its best definition: three overrides of `getPath` in one adapter do
    // not outweigh the function `getPath`. A bare name is a module-level name before a method's.
    const topLevel = parts.length === 1 && defs.some((d) => d.kind !== 'method');
    // An override that calls the method it overrides (`super.invalidateQueries(…)` in a framework
    // wrapper's subclass) extends it: the overridden one, where it is defined too, says how it works.
    const extending = files.size > 1 ? filesOverridingWithSuper(defs, referencesOf()) : undefined;
    const best = new Map<string, FoundSymbol[]>();
    const worth = (d: FoundSymbol) =>
      weight * (d.match === 4 ? 0.5 : 1) * (topLevel && d.kind === 'method' ? 0.5 : 1) * (extending?.has(d.path) ? 0.5 : 1);
    for (const d of [...defs].sort((a, b) => worth(b) - worth(a))) best.set(d.path, [...(best.get(d.path) ?? []), d]);
    for (const [key, ds] of best) {
      give(key, worth(ds[0]!), ds[0]!.startLine);
      const t = out.get(key)!;
      if (extending?.has(key)) t.extending = true;
      for (const d of ds.slice(1)) if (t.lines.length < 8) t.lines.push(d.startLine);
    }
  }
  return out;
}
