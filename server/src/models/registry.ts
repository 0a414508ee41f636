import * as path from 'node:path';
import { JsonFile, sweepStaleTemp } from '../core/jsonFile';
import { knownModelFields } from './knownFields';
import type { Logger } from '../core/logger';
import type { Model } from '../protocol/wire';
import type { ModelSource } from '../protocol/models';

/**
 * One registry entry: the wire record (without the computed `loaded`/`downloading`/`downloaded`)
 * and askcode's private facts beside it. Never an API key: only the name of the secret or
 * environment variable that holds it.
 */
export interface ModelRecord {
  model: Model;
  origin: 'catalog' | 'folder' | 'custom';
  /** Where the weights or the endpoint are (local folder, Ollama, OpenAI-compatible). */
  source?: ModelSource;
  /** Hub repository for catalog models fetched over HTTPS. */
  hubId?: string;
  /** Folder name inside the models cache. */
  folder?: string;
  dtype?: string;
  /** 'bridge' when a bridge client created it: its source may use only the secrets the user allowed. */
  createdVia?: 'bridge';
  /** Resident memory measured when it was last loaded (bytes). */
  measuredRam?: number;
}

export interface RegistryDoc {
  version: 1;
  models: ModelRecord[];
}

function isRegistryDoc(v: unknown): v is RegistryDoc {
  if (!v || typeof v !== 'object') return false;
  const d = v as RegistryDoc;
  return d.version === 1 && Array.isArray(d.models) && d.models.every((r) =>
    !!r && typeof r === 'object' && !!r.model && typeof r.model.id === 'string' && typeof r.model.name === 'string'
    && ['catalog', 'folder', 'custom'].includes(r.origin));
}

/** The models registry (`<dataDir>/models.json`), in memory, written atomically on every change. */
export class Registry {
  private readonly file: JsonFile<RegistryDoc>;
  private records = new Map<string, ModelRecord>();
  private lock: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, private readonly log: Logger) {
    this.file = new JsonFile<RegistryDoc>(path.join(dataDir, 'models.json'), () => ({ version: 1, models: [] }), isRegistryDoc, log);
  }

  async load(): Promise<void> {
    await sweepStaleTemp(path.dirname(this.file.file), this.log);
    const doc = await this.file.read();
    for (const r of doc.models) {
      // Records stored before unknown fields were dropped lose them now (a capped field is kept as it was).
      try {
        r.model = { ...knownModelFields(r.model as unknown as Record<string, unknown>), id: r.model.id };
      } catch {
        /* over a cap: left as stored */
      }
    }
    this.records = new Map(doc.models.map((r) => [r.model.id, r]));
  }

  get(id: string): ModelRecord | undefined {
    return this.records.get(id);
  }

  all(): ModelRecord[] {
    return [...this.records.values()];
  }

  /**
   * Runs a change under the registry lock and persists it before resolving, so an acknowledged
   * change survives a crash right after it.
   */
  mutate<T>(fn: (records: Map<string, ModelRecord>) => T | Promise<T>): Promise<T> {
    const run = this.lock.then(async () => {
      const result = await fn(this.records);
      await this.save();
      return result;
    });
    this.lock = run.catch(() => {});
    return run;
  }

  private save(): Promise<void> {
    return this.file.write({ version: 1, models: this.all() });
  }
}
