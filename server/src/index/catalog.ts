import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { Table } from '@lancedb/lancedb';
import type { ChunkRow } from './store';
import type { ChunkRecord } from './searchEngine';
import type { IndexContext } from './context';
import type { Progress } from './progress';
import type { WalkedFile } from './walker';
import { headingText } from './chunker';

/** One indexed folder: its LanceDB table and what it holds per file. */
export interface Root {
  folder: string;
  /** A workspace folder (vs. a folder named in a `paths` query and indexed on demand). */
  workspace: boolean;
  table: Promise<Table>;
  /** What the table holds per file: the change check of an incremental run. */
  files: Map<string, { mtime: number; size: number }>;
  loaded: Promise<void>;
  /** Resolves when the last requested lexical pass over this folder is done. */
  indexed?: Promise<void>;
  /**
   * Tables of an older chunks format whose rows were loaded for files the current table lacks:
   * dropped by the next whole pass over the folder, which chunks those files again.
   */
  older: string[];
}

/** What a file stored in an older chunks format is marked as indexed at: it never matches a walk. */
const STALE = { mtime: -1, size: -1 };

/** A chunk's id: stable across runs for the same content at the same place. */
export function chunkId(scope: string, rel: string, start: number, hash: string): string {
  return 'c' + createHash('sha1').update(`${scope}\0${rel}\0${start}\0${hash}`).digest('hex').slice(0, 24);
}

/**
 * A stored chunk's symbol path as the chunker writes it now (rows of an older chunks format answer
 * until the next pass chunks their file again). A Rust chunk's without type
 * arguments: an index made before `impl` blocks were named without them holds
 * `MethodRouter<S, E> › call`, whose comma reads as a list of names. A decorated definition's
 * without its name twice: one made before holds `Mixin › set_policy › set_policy`. A Markdown
 * heading's as its words (one made before holds serilog's `Serilog&nbsp;[![Build status](…`).
 */
function plainSymbol(symbol: string, lang: string): string | undefined {
  if (lang === 'markdown') {
    if (!/[[&<*_]/.test(symbol)) return symbol || undefined;
    // Stored cut at 120 characters, maybe inside a link: the words before the first one.
    return headingText(symbol.length >= 120 ? symbol.replace(/!?\[.*$|<.*$/, '') : symbol) ?? headingText(symbol);
  }
  let s = symbol;
  if (lang === 'rust' && s.includes('<')) for (let i = 0; i < 4 && /<[^<>]*>/.test(s); i++) s = s.replace(/<[^<>]*>/g, '');
  const parts = s.split(' › ');
  if (parts.length > 1) s = parts.filter((p, i) => i === 0 || p !== parts[i - 1]).join(' › ');
  return s.trim() || undefined;
}

/** A stored row as the engine's record. */
export function recordOf(folder: string, row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    file: path.join(folder, row.path),
    rel: row.path,
    startLine: row.start,
    endLine: row.end,
    text: row.text,
    symbol: plainSymbol(row.symbol, row.lang),
    hash: row.hash,
    language: row.lang,
    ext: row.ext,
    code: row.code,
  };
}

/**
 * The catalog of indexed folders and files: each folder's table, loaded into the engine at open,
 * and per file the (mtime, size) it was indexed at — what tells an incremental run which files
 * changed.
 */
export class Catalog {
  readonly roots = new Map<string, Root>();
  workspaceFolders: string[];

  constructor(
    private readonly ctx: IndexContext,
    private readonly progress: Progress,
    /** Called with each folder's stored rows once they are in the engine (the symbols are rebuilt from them). */
    private readonly onLoaded: (folder: string, byPath: Map<string, ChunkRow[]>) => void,
  ) {
    this.workspaceFolders = ctx.options.folders.map((f) => path.resolve(f));
  }

  /** Every opened folder: the only places a path may resolve into. */
  folders(): string[] {
    return [...this.roots.keys()];
  }

  /** The root of `folder`, opened (and its stored rows loaded) on first use. */
  root(folder: string, workspace: boolean): Root {
    let r = this.roots.get(folder);
    if (r) {
      if (workspace) r.workspace = true;
      return r;
    }
    const store = this.ctx.store!;
    const engine = this.ctx.engine;
    const table = store.chunksTable(folder);
    const root: Root = { folder, workspace, table, files: new Map(), loaded: Promise.resolve(), older: [] };
    root.loaded = (async () => {
      const rows = await store.readAll<ChunkRow>(await table);
      const byPath = new Map<string, ChunkRow[]>();
      const add = (list: ChunkRow[]) => {
        for (const row of list) {
          let l = byPath.get(row.path);
          if (!l) byPath.set(row.path, (l = []));
          l.push(row);
        }
      };
      add(rows);
      // An index made by an older askcode answers at once from its rows; each of their files
      // counts as changed, so the next pass chunks it as the chunker does now.
      const stale = new Set<string>();
      for (const old of await store.olderChunks(folder)) {
        root.older.push(old.name);
        const have = new Set(byPath.keys());
        const theirs = (await store.readAll<ChunkRow>(old.table)).filter((r) => !have.has(r.path));
        for (const r of theirs) stale.add(r.path);
        add(theirs);
      }
      if (stale.size) this.ctx.log.info(`index of ${folder} holds ${stale.size} files stored by an older askcode: they are chunked again by the next pass`);
      for (const [rel, list] of byPath) {
        list.sort((a, b) => a.start - b.start);
        root.files.set(rel, stale.has(rel) ? STALE : { mtime: list[0]!.mtime, size: list[0]!.size });
        engine.setFile(path.join(folder, rel), rel, list.map((row) => recordOf(folder, row)));
      }
      this.progress.counts.chunks = engine.chunkCount;
      this.onLoaded(folder, byPath);
    })();
    root.table.catch(() => {});
    root.loaded.catch((e) => this.ctx.log.error(`index of ${folder} failed to load: ${String(e)}`));
    this.roots.set(folder, root);
    return root;
  }

  /** The innermost opened folder holding `abs`. */
  rootOf(abs: string): Root | undefined {
    let best: Root | undefined;
    for (const r of this.roots.values()) {
      if ((abs === r.folder || abs.startsWith(r.folder + path.sep)) && (!best || r.folder.length > best.folder.length)) best = r;
    }
    return best;
  }

  /** What a walk found against what the table holds: files new or changed, and files gone. */
  changes(root: Root, found: WalkedFile[]): { changed: WalkedFile[]; removed: string[] } {
    const seen = new Set(found.map((f) => f.rel));
    const changed = found.filter((f) => {
      const old = root.files.get(f.rel);
      return !old || old.mtime !== f.mtimeMs || old.size !== f.size;
    });
    const removed = [...root.files.keys()].filter((rel) => !seen.has(rel));
    return { changed, removed };
  }

  /** Forgets a folder that is no longer opened (its table stays on disk for a later reopen). */
  drop(folder: string): void {
    const r = this.roots.get(folder);
    if (!r) return;
    for (const rel of r.files.keys()) this.ctx.engine.removeFile(path.join(folder, rel));
    this.roots.delete(folder);
    this.ctx.skips.drop(folder);
  }
}
