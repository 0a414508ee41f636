/**
 * What the bridge stores and reads is bounded (issue 13, item 5): unknown model fields are not
 * stored, oversized chunked uploads always get their 413 (never a reset), and an unknown route
 * answers 404 without reading the body first.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { startFixture, readExample, type BridgeFixture } from './bridgeFixture';

/**
 * A raw upload over its own socket: headers, then body chunks as fast as the socket takes them,
 * until `total` bytes are sent or the socket fails (with `stopOnAnswer`, until the answer's head
 * arrives). Records when the answer came and how much was sent in all.
 */
interface Upload { status?: number; error?: string; sentBeforeAnswer: number; sent: number; body: string }
function upload(port: number, head: string, total: number, chunk: (n: number) => Buffer, stopOnAnswer: boolean, readWhileSending = stopOnAnswer): Promise<Upload> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let sent = 0;
    let got = '';
    let status: number | undefined;
    let sentAtAnswer = -1;
    let error: string | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      s.destroy();
      resolve({ status, error, sentBeforeAnswer: sentAtAnswer, sent, body: got.split('\r\n\r\n').slice(1).join('\r\n\r\n') });
    };
    s.on('data', (d) => {
      got += String(d);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (m && status === undefined) {
        status = Number(m[1]);
        sentAtAnswer = sent;
      }
      if ((stopOnAnswer || sent >= total) && status !== undefined && /"requestId"/.test(got)) finish();
    });
    s.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? String(e);
      finish();
    });
    s.on('close', finish);
    s.on('connect', () => {
      // A client that reads only once its body is sent (as many do) is the one a hasty close resets.
      if (!readWhileSending) s.pause();
      s.write(head);
      const pump = () => {
        while (!done && !(stopOnAnswer && status !== undefined) && sent < total) {
          const c = chunk(sent);
          sent += c.length;
          if (!s.write(c)) return void s.once('drain', pump);
        }
        // All sent: read the answer (and the server's close) for a moment.
        if (sent >= total) {
          s.resume();
          setTimeout(finish, 2000);
        }
      };
      pump();
    });
  });
}

describe('bridge: bounded storage and bodies', function () {
  this.timeout(120_000);
  let fx: BridgeFixture;
  before(async () => {
    fx = await startFixture({ limits: { bodyBytes: 64 * 1024 } });
  });
  after(async () => fx?.close());

  it('stores only the known fields of a model, under caps: a 7 MB junk field is dropped, a 1 MB description refused', async () => {
    const big = await startFixture();
    try {
      const post = (body: unknown) => fetch(`${big.base}/models/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const base = readExample('SeededModel');
      const r = await post({ ...base, name: 'with extras', junk: 'x'.repeat(7 * 1024 * 1024), capabilities: { codebases: true, junk: true }, created: { value: '2025-01-01T00:00:00.000Z', junk: 'y' } });
      assert.equal(r.status, 200);
      const m = (await r.json()) as Record<string, unknown>;
      assert.equal(m.junk, undefined);
      assert.deepEqual(m.capabilities, { codebases: true });
      assert.deepEqual(Object.keys(m.created as object), ['value']);
      const file = path.join(big.dataDir, 'models.json');
      assert.ok(fs.statSync(file).size < 64 * 1024, `models.json is ${fs.statSync(file).size} bytes`);
      const list = await (await fetch(`${big.base}/models`)).text();
      assert.ok(list.length < 64 * 1024 && !list.includes('junk'), `GET /models is ${list.length} bytes`);
      const long = await post({ ...base, name: 'long description', description: 'd'.repeat(1024 * 1024) });
      assert.equal(long.status, 413);
      assert.equal(((await long.json()) as { field: string }).field, 'description');
    } finally {
      await big.close();
    }
  });

  it('answers every oversized chunked upload with the 413 (8 of 8), never a connection reset', async () => {
    const results = [];
    for (let i = 0; i < 8; i++) {
      const head = `POST /models/create HTTP/1.1\r\nHost: 127.0.0.1:${fx.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const piece = 'x'.repeat(16 * 1024);
      const chunk = () => Buffer.from(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      // Like a client that sends its whole body before reading the answer: 8 MiB against a 64 KiB cap.
      results.push(await upload(fx.port, head, 8 * 1024 * 1024, chunk, false));
    }
    assert.deepEqual(results.map((r) => r.status ?? r.error), Array(8).fill(413), JSON.stringify(results.map((r) => [r.status, r.error, r.sentBeforeAnswer, r.sent])));
    for (const r of results) assert.equal(JSON.parse(r.body.replace(/^[0-9a-f]+\r\n/, '').split('\r\n')[0]!).field, 'body');
  });

  it('answers an unknown route (and a refused one) at once, without reading a 1 GB body', async () => {
    for (const [verb, route, status] of [['POST', '/no/such/route', 404], ['PUT', '/models', 405]] as const) {
      const head = `${verb} ${route} HTTP/1.1\r\nHost: 127.0.0.1:${fx.port}\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n`;
      const block = Buffer.alloc(256 * 1024, 0x20);
      const t0 = Date.now();
      const r = await upload(fx.port, head, 1024 ** 3, () => block, false, true);
      assert.equal(r.status, status, JSON.stringify(r));
      assert.ok(r.sentBeforeAnswer < 64 * 1024 * 1024, `answered after ${r.sentBeforeAnswer} bytes`);
      // The client keeps sending: the bridge stops reading soon after answering, it does not take the whole GB.
      assert.ok(r.sent < 256 * 1024 * 1024, `the bridge read ${r.sent} bytes of a body it refused`);
      assert.ok(Date.now() - t0 < 10_000);
    }
    // The bridge still serves.
    assert.equal((await fetch(`${fx.base}/.well-known/health`)).status, 200);
  });
});
