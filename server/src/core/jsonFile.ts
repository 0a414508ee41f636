import { promises as fs, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from './logger';

/**
 * A JSON document persisted atomically: write a temp file, fsync it, rename it over the target,
 * fsync the folder. The previous good copy is kept as `<file>.bak`; a corrupt or half-read
 * target is recovered from it (or from the default), never a crash.
 */
export class JsonFile<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly fallback: () => T,
    private readonly validate: (v: unknown) => v is T,
    private readonly log?: Logger,
  ) {}

  async read(): Promise<T> {
    const main = await this.tryRead(this.file);
    if (main.ok) return main.value;
    if (main.reason !== 'missing') this.log?.warn(`${this.file} is unreadable (${main.reason}); trying the last good copy`);
    const bak = await this.tryRead(this.file + '.bak');
    if (bak.ok) {
      if (main.reason !== 'missing') {
        await this.quarantine();
        await this.write(bak.value);
      }
      return bak.value;
    }
    if (main.reason !== 'missing') {
      await this.quarantine();
      this.log?.warn(`${this.file}: no good copy; starting from defaults (the bad file is kept as .corrupt)`);
    }
    return this.fallback();
  }

  /** Writes are serialised so two updates never interleave. */
  write(value: T): Promise<void> {
    const next = this.queue.then(() => this.writeNow(value));
    this.queue = next.catch(() => {});
    return next;
  }

  private async writeNow(value: T): Promise<void> {
    const dir = path.dirname(this.file);
    await fs.mkdir(dir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    const data = JSON.stringify(value, null, 2) + '\n';
    const fh = await fs.open(tmp, 'w');
    try {
      await fh.writeFile(data, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fs.copyFile(this.file, this.file + '.bak');
    } catch {
      /* no previous copy yet */
    }
    await fs.rename(tmp, this.file);
    try {
      const dh = await fs.open(dir, fsc.O_RDONLY);
      try {
        await dh.sync();
      } finally {
        await dh.close();
      }
    } catch {
      /* some file systems cannot fsync a folder */
    }
  }

  private async quarantine(): Promise<void> {
    try {
      await fs.rename(this.file, `${this.file}.corrupt`);
    } catch {
      /* already gone */
    }
  }

  private async tryRead(file: string): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : String(e) };
    }
    try {
      const v: unknown = JSON.parse(text);
      if (!this.validate(v)) return { ok: false, reason: 'unexpected shape' };
      return { ok: true, value: v };
    } catch (e) {
      return { ok: false, reason: `invalid JSON: ${(e as Error).message}` };
    }
  }
}
