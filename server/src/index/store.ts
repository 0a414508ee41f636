import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { Connection, Table } from '@lancedb/lancedb';
import type { Logger } from '../core/logger';

/**
 * LanceDB under `<dataDir>/index`: a chunks table per indexed folder, a vectors table per
 * embedding model (keyed by chunk content hash, so identical or unchanged chunks are embedded
 * once), and the saved assets. Every add/delete is one committed version: a kill leaves the last
 * committed state, which opens and answers.
 */

export interface ChunkRow {
  id: string;
  path: string;
  start: number;
  end: number;
  symbol: string;
  hash: string;
  lang: string;
  ext: string;
  code: boolean;
  text: string;
  mtime: number;
  size: number;
}

export interface AssetRow {
  id: string;
  name: string;
  path: string;
  lang: string;
  ext: string;
  start: number;
  end: number;
  created: string;
  text: string;
}

type Lance = typeof import('@lancedb/lancedb');
type Arrow = typeof import('apache-arrow');

export function tableKey(prefix: string, s: string): string {
  return `${prefix}_${createHash('sha1').update(s).digest('hex').slice(0, 16)}`;
}

/**
 * The format of a folder's stored chunks: raise it when the chunker or the definitions' names would
 * store a file differently. A table of an older format is still read at open (its files answer at
 * once) but each of its files is chunked again by the next pass over the folder, which then drops it.
 * 1: tables named without a format (to stop 33); 2: bare heads, receivers and Rust `impl` names;
 * 3: a doc comment that is a chunk of its own is named by the definition it documents, and C#'s
 * file-scoped namespace names no chunk; 4: C's export macros (`CJSON_PUBLIC(void) f(…)`) name no
 * chunk and stay on their definition's line, C's include guards, `extern "C"` and `#if` are no level
 * of nesting, Rust's `macro_rules!` names a chunk, `impl … for &'a mut T` is `T`, and a long string (a
 * docstring) is cut into line windows from its first line; a Vue or Svelte component's `<script>` is
 * chunked by its grammar; 5: Kotlin and Swift are chunked by grammars of their own, not in line windows;
 * 6: a JS/TS class field holding a function (`produce = (base) => {…}`) names its chunk, as does a
 * CommonJS assignment of one (`exports.entry = function …`, also a definition now); a small file's
 * namespaces around its one definition are its chunk's parents (`Grape › Validations › …`); 7: C's
 * and C++'s macros of regions and qualifiers (`FMT_BEGIN_EXPORT`, `FMT_CONSTEXPR`) are no type; 8: a
 * class alone in a class of a small file's namespaces is a parent too (`Hanami › Router › Segment › fabricate`); 9:
 * a Kotlin class whose primary constructor starts the next line keeps its members (`FileSpec › Builder › …`).
 * 10: a definition's doc comment goes with it into the next chunk where the budget ran out before it;
 * 11: CommonJS's imports (`const fs = require('fs')`) name no chunk.
 */
export const CHUNKS_FORMAT = 11;

function chunksName(folder: string, format: number): string {
  return tableKey('chunks', folder) + (format > 1 ? `_v${format}` : '');
}

/** The format a chunks table's name says (1 for a name without one). */
function formatOf(name: string): number {
  return Number(/_v(\d+)$/.exec(name)?.[1] ?? 1);
}

function vectorsName(modelId: string, dims: number, version?: string): string {
  return tableKey(`vectors_${dims}`, modelId) + (version ? `_v${version}` : '');
}

/** SQL string literal for a LanceDB filter. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export class IndexStore {
  private constructor(
    private readonly db: Connection,
    private readonly lance: Lance,
    private readonly arrow: Arrow,
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  static async open(dataDir: string, log: Logger): Promise<IndexStore> {
    const lance = await import('@lancedb/lancedb');
    const arrow = await import('apache-arrow');
    const dir = path.join(dataDir, 'index');
    const db = await lance.connect(dir);
    return new IndexStore(db, lance, arrow, dir, log);
  }

  private chunkSchema() {
    const a = this.arrow;
    return new a.Schema([
      new a.Field('id', new a.Utf8(), false),
      new a.Field('path', new a.Utf8(), false),
      new a.Field('start', new a.Int32(), false),
      new a.Field('end', new a.Int32(), false),
      new a.Field('symbol', new a.Utf8(), false),
      new a.Field('hash', new a.Utf8(), false),
      new a.Field('lang', new a.Utf8(), false),
      new a.Field('ext', new a.Utf8(), false),
      new a.Field('code', new a.Bool(), false),
      new a.Field('text', new a.Utf8(), false),
      new a.Field('mtime', new a.Float64(), false),
      new a.Field('size', new a.Float64(), false),
    ]);
  }

  private assetSchema() {
    const a = this.arrow;
    return new a.Schema([
      new a.Field('id', new a.Utf8(), false),
      new a.Field('name', new a.Utf8(), false),
      new a.Field('path', new a.Utf8(), false),
      new a.Field('lang', new a.Utf8(), false),
      new a.Field('ext', new a.Utf8(), false),
      new a.Field('start', new a.Int32(), false),
      new a.Field('end', new a.Int32(), false),
      new a.Field('created', new a.Utf8(), false),
      new a.Field('text', new a.Utf8(), false),
    ]);
  }

  private vectorSchema(dims: number) {
    const a = this.arrow;
    return new a.Schema([
      new a.Field('hash', new a.Utf8(), false),
      new a.Field('vector', new a.FixedSizeList(dims, new a.Field('item', new a.Float32(), true)), false),
    ]);
  }

  private async table(name: string, schema: () => import('apache-arrow').Schema): Promise<Table> {
    const names = await this.db.tableNames();
    if (names.includes(name)) return this.db.openTable(name);
    try {
      return await this.db.createEmptyTable(name, schema(), { mode: 'create' });
    } catch {
      return this.db.openTable(name); // created meanwhile
    }
  }

  /** A folder's chunks, in the current format unless another is named. */
  chunksTable(folder: string, format = CHUNKS_FORMAT): Promise<Table> {
    return this.table(chunksName(folder, format), () => this.chunkSchema());
  }

  /** This folder's chunks tables of other formats than the current one, newest first. */
  async olderChunks(folder: string): Promise<{ name: string; table: Table }[]> {
    const names = await this.otherVersions(tableKey('chunks', folder), chunksName(folder, CHUNKS_FORMAT));
    names.sort((a, b) => formatOf(b) - formatOf(a));
    return Promise.all(names.map(async (name) => ({ name, table: await this.db.openTable(name) })));
  }

  /** The tables named `base` or `base_v…` other than `keep`: the other versions of one table. */
  private async otherVersions(base: string, keep: string): Promise<string[]> {
    return (await this.db.tableNames()).filter((n) => (n === base || n.startsWith(base + '_v')) && n !== keep);
  }

  /** Drops tables by name (those `olderChunks` named, once their files are chunked again). */
  async dropTables(names: string[]): Promise<void> {
    const have = new Set(await this.db.tableNames());
    for (const n of names) if (have.has(n)) await this.db.dropTable(n);
  }

  assetsTable(): Promise<Table> {
    return this.table('assets', () => this.assetSchema());
  }

  /** The vectors of one embedding model (and version: see `Embedder.version`). */
  vectorsTable(modelId: string, dims: number, version?: string): Promise<Table> {
    return this.table(vectorsName(modelId, dims, version), () => this.vectorSchema(dims));
  }

  /** Drops the vectors of this model's other versions (made by weights it no longer has). */
  async dropOtherVersions(modelId: string, dims: number, version: string): Promise<string[]> {
    const stale = await this.otherVersions(tableKey(`vectors_${dims}`, modelId), vectorsName(modelId, dims, version));
    for (const n of stale) await this.db.dropTable(n);
    return stale;
  }

  async readAll<T>(t: Table, columns?: string[]): Promise<T[]> {
    const q = t.query();
    if (columns) q.select(columns);
    return (await q.toArray()) as T[];
  }

  /** Replaces the rows of these paths in one delete and one add. */
  async replacePaths(t: Table, paths: string[], rows: ChunkRow[]): Promise<void> {
    for (let i = 0; i < paths.length; i += 200) {
      const slice = paths.slice(i, i + 200);
      await t.delete(`path IN (${slice.map(sqlString).join(',')})`);
    }
    if (rows.length) await t.add(rows as unknown as Record<string, unknown>[]);
  }

  /**
   * Adds vectors as one Arrow batch over a single Float32Array (a third of the time of rows of
   * number arrays, which LanceDB would convert value by value).
   */
  async addVectors(t: Table, rows: { hash: string; vector: Float32Array }[]): Promise<void> {
    if (!rows.length) return;
    const a = this.arrow;
    const dims = rows[0]!.vector.length;
    const flat = new Float32Array(rows.length * dims);
    rows.forEach((r, i) => flat.set(r.vector, i * dims));
    const schema = this.vectorSchema(dims);
    const listType = schema.fields[1]!.type as import('apache-arrow').FixedSizeList;
    const values = a.makeData({ type: new a.Float32(), length: flat.length, data: flat });
    const vector = a.makeVector(a.makeData({ type: listType, length: rows.length, child: values }));
    // The hash column as one UTF-8 buffer and its offsets (arrow's builder encodes string by string).
    const bytes = Buffer.from(rows.map((r) => r.hash).join(''), 'utf8');
    const offsets = new Int32Array(rows.length + 1);
    rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + Buffer.byteLength(r.hash, 'utf8')));
    const hash = a.makeVector(a.makeData({ type: new a.Utf8(), length: rows.length, valueOffsets: offsets, data: bytes }));
    await t.add(new a.Table(schema, { hash, vector }));
  }

  /** Compacts the many small versions an indexing run leaves and drops the old ones. */
  async compact(t: Table): Promise<void> {
    try {
      await t.optimize({ cleanupOlderThan: new Date(Date.now() - 1000) });
    } catch (e) {
      this.log.debug(`index compaction skipped: ${String(e)}`);
    }
  }

  close(): void {
    try {
      this.db.close();
    } catch {
      /* already closed */
    }
  }

  get lancedb(): Lance {
    return this.lance;
  }
}
