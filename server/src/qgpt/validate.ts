import { invalid, tooLarge } from '../core/errors';

/** Input checks shared by the qgpt handlers: every failure names the field at fault. */

export const MAX_QUERY_CHARS = 20_000;
export const MAX_RELEVANT = 200;
/** Total characters of inline seed text one request may carry (a prompt never needs more). */
export const MAX_SEED_CHARS = 2_000_000;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function requireObject(v: unknown, field: string): Record<string, unknown> {
  if (!isObject(v)) throw invalid(`${field} must be an object, got ${describe(v)}`, field);
  return v;
}

export function requireQuery(v: unknown, field = 'query'): string {
  if (typeof v !== 'string') throw invalid(`${field} must be a string, got ${describe(v)}`, field);
  if (!v.trim()) throw invalid(`${field} must not be empty`, field);
  if (v.length > MAX_QUERY_CHARS) throw tooLarge(`${field} is ${v.length} characters; the limit is ${MAX_QUERY_CHARS}`, field);
  return v;
}

export function optionalString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`${field} must be a string, got ${describe(v)}`, field);
  return v;
}

export function optionalBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalid(`${field} must be a boolean, got ${describe(v)}`, field);
  return v;
}

/** A model id: absent means the user's default. */
export function optionalModel(v: unknown, field = 'model'): string | undefined {
  const s = optionalString(v, field);
  if (s !== undefined && !s.trim()) throw invalid(`${field} must not be empty when given`, field);
  return s;
}

/** Ids we use as file names (conversations) or echo on frames: no separators, bounded length. */
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requireId(v: unknown, field: string): string {
  if (typeof v !== 'string') throw invalid(`${field} must be a string, got ${describe(v)}`, field);
  if (!ID_RE.test(v)) throw invalid(`${field} '${clip(v)}' is not a valid id (letters, digits, '.', '_', ':', '-'; at most 128)`, field);
  return v;
}

export function optionalId(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  return requireId(v, field);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? `the string '${clip(v)}'` : typeof v;
}

export function clip(s: string, n = 60): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}
