import type { SkipReason } from '../core/safePath';
import type { Logger } from '../core/logger';

const WHY: Record<SkipReason, string> = {
  outside: 'a symlink leading outside the opened folders (not followed)',
  special: 'a FIFO, socket or device (never opened)',
  unreadable: 'unreadable',
  too_large: 'larger than askcode.maxFileSize',
  binary: 'binary',
  minified: 'minified or one very long line',
  built: 'built from the project\'s sources (its source map is beside it)',
  encoding: 'neither UTF-8 nor readable latin-1 / Shift-JIS text',
};

/**
 * The files of each folder that were not indexed, and why: counted apart from indexed files in the
 * index status, and each link out of the folders said once in the log.
 */
export class Skips {
  private readonly byFolder = new Map<string, Map<string, SkipReason>>();
  private readonly told = new Set<string>();

  constructor(private readonly log: Logger) {}

  /** Replaces what a full walk of `folder` found. */
  reset(folder: string): void {
    this.byFolder.set(folder, new Map());
  }

  note(folder: string, rel: string, reason: SkipReason, detail?: string): void {
    let m = this.byFolder.get(folder);
    if (!m) this.byFolder.set(folder, (m = new Map()));
    m.set(rel, reason);
    const key = `${folder}\0${rel}\0${reason}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    if (reason === 'outside' || reason === 'special') this.log.warn(`not indexed: ${folder}/${rel}: ${WHY[reason]}${detail ? ` (-> ${detail})` : ''}`);
    else this.log.debug(`not indexed: ${folder}/${rel}: ${WHY[reason]}`);
  }

  /** The file is indexed (or gone) now. */
  clear(folder: string, rel: string): void {
    this.byFolder.get(folder)?.delete(rel);
  }

  drop(folder: string): void {
    this.byFolder.delete(folder);
  }

  counts(): Partial<Record<SkipReason, number>> | undefined {
    const out: Partial<Record<SkipReason, number>> = {};
    let any = false;
    for (const m of this.byFolder.values()) {
      for (const r of m.values()) {
        out[r] = (out[r] ?? 0) + 1;
        any = true;
      }
    }
    return any ? out : undefined;
  }
}

/** `3 skipped (2 binary, 1 outside the folders)` for the CLI, or '' when nothing was skipped. */
export function describeSkips(counts: Partial<Record<SkipReason, number>> | undefined): string {
  if (!counts) return '';
  const parts = Object.entries(counts).map(([r, n]) => `${n} ${r.replace('_', ' ')}`);
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  return `${total} skipped (${parts.join(', ')})`;
}
