/**
 * A bridge client cannot send the server's secrets anywhere (issue 13, item 2): over the bridge a
 * model may name an environment variable or a stored secret only when the user allowed that name
 * (`serve --allow-secret NAME`, `askcode.bridge.allowedSecrets`). `askcode serve` runs as a real
 * process with a secret in its environment; a loopback listener records what reaches it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import * as pieces from '@pieces.app/pieces-os-client';
import WebSocket from 'ws';
import { makeRepo, readExample, frames, opened } from './bridgeFixture';
import { serve, CLI, type Served } from '../helpers/serve';

const LEAK = 'sk-leak-5f1e0c9a';
const DEFAULT_KEY = 'sk-default-77c3';

interface Seen { path: string; auth?: string }

/** An OpenAI-compatible endpoint that records each request's path and Authorization header. */
async function listener(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ delta: { content: 'hello from the endpoint' } }] })}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

describe('bridge: secrets leave only where the user allowed', function () {
  this.timeout(120_000);
  let root: string;
  let repo: string;
  let ep: Awaited<ReturnType<typeof listener>>;
  let s: Served | undefined;
  const env = { ASKCODE_TEST_LEAK: LEAK, OPENAI_API_KEY: DEFAULT_KEY };

  before(async function () {
    if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-secrets-'));
    repo = makeRepo(root);
    ep = await listener();
  });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });
  after(async () => {
    await ep?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const model = (over: Record<string, unknown>) => ({ ...readExample('SeededModel'), name: `m ${Math.random().toString(36).slice(2)}`, usage: 'CODE_CONVERSATION', ...over });
  const create = (body: unknown) => fetch(`${s!.url}models/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ask = (id: string) => new pieces.QGPTApi(new pieces.Configuration({ basePath: s!.url.replace(/\/$/, '') }))
    .question({ qGPTQuestionInput: { query: 'what does addNumbers do?', relevant: { iterable: [] }, model: id } });

  it('refuses (403, nothing sent) a bridge model naming an environment variable or stored secret the user did not allow', async () => {
    s = await serve([repo, '--port', '0', '--data-dir', path.join(root, 'd1')], env);
    const byEnv = await create(model({ askcode: { source: { kind: 'openai', model: 'gpt', baseUrl: `${ep.url}/v1`, apiKeyEnv: 'ASKCODE_TEST_LEAK' } } }));
    assert.equal(byEnv.status, 403);
    const body = (await byEnv.json()) as { message: string; field?: string };
    assert.equal(body.field, 'askcode.source.apiKeyEnv');
    assert.match(body.message, /allow-secret ASKCODE_TEST_LEAK|allowedSecrets/);
    const bySecret = await create(model({ askcode: { source: { kind: 'openai', model: 'gpt', baseUrl: `${ep.url}/v1`, apiKeySecret: 'askcode.apiKey.some-uuid' } } }));
    assert.equal(bySecret.status, 403);
    // Same over /askcode/rpc, and the client cannot allow itself a secret through the settings.
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/askcode/rpc`);
    await opened(ws);
    const replies = frames<Record<string, unknown>>(ws, Number.MAX_SAFE_INTEGER, 20_000, (f) => f.id === 2);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'askcode/settings', params: { bridge: { enabled: true, allowedSecrets: ['ASKCODE_TEST_LEAK'] } } }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'models/create', params: model({ askcode: { source: { kind: 'openai', model: 'gpt', baseUrl: `${ep.url}/v1`, apiKeyEnv: 'ASKCODE_TEST_LEAK' } } }) }));
    const got = await replies;
    ws.close();
    for (const id of [1, 2]) {
      const r = got.find((f) => f.id === id) as { error?: { data?: { kind?: string } } };
      assert.equal(r?.error?.data?.kind, 'forbidden', `rpc id ${id}: ${JSON.stringify(r)}`);
    }
    // A model naming no key reaches its endpoint, without the server's default key.
    const plain = await create(model({ unique: `openai:gpt@${ep.url}/v1` }));
    assert.equal(plain.status, 200);
    const { id } = (await plain.json()) as { id: string };
    const out = await ask(id);
    assert.match(out.answers.iterable[0]!.text, /hello from the endpoint/);
    assert.equal(ep.seen.length, 1, 'only the keyless model reached the listener');
    assert.equal(ep.seen[0]!.auth, undefined, 'no Authorization header: the default OPENAI_API_KEY is not sent for a bridge model');
  });

  it('with --allow-secret NAME the bridge model sends that key, and only that one', async () => {
    ep.seen.length = 0;
    s = await serve([repo, '--port', '0', '--data-dir', path.join(root, 'd2'), '--allow-secret', 'ASKCODE_TEST_LEAK'], env);
    const ok = await create(model({ askcode: { source: { kind: 'openai', model: 'gpt', baseUrl: `${ep.url}/v1`, apiKeyEnv: 'ASKCODE_TEST_LEAK' } } }));
    assert.equal(ok.status, 200, await ok.clone().text());
    const { id } = (await ok.json()) as { id: string };
    await ask(id);
    assert.deepEqual(ep.seen.map((x) => x.auth), [`Bearer ${LEAK}`]);
    const other = await create(model({ askcode: { source: { kind: 'openai', model: 'gpt', baseUrl: `${ep.url}/v1`, apiKeyEnv: 'OPENAI_API_KEY' } } }));
    assert.equal(other.status, 403, 'a name not on the list is still refused');
    // Allowed once is not allowed forever: restarted without the flag, the stored model sends no key.
    await s.stop();
    s = await serve([repo, '--port', '0', '--data-dir', path.join(root, 'd2')], env);
    await ask(id);
    assert.deepEqual(ep.seen.map((x) => x.auth), [`Bearer ${LEAK}`, undefined]);
  });
});
