/**
 * Params checked once, at the door: a protocol entry's zod schema, its first failure turned into
 * an AskcodeError that names the field (`relevant.iterable[2].seed`) and says what was wrong.
 */
import type { z } from 'zod';
import type { ParamsShape } from '../protocol/base';
import { AskcodeError } from './errors';

type Issue = z.core.$ZodIssue & { input?: unknown; params?: { kind?: string; limit?: number } };

export function fieldOf(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : out ? `.${String(k)}` : String(k);
  return out;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string '${v.length > 60 ? v.slice(0, 60) + '…' : v}'`;
  return typeof v;
}

const an = (what: string) => (/^[aeiou]/.test(what) ? `an ${what}` : `a ${what}`);

function message(issue: Issue, field: string): string {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `${field} is required (${an(issue.expected)})`;
      return `${field} must be ${an(issue.expected)}, got ${describe(input)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${field} must not be empty`;
      if (issue.origin === 'array') return `${field} must have at least ${issue.minimum} entr${Number(issue.minimum) === 1 ? 'y' : 'ies'}`;
      return `${field} must be at least ${issue.minimum}${issue.inclusive ? '' : ' (exclusive)'}`;
    case 'too_big':
      if (issue.origin === 'array' && Array.isArray(input)) return `${field} has ${input.length} entries; the limit is ${issue.maximum}`;
      if (issue.origin === 'string' && typeof input === 'string') return `${field} is ${input.length} characters; the limit is ${issue.maximum}`;
      return `${field} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => String(v)).join(', ')}; got ${JSON.stringify(input)}`;
    case 'invalid_union':
      return `${field} ${issue.message === 'Invalid input' ? 'does not match any of its allowed shapes' : issue.message}`;
    case 'custom':
      if (issue.params?.kind === 'too_large' && (typeof input === 'string' || Array.isArray(input))) {
        return `${field} is ${input.length} ${typeof input === 'string' ? 'characters' : 'entries'}; the limit is ${issue.params.limit}`;
      }
      return `${field} ${issue.message}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/** The schema's verdict on `params`: the parsed value, or the AskcodeError for the first failure. */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown, shape: ParamsShape, prefix = ''): T {
  const r = schema.safeParse(params, { reportInput: true });
  if (r.success) return r.data;
  const issue = r.error.issues[0] as Issue;
  // A discriminated union reports the member that failed: name its own field, not the union.
  const inner = issue.code === 'invalid_union' && issue.errors.length === 1 && issue.errors[0]!.length ? (issue.errors[0]![0] as Issue) : undefined;
  const at = inner ? { ...inner, path: [...issue.path, ...inner.path] } as Issue : issue;
  if (!at.path.length && at.code === 'invalid_type') {
    const field = prefix || shape.field;
    return fail('invalid', `${prefix || 'the request'} must be ${shape.expected}, got ${describe(params)}`, field);
  }
  const field = fieldOf(at.path, prefix) || prefix || shape.field;
  return fail(at.params?.kind === 'too_large' ? 'too_large' : 'invalid', message(at, field), field);
}

function fail(kind: 'invalid' | 'too_large', msg: string, field: string): never {
  throw new AskcodeError(kind, msg, field);
}
