/**
 * `model/update` and `model/scores/increment` on a registry record: what a client may change in a
 * model it sends back whole, and the usage counters Pieces clients bump.
 */
import { conflict, forbidden, invalid } from '../core/errors';
import type { Model, Score } from '../protocol/wire';
import type { SeededScore } from '../protocol/models';
import type { ModelRecord } from './registry';
import { knownModelFields } from './knownFields';

/** Descriptive fields a custom model may change; everything else must come back as it was. */
const CUSTOM_MUTABLE = ['name', 'description', 'version', 'type', 'foundation', 'parameters', 'maxTokens', 'capabilities', 'score'] as const;
/** A built-in model (catalog, ASKCODE_MODELS_DIR folder) keeps its description; only its counters move. */
const BUILTIN_MUTABLE = ['score'] as const;
/** Computed on every read, never stored: whatever a client sends for them is ignored. */
const COMPUTED = ['loaded', 'downloaded', 'downloading', 'bytes', 'ram', 'schema'];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The record after applying a whole Model sent back by a client. Fields that identify or run the
 * model (`unique`, `usage`, `cloud`, `provider`, …) cannot change: a different model is a new one.
 */
export function applyUpdate(rec: ModelRecord, input: Model, others: ModelRecord[]): ModelRecord {
  // `input` passed the protocol's ModelUpdate schema (a SeededModel with its id).
  if (input.score !== undefined && input.score !== null) checkScore(input.score);
  const mutable: readonly string[] = rec.origin === 'custom' ? CUSTOM_MUTABLE : BUILTIN_MUTABLE;
  const before = rec.model as unknown as Record<string, unknown>;
  const after: Record<string, unknown> = { ...before };
  for (const [k, v] of Object.entries(input as unknown as Record<string, unknown>)) {
    if (k === 'id' || COMPUTED.includes(k)) continue;
    if (k === 'created') {
      if (new Date((v as { value: string }).value).getTime() !== new Date(rec.model.created.value).getTime()) {
        throw forbidden('created cannot change', 'created');
      }
      continue;
    }
    if (same(v, before[k])) continue;
    if (!mutable.includes(k)) {
      const why = rec.origin === 'custom'
        ? `${k} says which model this is; create a new model for a different one`
        : `${rec.model.name} is built in: only its score can change`;
      throw forbidden(`${k} cannot change: ${why}`, k);
    }
    if (v === null || v === undefined) delete after[k];
    else after[k] = v;
  }
  const model = after as unknown as Model;
  knownModelFields(after); // the same caps as a create: a 1 MB description is refused here too
  for (const o of others) {
    if (o.model.id !== model.id && o.model.name === model.name && o.model.version === model.version) {
      throw conflict(`a model named '${model.name}' version '${model.version}' already exists (${o.model.id})`, 'name');
    }
  }
  return { ...rec, model };
}

function checkScore(s: unknown): void {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw invalid('score must be a Score object {manual, automatic, …}', 'score');
  for (const [k, v] of Object.entries(s)) {
    if (k !== 'schema' && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) throw invalid(`score.${k} must be a non-negative number`, `score.${k}`);
  }
  for (const k of ['manual', 'automatic']) if (!(k in s)) throw invalid(`score.${k} is required`, `score.${k}`);
}

const FLAGS = ['reuse', 'update', 'reference', 'priority', 'searched'] as const;

/**
 * The SeededScoreIncrement body: its `model` member names the counters to bump, one per flag set.
 * The members for other material kinds are accepted and ignored (SPEC: not used by this endpoint).
 */
export function incrementOf(body: unknown): SeededScore {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('the body must be a SeededScoreIncrement object', 'body');
  const m = (body as Record<string, unknown>).model;
  if (m === undefined || m === null) return {};
  if (typeof m !== 'object' || Array.isArray(m)) throw invalid('model must be a SeededScore object {reuse?, update?, reference?, priority?, searched?}', 'model');
  for (const [k, v] of Object.entries(m)) {
    if (k === 'schema') continue;
    if (!(FLAGS as readonly string[]).includes(k)) throw invalid(`model.${k} is not a SeededScore flag (${FLAGS.join(', ')})`, `model.${k}`);
    if (typeof v !== 'boolean') throw invalid(`model.${k} must be true or false`, `model.${k}`);
  }
  return m as SeededScore;
}

/** Counters bumped once for each flag set; `manual` counts every increment a client asked for. */
export function bumpScore(score: Score | undefined, inc: SeededScore): Score {
  const next: Score = { manual: 0, automatic: 0, ...score };
  let any = false;
  for (const f of FLAGS) {
    if (inc[f] === true) {
      next[f] = (next[f] ?? 0) + 1;
      any = true;
    }
  }
  if (any) next.manual += 1;
  return next;
}
