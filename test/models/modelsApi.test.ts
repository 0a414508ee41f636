import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startWorker, rpcError, SHARED_MODELS, type WorkerHandle } from '../helpers/worker';
import {
  ModelsSnapshot, ModelsCreate, ModelsDelete, ModelsDeleteCache, ModelsUnload, ModelGet, ModelLoad, ModelUnload,
  ModelDownload, ModelDownloadCancel, ModelsIdentifiersNotification, ModelDownloadProgressNotification,
} from '../../server/src/protocol/models';
import type { Model, StreamedIdentifiers } from '../../server/src/protocol/wire';
import { EXTRACTIVE_MODEL_ID, MINILM_MODEL_ID, QWEN_05B_MODEL_ID, QWEN_15B_MODEL_ID } from '../../server/src/models/catalog';
import { tempDir, copyModel, seeded, assertWireModels, assertWireModel, STORIES_DIR } from './fixtures';

const BAD_IDS = ['../x', 'a/b', '/etc/passwd', 'a\\b', '..', `..${path.sep}models.json`];

describe('Models API over JSON-RPC', function () {
  this.timeout(120_000);
  let dataDir: string;
  let scratch: string;
  let w: WorkerHandle;
  const identifiers: StreamedIdentifiers[] = [];
  const byName = async (name: string): Promise<Model> => {
    const m = (await w.request(ModelsSnapshot, undefined)).iterable.find((x) => x.name === name);
    assert.ok(m, `model ${name} is listed`);
    return m;
  };

  before(async () => {
    dataDir = tempDir('models-api');
    scratch = tempDir('models-api-src');
    w = await startWorker({ dataDir });
    w.onNotification(ModelsIdentifiersNotification, (p) => void identifiers.push(p));
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('models/snapshot lists the catalog and the ASKCODE_MODELS_DIR folders as wire-valid Models', async () => {
    const models = await w.request(ModelsSnapshot, undefined);
    assertWireModels(models);
    const ids = models.iterable.map((m) => m.id);
    for (const id of [MINILM_MODEL_ID, QWEN_05B_MODEL_ID, QWEN_15B_MODEL_ID, EXTRACTIVE_MODEL_ID]) assert.ok(ids.includes(id), id);
    const get = (id: string) => models.iterable.find((m) => m.id === id)!;
    assert.equal(get(MINILM_MODEL_ID).usage, 'TEXT_EMBEDDING');
    assert.equal(get(QWEN_05B_MODEL_ID).usage, 'CODE_CONVERSATION');
    assert.equal(get(QWEN_05B_MODEL_ID).downloaded, false, 'nothing is downloaded in a fresh data dir');
    assert.equal(get(QWEN_05B_MODEL_ID).maxTokens?.total, 32768);
    assert.equal(get(EXTRACTIVE_MODEL_ID).downloaded, true);
    assert.ok(models.iterable.every((m) => m.custom === false), 'no custom model yet');
    const stories = await byName('stories260K');
    assert.equal(stories.usage, 'CODE_CONVERSATION');
    assert.equal(stories.maxTokens?.total, 512);
    const shape = await byName('minilm-l6-shape-random-weights');
    assert.equal(shape.usage, 'TEXT_EMBEDDING');
    assert.notEqual(shape.id, MINILM_MODEL_ID, 'the random-weights folder is never the catalog MiniLM');
    // Registry persisted, without any computed facts.
    const doc = JSON.parse(fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8'));
    assert.equal(doc.models.length, models.iterable.length);
    assert.ok(doc.models.every((r: { model: Model }) => r.model.loaded === undefined));
  });

  it('folder models keep their ids across workers', async () => {
    const before = await byName('stories260K');
    const other = tempDir('models-api-other');
    const w2 = await startWorker({ dataDir: other });
    try {
      const again = (await w2.request(ModelsSnapshot, undefined)).iterable.find((m) => m.name === 'stories260K');
      assert.equal(again?.id, before.id);
    } finally {
      await w2.stop();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('model/get returns one model; unknown ids are not_found, path-like ids invalid', async () => {
    const m = await w.request(ModelGet, { model: QWEN_05B_MODEL_ID });
    assertWireModel(m);
    assert.equal(m.name, 'Qwen2.5-Coder 0.5B Instruct');
    const nf = await rpcError(w.request(ModelGet, { model: '00000000-0000-4000-8000-000000000000' }));
    assert.equal(nf.data?.kind, 'not_found');
    assert.equal(nf.data?.field, 'model');
    for (const id of BAD_IDS) {
      const e = await rpcError(w.request(ModelGet, { model: id }));
      assert.equal(e.data?.kind, 'invalid', id);
      assert.equal(e.data?.field, 'model');
    }
    for (const bad of [{ model: 42 }, { model: '' }, {}, null, 'x']) {
      const e = await rpcError(w.raw(ModelGet.method, bad));
      assert.equal(e.data?.kind, 'invalid', JSON.stringify(bad));
      assert.match(e.message, /model/);
    }
  });

  it('models/create registers a custom local folder (unique = absolute path) and broadcasts it', async () => {
    const folder = copyModel(STORIES_DIR, path.join(scratch, 'my-stories'));
    const n = identifiers.length;
    const m = await w.request(ModelsCreate, seeded({ name: 'My stories', unique: folder, created: { value: '2025-02-03T04:05:06Z' } }));
    assertWireModel(m);
    assert.equal(m.custom, true);
    assert.match(m.id, /^[0-9a-f-]{36}$/);
    assert.equal(m.created.value, '2025-02-03T04:05:06.000Z', 'created is normalised to toISOString form');
    assert.equal(m.downloaded, false, 'not in the cache until model/download');
    assert.ok(m.bytes && m.bytes.value > 1_000_000, 'size measured from the folder');
    await waitFor(() => identifiers.slice(n).some((s) => s.iterable.some((i) => i.model?.id === m.id && !i.deleted)));
    const listed = (await w.request(ModelsSnapshot, undefined)).iterable.find((x) => x.id === m.id);
    assert.equal(listed?.custom, true);
    // Loads from its own folder, without a download.
    const loaded = await w.request(ModelLoad, { model: m.id });
    assert.equal(loaded.loaded, true);
    const unloaded = await w.request(ModelUnload, { model: m.id });
    assert.equal(unloaded.loaded, false);
  });

  it('models/create accepts the SDK example SeededModel and an askcode.source endpoint, never storing a key', async () => {
    const example = JSON.parse(fs.readFileSync(path.join(SHARED_MODELS, '..', 'api', 'examples', 'SeededModel.typical.json'), 'utf8'));
    const m = await w.request(ModelsCreate, example);
    assert.equal(m.custom, true);
    assert.equal(m.name, example.name);
    // A label without weights or endpoint cannot be loaded or downloaded (a conflict, not an outage), and says why.
    const e = await rpcError(w.request(ModelLoad, { model: m.id }));
    assert.equal(e.data?.kind, 'conflict');
    assert.match(e.message, /created without a source, so there is nothing to load/);
    assert.equal((await rpcError(w.request(ModelDownload, { model: m.id }))).data?.kind, 'conflict');
    // …and it has no cache: deleting it succeeds and deletes nothing.
    assert.deepEqual(await w.request(ModelsDeleteCache, { model: m.id, input: {} }), { model: { id: m.id } });
    const o = await w.request(ModelsCreate, {
      ...seeded({ name: 'hosted', cloud: true }),
      askcode: { source: { kind: 'openai', model: 'gpt-x', baseUrl: 'https://api.example.test/v1', apiKeySecret: 'askcode.key.example' } },
    });
    assert.equal(o.cloud, true);
    const keyed = await rpcError(w.request(ModelsCreate, {
      ...seeded({ name: 'leaky' }),
      askcode: { source: { kind: 'openai', model: 'gpt-x', baseUrl: 'https://api.example.test/v1', apiKey: 'sk-secret' } },
    } as never));
    assert.equal(keyed.data?.kind, 'invalid');
    assert.equal(keyed.data?.field, 'askcode.source.apiKey');
    const ollama = await w.request(ModelsCreate, seeded({ name: 'llama local', unique: 'ollama:llama3.2@http://127.0.0.1:11434' }));
    assert.equal(ollama.custom, true);
    assert.equal(ollama.downloaded, undefined, 'an endpoint has no weights in the cache');
    const raw = fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8');
    assert.ok(!raw.includes('sk-secret'));
    assert.ok(raw.includes('askcode.key.example'), 'only the name of the secret is kept');
  });

  it('models/create refuses duplicates (provider + unique, name + version) with conflict', async () => {
    const a = await w.request(ModelsCreate, seeded({ name: 'dup-a', unique: 'dup-unique', provider: 'META' }));
    const sameUnique = await rpcError(w.request(ModelsCreate, seeded({ name: 'dup-b', unique: 'dup-unique', provider: 'META' })));
    assert.equal(sameUnique.data?.kind, 'conflict');
    assert.equal(sameUnique.data?.field, 'unique');
    assert.match(sameUnique.message, new RegExp(a.id));
    const sameName = await rpcError(w.request(ModelsCreate, seeded({ name: 'dup-a', version: '1.0.0' })));
    assert.equal(sameName.data?.kind, 'conflict');
    assert.equal(sameName.data?.field, 'name');
    const builtin = await rpcError(w.request(ModelsCreate, seeded({ name: 'all-MiniLM-L6-v2', version: 'v2' })));
    assert.equal(builtin.data?.kind, 'conflict', 'a built-in counts too');
    // Other provider or version: fine.
    await w.request(ModelsCreate, seeded({ name: 'dup-c', unique: 'dup-unique', provider: 'GOOGLE' }));
    await w.request(ModelsCreate, seeded({ name: 'dup-a', version: '2.0.0' }));
  });

  it('models/create rejects wrong types and values, naming the field, and changes nothing', async () => {
    const before = await w.request(ModelsSnapshot, undefined);
    const file = fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8');
    const cases: [unknown, string | undefined][] = [
      [null, undefined],
      ['a string', undefined],
      [[1, 2], undefined],
      [{ ...seeded(), name: 42 }, 'name'],
      [{ ...seeded(), name: '' }, 'name'],
      [{ ...seeded(), version: undefined }, 'version'],
      [{ ...seeded(), cloud: 'no' }, 'cloud'],
      [{ ...seeded(), type: 'FAST' }, 'type'],
      [{ ...seeded(), usage: 'CHAT' }, 'usage'],
      [{ ...seeded(), created: undefined }, 'created'],
      [{ ...seeded(), created: '2025-01-01' }, 'created'],
      [{ ...seeded(), created: { value: 'yesterday' } }, 'created.value'],
      [{ ...seeded(), parameters: 'big' }, 'parameters'],
      [{ ...seeded(), bytes: { value: 'lots', readable: 'x' } }, 'bytes.value'],
      [{ ...seeded(), maxTokens: { input: 3 } }, 'maxTokens.total'],
      [{ ...seeded(), maxTokens: { total: 'many' } }, 'maxTokens.total'],
      [{ ...seeded(), capabilities: { images: 'yes' } }, 'capabilities.images'],
      [{ ...seeded(), unique: 7 }, 'unique'],
      [{ ...seeded(), unique: path.join(scratch, 'does-not-exist') }, 'unique'],
      [{ ...seeded(), unique: 'openai:gpt' }, 'unique'],
      [{ ...seeded(), unique: 'ollama:x@ftp://host' }, 'unique.baseUrl'],
      [{ ...seeded(), askcode: { source: { kind: 'ftp' } } }, 'askcode.source.kind'],
      [{ ...seeded(), askcode: { source: { kind: 'local', path: 'relative/dir' } } }, 'askcode.source.path'],
      [{ ...seeded(), askcode: { source: { kind: 'openai', model: 'm', baseUrl: 'http://user:pw@host/v1' } } }, 'askcode.source.baseUrl'],
    ];
    for (const [params, field] of cases) {
      const e = await rpcError(w.raw(ModelsCreate.method, params));
      assert.equal(e.data?.kind, 'invalid', JSON.stringify(params));
      if (field) {
        assert.equal(e.data?.field, field, JSON.stringify(params));
        assert.ok(e.message.includes(field.split('.')[0]!), `message names ${field}: ${e.message}`);
      }
    }
    assert.deepEqual(await w.request(ModelsSnapshot, undefined), before);
    assert.equal(fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8'), file);
  });

  it('models/delete removes custom models only; built-ins and folder models are refused with the reason', async () => {
    const m = await w.request(ModelsCreate, seeded({ name: 'to delete', unique: 'ollama:gone' }));
    const n = identifiers.length;
    assert.equal(await w.request(ModelsDelete, { model: m.id }), null);
    await waitFor(() => identifiers.slice(n).some((s) => s.iterable.some((i) => i.model?.id === m.id && i.deleted === true)));
    assert.equal((await rpcError(w.request(ModelGet, { model: m.id }))).data?.kind, 'not_found');
    assert.equal((await rpcError(w.request(ModelsDelete, { model: m.id }))).data?.kind, 'not_found');
    for (const id of [MINILM_MODEL_ID, QWEN_05B_MODEL_ID, EXTRACTIVE_MODEL_ID, (await byName('stories260K')).id]) {
      const e = await rpcError(w.request(ModelsDelete, { model: id }));
      assert.equal(e.data?.kind, 'forbidden', id);
      assert.match(e.message, /built in|ASKCODE_MODELS_DIR/);
      await w.request(ModelGet, { model: id });
    }
    for (const id of BAD_IDS) assert.equal((await rpcError(w.request(ModelsDelete, { model: id }))).data?.kind, 'invalid', id);
  });

  it('models/deleteCache is refused for the embedding models, the extractive answerer, endpoints and path-like ids', async () => {
    const shape = await byName('minilm-l6-shape-random-weights');
    for (const id of [MINILM_MODEL_ID, shape.id, EXTRACTIVE_MODEL_ID]) {
      const e = await rpcError(w.request(ModelsDeleteCache, { model: id, input: {} }));
      assert.equal(e.data?.kind, 'forbidden', id);
      assert.match(e.message, /LLM|no weights/);
    }
    const endpoint = await w.request(ModelsCreate, seeded({ name: 'endpoint', unique: 'ollama:qwen' }));
    assert.equal((await rpcError(w.request(ModelsDeleteCache, { model: endpoint.id }))).data?.kind, 'forbidden');
    assert.equal((await rpcError(w.request(ModelsDeleteCache, { model: 'nope' }))).data?.kind, 'not_found');
    // A file beside the cache folder and the cache root survive every refused attempt.
    const cacheRoot = path.join(dataDir, 'models');
    fs.mkdirSync(cacheRoot, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'keep.txt'), 'x');
    for (const id of [...BAD_IDS, '../keep.txt', path.join(dataDir, 'keep.txt'), '.', '']) {
      const e = await rpcError(w.request(ModelsDeleteCache, { model: id }));
      assert.equal(e.data?.kind, 'invalid', id);
    }
    assert.ok(fs.existsSync(path.join(dataDir, 'keep.txt')));
    assert.ok(fs.existsSync(path.join(dataDir, 'models.json')));
  });

  it('model/download of a catalog LLM with ASKCODE_MODELS_DIR set is a clear offline error, leaving nothing behind', async () => {
    const e = await rpcError(w.request(ModelDownload, { model: QWEN_05B_MODEL_ID }));
    assert.equal(e.data?.kind, 'offline');
    assert.match(e.message, /ASKCODE_MODELS_DIR/);
    const cacheRoot = path.join(dataDir, 'models');
    const left = fs.existsSync(cacheRoot) ? fs.readdirSync(cacheRoot) : [];
    assert.ok(!left.some((f) => f.includes('Qwen')), `nothing half-written: ${left}`);
    assert.equal((await w.request(ModelGet, { model: QWEN_05B_MODEL_ID })).downloaded, false);
    assert.equal((await rpcError(w.request(ModelLoad, { model: QWEN_05B_MODEL_ID }))).data?.kind, 'unavailable');
    assert.equal((await rpcError(w.request(ModelDownload, { model: EXTRACTIVE_MODEL_ID }))).data?.kind, 'forbidden');
  });

  it('model/download copies a folder model into the cache with progress; deleteCache removes exactly that copy', async () => {
    const stories = await byName('stories260K');
    const frames: { status?: string; percentage?: number | null }[] = [];
    w.onNotification(ModelDownloadProgressNotification, (p) => {
      if (p.model === stories.id) frames.push(p.progress);
    });
    const done = await w.request(ModelDownload, { model: stories.id });
    assert.equal(done.downloaded, true);
    assert.equal(done.downloading, false);
    await waitFor(() => frames.some((f) => f.status === 'COMPLETED'));
    const pcts = frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.percentage!);
    assert.ok(pcts.length >= 2, `progress frames: ${JSON.stringify(frames)}`);
    assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b), 'percentages never go back');
    assert.equal(frames.at(-1)?.status, 'COMPLETED');
    const cacheRoot = path.join(dataDir, 'models');
    const copies = fs.readdirSync(cacheRoot).filter((f) => f.includes('stories260K'));
    assert.equal(copies.length, 1);
    assert.ok(fs.existsSync(path.join(cacheRoot, copies[0]!, 'onnx', 'model.onnx')));
    const loaded = await w.request(ModelLoad, { model: stories.id });
    assert.equal(loaded.loaded, true);
    const out = await w.request(ModelsDeleteCache, { model: stories.id, input: {} });
    assert.deepEqual(out, { model: { id: stories.id } });
    const after = await w.request(ModelGet, { model: stories.id });
    assert.equal(after.downloaded, false);
    assert.equal(after.loaded, false, 'deleteCache unloads first');
    assert.ok(!fs.existsSync(path.join(cacheRoot, copies[0]!)));
    assert.ok(fs.existsSync(path.join(STORIES_DIR, 'onnx', 'model.onnx')), 'the source folder is untouched');
    // Cancel with nothing running is harmless.
    assert.equal((await w.request(ModelDownloadCancel, { model: stories.id })).downloading, false);
  });

  it('model/load and models/unload the MiniLM-shaped model and stories260K', async () => {
    const shape = await byName('minilm-l6-shape-random-weights');
    const stories = await byName('stories260K');
    assert.equal((await w.request(ModelLoad, { model: shape.id })).loaded, true);
    assert.equal((await w.request(ModelLoad, { model: stories.id })).loaded, true);
    const ram = (await w.request(ModelGet, { model: shape.id })).ram!.value;
    assert.ok(ram > 0, 'ram is measured on load');
    assert.equal(await w.request(ModelsUnload, undefined), null);
    const all = (await w.request(ModelsSnapshot, undefined)).iterable;
    assert.ok(all.filter((m) => m.id !== EXTRACTIVE_MODEL_ID).every((m) => !m.loaded), 'nothing stays loaded');
  });
});

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
