import type { Service } from '../core/service';
import type { ModelManager } from '../models/manager';
import { modelIdParam } from '../models/validate';
import {
  ModelsSnapshot, ModelsCreate, ModelsDelete, ModelsDeleteCache, ModelsUnload, ModelGet, ModelLoad, ModelUnload,
  ModelDownload, ModelDownloadCancel,
} from '../protocol/models';
import { createdVia } from '../models/secretPolicy';

export interface ModelsDeps {
  models: ModelManager;
}

/** The Models API: the registry and its weights, over the model manager. */
export function registerModels(service: Service, { models }: ModelsDeps): void {
  service.register(ModelsSnapshot, () => models.snapshot());
  service.register(ModelsCreate, (p, ctx) => models.createModel(p, createdVia(ctx.origin)));
  service.register(ModelsDelete, async (p) => {
    await models.deleteModel(modelIdParam(p));
    return null;
  });
  service.register(ModelsDeleteCache, (p) => models.deleteCache(modelIdParam(p)));
  service.register(ModelsUnload, async () => {
    await models.unloadAll();
    return null;
  });
  service.register(ModelGet, (p) => models.get(modelIdParam(p)));
  service.register(ModelLoad, (p) => models.load(modelIdParam(p)));
  service.register(ModelUnload, (p) => models.unload(modelIdParam(p)));
  service.register(ModelDownload, (p, ctx) => models.downloadModel(modelIdParam(p), ctx.signal));
  service.register(ModelDownloadCancel, (p) => models.cancel(modelIdParam(p)));
}
