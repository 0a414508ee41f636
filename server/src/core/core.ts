import { Service } from './service';
import type { CoreOptions } from './options';
import { ModelManager } from '../models/manager';
import { WorkspaceIndex } from '../index/workspaceIndex';
import { Answers } from '../qgpt/answers';
import { SettingsChanged, type WorkerSettings } from '../protocol/workspace';
import { invalid } from './errors';
import { registerCode } from '../ops/code';
import { registerConnector } from '../ops/connector';
import { registerModelUpdate } from '../ops/modelUpdate';

/** The core: the service with every area's handlers registered, and the areas themselves. */
export interface Core {
  readonly options: CoreOptions;
  readonly service: Service;
  readonly models: ModelManager;
  readonly index: WorkspaceIndex;
  readonly answers: Answers;
  /** Flushes and closes everything; safe to call twice. */
  dispose(): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const service = new Service(options.log);
  const models = await ModelManager.create(options, service);
  const index = await WorkspaceIndex.create(options, service, models);
  const answers = await Answers.create(options, service, models, index);
  index.setAnswerer(answers);
  registerCode(service, { folders: () => index.folders() });
  registerModelUpdate(service, { models });
  registerConnector(service, { dataDir: options.dataDir, version: process.env.ASKCODE_VERSION ?? '0.1.0' });
  service.register(SettingsChanged, (settings) => applySettings(options, index, settings));
  let disposed: Promise<void> | undefined;
  return {
    options,
    service,
    models,
    index,
    answers,
    dispose() {
      disposed ??= (async () => {
        await answers.dispose();
        await index.dispose();
        await models.dispose();
      })();
      return disposed;
    },
  };
}

/**
 * New settings take effect without a restart: every area reads `options.settings` when it needs
 * it, and a changed exclude list or size limit re-walks the folders (files now excluded leave the
 * index, files now included enter it).
 */
async function applySettings(options: CoreOptions, index: WorkspaceIndex, next: WorkerSettings | null): Promise<null> {
  if (next !== null && (typeof next !== 'object' || Array.isArray(next))) throw invalid('settings must be an object', 'settings');
  const s = next ?? {};
  if (s.exclude !== undefined && (!Array.isArray(s.exclude) || s.exclude.some((g) => typeof g !== 'string'))) {
    throw invalid('exclude must be a list of glob strings', 'exclude');
  }
  if (s.maxFileSize !== undefined && !(typeof s.maxFileSize === 'number' && s.maxFileSize > 0)) {
    throw invalid('maxFileSize must be a positive number of bytes', 'maxFileSize');
  }
  for (const k of ['defaultModel', 'embeddingModel'] as const) {
    if (s[k] !== undefined && typeof s[k] !== 'string') throw invalid(`${k} must be a string`, k);
  }
  const before = options.settings ?? {};
  const after: WorkerSettings = { ...s };
  options.settings = after;
  const walkChanged =
    JSON.stringify(before.exclude ?? []) !== JSON.stringify(after.exclude ?? []) || before.maxFileSize !== after.maxFileSize;
  if (walkChanged && index.folders().length) {
    options.log.info('exclude / maxFileSize changed: re-walking the workspace');
    void index.indexAll().catch((e) => options.log.warn(`re-index after a settings change failed: ${String(e)}`));
  }
  return null;
}
