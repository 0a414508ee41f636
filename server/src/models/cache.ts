import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { forbidden, invalid } from '../core/errors';
import { folderBytes } from './folders';

const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const TMP_PREFIX = '.tmp-';

/**
 * The weights cache: `<dataDir>/models/<folder>`, one folder per model. A folder exists only
 * once complete (downloads go to a temp folder renamed at the end), so presence means downloaded.
 */
export class ModelCache {
  constructor(readonly root: string) {}

  /** The folder of a model; refuses anything that is not a plain folder name. */
  dir(folder: string): string {
    if (!SAFE_FOLDER.test(folder) || folder.includes('..')) throw invalid(`'${folder}' is not a cache folder name`, 'model');
    return path.join(this.root, folder);
  }

  async has(folder: string): Promise<boolean> {
    try {
      await fs.access(path.join(this.dir(folder), 'config.json'));
      return true;
    } catch {
      return false;
    }
  }

  bytes(folder: string): Promise<number> {
    return folderBytes(this.dir(folder));
  }

  /** A fresh temp folder inside the cache root (same file system, so the final rename is atomic). */
  async tempDir(folder: string): Promise<string> {
    await fs.mkdir(this.root, { recursive: true });
    const dir = path.join(this.root, `${TMP_PREFIX}${folder}-${randomBytes(4).toString('hex')}`);
    await fs.mkdir(dir);
    return dir;
  }

  /** Moves a finished temp folder into place, replacing an older copy. */
  async commit(tmp: string, folder: string): Promise<void> {
    const target = this.dir(folder);
    await this.remove(folder);
    await fs.rename(tmp, target);
  }

  /**
   * Deletes exactly `<root>/<folder>` after checking that its real path (symlinks resolved) is a
   * direct child of the real cache root.
   */
  async remove(folder: string): Promise<boolean> {
    const target = this.dir(folder);
    let real: string;
    try {
      real = await fs.realpath(target);
    } catch {
      return false;
    }
    const realRoot = await fs.realpath(this.root);
    if (path.dirname(real) !== realRoot || path.basename(real) !== folder) {
      throw forbidden(`refusing to delete ${target}: it resolves outside the models cache`);
    }
    await fs.rm(real, { recursive: true, force: true });
    return true;
  }

  /** Temp folders left by a download that a crash interrupted. */
  async sweepTemp(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.root);
    } catch {
      return;
    }
    for (const n of names) if (n.startsWith(TMP_PREFIX)) await fs.rm(path.join(this.root, n), { recursive: true, force: true });
  }
}
