import { promises as fs, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from './logger';

/**
 * A JSON document persisted atomically: write a temp file, fsync it, rename it over the target,
 * then the same for `<file>.bak`, fsync the folder. The backup holds the same complete state as
 * the file (written second, so a crash between the two leaves a good file and the previous
 * backup): a corrupt target is recovered from it with nothing lost, or reported as lost.
 */
export class JsonFile<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly fallback: () => T,
    private readonly validate: (v: unknown) => v is T,
    private readonly log?: Logger,
  ) {}

  /** True once a read found the file corrupt with no good backup (its content is lost). */
  lost = false;

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
      this.lost = true;
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
    const data = JSON.stringify(value, null, 2) + '\n';
    await replaceAtomically(this.file, data);
    await replaceAtomically(this.file + '.bak', data);
    this.lost = false;
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

let tmpSeq = 0;

async function replaceAtomically(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}${tmpSeq++ ? `-${tmpSeq}` : ''}.tmp`;
  const fh = await fs.open(tmp, 'w');
  try {
    await fh.writeFile(data, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fs.rename(tmp, file);
}

const TEMP_NAME = /\.(\d+)\.\d+(?:-\d+)?\.tmp$/;

/**
 * Removes the temp files that atomic writes of a crashed process left in `dir`
 * (`<name>.<pid>.<time>.tmp`). A temp file of a process still running (another worker on the same
 * data folder, mid-write) is left alone.
 */
export async function sweepStaleTemp(dir: string, log?: Logger): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const n of names) {
    const m = TEMP_NAME.exec(n);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    // A live pid younger than an hour may be another askcode process writing now (a reused pid is older).
    if (alive(pid) && Date.now() - (await fs.stat(path.join(dir, n)).then((st) => st.mtimeMs, () => 0)) < 3_600_000) continue;
    try {
      await fs.rm(path.join(dir, n), { force: true });
      removed++;
    } catch {
      /* gone already */
    }
  }
  if (removed) log?.info(`removed ${removed} temp file(s) left by an interrupted write in ${dir}`);
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
