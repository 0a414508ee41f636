/**
 * Custom models served by an OpenAI-compatible endpoint and by Ollama, end to end through the real
 * worker. Neither service can run here, so a loopback server speaks their two streaming formats
 * (SSE `chat/completions`, NDJSON `/api/chat`) with REAL generation from stories260K behind it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWorker, rpcError, SHARED_MODELS, type WorkerHandle } from '../helpers/worker';
import { ModelsCreate, ModelsDelete, ModelGet } from '../../server/src/protocol/models';
import { QgptQuestion } from '../../server/src/protocol/qgpt';
import { QgptStream, QgptStreamOutputNotification } from '../../server/src/protocol/stream';
import type { QGPTStreamOutput } from '../../server/src/protocol/wire';
import { seeded, tempDir } from './fixtures';

type Pipeline = (prompt: string, opts: Record<string, unknown>) => Promise<unknown>;

interface Seen {
  path: string;
  auth?: string;
  body: { model?: string; messages?: { role: string; content: string }[]; stream?: boolean };
  aborted: boolean;
}

/** Streams stories260K tokens for the last user message in the wire format of the path asked. */
async function startEndpoint(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const tf = await import('@huggingface/transformers');
  tf.env.allowRemoteModels = false;
  tf.env.localModelPath = SHARED_MODELS + '/';
  const generator = (await tf.pipeline('text-generation', 'stories260K')) as unknown as Pipeline;
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      const entry: Seen = { path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw || '{}'), aborted: false };
      seen.push(entry);
      res.on('close', () => {
        if (!res.writableFinished) entry.aborted = true;
      });
      const last = [...(entry.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
      const chunks: string[] = [];
      const streamer = new tf.TextStreamer((generator as unknown as { tokenizer: never }).tokenizer, {
        skip_prompt: true,
        callback_function: (t: string) => void chunks.push(t),
      });
      // The tiny model has a 512-token window: a story seed from the end of the prompt is enough.
      await generator('Once upon a time ' + last.slice(-40), { max_new_tokens: 40, do_sample: false, streamer });
      const openai = entry.path.endsWith('/chat/completions');
      res.writeHead(200, { 'content-type': openai ? 'text/event-stream' : 'application/x-ndjson' });
      for (const c of chunks) {
        if (res.destroyed) return;
        res.write(openai
          ? `data: ${JSON.stringify({ choices: [{ delta: { content: c } }] })}\n\n`
          : JSON.stringify({ message: { role: 'assistant', content: c }, done: false }) + '\n');
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end(openai ? 'data: [DONE]\n\n' : JSON.stringify({ done: true }) + '\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

describe('custom endpoint models (OpenAI-compatible, Ollama) through the worker', function () {
  this.timeout(120_000);
  let dataDir: string;
  let w: WorkerHandle;
  let ep: Awaited<ReturnType<typeof startEndpoint>>;
  const relevant = {
    iterable: [{ seed: { type: 'SEEDED_ASSET' as const, asset: { application: { id: 'a', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' }, format: { fragment: { string: { raw: 'def add(a, b):\n    return a + b\n' }, metadata: { ext: 'py' } } } } } }],
  };

  before(async () => {
    ep = await startEndpoint();
    dataDir = tempDir('endpoints');
    w = await startWorker({ dataDir, env: { ASKCODE_TEST_ENDPOINT_KEY: 'worker-env-key' } });
  });
  after(async () => {
    await w?.stop();
    await ep?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers through an OpenAI-compatible endpoint, with the key from the client's secret store, never stored", async () => {
    // The test plays the extension's part: it answers the worker's askcode/secret request.
    process.env.ASKCODE_TEST_SECRET_NAME = 'sk-test-123';
    const m = await w.request(ModelsCreate, {
      ...seeded({ name: 'endpoint stories', cloud: true }),
      askcode: { source: { kind: 'openai', model: 'stories', baseUrl: `${ep.url}/v1`, apiKeySecret: 'ASKCODE_TEST_SECRET_NAME' } },
    });
    assert.equal(m.custom, true);
    const out = await w.request(QgptQuestion, { query: 'What does add return?', relevant, model: m.id });
    const text = out.answers.iterable[0].text;
    assert.ok(text.trim().length > 0, 'the endpoint produced text');
    const req = ep.seen.at(-1)!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.body.model, 'stories');
    assert.equal(req.body.stream, true);
    assert.equal(req.auth, 'Bearer sk-test-123');
    assert.ok(req.body.messages?.some((x) => x.role === 'user' && x.content.includes('What does add return?')), 'the question is in the prompt');
    assert.ok(req.body.messages?.some((x) => x.content.includes('return a + b')), 'the snippet is in the prompt');
    const registry = fs.readFileSync(`${dataDir}/models.json`, 'utf8');
    assert.ok(!registry.includes('sk-test-123'), 'the key never reaches the registry file');
    await w.request(ModelsDelete, { model: m.id });
  });

  it("reads a key named by apiKeyEnv from the worker's environment", async () => {
    const m = await w.request(ModelsCreate, {
      ...seeded({ name: 'endpoint env key', cloud: true }),
      askcode: { source: { kind: 'openai', model: 'stories', baseUrl: ep.url, apiKeyEnv: 'ASKCODE_TEST_ENDPOINT_KEY' } },
    });
    await w.request(QgptQuestion, { query: 'What does add return?', relevant, model: m.id });
    assert.equal(ep.seen.at(-1)!.auth, 'Bearer worker-env-key');
    assert.equal(ep.seen.at(-1)!.path, '/v1/chat/completions', 'a bare origin gets the /v1 prefix');
  });

  it('streams an Ollama model (created from `unique`) as deltas and stops it on request', async () => {
    const m = await w.request(ModelsCreate, seeded({ name: 'ollama stories', unique: `ollama:stories@${ep.url}` }));
    const got = await w.request(ModelGet, { model: m.id });
    assert.equal(got.custom, true);
    const frames: QGPTStreamOutput[] = [];
    w.onNotification(QgptStreamOutputNotification, (f) => frames.push(f));
    await w.request(QgptStream, { request: 'oll-1', question: { query: 'What does add return?', relevant, model: m.id } });
    const deadline = Date.now() + 60_000;
    while (!frames.some((f) => f.request === 'oll-1' && f.status !== 'IN-PROGRESS') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const mine = frames.filter((f) => f.request === 'oll-1');
    assert.equal(mine.at(-1)?.status, 'COMPLETED');
    const deltas = mine.filter((f) => f.question).map((f) => f.question!.answers.iterable[0].text);
    assert.ok(deltas.length > 3, `several deltas, got ${deltas.length}`);
    assert.equal(ep.seen.at(-1)!.path, '/api/chat');

    // A second request, stopped while the endpoint is still streaming: the HTTP request is dropped.
    await w.request(QgptStream, { request: 'oll-2', question: { query: 'Tell me more', relevant, model: m.id } });
    while (!frames.some((f) => f.request === 'oll-2' && f.question) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await w.request(QgptStream, { request: 'oll-2', stop: true });
    while (!frames.some((f) => f.request === 'oll-2' && f.status === 'STOPPED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(ep.seen.at(-1)!.aborted, true, 'the endpoint saw the request dropped');
  });

  it('an endpoint that is not listening: the answer quotes the code and says why in plain words, offering another model', async () => {
    const m = await w.request(ModelsCreate, seeded({ name: 'nowhere', unique: 'openai:x@http://127.0.0.1:9/v1' }));
    const out = await w.request(QgptQuestion, { query: 'hi', relevant, model: m.id });
    assert.match(out.answers.iterable[0]!.text, /No language model was used/);
    const [notice] = out.askcode?.notices ?? [];
    assert.equal(notice?.kind, 'model-unavailable');
    assert.match(notice!.message, /could not answer \(.*not reachable.*\), so this answer quotes the code instead/);
    assert.doesNotMatch(notice!.message, /model\/download|call /);
    assert.equal(notice?.action?.command, 'pick-model');
  });
});
