import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CodeReadParams, CodeReadResult } from '../protocol/symbols';
import { forbidden, invalid, notFound, tooLarge } from '../core/errors';
import { languageOf } from './languages';

/** Lines one read returns at most: an agent asking for a whole 20k-line file gets the start and the count. */
export const MAX_READ_LINES = 800;
/** Files larger than this are not read at all (the index skips them too). */
const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * The real path of `p` when it lies inside one of `folders` (after following every symlink), with the
 * folder it lies in; null otherwise. A relative `p` is tried against each folder in turn.
 */
export async function resolveInsideFolders(folders: string[], p: string): Promise<{ abs: string; real: string; folder: string } | null> {
  const candidates = path.isAbsolute(p) ? [p] : folders.map((f) => path.join(f, p));
  for (const abs of candidates) {
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      continue;
    }
    for (const folder of folders) {
      let root: string;
      try {
        root = await fs.realpath(folder);
      } catch {
        continue;
      }
      const rel = path.relative(root, real);
      if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return { abs, real, folder };
    }
  }
  return null;
}

/** Reads lines of a regular text file inside the folders: never outside them, never a FIFO, socket or device. */
export async function readCode(folders: string[], params: CodeReadParams): Promise<CodeReadResult> {
  const inside = await resolveInsideFolders(folders, params.path);
  if (!inside) {
    // Missing is "not found" only where the name itself stays inside a folder; anything else is refused.
    const lexicallyInside = path.isAbsolute(params.path)
      ? folders.some((f) => {
          const rel = path.relative(f, params.path);
          return !rel.startsWith('..') && !path.isAbsolute(rel);
        })
      : !params.path.split(/[\\/]/).includes('..');
    const exists = await fs.lstat(path.isAbsolute(params.path) ? params.path : path.join(folders[0] ?? '.', params.path)).then(() => true, () => false);
    if (lexicallyInside && !exists) throw notFound(`no file ${params.path} in the workspace folders`, 'path');
    throw forbidden(`${params.path} is not inside the workspace folders`, 'path');
  }
  const st = await fs.stat(inside.real);
  if (!st.isFile()) throw invalid(`${params.path} is not a regular file`, 'path');
  if (st.size > MAX_READ_BYTES) throw tooLarge(`${params.path} is larger than ${MAX_READ_BYTES} bytes`, 'path');
  const buf = await fs.readFile(inside.real);
  if (buf.subarray(0, 8192).includes(0)) throw invalid(`${params.path} is a binary file`, 'path');
  const lines = buf.toString('utf8').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const start = Math.max(1, Math.floor(params.startLine ?? 1));
  if (start > Math.max(total, 1)) throw invalid(`startLine ${start} is past the end of the file (${total} lines)`, 'startLine');
  const wantEnd = Math.floor(params.endLine ?? total);
  if (wantEnd < start) throw invalid('endLine is before startLine', 'endLine');
  const end = Math.min(total, wantEnd, start + MAX_READ_LINES - 1);
  const relativePath = path.relative(inside.folder, inside.abs).split(path.sep).join('/');
  const lang = languageOf(inside.abs);
  return {
    path: inside.abs,
    relativePath,
    startLine: start,
    endLine: end,
    language: lang.id,
    text: lines.slice(start - 1, end).join('\n'),
    totalLines: total,
  };
}
