import { request, notification } from './base';
import { z, None, nonEmpty, GroupedTimestamp } from './schema';
import {
  MODEL_TYPES, MODEL_USAGES, type Model, type Models, type SeededModel, type ModelDeleteCacheInput, type ModelDeleteCacheOutput,
  type ModelDownloadProgress, type ModelTypeEnum, type ModelUsageEnum, type StreamedIdentifiers,
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

/** A model id as the operations take it; never a path (`..`, separators, absolute). */
export const ModelId = z.string()
  .refine(nonEmpty, 'must be a non-empty string (a model id)')
  .refine((id) => !(id === '.' || id.includes('..') || /[\\/\0]/.test(id) || /^[A-Za-z]:/.test(id)),
    "is not a model id: ids never contain '..', path separators or absolute paths");

const ModelRefSchema = z.looseObject({ model: ModelId });
const REF = { field: 'model', expected: 'an object {"model": "<model id>"}' };

const API_KEY_RE = /^(api_?key|key|token|secret|password)$/i;
const HttpUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
  } catch {
    return false;
  }
}, 'must be an http(s) URL without credentials (keep keys in SecretStorage or an environment variable)');

/** Where a custom model lives; a key that looks like a secret is refused (askcode never stores keys). */
export const ModelSourceSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('local'), path: z.string().refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute folder path') }),
  z.looseObject({ kind: z.literal('ollama'), name: z.string().refine(nonEmpty, 'must not be empty'), baseUrl: HttpUrl.optional() }),
  z.looseObject({
    kind: z.literal('openai'), model: z.string().refine(nonEmpty, 'must not be empty'), baseUrl: HttpUrl,
    apiKeyEnv: z.string().nullish(), apiKeySecret: z.string().nullish(),
  }),
]).superRefine((v, ctx) => {
  for (const k of Object.keys(v)) {
    if (API_KEY_RE.test(k)) {
      ctx.addIssue({ code: 'custom', path: [k], message: 'is refused: askcode never stores API keys; name the secret with apiKeySecret or the environment variable with apiKeyEnv' });
    }
  }
});

const ByteDescriptor = z.looseObject({ value: z.number().min(0), readable: z.string().refine(nonEmpty, 'must not be empty') });
const Count = z.number().min(0).nullish();

/** A SeededModel (what the SDK's ModelsApi.modelsCreateNewModel sends), plus askcode's `askcode.source`. */
export const SeededModelSchema = z.looseObject({
  version: z.string().refine(nonEmpty, 'must not be empty'),
  name: z.string().refine(nonEmpty, 'must not be empty'),
  created: GroupedTimestamp.extend({
    value: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 date-time string'),
  }),
  cloud: z.boolean(),
  type: z.enum(MODEL_TYPES as [ModelTypeEnum, ...ModelTypeEnum[]]),
  usage: z.enum(MODEL_USAGES as [ModelUsageEnum, ...ModelUsageEnum[]]),
  description: z.string().nullish(),
  quantization: z.string().nullish(),
  foundation: z.string().nullish(),
  unique: z.string().nullish(),
  provider: z.string().nullish(),
  downloaded: z.boolean().nullish(),
  cpu: z.boolean().nullish(),
  custom: z.boolean().nullish(),
  parameters: Count,
  bytes: ByteDescriptor.nullish(),
  ram: ByteDescriptor.nullish(),
  maxTokens: z.looseObject({ total: z.number().min(0).nullable(), input: Count, output: Count }).nullish(),
  capabilities: z.record(z.string(), z.unknown()).superRefine((c, ctx) => {
    for (const [k, v] of Object.entries(c)) {
      if (k !== 'schema' && typeof v !== 'boolean') ctx.addIssue({ code: 'custom', path: [k], message: 'must be a boolean' });
    }
  }).nullish(),
  askcode: z.looseObject({ source: ModelSourceSchema.optional() }).optional(),
});

/** Every model with true `downloaded`/`loaded` facts. */
export const ModelsSnapshot = request<void, Models>('models/snapshot', None);
/** Register a custom model (`custom: true`); a duplicate is refused (conflict). */
export const ModelsCreate = request<CreateModelParams, Model>('models/create', SeededModelSchema, { expected: 'a SeededModel object' });
/** Delete a custom model; built-in models are refused (forbidden). */
export const ModelsDelete = request<ModelRef, null>('models/delete', ModelRefSchema, REF);
/** Delete the cached weights of a downloadable LLM; nothing outside its own cache folder. */
export const ModelsDeleteCache = request<ModelDeleteCacheParams, ModelDeleteCacheOutput>('models/deleteCache',
  ModelRefSchema.extend({ input: z.looseObject({}).nullish() }), REF);
/** Unload every loaded model (ONNX sessions disposed). */
export const ModelsUnload = request<void, null>('models/unload', None);
/** One model. */
export const ModelGet = request<ModelRef, Model>('model/get', ModelRefSchema, REF);
/** Load one model into memory (downloads nothing: an absent model is an error). */
export const ModelLoad = request<ModelRef, Model>('model/load', ModelRefSchema, REF);
/** Unload one model. */
export const ModelUnload = request<ModelRef, Model>('model/unload', ModelRefSchema, REF);
/** Download a model's weights; progress arrives as `model/download/progress`. */
export const ModelDownload = request<ModelRef, Model>('model/download', ModelRefSchema, REF);
/** Cancel a running download. */
export const ModelDownloadCancel = request<ModelRef, Model>('model/download/cancel', ModelRefSchema, REF);
/** Download progress of one model. */
export const ModelDownloadProgressNotification =
  notification<{ model: string; progress: ModelDownloadProgress }>('model/download/progress', None);
/** A model record changed (created, deleted, loaded, downloaded…). */
export const ModelsIdentifiersNotification = notification<StreamedIdentifiers>('models/identifiers', None);

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
export const ModelUpdate = request<Model, Model>('model/update', SeededModelSchema.extend({ id: ModelId }),
  { field: 'body', expected: 'a whole Model object (with its id)' });
/** Bump a model's usage counters (`score`). */
export const ModelScoresIncrement = request<ModelScoresIncrementParams, null>('model/scores/increment',
  ModelRefSchema.extend({ input: z.unknown().optional() }), REF);
