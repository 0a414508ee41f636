import * as path from 'node:path';
import { Service } from './service';
import { VERSION } from '../protocol/seeds';
import type { CoreOptions } from './options';
import { ModelManager } from '../models/manager';
import { WorkspaceIndex } from '../index/workspaceIndex';
import { Answers } from '../qgpt/answers';
import { registerCode } from '../ops/code';
import { Conversations } from '../qgpt/conversations';
import { StreamManager } from '../qgpt/stream';
import { IndexProgressNotification } from '../protocol/workspace';
import { registerModels } from '../ops/models';
import { registerWorkspace } from '../ops/workspace';
import { registerAssets } from '../ops/assets';
import { registerQgpt } from '../ops/qgpt';
import { registerStream } from '../ops/stream';
import { registerConversations } from '../ops/conversations';
import { registerSymbols } from '../ops/symbols';
import { registerConnector } from '../ops/connector';
import { registerModelUpdate } from '../ops/modelUpdate';

/** The core: the service with every operation registered, and the areas behind them. */
export interface Core {
  readonly options: CoreOptions;
  readonly service: Service;
  readonly models: ModelManager;
  readonly index: WorkspaceIndex;
  readonly answers: Answers;
  readonly conversations: Conversations;
  readonly streams: StreamManager;
  /** Flushes and closes everything; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * The one composition root: builds the areas (plain libraries) with their dependencies, then
 * hands each operations file what it needs. Every face (worker, bridge, CLI) calls `service`.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const service = new Service(options.log);
  const notify = service.broadcast.bind(service);
  const models = await ModelManager.create(options, notify);
  const index = await WorkspaceIndex.create(options, models, (p) => notify(IndexProgressNotification, p));
  const answers = new Answers(options, models, index);
  const conversations = new Conversations(path.join(options.dataDir, 'conversations'), options.log);
  const streams = new StreamManager(options.log);

  registerModels(service, { models });
  registerWorkspace(service, { options, index });
  registerAssets(service, { index });
  registerQgpt(service, { index, answers });
  registerStream(service, { index, answers, conversations, streams });
  registerConversations(service, { conversations, folders: () => index.folders() });
  registerCode(service, { folders: () => index.folders() });
  registerSymbols(service, { index });
  registerModelUpdate(service, { models });
  registerConnector(service, { dataDir: options.dataDir, version: VERSION });

  let disposed: Promise<void> | undefined;
  return {
    options,
    service,
    models,
    index,
    answers,
    conversations,
    streams,
    dispose() {
      disposed ??= (async () => {
        streams.dispose();
        await answers.dispose();
        await index.dispose();
        await models.dispose();
      })();
      return disposed;
    },
  };
}
