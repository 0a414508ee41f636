import { promises as fs } from 'node:fs';
import type { Notify } from '../core/service';
import type { CoreOptions } from '../core/options';
import { cancelled, conflict, forbidden, offline, unavailable } from '../core/errors';
import type { ModelDownloadProgressStatusEnum } from '../protocol/wire';
import { ModelDownloadProgressNotification } from '../protocol/models';
import { CATALOG, EXTRACTIVE_MODEL_ID } from './catalog';
import type { ModelRecord } from './registry';
import type { ModelCache } from './cache';
import { DTYPE_SUFFIX, inspectFolder, inspectStaticFolder } from './folders';
import { copyFiles, fetchFiles, type FileSpec } from './download';
import { transformers } from './transformers';

/** A custom model registered as a bare label (as the SDK's own example does): a state conflict, not an outage. */
export const noSource = (name: string, what: 'load' | 'download') =>
  conflict(`${name} was created without a source, so there is nothing to ${what}: create it with unique set to a model folder path, ollama:<name> or openai:<model>@<url>`, 'model');

/** A folder's facts for a record: static (model2vec) folders have no ONNX graph. */
export const inspect = (dir: string, dtype?: string) => (dtype === 'static' ? inspectStaticFolder(dir) : inspectFolder(dir, dtype));

export interface DownloadDeps {
  options: CoreOptions;
  cache: ModelCache;
  notify: Notify;
  /** A model's facts changed (listeners re-read it). */
  changed(id: string): void;
  /** A download ended (done, failed or cancelled). */
  settled(r: ModelRecord): void;
}

/**
 * `model/download`: weights reach `<dataDir>/models/<folder>` only from here — fetched from the model
 * hub over HTTPS, or copied from a local folder — written to a temp folder and committed whole, with
 * progress notifications; one download per model at a time, cancellable.
 */
export class Downloads {
  private readonly running = new Map<string, { ac: AbortController; promise: Promise<void> }>();

  constructor(private readonly deps: DownloadDeps) {}

  has(id: string): boolean {
    return this.running.has(id);
  }

  ids(): string[] {
    return [...this.running.keys()];
  }

  private progress(id: string, status: ModelDownloadProgressStatusEnum, percentage: number): void {
    this.deps.notify(ModelDownloadProgressNotification, { model: id, progress: { status, percentage } });
  }

  private async hubBase(): Promise<string> {
    // HF_ENDPOINT is the hub clients' usual switch for a mirror.
    return process.env.HF_ENDPOINT || (await transformers()).env.remoteHost;
  }

  start(r: ModelRecord, signal?: AbortSignal): Promise<void> {
    const id = r.model.id;
    const running = this.running.get(id);
    if (running) return running.promise;
    if (id === EXTRACTIVE_MODEL_ID) return Promise.reject(forbidden('the built-in extractive answerer has no weights to download'));
    if (!r.folder && r.origin === 'custom' && !r.source) return Promise.reject(noSource(r.model.name, 'download'));
    if (!r.folder) return Promise.reject(forbidden(`${r.model.name} has no weights to download (it is served by ${r.source?.kind ?? 'no source'})`));
    const folder = r.folder;
    const src = r.source?.kind === 'local' ? r.source.path : undefined;
    if (!src) {
      if (this.deps.options.modelsDir) {
        return Promise.reject(offline(`ASKCODE_MODELS_DIR is set (${this.deps.options.modelsDir}), so nothing is fetched remotely, and it holds no folder for ${r.hubId ?? r.model.name}`));
      }
      if (!r.hubId) return Promise.reject(forbidden(`${r.model.name} has nowhere to download from`));
    }
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let last = -1;
    const report = (done: number, total: number) => {
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      if (pct !== last && pct < 100) {
        last = pct;
        this.progress(id, 'IN-PROGRESS', pct);
      }
    };
    const promise = (async () => {
      const tmp = await this.deps.cache.tempDir(folder);
      try {
        if (src) {
          const facts = await inspect(src, r.dtype);
          if (!facts) throw unavailable(`${src} is not a ${r.dtype === 'static' ? 'static (model2vec) model folder (config.json, tokenizer.json and a safetensors file expected)' : 'transformers.js model folder (config.json and onnx/ expected)'}`);
          await copyFiles(src, facts.files, tmp, ac.signal, report);
        } else {
          const entry = CATALOG.find((e) => e.id === id);
          const suffix = DTYPE_SUFFIX[r.dtype ?? 'fp32'] ?? '';
          const specs: FileSpec[] = [
            ...(entry?.files ?? ['config.json', 'tokenizer.json', 'tokenizer_config.json']).map((f) => ({ name: f.replace(/\?$/, ''), optional: f.endsWith('?') })),
            ...(r.dtype === 'static' ? [] : [
              { name: `onnx/model${suffix}.onnx`, optional: false },
              { name: `onnx/model${suffix}.onnx_data`, optional: true },
            ]),
          ];
          await fetchFiles(await this.hubBase(), r.hubId!, specs, tmp, ac.signal, report);
        }
        if (ac.signal.aborted) throw cancelled('download cancelled');
        await this.deps.cache.commit(tmp, folder);
        this.progress(id, 'COMPLETED', 100);
      } catch (e) {
        await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
        this.progress(id, ac.signal.aborted ? 'CANCELED' : 'FAILED', Math.max(0, last));
        throw ac.signal.aborted ? cancelled(`download of ${r.model.name} cancelled`) : e;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        this.running.delete(id);
        this.deps.settled(r);
      }
    })();
    this.running.set(id, { ac, promise });
    this.progress(id, 'IN-PROGRESS', 0);
    this.deps.changed(id);
    return promise;
  }

  async cancel(id: string): Promise<void> {
    const d = this.running.get(id);
    if (!d) return;
    d.ac.abort();
    await d.promise.catch(() => {});
  }
}
