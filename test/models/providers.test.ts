/**
 * The ModelHub the index and the answers build on, driven in-process through the core with the
 * real tiny models: stories260K generation and the MiniLM-shaped embedder.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { silentLogger, type Logger } from '../../server/src/core/logger';
import { AskcodeError } from '../../server/src/core/errors';
import { SHARED_MODELS } from '../helpers/worker';
import { EXTRACTIVE_MODEL_ID, MINILM_MODEL_ID, ASKCODE_STATIC_MODEL_ID } from '../../server/src/models/catalog';
import type { Model, Models } from '../../server/src/protocol/wire';
import { tempDir, openModels, type ModelsCore as Core } from './fixtures';

const warnings: string[] = [];
const log: Logger = { ...silentLogger, warn: (m) => void warnings.push(m) };

async function open(dataDir: string, settings = {}): Promise<Core> {
  return openModels({ dataDir, modelsDir: SHARED_MODELS, log, settings });
}

async function model(core: Core, name: string): Promise<Model> {
  const all = (await core.service.call('models/snapshot', undefined)) as Models;
  return all.iterable.find((m) => m.name === name)!;
}

describe('ModelHub providers (in-process core, real tiny models)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let core: Core;
  before(async () => {
    dataDir = tempDir('providers');
    core = await open(dataDir, { embeddingModel: 'minilm-l6-shape-random-weights' });
  });
  after(async () => {
    await core?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stories260K streams text deltas in order and stops when the signal aborts', async () => {
    const stories = await model(core, 'stories260K');
    const g = await core.models.getGenerator(stories.id);
    assert.ok(g);
    assert.equal(g.contextTokens, 512);
    assert.ok((await g.countTokens('Once upon a time')) > 1);
    const deltas: string[] = [];
    for await (const d of g.generate([{ role: 'user', content: 'Once upon a time' }], { maxTokens: 40 })) deltas.push(d);
    assert.ok(deltas.length > 3, `several deltas: ${JSON.stringify(deltas)}`);
    assert.ok(deltas.join('').trim().length > 10);
    // Greedy decoding: the same prompt gives the same text, so the stream is complete and ordered.
    let again = '';
    for await (const d of g.generate([{ role: 'user', content: 'Once upon a time' }], { maxTokens: 40 })) again += d;
    assert.equal(again, deltas.join(''));

    const ac = new AbortController();
    const got: string[] = [];
    const started = Date.now();
    for await (const d of g.generate([{ role: 'user', content: 'Once upon a time' }], { maxTokens: 400, signal: ac.signal })) {
      got.push(d);
      if (got.length === 3) ac.abort();
    }
    assert.ok(got.length <= 5, `stopped within a token or two of the abort, got ${got.length}`);
    assert.ok(Date.now() - started < 5000);

    // Breaking out of the loop stops generation too, and the model stays usable.
    let n = 0;
    for await (const _ of g.generate([{ role: 'user', content: 'The cat' }], { maxTokens: 400 })) if (++n === 2) break;
    let after = '';
    for await (const d of g.generate([{ role: 'user', content: 'Once upon a time' }], { maxTokens: 40 })) after += d;
    assert.equal(after, deltas.join(''));
  });

  it('a generator handle survives models/unload by loading again', async () => {
    const stories = await model(core, 'stories260K');
    const g = (await core.models.getGenerator(stories.id))!;
    await core.service.call('models/unload', undefined);
    assert.equal((await model(core, 'stories260K')).loaded, false);
    let text = '';
    for await (const d of g.generate([{ role: 'user', content: 'Lily' }], { maxTokens: 10 })) text += d;
    assert.ok(text.length > 0);
    assert.equal((await model(core, 'stories260K')).loaded, true);
  });

  it('the MiniLM-shaped embedder gives unit vectors in input order, batched by length without changing them', async () => {
    const e = await core.models.getEmbedder();
    assert.ok(e);
    assert.equal(e.dims, 384);
    assert.equal(e.modelId, (await model(core, 'minilm-l6-shape-random-weights')).id);
    const texts = ['short', 'function add(a, b) {\n  return a + b;\n}\n'.repeat(12), 'a medium length sentence about code search', 'x'];
    const batch = await e.embed(texts);
    assert.equal(batch.length, texts.length);
    for (const v of batch) {
      assert.equal(v.length, 384);
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-3, `unit length, got ${norm}`);
    }
    // Each vector equals the one computed alone: sorting and padding did not mix texts up.
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await e.embed([texts[i]!]);
      const cos = alone!.reduce((s, x, k) => s + x * batch[i]![k]!, 0);
      assert.ok(cos > 0.999, `text ${i}: cosine ${cos}`);
    }
    assert.ok(e.countTokens(texts[1]!) > e.countTokens(texts[0]!));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(e.embed(['a', 'b'], ac.signal), (err: AskcodeError) => err.kind === 'cancelled');
  });

  it('the extractive answerer is the default and has no generator; unknown and non-LLM ids are refused', async () => {
    assert.equal(core.models.defaultConversationModelId(), EXTRACTIVE_MODEL_ID);
    assert.equal(core.models.extractiveModelId, EXTRACTIVE_MODEL_ID);
    assert.equal(await core.models.getGenerator(EXTRACTIVE_MODEL_ID), null);
    assert.equal(await core.models.getGenerator(), null);
    await assert.rejects(core.models.getGenerator('no-such-model'), (err: AskcodeError) => err.kind === 'not_found');
    await assert.rejects(core.models.getGenerator(MINILM_MODEL_ID), (err: AskcodeError) => err.kind === 'invalid');
  });

  it('settings.defaultModel picks a local LLM by name', async () => {
    const d2 = tempDir('providers-default');
    const c2 = await open(d2, { defaultModel: 'stories260K' });
    try {
      const stories = await model(c2, 'stories260K');
      assert.equal(c2.models.defaultConversationModelId(), stories.id);
      assert.equal((await c2.models.getGenerator())?.modelId, stories.id);
    } finally {
      await c2.dispose();
      fs.rmSync(d2, { recursive: true, force: true });
    }
  });

  it('with no setting the embedder is the static code model askcode ships', async () => {
    const d2 = tempDir('providers-default');
    const c2 = await open(d2);
    try {
      const e = await c2.models.getEmbedder();
      assert.equal(e?.modelId, ASKCODE_STATIC_MODEL_ID);
      assert.equal(e!.dims, 256);
      assert.equal((await e!.embed(['def load_config(path): ...']))[0]!.length, 256);
      assert.equal((await model(c2, 'askcode code embeddings (static)')).loaded, true);
    } finally {
      await c2.dispose();
      fs.rmSync(d2, { recursive: true, force: true });
    }
  });

  it('MiniLM asked for but not in the models dir: no embedder (never the random-weights folder), said once', async () => {
    const d2 = tempDir('providers-noembed');
    warnings.length = 0;
    const c2 = await open(d2, { embeddingModel: MINILM_MODEL_ID });
    try {
      assert.equal(await c2.models.getEmbedder(), null);
      assert.equal(await c2.models.getEmbedder(), null);
      const said = warnings.filter((w) => /embedding model/.test(w));
      assert.equal(said.length, 1, JSON.stringify(warnings));
      // The reason is named here; the index says once that relevance then runs on BM25 alone.
      assert.match(said[0]!, /embedding model unavailable.*: .*not downloaded/);
      assert.equal((await model(c2, 'minilm-l6-shape-random-weights')).loaded, false);
      await c2.dispose();
      // The next start in the same data folder does not say it again.
      warnings.length = 0;
      const c3 = await open(d2, { embeddingModel: MINILM_MODEL_ID });
      try {
        assert.equal(await c3.models.getEmbedder(), null);
        assert.deepEqual(warnings.filter((w) => /embedding model/.test(w)), [], 'said once per data folder, not on every start');
      } finally {
        await c3.dispose();
      }
    } finally {
      await c2.dispose();
      fs.rmSync(d2, { recursive: true, force: true });
    }
  });

  it('the catalog MiniLM is read from the models dir when a folder of that name is there', async () => {
    const models = tempDir('providers-modelsdir');
    const d2 = tempDir('providers-minilm');
    // A folder named like the hub repository: the catalog entry reads from it (weights are random here, only loading is checked).
    fs.cpSync(path.join(SHARED_MODELS, 'minilm-l6-shape-random-weights'), path.join(models, 'all-MiniLM-L6-v2'), { recursive: true });
    const c2 = await openModels({ dataDir: d2, modelsDir: models, log, settings: { embeddingModel: MINILM_MODEL_ID } });
    try {
      const e = await c2.models.getEmbedder();
      assert.equal(e?.modelId, MINILM_MODEL_ID);
      assert.equal((await e!.embed(['hello']))[0]!.length, 384);
      const all = (await c2.service.call('models/snapshot', undefined)) as Models;
      assert.ok(!all.iterable.some((m) => m.name === 'all-MiniLM-L6-v2' && m.id !== MINILM_MODEL_ID), 'not listed twice');
    } finally {
      await c2.dispose();
      fs.rmSync(d2, { recursive: true, force: true });
      fs.rmSync(models, { recursive: true, force: true });
    }
  });
});
