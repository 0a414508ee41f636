import type { Service } from '../core/service';
import { invalid } from '../core/errors';
import { ModelScoresIncrement, ModelUpdate } from '../protocol/models';
import { modelIdParam } from '../models/validate';
import type { ModelManager } from '../models/manager';
import type { Model } from '../protocol/wire';

export interface ModelUpdateDeps {
  models: Pick<ModelManager, 'update' | 'incrementScore'>;
}

/** `model/update` (`POST /model/update`) and `model/scores/increment` (`POST /model/{id}/scores/increment`). */
export function registerModelUpdate(service: Service, { models }: ModelUpdateDeps): void {
  service.register(ModelUpdate, (p) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) throw invalid('model/update takes a whole Model object (with its id)', 'body');
    // The id travels inside the body here; it is checked as strictly as a path's.
    const id = modelIdParam({ model: (p as { id?: unknown }).id });
    return models.update(id, p as Model);
  });
  service.register(ModelScoresIncrement, async (p) => {
    await models.incrementScore(modelIdParam(p), (p as { input?: never }).input);
    return null;
  });
}
