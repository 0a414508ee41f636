import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isWithin, realFolder, type SkipReason } from '../core/safePath';

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
  /** Other opened folders that links may lead into (the walked folder itself always counts). */
  allowed?: string[];
  /** Told of every file not indexed for a reason worth reporting (not ignores or lock files). */
  onSkip?(rel: string, reason: SkipReason, detail?: string): void;
}

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** Never worth indexing, even without a .gitignore saying so. */
const ALWAYS_SKIP = ['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', '.tox', '.mypy_cache', '.pytest_cache', '.next', '.nuxt'];

/** Generated or vendored: lock files, minified bundles, source maps, snapshots. */
const GENERATED = /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|composer\.lock|go\.sum)$|[.-]min\.([cm]?js|css)$|\.(map|snap|lock)$/i;

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

/**
 * Files worth indexing under `root`, honouring .gitignore/.ignore at every level and the exclude
 * setting. Symlinks are followed only where their real target lies inside `root` or another of
 * `opts.allowed`; a target already reached by its own name (or under another opened folder, which
 * is indexed on its own) is not indexed a second time. FIFOs, sockets and devices are never opened.
 */
export async function walk(root: string, opts: WalkOptions): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  const seenDirs = new Set<string>();
  const realFiles = new Set<string>();
  const base: Level[] = [];
  if (opts.exclude?.length) base.push({ dir: root, ig: ignore().add(opts.exclude) });
  const realRoot = await realFolder(root);
  const others = (await Promise.all((opts.allowed ?? []).map(realFolder))).filter((r) => r !== realRoot && !isWithin(r, realRoot));
  const relOf = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const skip = (abs: string, reason: SkipReason, detail?: string) => opts.onSkip?.(relOf(abs), reason, detail);
  const links: { abs: string; name: string; levels: Level[] }[] = [];

  const addFile = async (abs: string, name: string, real: string, levels: Level[], siblings?: Set<string>): Promise<void> => {
    const rel = relOf(abs);
    if (GENERATED.test(rel) || ignoredBy(levels, abs, false)) return;
    if (BINARY_EXT.has(path.extname(name).slice(1).toLowerCase())) return skip(abs, 'binary');
    if (siblings ? isBuilt(name, siblings, path.basename(path.dirname(abs))) : await isBuiltScript(abs)) return skip(abs, 'built');
    let st;
    try {
      st = await fs.stat(real);
    } catch {
      return skip(abs, 'unreadable');
    }
    if (!st.isFile()) return skip(abs, 'special');
    if (st.size === 0) return;
    if (st.size > opts.maxFileSize) return skip(abs, 'too_large');
    realFiles.add(real);
    out.push({ abs, rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
  };

  const visit = async (dir: string, levels: Level[]): Promise<void> => {
    if (opts.signal?.aborted) return;
    let real: string;
    try {
      real = await fs.realpath(dir);
    } catch {
      return skip(dir, 'unreadable');
    }
    if (seenDirs.has(real)) return; // a symlink loop, or the same folder twice
    seenDirs.add(real);
    const own = await readIgnore(dir);
    const here = own ? [...levels, { dir, ig: own }] : levels;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return skip(dir, 'unreadable');
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    const names = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (!(e.isSymbolicLink() || e.isDirectory() || e.isFile() || e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice())) {
        // Some file systems report no type in readdir: ask lstat (never following a link).
        try {
          const ls = await fs.lstat(abs);
          Object.assign(e, { isSymbolicLink: () => ls.isSymbolicLink(), isDirectory: () => ls.isDirectory(), isFile: () => ls.isFile() });
        } catch {
          continue;
        }
      }
      if (e.isSymbolicLink()) links.push({ abs, name: e.name, levels: here });
      else if (e.isDirectory()) {
        if (ALWAYS_SKIP.includes(e.name) || ignoredBy(here, abs, true)) continue;
        await visit(abs, here);
      } else if (e.isFile()) await addFile(abs, e.name, path.join(real, e.name), here, names);
      else if (!ignoredBy(here, abs, false)) skip(abs, 'special');
    }
  };

  await visit(root, base);
  // Links last, so a file reached by its own name is indexed under that name and a link to it is not.
  for (let i = 0; i < links.length; i++) {
    if (opts.signal?.aborted) break;
    const { abs, name, levels } = links[i]!;
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      continue; // dangling
    }
    if (!isWithin(realRoot, real)) {
      if (others.some((o) => isWithin(o, real))) continue; // that folder is indexed on its own
      if (!ignoredBy(levels, abs, false)) skip(abs, 'outside', real);
      continue;
    }
    let st;
    try {
      st = await fs.stat(real);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (ALWAYS_SKIP.includes(name) || ignoredBy(levels, abs, true) || seenDirs.has(real)) continue;
      await visit(abs, levels);
    } else if (st.isFile()) {
      if (!realFiles.has(real)) await addFile(abs, name, real, levels);
    } else if (!ignoredBy(levels, abs, false)) skip(abs, 'special');
  }
  return out;
}

/**
 * A script or style sheet with its source map beside it (`dist/axios.js` and `dist/axios.js.map`)
 * was built from sources the folder holds too: axios' committed bundles repeated each function of
 * `lib/` four times, and led "how does axios pick the adapter?" with `dist/node/axios.cjs`. So was a
 * script in a build's folder with a minified twin (js-yaml's `dist/js-yaml.js` and `dist/js-yaml.mjs`
 * beside `dist/js-yaml.min.js`, bundles of `lib/` that led "what happens when a mapping defines the
 * same key twice?").
 */
function isBuilt(name: string, siblings: Set<string>, dir: string): boolean {
  if (!MINIFIABLE.test(name)) return false;
  return siblings.has(`${name}.map`) || (BUILD_DIR.test(dir) && minifiedTwins(name).some((t) => siblings.has(t)));
}

/** A build's output folder, by its name. */
const BUILD_DIR = /^(?:dist|build|umd|bundles?)$/i;

/** The names a minified copy of a script would have: `js-yaml.mjs` → `js-yaml.min.js`, `js-yaml-min.js`. */
function minifiedTwins(name: string): string[] {
  const stem = name.replace(/\.[cm]?js$/i, '');
  return /\.css$/i.test(name) ? [] : [`${stem}.min.js`, `${stem}-min.js`];
}

/** {@link isBuilt} for one file, its folder unread (a single file event). */
export async function isBuiltScript(abs: string): Promise<boolean> {
  if (!MINIFIABLE.test(abs)) return false;
  const exists = async (p: string) => {
    try {
      return (await fs.stat(p)).isFile();
    } catch {
      return false;
    }
  };
  if (await exists(`${abs}.map`)) return true;
  const name = path.basename(abs);
  if (!BUILD_DIR.test(path.basename(path.dirname(abs)))) return false;
  for (const t of minifiedTwins(name)) if (await exists(path.join(path.dirname(abs), t))) return true;
  return false;
}

/** A path that a walk of `root` would skip by name alone (used for single file events). */
export function skippedByName(rel: string): boolean {
  const parts = rel.split('/');
  return parts.some((p) => ALWAYS_SKIP.includes(p)) || GENERATED.test(rel) || BINARY_EXT.has(path.extname(rel).slice(1).toLowerCase());
}

/** Text worth indexing: no NUL bytes in the head (binary), no megabyte-long lines (minified). */
export function looksIndexable(buf: Buffer, rel?: string): boolean {
  return unindexableReason(buf, rel) === null;
}

/** Scripts and style sheets, where lines of hundreds of characters mean a minifier wrote them. */
const MINIFIABLE = /\.(js|mjs|cjs|css)$/i;

/**
 * Why a file's bytes are not worth indexing ('binary', 'minified'), or null when they are. With
 * the file's path, a script or style sheet whose lines average over 300 characters is minified too
 * (`prettify-min.js` wraps at about 500; hand-written code averages under 150, and prose, whose
 * paragraphs may be one line each, is not judged so).
 */
export function unindexableReason(buf: Buffer, rel?: string): 'binary' | 'minified' | null {
  const head = buf.subarray(0, 8192);
  if (head.includes(0)) return 'binary';
  const text = head.toString('latin1');
  const lines = text.split('\n');
  if (buf.length > 4096 && lines.length <= 2) return 'minified';
  const long = lines.filter((l) => l.length > 1000).length;
  if (long >= 2 && long / lines.length >= 0.2) return 'minified';
  if (rel && MINIFIABLE.test(rel) && buf.length > 2048 && text.length / lines.length > 300) return 'minified';
  return null;
}
