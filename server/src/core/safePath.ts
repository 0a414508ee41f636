/**
 * The one check every path askcode opens goes through: its real path (every symlink followed) must
 * lie inside one of the opened or served folders, and only regular files are ever opened. A link
 * that leads out of the folders is not followed; a FIFO, socket or device is never opened (opening
 * a FIFO for reading blocks until someone writes into it, which stalled the index queue).
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SkipReason } from '../protocol/workspace';

export interface Inside {
  /** The path as named (absolute, not resolved through links). */
  abs: string;
  /** The same file with every link resolved. */
  real: string;
  /** The folder (as given) that holds it. */
  folder: string;
}

/**
 * Why a file was not indexed or read, counted in the index status: `outside` (a symlink whose
 * target is outside every opened folder), `special` (FIFO, socket, device), `unreadable`,
 * `too_large` (over askcode.maxFileSize), `binary`, `minified`, `encoding` (neither UTF-8 nor
 * latin-1 / Shift-JIS text).
 */
export type { SkipReason };

/** A folder's real path (the folder as given when it cannot be resolved, e.g. it is gone). */
export async function realFolder(folder: string): Promise<string> {
  try {
    return await fs.realpath(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** Whether the real path `real` is `root` or below it (both real paths). */
export function isWithin(root: string, real: string): boolean {
  const rel = path.relative(root, real);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Where `p` really is, when that is inside one of `folders`; null when it does not exist or leads
 * outside. A relative `p` is tried against each folder in turn.
 */
export async function resolveInside(folders: string[], p: string): Promise<Inside | null> {
  const found = await locate(folders, p);
  return found && 'real' in found ? found : null;
}

/** Like {@link resolveInside}, but says why not: the path is missing, or it leads outside. */
export async function locate(folders: string[], p: string): Promise<Inside | { missing: true } | { outside: string }> {
  if (p.includes('\0')) return { missing: true };
  const candidates = path.isAbsolute(p) ? [path.resolve(p)] : folders.map((f) => path.resolve(f, p));
  const roots = await Promise.all(folders.map(async (f) => ({ folder: f, real: await realFolder(f) })));
  let outside: string | undefined;
  for (const abs of candidates) {
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      continue;
    }
    // The innermost folder wins, so a nested served folder names its own files.
    let best: { folder: string; real: string } | undefined;
    for (const r of roots) if (isWithin(r.real, real) && (!best || r.real.length > best.real.length)) best = r;
    if (best) return { abs, real, folder: best.folder };
    outside ??= real;
  }
  return outside !== undefined ? { outside } : { missing: true };
}

export type ReadResult =
  | { ok: true; inside: Inside; buf: Buffer; size: number; mtimeMs: number }
  | { ok: false; reason: SkipReason | 'missing'; real?: string };

/**
 * Reads a regular file inside `folders`, at most `maxBytes`. The file is opened without following a
 * last-moment link and without blocking (O_NONBLOCK), then checked on the open descriptor: a FIFO or
 * device swapped in after the check is still never read.
 */
export async function readInside(folders: string[], p: string, maxBytes: number): Promise<ReadResult> {
  const where = await locate(folders, p);
  if ('missing' in where) return { ok: false, reason: 'missing' };
  if ('outside' in where) return { ok: false, reason: 'outside', real: where.outside };
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(where.real, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'outside' : code === 'ENXIO' ? 'special' : 'unreadable' };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, reason: st.isDirectory() ? 'unreadable' : 'special' };
    if (st.size > maxBytes) return { ok: false, reason: 'too_large' };
    if (!(await stillInside(fh.fd, folders))) return { ok: false, reason: 'outside' };
    const buf = await fh.readFile();
    if (buf.length > maxBytes) return { ok: false, reason: 'too_large' };
    return { ok: true, inside: where, buf, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
  } catch {
    return { ok: false, reason: 'unreadable' };
  } finally {
    await fh.close().catch(() => {});
  }
}

/**
 * On Linux the open descriptor names the file it really opened: a folder on the way swapped for a
 * link between the check and the open is caught here. Elsewhere the check before the open stands.
 */
async function stillInside(fd: number, folders: string[]): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  let opened: string;
  try {
    opened = await fs.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return true;
  }
  const roots = await Promise.all(folders.map(realFolder));
  return roots.some((r) => isWithin(r, opened));
}

/** What kind of thing a path is without opening it (lstat-free: links are followed). */
export async function kindOf(real: string): Promise<'file' | 'dir' | 'special' | 'missing'> {
  try {
    const st = await fs.stat(real);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'special';
  } catch {
    return 'missing';
  }
}
