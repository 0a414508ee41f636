import { request, notification } from './base';
import type {
  Model, Models, SeededModel, ModelDeleteCacheInput, ModelDeleteCacheOutput, ModelDownloadProgress,
  StreamedIdentifiers,
} from './wire';

/**
 * Where a custom model's weights or endpoint live. Sent inside `models/create` as the askcode
 * extension `askcode.source`, or encoded in `SeededModel.unique` for SDK clients:
 * an absolute folder path, `ollama:<name>[@<baseUrl>]`, `openai:<model>@<baseUrl>`.
 */
export type ModelSource =
  | { kind: 'local'; path: string }
  | { kind: 'ollama'; name: string; baseUrl?: string }
  | { kind: 'openai'; model: string; baseUrl: string; apiKeyEnv?: string; apiKeySecret?: string };

export interface CreateModelParams extends SeededModel {
  askcode?: { source?: ModelSource };
}

export interface ModelRef { model: string }

export interface ModelDeleteCacheParams extends ModelRef {
  input?: ModelDeleteCacheInput;
}

/** Every model with true `downloaded`/`loaded` facts. */
export const ModelsSnapshot = request<void, Models>('models/snapshot');
/** Register a custom model (`custom: true`); a duplicate is refused (conflict). */
export const ModelsCreate = request<CreateModelParams, Model>('models/create');
/** Delete a custom model; built-in models are refused (forbidden). */
export const ModelsDelete = request<ModelRef, null>('models/delete');
/** Delete the cached weights of a downloadable LLM; nothing outside its own cache folder. */
export const ModelsDeleteCache = request<ModelDeleteCacheParams, ModelDeleteCacheOutput>('models/deleteCache');
/** Unload every loaded model (ONNX sessions disposed). */
export const ModelsUnload = request<void, null>('models/unload');
/** One model. */
export const ModelGet = request<ModelRef, Model>('model/get');
/** Load one model into memory (downloads nothing: an absent model is an error). */
export const ModelLoad = request<ModelRef, Model>('model/load');
/** Unload one model. */
export const ModelUnload = request<ModelRef, Model>('model/unload');
/** Download a model's weights; progress arrives as `model/download/progress`. */
export const ModelDownload = request<ModelRef, Model>('model/download');
/** Cancel a running download. */
export const ModelDownloadCancel = request<ModelRef, Model>('model/download/cancel');
/** Download progress of one model. */
export const ModelDownloadProgressNotification =
  notification<{ model: string; progress: ModelDownloadProgress }>('model/download/progress');
/** A model record changed (created, deleted, loaded, downloaded…). */
export const ModelsIdentifiersNotification = notification<StreamedIdentifiers>('models/identifiers');

/** Which usage counter to bump (SeededScore); set one or more flags. */
export interface SeededScore {
  reuse?: boolean;
  update?: boolean;
  reference?: boolean;
  priority?: boolean;
  searched?: boolean;
}

/** Body of `POST /model/{model}/scores/increment`; only its `model` member concerns this endpoint. */
export interface SeededScoreIncrement {
  model?: SeededScore;
  [materialKind: string]: unknown;
}

export interface ModelScoresIncrementParams extends ModelRef {
  input?: SeededScoreIncrement;
}

/** Change a model sent back whole (id in the body): descriptive fields of a custom model, the score of any. */
export const ModelUpdate = request<Model, Model>('model/update');
/** Bump a model's usage counters (`score`). */
export const ModelScoresIncrement = request<ModelScoresIncrementParams, null>('model/scores/increment');
