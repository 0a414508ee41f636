import * as path from 'node:path';
import { invalid } from '../core/errors';
import { parseParams } from '../core/validation';
import { ModelSourceSchema, type CreateModelParams, type ModelSource } from '../protocol/models';
import type { SeededModel } from '../protocol/wire';
import { knownModelFields } from './knownFields';

/** A checked source with its folder path normalised (the registry compares paths as strings). */
export function normalizeSource(s: ModelSource): ModelSource {
  if (s.kind === 'local') return { kind: 'local', path: path.normalize(s.path) };
  if (s.kind === 'ollama') return { kind: 'ollama', name: s.name, ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}) };
  return {
    kind: 'openai', model: s.model, baseUrl: s.baseUrl,
    ...(s.apiKeyEnv ? { apiKeyEnv: s.apiKeyEnv } : {}),
    ...(s.apiKeySecret ? { apiKeySecret: s.apiKeySecret } : {}),
  };
}

/**
 * A source encoded in `SeededModel.unique` for SDK clients: an absolute folder path,
 * `ollama:<name>[@<baseUrl>]` or `openai:<model>@<baseUrl>`. Anything else is a plain label
 * (a record without weights, as the SDK's own examples create). The decoded source passes the
 * same schema as `askcode.source`, its errors naming `unique`.
 */
export function sourceFromUnique(unique: string | null | undefined): ModelSource | undefined {
  if (!unique) return undefined;
  const check = (s: unknown) => normalizeSource(parseParams(ModelSourceSchema, s, { field: 'unique', expected: 'a model source' }, 'unique') as ModelSource);
  if (path.isAbsolute(unique)) return check({ kind: 'local', path: unique });
  const m = /^(ollama|openai):(.+)$/.exec(unique);
  if (!m) return undefined;
  const rest = m[2]!;
  const at = rest.indexOf('@');
  const name = at >= 0 ? rest.slice(0, at) : rest;
  const url = at >= 0 ? rest.slice(at + 1) : undefined;
  if (m[1] === 'ollama') return check({ kind: 'ollama', name, ...(url ? { baseUrl: url } : {}) });
  if (!url) throw invalid('unique: an OpenAI-compatible model is written openai:<model>@<baseUrl>', 'unique');
  return check({ kind: 'openai', model: name, baseUrl: url });
}

/** The SeededModel part of a create request: askcode's extension and server-owned keys dropped, null fields left out. */
/** The SeededModel fields of a create, and no other (askcode's own, `id`, computed facts, unknown keys), each under a cap. */
export function seededOnly(p: CreateModelParams): SeededModel {
  const rest = { ...(p as unknown as Record<string, unknown>) };
  for (const [k, v] of Object.entries(rest)) if (v === null) delete rest[k];
  return knownModelFields(rest);
}
