import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Table } from '@lancedb/lancedb';
import { invalid, notFound } from '../core/errors';
import type { SkipReason } from '../core/safePath';
import type { AssetSummary } from '../protocol/workspace';
import { sqlString, type AssetRow } from './store';
import { chunkText } from './chunker';
import { languageOf, languageOfExt, isCode } from './languages';
import type { IndexContext } from './context';
import { chunkId } from './catalog';

/** What to save as an asset: a fragment of text, or lines of a file. */
export type AssetSource =
  | { name?: string; fragment: { text: string; ext?: string } }
  | { name?: string; path: string; startLine?: number; endLine?: number };

/** Reads a file through the index's one path check (see Indexer.readText). */
type ReadText = (abs: string, skipped: (reason: SkipReason) => void, folders: string[]) => Promise<string | null>;

/**
 * Saved assets: snippets kept in their own table and searched like files, under the engine key
 * `asset:<id>` (the `assets` query space filters on it).
 */
export class Assets {
  private table?: Promise<Table>;
  private readonly rows = new Map<string, AssetRow>();

  constructor(
    private readonly ctx: IndexContext,
    private readonly readText: ReadText,
    private readonly folders: () => string[],
    /** A new asset is embedded like any chunk. */
    private readonly afterSave: () => void,
  ) {}

  /** Loads the stored assets into the engine (at open). */
  async load(): Promise<void> {
    this.table = this.ctx.store!.assetsTable();
    for (const row of await this.ctx.store!.readAll<AssetRow>(await this.table)) {
      this.rows.set(row.id, row);
      await this.addToEngine(row);
    }
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  get(id: string): AssetRow | undefined {
    return this.rows.get(id);
  }

  private async addToEngine(a: AssetRow): Promise<void> {
    const lang = languageOfExt(a.ext);
    const chunks = await chunkText(a.text, lang);
    const key = 'asset:' + a.id;
    this.ctx.engine.setFile(key, a.name, chunks.map((c) => ({
      id: chunkId(key, a.name, c.startLine, c.hash), file: key, rel: a.path || a.name,
      startLine: c.startLine + a.start - 1, endLine: c.endLine + a.start - 1, text: c.text, symbol: c.symbol,
      hash: c.hash, language: lang.id, ext: lang.ext, code: isCode(lang),
    })));
  }

  private summary(a: AssetRow): AssetSummary {
    return { id: a.id, name: a.name, path: a.path || undefined, language: a.lang, created: a.created, preview: a.text.slice(0, 200) };
  }

  async save(p: AssetSource): Promise<AssetSummary> {
    await this.ctx.opened;
    let text: string;
    let ext: string;
    let file = '';
    let start = 1;
    if ('fragment' in p) {
      text = p.fragment.text;
      ext = languageOfExt(p.fragment.ext).ext;
    } else {
      file = path.resolve(p.path);
      if (!(await fs.stat(file).catch(() => null))) throw notFound(`path does not exist: ${p.path}`, 'path');
      let why: SkipReason | undefined;
      const content = await this.readText(file, (reason) => (why = reason), [...this.folders(), path.dirname(file)]);
      if (content === null) throw invalid(`cannot save ${p.path}: ${why ?? 'unreadable'}`, 'path');
      const lines = content.split(/\r?\n/);
      const s = p.startLine ?? 1;
      const e = p.endLine ?? lines.length;
      if (!Number.isInteger(s) || s < 1 || s > lines.length) throw invalid(`startLine must be between 1 and ${lines.length}`, 'startLine');
      if (!Number.isInteger(e) || e < s || e > lines.length) throw invalid(`endLine must be between startLine and ${lines.length}`, 'endLine');
      text = lines.slice(s - 1, e).join('\n');
      start = s;
      ext = languageOf(file).ext;
    }
    if (!text.trim()) throw invalid('the selection is empty', 'fragment' in p ? 'seed' : 'path');
    const name = typeof p.name === 'string' && p.name.trim() ? p.name.trim().slice(0, 200) : file ? `${path.basename(file)}:${start}` : text.split('\n')[0]!.trim().slice(0, 60);
    const row: AssetRow = {
      id: randomUUID(), name, path: file, lang: (file ? languageOf(file) : languageOfExt(ext)).id, ext, start,
      end: start + text.split('\n').length - 1, created: new Date().toISOString(), text,
    };
    await (await this.table!).add([row as unknown as Record<string, unknown>]);
    this.rows.set(row.id, row);
    await this.addToEngine(row);
    this.afterSave();
    return this.summary(row);
  }

  async delete(id: string): Promise<void> {
    await this.ctx.opened;
    if (!this.rows.has(id)) throw notFound(`no saved asset with id ${id}`, 'id');
    await (await this.table!).delete(`id = ${sqlString(id)}`);
    this.rows.delete(id);
    this.ctx.engine.removeFile('asset:' + id);
  }

  async list(): Promise<AssetSummary[]> {
    await this.ctx.opened;
    return [...this.rows.values()].sort((a, b) => (a.created < b.created ? 1 : -1)).map((a) => this.summary(a));
  }
}
