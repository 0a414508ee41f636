import type { Service } from '../core/service';
import { invalid } from '../core/errors';
import { ModelScoresIncrement, ModelUpdate } from '../protocol/models';
import type { ModelManager } from '../models/manager';

export interface ModelUpdateDeps {
  models: Pick<ModelManager, 'update' | 'incrementScore'>;
}

/** `model/update` (`POST /model/update`) and `model/scores/increment` (`POST /model/{id}/scores/increment`). */
export function registerModelUpdate(service: Service, deps: ModelUpdateDeps): void {
  service.register(ModelUpdate, (params) => {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalid('model/update takes a whole Model object (with its id)', 'body');
    return deps.models.update(params);
  });
  service.register(ModelScoresIncrement, (params) => deps.models.incrementScore(params));
}
