import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CodeReadParams, CodeReadResult } from '../protocol/symbols';
import { forbidden, invalid, notFound, tooLarge } from '../core/errors';
import { languageOf } from './languages';
import { readInside, resolveInside } from '../core/safePath';
import { decodeText } from './decode';

/** Lines one read returns at most: an agent asking for a whole 20k-line file gets the start and the count. */
export const MAX_READ_LINES = 800;
/** Files larger than this are not read at all (the index skips them too). */
const MAX_READ_BYTES = 4 * 1024 * 1024;

/** The one path check (links resolved, inside the folders): see core/safePath.ts. */
export { resolveInside as resolveInsideFolders } from '../core/safePath';

/** Reads lines of a regular text file inside the folders: never outside them, never a FIFO, socket or device. */
export async function readCode(folders: string[], params: CodeReadParams): Promise<CodeReadResult> {
  const inside = await resolveInside(folders, params.path);
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
  // Opened without blocking and checked on the descriptor: a FIFO swapped in after the check is never read.
  const r = await readInside(folders, inside.abs, MAX_READ_BYTES);
  if (!r.ok && r.reason === 'too_large') throw tooLarge(`${params.path} is larger than ${MAX_READ_BYTES} bytes`, 'path');
  if (!r.ok && r.reason === 'missing') throw notFound(`no file ${params.path} in the workspace folders`, 'path');
  if (!r.ok && r.reason === 'outside') throw forbidden(`${params.path} is not inside the workspace folders`, 'path');
  if (!r.ok) throw invalid(`${params.path} is not a regular file${r.reason === 'special' ? '' : ` (${r.reason})`}`, 'path');
  const buf = r.buf;
  if (buf.subarray(0, 8192).includes(0)) throw invalid(`${params.path} is a binary file`, 'path');
  const decoded = decodeText(buf);
  if (!decoded) throw invalid(`${params.path} is not text in UTF-8, latin-1 or Shift-JIS`, 'path');
  const lines = decoded.text.split('\n');
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
