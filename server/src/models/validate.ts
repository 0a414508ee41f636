import * as path from 'node:path';
import { invalid } from '../core/errors';
import { MODEL_TYPES, MODEL_USAGES, type SeededModel } from '../protocol/wire';
import type { CreateModelParams, ModelSource } from '../protocol/models';
import { knownModelFields } from './knownFields';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** A model id as the operations take it; never a path (`..`, separators, absolute). */
export function modelIdParam(params: unknown): string {
  if (!isObj(params)) throw invalid(`expected {"model": "<model id>"}, got ${describe(params)}`, 'model');
  const id = params.model;
  if (typeof id !== 'string' || !id.trim()) throw invalid(`model must be a non-empty string (a model id), got ${describe(id)}`, 'model');
  if (id === '.' || id.includes('..') || /[\\/\0]/.test(id) || path.isAbsolute(id) || /^[A-Za-z]:/.test(id)) {
    throw invalid(`'${id}' is not a model id: ids never contain '..', path separators or absolute paths`, 'model');
  }
  return id;
}

function str(o: Record<string, unknown>, key: string, required: boolean, field = key): void {
  const v = o[key];
  if (v === undefined || (v === null && !required)) {
    if (required) throw invalid(`${field} is required (a string)`, field);
    return;
  }
  if (typeof v !== 'string') throw invalid(`${field} must be a string, got ${describe(v)}`, field);
  if (required && !v.trim()) throw invalid(`${field} must not be empty`, field);
}

function bool(o: Record<string, unknown>, key: string, required: boolean): void {
  const v = o[key];
  if (v === undefined || (v === null && !required)) {
    if (required) throw invalid(`${key} is required (true or false)`, key);
    return;
  }
  if (typeof v !== 'boolean') throw invalid(`${key} must be a boolean, got ${describe(v)}`, key);
}

function num(o: Record<string, unknown>, key: string, field: string, nullable: boolean): void {
  const v = o[key];
  if (v === undefined || (v === null && nullable)) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid(`${field} must be a non-negative number${nullable ? ' or null' : ''}, got ${describe(v)}`, field);
}

function bytes(o: Record<string, unknown>, key: string): void {
  const v = o[key];
  if (v === undefined || v === null) return;
  if (!isObj(v)) throw invalid(`${key} must be a ByteDescriptor {value, readable}, got ${describe(v)}`, key);
  num(v, 'value', `${key}.value`, false);
  if (v.value === undefined) throw invalid(`${key}.value is required`, `${key}.value`);
  str(v, 'readable', true, `${key}.readable`);
}

/** Validates a SeededModel (plus the askcode extension), naming the first bad field. */
export function validateCreate(params: unknown): CreateModelParams {
  if (!isObj(params)) throw invalid(`models/create takes a SeededModel object, got ${describe(params)}`);
  str(params, 'version', true);
  str(params, 'name', true);
  const created = params.created;
  if (!isObj(created)) throw invalid(`created is required (a GroupedTimestamp {"value": "<ISO date>"}), got ${describe(created)}`, 'created');
  if (typeof created.value !== 'string' || Number.isNaN(Date.parse(created.value))) {
    throw invalid(`created.value must be an ISO-8601 date-time string, got ${JSON.stringify(created.value)}`, 'created.value');
  }
  bool(params, 'cloud', true);
  if (!MODEL_TYPES.includes(params.type as never)) throw invalid(`type must be one of ${MODEL_TYPES.join(', ')}; got ${JSON.stringify(params.type)}`, 'type');
  if (!MODEL_USAGES.includes(params.usage as never)) throw invalid(`usage must be one of the ModelUsageEnum values (e.g. CODE_CONVERSATION, TEXT_EMBEDDING); got ${JSON.stringify(params.usage)}`, 'usage');
  for (const k of ['description', 'quantization', 'foundation', 'unique', 'provider']) str(params, k, false);
  for (const k of ['downloaded', 'cpu', 'custom']) bool(params, k, false);
  num(params, 'parameters', 'parameters', true);
  bytes(params, 'bytes');
  bytes(params, 'ram');
  if (params.maxTokens !== undefined && params.maxTokens !== null) {
    const mt = params.maxTokens;
    if (!isObj(mt)) throw invalid(`maxTokens must be an object {total, input?, output?}, got ${describe(mt)}`, 'maxTokens');
    if (!('total' in mt)) throw invalid('maxTokens.total is required (a number or null)', 'maxTokens.total');
    for (const k of ['total', 'input', 'output']) num(mt, k, `maxTokens.${k}`, true);
  }
  if (params.capabilities !== undefined && params.capabilities !== null) {
    const c = params.capabilities;
    if (!isObj(c)) throw invalid(`capabilities must be an object, got ${describe(c)}`, 'capabilities');
    for (const [k, v] of Object.entries(c)) {
      if (k !== 'schema' && typeof v !== 'boolean') throw invalid(`capabilities.${k} must be a boolean, got ${describe(v)}`, `capabilities.${k}`);
    }
  }
  if (params.askcode !== undefined) {
    if (!isObj(params.askcode)) throw invalid(`askcode must be an object {source?}, got ${describe(params.askcode)}`, 'askcode');
    if (params.askcode.source !== undefined) validateSource(params.askcode.source, 'askcode.source');
  }
  return params as unknown as CreateModelParams;
}

function httpUrl(v: unknown, field: string): string {
  if (typeof v !== 'string') throw invalid(`${field} must be an http(s) URL string, got ${describe(v)}`, field);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw invalid(`${field} is not a URL: ${JSON.stringify(v)}`, field);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid(`${field} must be http or https, got ${u.protocol}`, field);
  if (u.username || u.password) throw invalid(`${field} must not carry credentials: keep keys in SecretStorage or an environment variable`, field);
  return v;
}

export function validateSource(v: unknown, field: string): ModelSource {
  if (!isObj(v)) throw invalid(`${field} must be an object with a kind (local, ollama or openai), got ${describe(v)}`, field);
  for (const k of Object.keys(v)) {
    if (/^(api_?key|key|token|secret|password)$/i.test(k)) {
      throw invalid(`${field}.${k}: askcode never stores API keys; name the secret with apiKeySecret or the environment variable with apiKeyEnv`, `${field}.${k}`);
    }
  }
  switch (v.kind) {
    case 'local':
      if (typeof v.path !== 'string' || !path.isAbsolute(v.path)) throw invalid(`${field}.path must be an absolute folder path`, `${field}.path`);
      return { kind: 'local', path: path.normalize(v.path) };
    case 'ollama':
      str(v, 'name', true, `${field}.name`);
      if (v.baseUrl !== undefined) httpUrl(v.baseUrl, `${field}.baseUrl`);
      return { kind: 'ollama', name: v.name as string, ...(v.baseUrl ? { baseUrl: v.baseUrl as string } : {}) };
    case 'openai':
      str(v, 'model', true, `${field}.model`);
      httpUrl(v.baseUrl, `${field}.baseUrl`);
      str(v, 'apiKeyEnv', false, `${field}.apiKeyEnv`);
      str(v, 'apiKeySecret', false, `${field}.apiKeySecret`);
      return {
        kind: 'openai', model: v.model as string, baseUrl: v.baseUrl as string,
        ...(v.apiKeyEnv ? { apiKeyEnv: v.apiKeyEnv as string } : {}),
        ...(v.apiKeySecret ? { apiKeySecret: v.apiKeySecret as string } : {}),
      };
    default:
      throw invalid(`${field}.kind must be local, ollama or openai; got ${JSON.stringify(v.kind)}`, `${field}.kind`);
  }
}

/**
 * A source encoded in `SeededModel.unique` for SDK clients: an absolute folder path,
 * `ollama:<name>[@<baseUrl>]` or `openai:<model>@<baseUrl>`. Anything else is a plain label
 * (a record without weights, as the SDK's own examples create).
 */
export function sourceFromUnique(unique: string | undefined): ModelSource | undefined {
  if (!unique) return undefined;
  if (path.isAbsolute(unique)) return validateSource({ kind: 'local', path: unique }, 'unique');
  const m = /^(ollama|openai):(.+)$/.exec(unique);
  if (!m) return undefined;
  const rest = m[2]!;
  const at = rest.indexOf('@');
  const name = at >= 0 ? rest.slice(0, at) : rest;
  const url = at >= 0 ? rest.slice(at + 1) : undefined;
  if (m[1] === 'ollama') return validateSource({ kind: 'ollama', name, ...(url ? { baseUrl: url } : {}) }, 'unique');
  if (!url) throw invalid('unique: an OpenAI-compatible model is written openai:<model>@<baseUrl>', 'unique');
  return validateSource({ kind: 'openai', model: name, baseUrl: url }, 'unique');
}

/** The SeededModel fields of a create, and no other (askcode's own, `id`, computed facts, unknown keys). */
export function seededOnly(p: CreateModelParams): SeededModel {
  return knownModelFields(p as unknown as Record<string, unknown>);
}
