/** Shared helpers of the Models tests: temp folders, model copies and wire-shape checks. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelsFromJSON, ModelsToJSON, instanceOfModel } from '@pieces.app/pieces-os-client';
import { SHARED_MODELS } from '../helpers/worker';
import { Service } from '../../server/src/core/service';
import type { CoreOptions } from '../../server/src/core/options';
import { ModelManager } from '../../server/src/models/manager';
import { registerModels } from '../../server/src/ops/models';
import { MODEL_TYPES, MODEL_USAGES, type Model, type Models, type SeededModel } from '../../server/src/protocol/wire';

export const STORIES_DIR = path.join(SHARED_MODELS, 'stories260K');
export const MINILM_SHAPE_DIR = path.join(SHARED_MODELS, 'minilm-l6-shape-random-weights');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `askcode-${prefix}-`));
}

/** A copy of a model folder somewhere else (a custom model's own folder). */
export function copyModel(src: string, dest: string): string {
  fs.cpSync(src, dest, { recursive: true });
  return dest;
}

export function seeded(over: Partial<SeededModel> & Record<string, unknown> = {}): SeededModel & Record<string, unknown> {
  return {
    version: '1.0.0',
    created: { value: '2025-01-01T00:00:00.000Z' },
    name: `custom ${Math.random().toString(36).slice(2)}`,
    cloud: false,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    ...over,
  };
}

/** Checks every required key and enum of the Model wire shape, and the SDK's own parser. */
export function assertWireModel(m: Model): void {
  assert.equal(typeof m.id, 'string');
  assert.equal(typeof m.version, 'string');
  assert.equal(typeof m.name, 'string');
  assert.equal(typeof m.cloud, 'boolean');
  assert.ok(MODEL_TYPES.includes(m.type), `type ${m.type}`);
  assert.ok(MODEL_USAGES.includes(m.usage), `usage ${m.usage}`);
  assert.equal(new Date(m.created.value).toISOString(), m.created.value, 'created.value is in toISOString form');
  assert.ok(instanceOfModel(m as never), `SDK instanceOfModel(${m.name})`);
  for (const k of ['bytes', 'ram'] as const) {
    if (m[k]) assert.ok(typeof m[k]!.value === 'number' && typeof m[k]!.readable === 'string', `${k} is a ByteDescriptor`);
  }
  if (m.maxTokens) assert.ok('total' in m.maxTokens, 'maxTokens.total is present');
}

export function assertWireModels(models: Models): void {
  assert.ok(Array.isArray(models.iterable));
  for (const m of models.iterable) assertWireModel(m);
  // The published client parses and re-serialises it unchanged (dates included).
  const round = ModelsToJSON(ModelsFromJSON(models)) as unknown as { iterable: { id: string; created: { value: string } }[] };
  assert.deepEqual(round.iterable.map((m) => [m.id, m.created.value]), models.iterable.map((m) => [m.id, m.created.value]));
}

/**
 * The Models area alone on a real Service (what `createCore` builds first), so these tests do
 * not depend on the other areas' work in progress.
 */
export async function openModels(options: Omit<CoreOptions, 'folders'> & { folders?: string[] }): Promise<ModelsCore> {
  const service = new Service(options.log);
  const models = await ModelManager.create({ folders: [], autoIndex: false, ...options }, service.broadcast.bind(service));
  registerModels(service, { models });
  return { service, models, dispose: () => models.dispose() };
}

export interface ModelsCore {
  service: Service;
  models: ModelManager;
  dispose(): Promise<void>;
}
