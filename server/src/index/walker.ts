import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface WalkedFile {
  abs: string;
  /** Relative to the folder, with `/`. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  /** gitignore-style patterns from the `askcode.exclude` setting. */
  exclude?: string[];
  maxFileSize: number;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** Never worth indexing, even without a .gitignore saying so. */
const ALWAYS_SKIP = ['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', '.tox', '.mypy_cache', '.pytest_cache', '.next', '.nuxt'];

/** Generated or vendored: lock files, minified bundles, source maps, snapshots. */
const GENERATED = /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|composer\.lock|go\.sum)$|\.(min\.(js|css)|map|snap|lock)$/i;

const BINARY_EXT = new Set(
  ('png jpg jpeg gif bmp ico webp avif tiff psd pdf zip gz tgz bz2 xz 7z rar jar war class so dylib dll exe bin o a lib ' +
    'wasm woff woff2 ttf otf eot mp3 mp4 mov avi wav ogg flac webm mkv sqlite db onnx pt pth safetensors gguf npy npz pkl parquet arrow lance')
    .split(' '),
);

interface Level {
  dir: string;
  ig: Ignore;
}

async function readIgnore(dir: string): Promise<Ignore | null> {
  let found = false;
  const ig = ignore();
  for (const name of ['.gitignore', '.ignore']) {
    try {
      ig.add(await fs.readFile(path.join(dir, name), 'utf8'));
      found = true;
    } catch {
      /* none here */
    }
  }
  return found ? ig : null;
}

function ignoredBy(levels: Level[], abs: string, isDir: boolean): boolean {
  for (const l of levels) {
    const rel = path.relative(l.dir, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    if (l.ig.ignores(isDir ? rel + '/' : rel)) return true;
  }
  return false;
}

/** Files worth indexing under `root`, honouring .gitignore/.ignore at every level and the exclude setting. */
export async function walk(root: string, opts: WalkOptions): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  const seen = new Set<string>();
  const base: Level[] = [];
  if (opts.exclude?.length) base.push({ dir: root, ig: ignore().add(opts.exclude) });
  const visit = async (dir: string, levels: Level[]): Promise<void> => {
    if (opts.signal?.aborted) return;
    let real: string;
    try {
      real = await fs.realpath(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return; // a symlink loop, or the same folder twice
    seen.add(real);
    const own = await readIgnore(dir);
    const here = own ? [...levels, { dir, ig: own }] : levels;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fs.stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // dangling
        }
      }
      if (isDir) {
        if (ALWAYS_SKIP.includes(e.name) || ignoredBy(here, abs, true)) continue;
        await visit(abs, here);
      } else if (isFile) {
        const rel = path.relative(root, abs).split(path.sep).join('/');
        if (GENERATED.test(rel) || BINARY_EXT.has(path.extname(e.name).slice(1).toLowerCase())) continue;
        if (ignoredBy(here, abs, false)) continue;
        let st;
        try {
          st = await fs.stat(abs);
        } catch {
          continue;
        }
        if (st.size > opts.maxFileSize || st.size === 0) continue;
        out.push({ abs, rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
      }
    }
  };
  await visit(root, base);
  return out;
}

/** A path that a walk of `root` would skip by name alone (used for single file events). */
export function skippedByName(rel: string): boolean {
  const parts = rel.split('/');
  return parts.some((p) => ALWAYS_SKIP.includes(p)) || GENERATED.test(rel) || BINARY_EXT.has(path.extname(rel).slice(1).toLowerCase());
}

/** Text worth indexing: no NUL bytes in the head (binary), no megabyte-long lines (minified). */
export function looksIndexable(buf: Buffer): boolean {
  const head = buf.subarray(0, 8192);
  if (head.includes(0)) return false;
  const text = head.toString('utf8');
  const lines = text.split('\n');
  if (buf.length > 4096 && lines.length <= 2) return false;
  const long = lines.filter((l) => l.length > 1000).length;
  return long < 2 || long / lines.length < 0.2;
}
