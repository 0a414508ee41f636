import { Service } from './service';
import type { CoreOptions } from './options';
import { ModelManager } from '../models/manager';
import { WorkspaceIndex } from '../index/workspaceIndex';
import { Answers } from '../qgpt/answers';

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
