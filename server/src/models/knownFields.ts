/**
 * What of a client's SeededModel is stored: the fields the wire defines, each under a cap. An
 * unknown field is dropped (a 7 MB `junk` field once grew models.json, and every GET /models, to
 * 7 MB); an over-long string is refused with the field named.
 */
import { tooLarge } from '../core/errors';
import type { SeededModel } from '../protocol/wire';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Characters per string field; a description is prose, the rest are labels. */
const MAX_CHARS: Record<string, number> = { name: 256, description: 4096, unique: 2048, version: 128, quantization: 128, readable: 128 };
/** One stored model at most (a real record is under 1 KiB). */
export const MAX_MODEL_BYTES = 16 * 1024;

const SCHEMA = ['migration', 'semantic'];
const SHAPES: Record<string, string[] | null> = {
  schema: SCHEMA, version: null, created: ['schema', 'value', 'readable'], name: null, description: null, cloud: null, type: null,
  usage: null, bytes: ['schema', 'value', 'readable'], ram: ['schema', 'value', 'readable'], quantization: null, foundation: null,
  downloaded: null, unique: null, parameters: null, provider: null, cpu: null, maxTokens: ['schema', 'total', 'input', 'output'],
  custom: null, capabilities: ['schema', 'temporal', 'images', 'videos', 'documents', 'codebases', 'assets', 'websites'],
};

function capString(v: unknown, key: string, field: string): void {
  const max = MAX_CHARS[key];
  if (max !== undefined && typeof v === 'string' && v.length > max) throw tooLarge(`${field} is ${v.length} characters; the limit is ${max}`, field);
}

function pick(v: Record<string, unknown>, keys: string[], field: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (!(k in v) || v[k] === undefined) continue;
    const x = v[k];
    capString(x, k, `${field}.${k}`);
    out[k] = k === 'schema' && isObj(x) ? pick(x, SCHEMA, `${field}.schema`) : x;
  }
  return out;
}

/** The SeededModel fields askcode keeps, nested objects included; throws too_large over a cap. */
export function knownModelFields(p: Record<string, unknown>): SeededModel {
  const out: Record<string, unknown> = {};
  for (const [k, shape] of Object.entries(SHAPES)) {
    const v = p[k];
    if (v === undefined) continue;
    capString(v, k, k);
    out[k] = shape && isObj(v) ? pick(v, shape, k) : v;
  }
  const size = Buffer.byteLength(JSON.stringify(out));
  if (size > MAX_MODEL_BYTES) throw tooLarge(`the model is ${size} bytes as stored; the limit is ${MAX_MODEL_BYTES}`, 'body');
  return out as unknown as SeededModel;
}
