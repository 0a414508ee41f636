import type { Service } from '../core/service';
import type { ModelManager } from '../models/manager';
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
    await models.deleteModel(p.model);
    return null;
  });
  service.register(ModelsDeleteCache, (p) => models.deleteCache(p.model));
  service.register(ModelsUnload, async () => {
    await models.unloadAll();
    return null;
  });
  service.register(ModelGet, (p) => models.get(p.model));
  service.register(ModelLoad, (p) => models.load(p.model));
  service.register(ModelUnload, (p) => models.unload(p.model));
  service.register(ModelDownload, (p, ctx) => models.downloadModel(p.model, ctx.signal));
  service.register(ModelDownloadCancel, (p) => models.cancel(p.model));
}
