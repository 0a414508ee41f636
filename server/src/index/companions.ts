/**
 * One concern: which files go together by their names — a file and its siblings of the same
 * base name in one folder (`parser.ts` + `parser.test.ts`, a functional test `x.py` + its expected
 * output `x.txt`), a source file and the tests named after it (`json/tag.py` ↔
 * `tests/test_json_tag.py`, `utils/ast_walker.py` ↔ `tests/unittest_ast_walker.py`, `Foo.java` ↔
 * `FooTest.java`), and a linter's functional test and the file that declares the message it is
 * named after (`tests/functional/u/unused_variable.py` → the checker with `"unused-variable"`).
 * Kept up to date file by file; the search engine asks it for the companions of its best files,
 * and for the files declaring a message id a question writes in words (`declaring`).
 */

/** A group bigger than this says nothing about any one of its members (`README.*`, `utils.py`). */
const MAX_GROUP = 4;
/** Base names that name their folder rather than themselves. */
const FOLDER_NAMES = new Set(['__init__', 'index', 'mod', 'main', '__main__', 'lib']);

export class Companions {
  /** Group → its members (file key → whether the file is a test). */
  private readonly groups = new Map<string, Map<string, boolean>>();
  private readonly groupsOf = new Map<string, string[]>();

  get size(): number {
    return this.groupsOf.size;
  }

  /** `ids`: the rule or message ids a source file declares (`"unused-variable"`), see {@link declaredIds}. */
  add(key: string, rel: string, test: boolean, ids: string[] = []): void {
    this.remove(key);
    const gs = [...new Set([...groupKeys(rel, test), ...ids.map((id) => `m:${id}`)])];
    for (const g of gs) {
      let m = this.groups.get(g);
      if (!m) this.groups.set(g, (m = new Map()));
      m.set(key, test);
    }
    this.groupsOf.set(key, gs);
  }

  remove(key: string): void {
    for (const g of this.groupsOf.get(key) ?? []) {
      const m = this.groups.get(g);
      m?.delete(key);
      if (m && !m.size) this.groups.delete(g);
    }
    this.groupsOf.delete(key);
  }

  /** The source files declaring a rule or message id (`unused_variable`, see {@link declaredIds}), when at most `max` do. */
  declaring(id: string, max = 3): string[] {
    const m = this.groups.get(`m:${id}`);
    if (!m) return [];
    const out = [...m].filter(([, test]) => !test).map(([k]) => k);
    return out.length <= max ? out : [];
  }

  /**
   * The file's companions: its siblings of the same base name, and the tests named after it (for a
   * source file) or the source files its name points at (for a test). Groups too big to mean
   * anything are skipped.
   */
  of(key: string): string[] {
    const out = new Set<string>();
    const gs = this.groupsOf.get(key) ?? [];
    const self = gs.length ? this.groups.get(gs[0]!)?.get(key) : undefined;
    for (const g of gs) {
      const m = this.groups.get(g);
      if (!m || m.size > MAX_GROUP + 1) continue;
      const sibling = g.startsWith('s:');
      // A test brings the file declaring its message; that file declares dozens and brings none.
      if (g.startsWith('m:') && !self) continue;
      for (const [k, test] of m) if (k !== key && (sibling || test !== self)) out.add(k);
    }
    return [...out];
  }
}

/** `s:<folder>/<base>` for every file; `n:<subject>` for what a test is named after and the names a source file goes by. */
export function groupKeys(rel: string, test: boolean): string[] {
  const p = rel.replace(/\\/g, '/').toLowerCase();
  const slash = p.lastIndexOf('/');
  const dir = slash >= 0 ? p.slice(0, slash) : '';
  const file = p.slice(slash + 1);
  const base = file.replace(/^\.+/, '').split('.')[0] ?? '';
  if (!base) return [];
  const keys = [`s:${dir}/${base}`];
  const folder = dir.slice(dir.lastIndexOf('/') + 1);
  if (test) {
    // A linter's functional test is named after the message it checks (`unused_variable.py`,
    // `unused_variable_py38.py`): the file that declares that message is its source.
    keys.push(`m:${base.replace(/_(py\d+|\d+)$/, '')}`);
    const subject = testSubject(base);
    if (subject && subject.length >= 3 && subject !== base) keys.push(`n:${subject}`);
    else if (/\.(test|spec)\.[a-z]+$/.test(file) && base.length >= 3) keys.push(`n:${base}`);
  } else if (FOLDER_NAMES.has(base)) {
    if (folder) keys.push(`n:${folder}`);
  } else {
    keys.push(`n:${base}`);
    if (folder) keys.push(`n:${folder}_${base}`);
  }
  return [...new Set(keys)];
}

/** `test_json_tag` → `json_tag`, `unittest_ast_walker` → `ast_walker`, `footest` → `foo`, `parser_spec` → `parser`. */
function testSubject(base: string): string {
  let s = base.replace(/^(unit)?tests?[_-]/, '');
  // mypy's `teststubinfo.py` is about `stubinfo.py`.
  if (s === base) s = base.replace(/^(unit)?test(?=[a-z0-9]{4,}$)/, '');
  return s.replace(/[_-]?(tests?|spec)$/, '');
}

/** A quoted kebab-case id of eight characters or more: a linter's message or rule (`"unused-variable"`). */
const DECLARED_ID = /["']([a-z][a-z0-9]*(?:-[a-z0-9]+)+)["']/g;

/**
 * The message or rule ids a source file declares as strings (`"unexpected-special-method-signature"`),
 * as the names its functional tests go by (`unexpected_special_method_signature`).
 */
export function declaredIds(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(DECLARED_ID)) if (m[1]!.length >= 8) out.add(m[1]!.replace(/-/g, '_'));
  return [...out];
}
