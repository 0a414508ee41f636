/**
 * The WebSocket routes with a real `ws` client: `/qgpt/stream` (several conversations on one
 * socket, stop, reset, malformed frames), the model feeds, and JSON-RPC on `/askcode/rpc`.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as pieces from '@pieces.app/pieces-os-client';
import type WebSocket from 'ws';
import { startFixture, frames, opened, readExample, type BridgeFixture } from './bridgeFixture';
import { ModelDownloadProgressNotification, ModelsIdentifiersNotification } from '../../server/src/protocol/models';
import type { QGPTStreamOutput } from '../../server/src/protocol/wire';

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'STOPPED', 'RESET', 'CANCELED']);

/** Frames until every listed request has had its terminal frame. */
function untilDone(ws: WebSocket, requests: string[], ms = 30_000): Promise<QGPTStreamOutput[]> {
  const open = new Set(requests);
  return frames<QGPTStreamOutput>(ws, Number.MAX_SAFE_INTEGER, ms, (f) => {
    if (f.request && TERMINAL.has(f.status ?? '')) open.delete(f.request);
    return open.size === 0;
  });
}

function seedQuestion(query: string, extra: Record<string, unknown> = {}) {
  const q = readExample('QGPTQuestionInput.withSeed');
  delete q.model;
  return { question: { ...q, query }, ...extra };
}

describe('bridge: WebSocket routes', function () {
  let fx: BridgeFixture;
  before(async () => {
    fx = await startFixture({ limits: { wsFrameBytes: 256 * 1024, streamsPerSocket: 4 } });
  });
  after(async () => fx?.close());

  describe('/qgpt/stream', () => {
    it('answers malformed frames with a FAILED frame (conversation present) and keeps the socket open', async () => {
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      const bad = ['not json', '[1,2]', '"a string"', 'null', '{"question": ', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'];
      const got = frames<QGPTStreamOutput>(ws, bad.length + 1);
      for (const b of bad) ws.send(b);
      ws.send(Buffer.from([1, 2, 3]), { binary: true });
      for (const f of await got) {
        assert.equal(f.status, 'FAILED');
        assert.equal(typeof f.conversation, 'string', 'conversation is on every frame');
        assert.ok(f.statusCode === 400 || f.statusCode === 413, `statusCode ${f.statusCode}`);
        assert.ok(f.errorMessage && f.errorMessage.length > 0);
        pieces.QGPTStreamOutputFromJSON(f);
      }
      // Still usable: an invalid-but-well-formed input gets its own answer, echoing the request id.
      const next = frames<QGPTStreamOutput>(ws, 1);
      ws.send(JSON.stringify({ request: 'after-bad', question: { query: 'x' }, relevance: { query: 'y' } }));
      const [f] = await next;
      assert.equal(f.request, 'after-bad');
      assert.equal(f.status, 'FAILED');
    });

    it('refuses relevance paths outside the served folders with a 403 frame', async () => {
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      const got = frames<QGPTStreamOutput>(ws, 1);
      ws.send(JSON.stringify({ request: 'escape', relevance: { query: 'passwords', paths: ['/etc/passwd'] } }));
      const [f] = await got;
      assert.equal(f.request, 'escape');
      assert.equal(f.status, 'FAILED');
      assert.equal(f.statusCode, 403);
    });

    it('closes with 1009 on a frame over the size cap', async () => {
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      const closed = new Promise<number>((res) => ws.once('close', (code) => res(code)));
      ws.send(JSON.stringify({ question: { query: 'x'.repeat(300 * 1024) } }));
      assert.equal(await closed, 1009);
    });

    it('carries several conversations on one socket, each request ending exactly once, none misrouted', async function () {
      this.timeout(120_000);
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      if (!fx.core.service.has('qgpt/stream')) {
        const got = frames<QGPTStreamOutput>(ws, 1);
        ws.send(JSON.stringify(seedQuestion('hello', { request: 'r0' })));
        const [f] = await got;
        assert.equal(f.request, 'r0');
        assert.equal(f.statusCode, 501);
        this.skip();
      }
      const ids = ['c1', 'c2', 'c3'];
      const done = untilDone(ws, ids);
      for (const id of ids) ws.send(JSON.stringify(seedQuestion(`What does add do? (${id})`, { request: id })));
      const all = await done;
      const byReq = new Map<string, QGPTStreamOutput[]>();
      for (const f of all) {
        pieces.QGPTStreamOutputFromJSON(f);
        assert.ok(f.request && ids.includes(f.request), `frame for an unknown request ${f.request}`);
        assert.equal(typeof f.conversation, 'string');
        byReq.set(f.request, [...(byReq.get(f.request) ?? []), f]);
      }
      const conversations = new Set<string>();
      for (const id of ids) {
        const fs = byReq.get(id) ?? [];
        const terminal = fs.filter((f) => TERMINAL.has(f.status ?? ''));
        assert.equal(terminal.length, 1, `${id} ends exactly once`);
        assert.equal(fs[fs.length - 1], terminal[0], `${id}: nothing after its terminal frame`);
        assert.equal(terminal[0].status, 'COMPLETED', `${id}: ${terminal[0].errorMessage ?? ''}`);
        assert.equal(new Set(fs.map((f) => f.conversation)).size, 1, `${id} stays in one conversation`);
        conversations.add(fs[0].conversation);
      }
      assert.equal(conversations.size, ids.length, 'each new question got its own conversation');
    });

    it('stop ends one request and leaves the other running; reset ends everything; the socket stays usable', async function () {
      this.timeout(120_000);
      if (!fx.core.service.has('qgpt/stream')) this.skip();
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      const done = untilDone(ws, ['s1', 's2']);
      ws.send(JSON.stringify(seedQuestion('first', { request: 's1' })));
      ws.send(JSON.stringify(seedQuestion('second', { request: 's2' })));
      ws.send(JSON.stringify({ request: 's1', stop: true }));
      const all = await done;
      const end = (id: string) => all.filter((f) => f.request === id && TERMINAL.has(f.status ?? ''));
      assert.equal(end('s1').length, 1);
      assert.ok(['STOPPED', 'COMPLETED'].includes(end('s1')[0].status!), `s1 ended ${end('s1')[0].status}`);
      assert.equal(end('s2').length, 1);
      assert.equal(end('s2')[0].status, 'COMPLETED', 'stopping s1 did not stop s2');

      const afterReset = untilDone(ws, ['t1', 't2']);
      ws.send(JSON.stringify(seedQuestion('third', { request: 't1' })));
      ws.send(JSON.stringify(seedQuestion('fourth', { request: 't2' })));
      ws.send(JSON.stringify({ reset: true }));
      const resetFrames = await afterReset;
      for (const id of ['t1', 't2']) {
        const t = resetFrames.filter((f) => f.request === id && TERMINAL.has(f.status ?? ''));
        assert.equal(t.length, 1, `${id} ends once`);
        assert.ok(['RESET', 'STOPPED', 'COMPLETED'].includes(t[0].status!));
      }
      const again = untilDone(ws, ['u1']);
      ws.send(JSON.stringify(seedQuestion('after reset', { request: 'u1' })));
      const u = (await again).filter((f) => f.request === 'u1');
      assert.equal(u[u.length - 1].status, 'COMPLETED');
    });

    it('stop halts a real stories260K generation mid-stream; closing the socket releases its connection', async function () {
      this.timeout(120_000);
      if (!fx.core.service.has('qgpt/stream') || !fx.core.service.has('model/download')) this.skip();
      const models = (await (await fetch(`${fx.base}/models`)).json()) as { iterable: { id: string; name: string; downloaded?: boolean }[] };
      const tiny = models.iterable.find((m) => m.name === 'stories260K');
      if (!tiny) this.skip();
      if (!tiny!.downloaded) assert.equal((await fetch(`${fx.base}/model/${tiny!.id}/download`, { method: 'POST' })).status, 200);
      const closedConnections: string[] = [];
      const streams = fx.core.streams;
      const original = streams.closeConnection;
      streams.closeConnection = (c: string) => {
        closedConnections.push(c);
        original.call(streams, c);
      };
      try {
        const ws = fx.ws('/qgpt/stream');
        await opened(ws);
        const firstChunk = frames<QGPTStreamOutput>(ws, Number.MAX_SAFE_INTEGER, 60_000, (f) => f.status === 'IN-PROGRESS' && !!f.question);
        const done = untilDone(ws, ['long']);
        ws.send(JSON.stringify({ request: 'long', question: { ...seedQuestion('Tell a long story').question, model: tiny!.id } }));
        await firstChunk;
        ws.send(JSON.stringify({ request: 'long', stop: true }));
        const all = await done;
        const last = all[all.length - 1];
        assert.equal(last.request, 'long');
        assert.equal(last.status, 'STOPPED', `ended ${last.status} ${last.errorMessage ?? ''}`);
        const gone = new Promise<void>((res) => ws.once('close', () => res()));
        ws.close();
        await gone;
        for (let i = 0; i < 50 && closedConnections.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(closedConnections.length, 1, 'the core was told the connection is gone');
        assert.match(closedConnections[0], /^ws-stream-/);
      } finally {
        streams.closeConnection = original;
      }
    });

    it('caps the streams running on one socket with a 429 frame', async function () {
      this.timeout(120_000);
      if (!fx.core.service.has('qgpt/stream')) this.skip();
      const ws = fx.ws('/qgpt/stream');
      await opened(ws);
      const ids = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
      const done = untilDone(ws, ids);
      for (const id of ids) ws.send(JSON.stringify(seedQuestion(`q ${id}`, { request: id })));
      const all = await done;
      const refused = all.filter((f) => f.statusCode === 429);
      assert.ok(refused.length >= 2, `at most 4 run at once: ${refused.length} refused`);
      for (const f of refused) assert.equal(f.status, 'FAILED');
    });
  });

  describe('model feeds', () => {
    it('/models/stream/identifiers: all ids first, then a frame for a created and a deleted model', async function () {
      if (!fx.core.service.has('models/snapshot')) this.skip();
      const ws = fx.ws('/models/stream/identifiers');
      const first = frames<pieces.StreamedIdentifiers>(ws, 1);
      await opened(ws);
      const [ids] = await first;
      const snapshot = (await (await fetch(`${fx.base}/models`)).json()) as { iterable: { id: string }[] };
      assert.deepEqual(
        ids.iterable.map((i) => i.model?.id).sort(),
        snapshot.iterable.map((m) => m.id).sort(),
      );
      pieces.StreamedIdentifiersFromJSON(ids);

      const next = frames<{ iterable: { model?: { id: string }; deleted?: boolean }[] }>(ws, 2, 10_000);
      const created = (await (await fetch(`${fx.base}/models/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...readExample('SeededModel'), name: 'feed test' }),
      })).json()) as { id: string };
      const del = await fetch(`${fx.base}/models/${encodeURIComponent(created.id)}/delete`, { method: 'POST' });
      assert.equal(del.status, 204);
      const [c, d] = await next;
      assert.ok(c.iterable.some((i) => i.model?.id === created.id && !i.deleted), 'creation pushed');
      assert.ok(d.iterable.some((i) => i.model?.id === created.id && i.deleted === true), 'deletion pushed');
    });

    it('/model/{id}/download/progress: only that model\'s progress; an unknown model is refused 404', async function () {
      if (!fx.core.service.has('models/snapshot')) this.skip();
      const snapshot = (await (await fetch(`${fx.base}/models`)).json()) as { iterable: { id: string }[] };
      const [a, b] = snapshot.iterable;
      const ws = fx.ws(`/model/${encodeURIComponent(a.id)}/download/progress`);
      await opened(ws);
      const got = frames<pieces.ModelDownloadProgress>(ws, 2, 5_000);
      fx.core.service.broadcast(ModelDownloadProgressNotification, { model: b.id, progress: { status: 'IN-PROGRESS', percentage: 99 } });
      fx.core.service.broadcast(ModelDownloadProgressNotification, { model: a.id, progress: { status: 'IN-PROGRESS', percentage: 10 } });
      fx.core.service.broadcast(ModelDownloadProgressNotification, { model: a.id, progress: { status: 'COMPLETED', percentage: 100 } });
      const [p1, p2] = await got;
      assert.deepEqual([p1.percentage, p2.percentage], [10, 100]);
      assert.equal(p2.status, 'COMPLETED');

      if (fx.core.service.has('model/get')) {
        const unknown = fx.ws('/model/no-such-model/download/progress');
        const status = await new Promise<number>((res) => unknown.once('unexpected-response', (_q, r) => res(r.statusCode ?? 0)));
        assert.equal(status, 404);
      }
    });
  });

  describe('/askcode/rpc (JSON-RPC 2.0)', () => {
    let ws: WebSocket;
    /** The reply to one message (broadcast notifications in between are skipped). */
    const call = (msg: unknown) => {
      const got = frames<Record<string, unknown>>(ws, Number.MAX_SAFE_INTEGER, 20_000, (f) => 'id' in f);
      ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
      return got.then((f) => f[f.length - 1]);
    };
    before(async () => {
      ws = fx.ws('/askcode/rpc');
      await opened(ws);
    });

    it('serves a protocol method with the same result as REST', async function () {
      if (!fx.core.service.has('models/snapshot')) this.skip();
      const reply = await call({ jsonrpc: '2.0', id: 1, method: 'models/snapshot', params: null });
      const rest = await (await fetch(`${fx.base}/models`)).json();
      assert.equal(reply.id, 1);
      assert.deepEqual(reply.result, rest);
    });

    it('answers errors with JSON-RPC codes and the error data of the worker', async () => {
      const unknown = await call({ jsonrpc: '2.0', id: 'u', method: 'no/such', params: {} });
      assert.deepEqual([unknown.id, (unknown.error as { code: number }).code], ['u', -32601]);
      const parse = await call('{"jsonrpc": "2.0", "id": 2, ');
      assert.deepEqual([parse.id, (parse.error as { code: number }).code], [null, -32700]);
      const invalidReq = await call({ id: 3, method: 'models/snapshot' });
      assert.deepEqual([invalidReq.id, (invalidReq.error as { code: number }).code], [3, -32600]);
      const escape = await call({ jsonrpc: '2.0', id: 4, method: 'qgpt/relevance', params: { query: 'x', paths: [path.resolve(fx.repo, '..')] } });
      const err = escape.error as { code: number; data: { kind: string; field: string; operation: string } };
      assert.deepEqual(err.data, { kind: 'forbidden', field: 'paths[0]', operation: 'qgpt/relevance' });
      const folders = await call({ jsonrpc: '2.0', id: 5, method: 'askcode/setFolders', params: { folders: ['/'] } });
      assert.equal((folders.error as { data: { kind: string } }).data.kind, 'forbidden');
      assert.deepEqual(fx.core.index.folders(), [fx.repo], 'the served folders are unchanged');
      if (fx.core.service.has('askcode/assets/save')) {
        const save = await call({ jsonrpc: '2.0', id: 6, method: 'askcode/assets/save', params: { path: '/etc/hostname' } });
        assert.deepEqual((save.error as { data: unknown }).data, { kind: 'forbidden', field: 'path', operation: 'askcode/assets/save' });
      }
    });

    it('answers a batch in one frame and sends nothing for a notification', async function () {
      if (!fx.core.service.has('models/snapshot')) this.skip();
      const got = frames<unknown>(ws, Number.MAX_SAFE_INTEGER, 20_000, (f) => Array.isArray(f));
      ws.send(JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'models/snapshot', params: null },
        { jsonrpc: '2.0', method: 'askcode/buffer', params: { path: path.join(fx.repo, 'x.ts'), text: null } },
        { jsonrpc: '2.0', id: 'b', method: 'no/such' },
      ]));
      const batch = (await got).pop() as Record<string, unknown>[];
      assert.ok(Array.isArray(batch));
      assert.deepEqual(batch.map((r) => r.id).sort(), ['a', 'b']);
    });

    it('pushes broadcasts as notifications', async () => {
      const ids = { iterable: [{ model: { id: 'pushed' } }] };
      const got = frames<{ method: string; params: unknown }>(ws, Number.MAX_SAFE_INTEGER, 5_000,
        (f) => f.method === 'models/identifiers' && JSON.stringify(f.params) === JSON.stringify(ids));
      fx.core.service.broadcast(ModelsIdentifiersNotification, ids);
      const n = (await got).pop()!;
      assert.equal(n.method, 'models/identifiers');
      assert.deepEqual(n.params, ids);
    });
  });
});
