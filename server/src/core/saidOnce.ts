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

  constructor(dataDir: string, private readonly log: Logger) {
    this.file = new JsonFile<Record<string, string>>(
      path.join(dataDir, 'said.json'),
      () => ({}),
      (v): v is Record<string, string> => typeof v === 'object' && v !== null && !Array.isArray(v),
    );
  }

  /** Logs `msg` at `level` the first time `key` is said in this data folder, at debug after that. */
  async say(key: string, level: 'info' | 'warn', msg: string): Promise<void> {
    const said = await this.file.read().catch(() => ({}) as Record<string, string>);
    if (said[key]) {
      this.log.debug(`${msg} (said first ${said[key]})`);
      return;
    }
    this.log[level](`${msg} (said once; the next starts say it only in the debug log)`);
    await this.file.write({ ...said, [key]: new Date().toISOString() }).catch(() => {});
  }

  async forget(prefix: string): Promise<void> {
    const said = await this.file.read().catch(() => ({}) as Record<string, string>);
    const keys = Object.keys(said).filter((k) => k.startsWith(prefix));
    if (!keys.length) return;
    for (const k of keys) delete said[k];
    await this.file.write(said).catch(() => {});
  }
}
