import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { invalid, notFound } from '../core/errors';
import type { Retriever as RetrieverContract, Snippet } from '../core/interfaces';
import { SearchEngine, type ChunkRecord, type Hit } from './searchEngine';
import { ownerAndMember } from './symbols';
import { chunkText } from './chunker';
import { languageOfExt, isCode } from './languages';
import type { IndexContext } from './context';
import type { Catalog } from './catalog';
import type { Indexer } from './indexer';
import type { Assets } from './assets';
import type { EmbeddingQueue } from './embeddings';

/** Exactly one query space per search. */
export type Space =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'seeds'; seeds: { text: string; ext?: string }[] }
  | { kind: 'assets'; ids: string[] }
  | { kind: 'database' };

/**
 * The retriever: a query over one space (the workspace, some paths, given seeds, saved assets)
 * as ranked hits from the engine, and what a hit's id or a fragment points at afterwards.
 */
export class Retriever {
  /** Chunks of seeds searched lately, by id (a client may quote them back by id). */
  private readonly ephemeral = new Map<string, Snippet>();

  constructor(
    private readonly ctx: IndexContext,
    private readonly catalog: Catalog,
    private readonly indexer: Indexer,
    private readonly assets: Assets,
    private readonly embeddings: EmbeddingQueue,
  ) {}

  /** Whether a workspace file defines `name` (or, for `A.b`, its last part), as far as the symbols are loaded. */
  defines(name: string): boolean {
    const exact = (n: string) => this.ctx.symbols.find(n, { limit: 3, exact: true }).some((d) => d.match <= 1);
    const leaf = name.split('.').pop() ?? name;
    return exact(name) || (leaf !== name && exact(leaf));
  }

  definitionsOf(name: string): ReturnType<RetrieverContract['definitionsOf']> {
    const m = ownerAndMember(name);
    if (!m) return [];
    const { owner, member: leaf } = m;
    const at = ({ key, def }: { key: string; def: { startLine: number; endLine: number; qualifiedName: string } }, via?: 'inherits' | 'implements') =>
      ({ path: key, startLine: def.startLine, endLine: def.endLine, qualifiedName: def.qualifiedName, ...(via ? { via } : {}) });
    const resolved = [...this.ctx.symbols.inherited(owner, leaf).map((d) => at(d, 'inherits')), ...this.ctx.symbols.implementations(owner, leaf).map((d) => at(d, 'implements'))];
    // An interface's declaration says less of what its method does than what implements it.
    if (resolved.some((r) => r.via === 'implements')) return resolved;
    const own = this.ctx.symbols.find(name, { limit: 20, exact: true })
      .filter((d) => d.match <= 1 && !resolved.some((r) => r.path === d.path && r.startLine === d.startLine))
      .map((d) => ({ path: d.path, startLine: d.startLine, endLine: d.endLine, qualifiedName: d.qualifiedName }));
    return [...own, ...resolved];
  }

  /** The hits for a query over one space, best first. */
  async search(query: string, space: Space, signal?: AbortSignal, limit = 20): Promise<Hit[]> {
    await this.ctx.opened;
    if (space.kind === 'seeds') return this.searchSeeds(query, space.seeds, limit);
    let filter: ((key: string) => boolean) | undefined;
    if (space.kind === 'paths') {
      const targets = await this.preparePaths(space.paths);
      filter = (k) => targets.some((t) => k === t || k.startsWith(t + path.sep));
    } else if (space.kind === 'assets') {
      const keys = new Set<string>();
      space.ids.forEach((id, i) => {
        if (!this.assets.has(id)) throw notFound(`no saved asset with id ${id}`, `assets.iterable[${i}].id`);
        keys.add('asset:' + id);
      });
      filter = (k) => keys.has(k);
    }
    const queryVector = await this.embeddings.queryVector(query, signal);
    // Right after start, definitions are still being re-read from the stored chunks: relevance does
    // not wait for them (the first question on a big repository would), it ranks without them.
    return this.ctx.engine.search(query, { limit, filter, queryVector }).hits;
  }

  /** Absolute paths of the `paths` space: they must exist; folders outside the workspace are indexed now. */
  private async preparePaths(paths: string[]): Promise<string[]> {
    const engine = this.ctx.engine;
    const out: string[] = [];
    for (let i = 0; i < paths.length; i++) {
      const abs = path.resolve(paths[i]!);
      let st;
      try {
        st = await fs.stat(abs);
      } catch {
        throw notFound(`path does not exist: ${paths[i]}`, `paths[${i}]`);
      }
      if (!st.isFile() && !st.isDirectory()) throw invalid(`not a regular file or folder: ${paths[i]}`, `paths[${i}]`);
      const root = this.catalog.rootOf(abs);
      if (root) {
        await root.loaded;
        // A folder never indexed in this process and with nothing stored is indexed now.
        if (!root.indexed && !root.files.size) await this.indexer.indexRoot(root);
        if (!root.workspace || !engine.hasFile(abs)) await root.indexed;
        if (st.isFile() && !engine.hasFile(abs)) await this.indexer.indexLooseFile(abs, st.mtimeMs, st.size);
      } else if (st.isDirectory()) {
        await this.indexer.indexRoot(this.catalog.root(abs, false));
      } else {
        await this.indexer.indexLooseFile(abs, st.mtimeMs, st.size);
      }
      out.push(abs);
    }
    return out;
  }

  private async searchSeeds(query: string, seeds: { text: string; ext?: string }[], limit: number): Promise<Hit[]> {
    const engine = new SearchEngine();
    for (let i = 0; i < seeds.length; i++) {
      const s = seeds[i]!;
      const lang = languageOfExt(s.ext);
      const chunks = await chunkText(s.text, lang);
      const key = `seed:${i}`;
      engine.setFile(key, `seed-${i + 1}.${lang.ext}`, chunks.map((c) => ({
        id: 's' + createHash('sha1').update(`seed\0${c.hash}\0${c.startLine}`).digest('hex').slice(0, 24),
        file: key, rel: `seed-${i + 1}.${lang.ext}`, startLine: c.startLine, endLine: c.endLine, text: c.text,
        symbol: c.symbol, hash: c.hash, language: lang.id, ext: lang.ext, code: isCode(lang),
      })));
    }
    let hits = engine.search(query, { limit, params: { floor: 0 } }).hits;
    // Snippets the user handed in are the context by definition: none is dropped for sharing no word.
    if (!hits.length) {
      hits = [...engine.allChunks()].slice(0, limit).map((chunk, i) => ({ chunk, score: 0, matched: [], fileRank: i + 1 }));
    }
    for (const h of hits) this.remember(h.chunk);
    return hits;
  }

  private remember(c: ChunkRecord): void {
    if (this.ephemeral.size > 5000) this.ephemeral.delete(this.ephemeral.keys().next().value!);
    this.ephemeral.set(c.id, { id: c.id, path: c.rel, startLine: c.startLine, endLine: c.endLine, text: c.text, language: c.language, symbol: c.symbol });
  }

  /** A chunk returned by an earlier search (or a saved asset), by id: what `qgpt/question` quotes when sent only ids. */
  async snippet(id: string): Promise<Snippet | null> {
    await this.ctx.opened.catch(() => {});
    const c = this.ctx.engine.chunk(id);
    if (c) {
      const asset = c.file.startsWith('asset:') ? c.file.slice(6) : undefined;
      return {
        id, path: asset ? this.assets.get(asset)?.path || c.rel : c.file, startLine: c.startLine, endLine: c.endLine,
        text: c.text, language: c.language, symbol: c.symbol,
      };
    }
    const a = this.assets.get(id);
    if (a) return { id, path: a.path || a.name, startLine: a.start, endLine: a.end, text: a.text, language: a.lang };
    return this.ephemeral.get(id) ?? null;
  }

  /** Where a fragment lives in the indexed files: the lines its first line starts at. */
  async locate(fragment: string): Promise<{ path: string; startLine: number; endLine: number }[]> {
    await this.ctx.opened;
    const needle = fragment.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!needle.length) return [];
    const { hits } = this.ctx.engine.search(fragment.slice(0, 4000), { limit: 30 });
    const out: { path: string; startLine: number; endLine: number }[] = [];
    for (const h of hits) {
      if (h.chunk.file.startsWith('asset:')) continue;
      const lines = h.chunk.text.split('\n');
      const at = lines.findIndex((l) => l.trim() === needle[0]);
      if (at < 0) continue;
      const startLine = h.chunk.startLine + at;
      out.push({ path: h.chunk.file, startLine, endLine: startLine + needle.length - 1 });
    }
    return out;
  }
}
