import type { Service } from '../core/service';
import { ModelScoresIncrement, ModelUpdate } from '../protocol/models';
import type { ModelManager } from '../models/manager';

export interface ModelUpdateDeps {
  models: Pick<ModelManager, 'update' | 'incrementScore'>;
}

/** `model/update` (`POST /model/update`) and `model/scores/increment` (`POST /model/{id}/scores/increment`). */
export function registerModelUpdate(service: Service, deps: ModelUpdateDeps): void {
  service.register(ModelUpdate, (params) => deps.models.update(params));
  service.register(ModelScoresIncrement, (params) => deps.models.incrementScore(params));
}
