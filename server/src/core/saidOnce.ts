import * as path from 'node:path';
import { JsonFile } from './jsonFile';
import type { Logger } from './logger';

/**
 * Messages that are worth saying once per data folder, not on every start (the embedding model
 * that cannot be fetched on an offline machine): the first time at their level, later at debug.
 * Forgetting a key (the model arrived) lets the message be said again if it comes back.
 */
export class SaidOnce {
  private readonly file: JsonFile<Record<string, string>>;
  private said: Record<string, string> = {};

  constructor(dataDir: string, private readonly log: Logger) {
    this.file = new JsonFile<Record<string, string>>(
      path.join(dataDir, 'said.json'),
      () => ({}),
      (v): v is Record<string, string> => typeof v === 'object' && v !== null && !Array.isArray(v),
    );
  }

  /** Reads what was said before (once, at start), so `say` decides at once. */
  async load(): Promise<void> {
    this.said = await this.file.read().catch(() => ({}));
  }

  /** Logs `msg` at `level` the first time `key` is said in this data folder, at debug after that. */
  say(key: string, level: 'info' | 'warn', msg: string): void {
    if (this.said[key]) {
      this.log.debug(`${msg} (said first ${this.said[key]})`);
      return;
    }
    this.log[level](`${msg} (said once; the next starts say it only in the debug log)`);
    this.said = { ...this.said, [key]: new Date().toISOString() };
    this.persist(this.said);
  }

  private pending: Promise<void> = Promise.resolve();

  private persist(v: Record<string, string>): void {
    this.pending = this.pending.then(() => this.file.write(v)).catch((e) => this.log.debug(`said.json: ${String(e)}`));
  }

  /** Resolves once what was said is on disk (dispose waits for it). */
  flush(): Promise<void> {
    return this.pending;
  }

  forget(prefix: string): void {
    const keys = Object.keys(this.said).filter((k) => k.startsWith(prefix));
    if (!keys.length) return;
    const next = { ...this.said };
    for (const k of keys) delete next[k];
    this.said = next;
    this.persist(next);
  }
}
