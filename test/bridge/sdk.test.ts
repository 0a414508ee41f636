/**
 * Every REST route of the bridge, called through the published `@pieces.app/pieces-os-client` SDK
 * (which parses each response with its own `FromJSON`). A route whose core handler has not landed
 * yet must answer 501 with the JSON error body; the test then checks that and is marked pending.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as pieces from '@pieces.app/pieces-os-client';
import { startFixture, readExample, opened, type BridgeFixture } from './bridgeFixture';

/** Status and JSON error body of a failed SDK call. */
async function sdkError(p: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof pieces.ResponseError) {
      const body = (await e.response.json()) as Record<string, unknown>;
      assert.equal(typeof body.message, 'string');
      assert.equal(typeof body.requestId, 'string');
      assert.equal(typeof body.operation, 'string');
      return { status: e.response.status, body };
    }
    throw e;
  }
  throw new Error('expected the SDK call to fail, but it succeeded');
}

describe('bridge: every REST route through the Pieces OS SDK', function () {
  let fx: BridgeFixture;
  let config: pieces.Configuration;
  let modelsApi: pieces.ModelsApi;
  let modelApi: pieces.ModelApi;
  let qgpt: pieces.QGPTApi;

  before(async () => {
    fx = await startFixture();
    config = new pieces.Configuration({ basePath: fx.base });
    modelsApi = new pieces.ModelsApi(config);
    modelApi = new pieces.ModelApi(config);
    qgpt = new pieces.QGPTApi(config);
  });
  after(async () => fx?.close());

  /** Runs the SDK call when the core serves `method`; otherwise asserts the 501 and skips. */
  async function whenServed<T>(ctx: Mocha.Context, method: string, call: () => Promise<T>): Promise<T> {
    if (!fx.core.service.has(method)) {
      const { status, body } = await sdkError(call());
      assert.equal(status, 501, `a route whose handler is missing answers 501 (${method})`);
      assert.equal(body.operation, method);
      ctx.skip();
    }
    return call();
  }

  async function snapshot(ctx: Mocha.Context): Promise<pieces.Models> {
    return whenServed(ctx, 'models/snapshot', () => modelsApi.modelsSnapshot());
  }

  it('GET /.well-known/health and /version answer text', async () => {
    const api = new pieces.WellKnownApi(config);
    assert.equal(await api.getWellKnownHealth(), 'ok');
    assert.match(await api.getWellKnownVersion(), /^\d+\.\d+\.\d+/);
  });

  it('GET /models: a Models the SDK parses and re-serialises', async function () {
    const models = await snapshot(this);
    assert.ok(models.iterable.length > 0, 'the registry lists the built-in models');
    for (const m of models.iterable) {
      assert.equal(typeof m.id, 'string');
      assert.ok(!Number.isNaN(m.created.value.getTime()), `created of ${m.id} is a valid date`);
    }
    // ToJSON throws on an Invalid Date: a client echoing a model back must be able to.
    pieces.ModelsToJSON(models);
  });

  it('POST /models/create, duplicate 409, GET /model/{id}, POST /models/{id}/delete 204 then 404', async function () {
    const seeded = pieces.SeededModelFromJSON({ ...readExample('SeededModel.typical'), name: 'bridge test model', unique: 'bridge-test-model' });
    const created = await whenServed(this, 'models/create', () => modelsApi.modelsCreateNewModel({ seededModel: seeded }));
    assert.equal(created.custom, true);
    assert.equal(created.name, 'bridge test model');
    pieces.ModelToJSON(created);

    const dup = await sdkError(modelsApi.modelsCreateNewModel({ seededModel: seeded }));
    assert.equal(dup.status, 409);
    assert.equal(dup.body.operation, 'models/create');

    const got = await whenServed(this, 'model/get', () => modelApi.modelsSpecificModelSnapshot({ model: created.id }));
    assert.equal(got.id, created.id);

    await whenServed(this, 'models/delete', () => modelsApi.modelsDeleteSpecificModel({ model: created.id }));
    const gone = await sdkError(modelApi.modelsSpecificModelSnapshot({ model: created.id }));
    assert.equal(gone.status, 404);
  });

  it('POST /models/{id}/delete refuses a built-in model with 403 and keeps it', async function () {
    const models = await snapshot(this);
    const builtIn = models.iterable.find((m) => !m.custom);
    assert.ok(builtIn, 'a built-in model exists');
    const refused = await whenServed(this, 'models/delete', () => sdkError(modelsApi.modelsDeleteSpecificModel({ model: builtIn.id })));
    assert.equal(refused.status, 403);
    const after = await modelsApi.modelsSnapshot();
    assert.ok(after.iterable.some((m) => m.id === builtIn.id), 'the refused model is still there');
  });

  it('POST /models/{id}/delete/cache: 403 for a non-LLM, an output for an LLM (with {} and with an empty body)', async function () {
    const models = await snapshot(this);
    const embedding = models.iterable.find((m) => m.usage === pieces.ModelUsageEnum.TextEmbedding);
    assert.ok(embedding, 'the embedding model is listed');
    const refused = await whenServed(this, 'models/deleteCache', () =>
      sdkError(modelsApi.modelsDeleteSpecificModelCache({ model: embedding.id, modelDeleteCacheInput: {} })));
    assert.equal(refused.status, 403);

    // A downloadable LLM that is not downloaded: deleting its (absent) cache touches nothing else.
    const llm = models.iterable.find((m) => m.usage === pieces.ModelUsageEnum.CodeConversation && !m.downloaded && !m.custom);
    if (!llm) return;
    const out = await modelsApi.modelsDeleteSpecificModelCache({ model: llm.id, modelDeleteCacheInput: {} });
    assert.equal(out.model.id, llm.id);
    // The SDK sends no body at all when the caller passes none, still with a JSON content type.
    const empty = await modelsApi.modelsDeleteSpecificModelCache({ model: llm.id });
    assert.equal(empty.model.id, llm.id);
  });

  it('POST /models/unload answers 204 and unloads what was loaded', async function () {
    const models = await snapshot(this);
    // A model with weights on this machine that is not loaded yet (the extractive answerer has none and is always "loaded").
    const target = models.iterable.find((m) => m.downloaded && !m.loaded);
    if (target && fx.core.service.has('model/load')) {
      const loaded = await modelApi.modelSpecificModelLoad({ model: target.id });
      assert.equal(loaded.loaded, true);
    }
    await whenServed(this, 'models/unload', () => modelsApi.unloadModels());
    const after = await modelsApi.modelsSnapshot();
    if (target) assert.notEqual(after.iterable.find((m) => m.id === target.id)?.loaded, true, `${target.name} is unloaded`);
  });

  it('GET /model/{id} of an unknown model is 404, with the path decoded', async function () {
    const r = await whenServed(this, 'model/get', () => sdkError(modelApi.modelsSpecificModelSnapshot({ model: 'no such model' })));
    assert.equal(r.status, 404);
    assert.equal(r.body.operation, 'model/get');
    assert.match(String(r.body.message), /no such model/, 'the id reached the core percent-decoded');
  });

  it('POST /model/{id}/load and /unload return the Model', async function () {
    const models = await snapshot(this);
    const target = models.iterable.find((m) => m.downloaded && !m.loaded) ?? models.iterable.find((m) => m.downloaded);
    assert.ok(target, 'some model is available locally');
    const loaded = await whenServed(this, 'model/load', () => modelApi.modelSpecificModelLoad({ model: target.id }));
    assert.equal(loaded.id, target.id);
    assert.equal(loaded.loaded, true);
    pieces.ModelToJSON(loaded);
    const unloaded = await whenServed(this, 'model/unload', () => modelApi.modelSpecificModelUnload({ model: target.id }));
    assert.equal(unloaded.id, target.id);
    if (!target.loaded) assert.notEqual(unloaded.loaded, true);
    const missing = await sdkError(modelApi.modelSpecificModelLoad({ model: 'no-such-model' }));
    assert.equal(missing.status, 404);
  });

  it('POST /model/{id}/download and /download/cancel: 404 for an unknown model; a local LLM downloads with progress frames', async function () {
    const r = await whenServed(this, 'model/download', () => sdkError(modelApi.modelSpecificModelDownload({ model: 'unknown-model' })));
    assert.equal(r.status, 404);
    const c = await whenServed(this, 'model/download/cancel', () => sdkError(modelApi.modelSpecificModelDownloadCancel({ model: 'unknown-model' })));
    assert.equal(c.status, 404);
    const models = await modelsApi.modelsSnapshot();
    // stories260K comes from ASKCODE_MODELS_DIR: "downloading" it never leaves the machine.
    const tiny = models.iterable.find((m) => m.name === 'stories260K');
    if (!tiny) return;
    const progress = fx.ws(`/model/${encodeURIComponent(tiny.id)}/download/progress`);
    await opened(progress);
    const seen: pieces.ModelDownloadProgress[] = [];
    progress.on('message', (d) => seen.push(pieces.ModelDownloadProgressFromJSON(JSON.parse(String(d)))));
    const d = await modelApi.modelSpecificModelDownload({ model: tiny.id });
    assert.equal(d.id, tiny.id);
    pieces.ModelToJSON(d);
    const dc = await modelApi.modelSpecificModelDownloadCancel({ model: tiny.id });
    assert.equal(dc.id, tiny.id);
    await new Promise((res) => setTimeout(res, 200));
    for (const p of seen) {
      if (p.percentage !== undefined && p.percentage !== null) assert.ok(p.percentage >= 0 && p.percentage <= 100);
    }
  });

  it('POST /qgpt/relevance over seeds and over a path of the served folder', async function () {
    const input = readExample('QGPTRelevanceInput.seedsAndAnswer');
    delete input.model;
    delete input.options;
    const out = await whenServed(this, 'qgpt/relevance', () =>
      qgpt.relevance({ qGPTRelevanceInput: pieces.QGPTRelevanceInputFromJSON(input) }));
    assert.ok(Array.isArray(out.relevant.iterable));
    pieces.QGPTRelevanceOutputToJSON(out);

    const byPath = await qgpt.relevance({
      qGPTRelevanceInput: { query: 'add two numbers', paths: [path.join(fx.repo, 'src', 'math.ts')] },
    });
    assert.ok(byPath.relevant.iterable.length > 0, 'the file named in paths is relevant');
    assert.ok(byPath.relevant.iterable.every((s) => s.path === undefined || s.path.startsWith(fx.repo)));
  });

  it('POST /qgpt/relevance with paths outside the served folders is 403 and names the field', async () => {
    const r = await sdkError(qgpt.relevance({ qGPTRelevanceInput: { query: 'secrets', paths: ['/etc/passwd'] } }));
    assert.equal(r.status, 403);
    assert.equal(r.body.field, 'paths[0]');
    const rel = await sdkError(qgpt.relevance({ qGPTRelevanceInput: { query: 'x', paths: [path.join(fx.repo, '..', 'data')] } }));
    assert.equal(rel.status, 403, 'a path that climbs out of the folder is refused too');
  });

  it('POST /qgpt/relevance with no body is 400 naming the body', async () => {
    const r = await sdkError(qgpt.relevance({}));
    assert.equal(r.status, 400);
    assert.equal(r.body.field, 'body');
  });

  it('POST /qgpt/question with an inline seed: answers carry a score in [0, 1]', async function () {
    const input = readExample('QGPTQuestionInput.withSeed');
    delete input.model;
    const out = await whenServed(this, 'qgpt/question', () =>
      qgpt.question({ qGPTQuestionInput: pieces.QGPTQuestionInputFromJSON(input) }));
    assert.ok(out.answers.iterable.length > 0);
    for (const a of out.answers.iterable) {
      assert.ok(a.score >= 0 && a.score <= 1, `score ${a.score} in [0, 1]`);
      assert.equal(typeof a.text, 'string');
    }
    pieces.QGPTQuestionOutputToJSON(out);
  });

  it('POST /qgpt/hints returns a QGPTQuestionOutput', async function () {
    const { relevant } = readExample('QGPTQuestionInput.withSeed');
    const out = await whenServed(this, 'qgpt/hints', () =>
      qgpt.hints({ qGPTHintsInput: pieces.QGPTHintsInputFromJSON({ query: 'What does add do?', relevant }) }));
    assert.ok(Array.isArray(out.answers.iterable));
    for (const a of out.answers.iterable) assert.ok(a.text.length > 0);
  });

  it('POST /qgpt/reprompt rewrites a follow-up into a query', async function () {
    const input = readExample('QGPTRepromptInput.history');
    delete input.model;
    const out = await whenServed(this, 'qgpt/reprompt', () =>
      qgpt.reprompt({ qGPTRepromptInput: pieces.QGPTRepromptInputFromJSON(input) }));
    assert.equal(typeof out.query, 'string');
    assert.ok(out.query.length > 0);
  });

  it('POST /qgpt/persons/related?transferables=…: Persons, with {} and with a seed; a bad flag is 400', async function () {
    const out = await whenServed(this, 'qgpt/personsRelated', () =>
      qgpt.personsRelated({ transferables: false, qGPTPersonsRelatedInput: {} }));
    assert.ok(Array.isArray(out.persons.iterable));
    const seeded = await qgpt.personsRelated({
      transferables: true,
      qGPTPersonsRelatedInput: pieces.QGPTPersonsRelatedInputFromJSON(readExample('QGPTPersonsRelatedInput.seed')),
    });
    assert.ok(Array.isArray(seeded.persons.iterable));
    pieces.QGPTPersonsRelatedOutputToJSON(seeded);
    const bad = await fetch(`${fx.base}/qgpt/persons/related?transferables=maybe`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { field: string }).field, 'transferables');
  });

  it('POST /model/update: a custom model renamed through the SDK round trip; identity fields and built-ins refused', async function () {
    const created = await modelsApi.modelsCreateNewModel({ seededModel: pieces.SeededModelFromJSON({ ...readExample('SeededModel.typical'), name: 'to rename', unique: 'to-rename' }) });
    // What a client does: read the model, change it, send the whole object back.
    const got = await modelApi.modelsSpecificModelSnapshot({ model: created.id });
    const updated = await whenServed(this, 'model/update', () =>
      modelApi.modelUpdate({ model: { ...got, name: 'renamed', description: 'new words', maxTokens: { total: 4096 } } }));
    assert.equal(updated.id, created.id);
    assert.equal(updated.name, 'renamed');
    assert.equal(updated.description, 'new words');
    assert.equal(updated.maxTokens?.total, 4096);
    assert.equal((await modelApi.modelsSpecificModelSnapshot({ model: created.id })).name, 'renamed', 'kept');
    const identity = await sdkError(modelApi.modelUpdate({ model: { ...got, unique: 'another-model' } }));
    assert.equal(identity.status, 403);
    assert.equal(identity.body.field, 'unique');
    const builtIn = (await modelsApi.modelsSnapshot()).iterable.find((m) => !m.custom)!;
    assert.equal((await sdkError(modelApi.modelUpdate({ model: { ...builtIn, name: 'mine now' } }))).status, 403);
    const unknown = await sdkError(modelApi.modelUpdate({ model: { ...got, id: 'no-such-model' } }));
    assert.equal(unknown.status, 404);
    const bad = await fetch(`${fx.base}/model/update`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...pieces.ModelToJSON(got), type: 'HUGE' }) });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).field, 'type');
  });

  it('POST /model/{id}/scores/increment: 204, the counters grow; an unknown model 404, a bad flag 400', async function () {
    const llm = (await modelsApi.modelsSnapshot()).iterable.find((m) => m.usage === pieces.ModelUsageEnum.CodeConversation)!;
    const before = llm.score?.reuse ?? 0;
    await whenServed(this, 'model/scores/increment', () =>
      modelApi.modelScoresIncrement({ model: llm.id, seededScoreIncrement: { model: { reuse: true, searched: true } } }));
    await modelApi.modelScoresIncrement({ model: llm.id, seededScoreIncrement: { model: { reuse: true } } });
    await modelApi.modelScoresIncrement({ model: llm.id }); // no body: nothing to count, still fine
    const after = await modelApi.modelsSpecificModelSnapshot({ model: llm.id });
    assert.equal(after.score?.reuse, before + 2);
    assert.equal(after.score?.searched, 1);
    assert.equal((await sdkError(modelApi.modelScoresIncrement({ model: 'no-such-model', seededScoreIncrement: { model: { reuse: true } } }))).status, 404);
    const bad = await fetch(`${fx.base}/model/${llm.id}/scores/increment`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"model":{"reuse":"yes"}}' });
    assert.equal(bad.status, 400);
  });

  it("POST /connect: the copilot example's first call gets its Application back, with the same id each time", async function () {
    const connector = new pieces.ConnectorApi(config);
    const seededConnectorConnection = { application: { name: pieces.ApplicationNameEnum.OpenSource, version: '0.0.0', platform: pieces.PlatformEnum.Linux } };
    const ctx = await whenServed(this, 'connector/connect', () => connector.connect({ seededConnectorConnection }));
    assert.ok(pieces.instanceOfContext(ctx));
    assert.ok(pieces.instanceOfApplication(ctx.application));
    assert.equal(ctx.application.name, pieces.ApplicationNameEnum.OpenSource);
    assert.equal(ctx.application.version, '0.0.0');
    assert.match(ctx.application.id, /^[0-9a-f-]{36}$/);
    assert.equal(ctx.health.os.id, ctx.os);
    pieces.ContextToJSON(ctx);
    assert.equal((await connector.connect({ seededConnectorConnection })).application.id, ctx.application.id);
    const other = await connector.connect({ seededConnectorConnection: { application: { ...seededConnectorConnection.application, version: '1.0.0' } } });
    assert.notEqual(other.application.id, ctx.application.id);
    assert.equal((await sdkError(connector.connect({}))).status, 400);
  });

  it('a custom model created without a source: load and download 409 with a plain message, delete-cache deletes nothing', async function () {
    const label = await modelsApi.modelsCreateNewModel({ seededModel: pieces.SeededModelFromJSON({ ...readExample('SeededModel.typical'), name: 'just a label', unique: 'just-a-label' }) });
    for (const call of [() => modelApi.modelSpecificModelLoad({ model: label.id }), () => modelApi.modelSpecificModelDownload({ model: label.id })]) {
      const e = await sdkError(call());
      assert.equal(e.status, 409);
      assert.match(String(e.body.message), /created without a source, so there is nothing to (load|download)/);
    }
    const before = new Set(fs.readdirSync(fx.dataDir, { recursive: true }) as string[]);
    const out = await modelsApi.modelsDeleteSpecificModelCache({ model: label.id, modelDeleteCacheInput: {} });
    assert.equal(out.model.id, label.id);
    assert.deepEqual(new Set(fs.readdirSync(fx.dataDir, { recursive: true }) as string[]), before, 'nothing was deleted');
    assert.equal((await modelApi.modelsSpecificModelSnapshot({ model: label.id })).id, label.id, 'the model stays');
  });

  it("GET /model_context_protocol/schema_versions: the SDK's ModelContextProtocolApi finds the MCP endpoint", async () => {
    const mcp = new pieces.ModelContextProtocolApi(config);
    const versions = await mcp.modelContextProtocolSchemaVersions();
    assert.equal(versions.iterable[0]?.version, '2025-03-26');
    assert.equal(versions.iterable[0]?.entryEndpoint, `${fx.base}/model_context_protocol/2025-03-26/mcp`);
  });

  it('a plain GET on a WebSocket route is 426; an unknown route 404; a wrong verb 405', async () => {
    for (const p of ['/qgpt/stream', '/models/stream/identifiers', '/askcode/rpc']) {
      const r = await fetch(fx.base + p);
      assert.equal(r.status, 426, p);
      assert.equal(r.headers.get('upgrade'), 'websocket');
    }
    assert.equal((await fetch(`${fx.base}/no/such/route`)).status, 404);
    const wrong = await fetch(`${fx.base}/models`, { method: 'POST' });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'GET');
  });
});
