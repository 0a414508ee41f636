/**
 * The bridge protecting itself on loopback: DNS rebinding (Host), foreign pages (Origin) on HTTP
 * and WebSocket, size and depth caps, and a thousand fuzzed bodies that must never crash it,
 * never give a 500 and never damage the data.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startFixture, readExample, refusedWith, opened, type BridgeFixture } from './bridgeFixture';
import { startBridge } from '../../server/src/bridge/bridge';
import { silentLogger } from '../../server/src/core/logger';
import { raw } from '../helpers/rawHttp';



/** Deterministic, so a failing body can be reproduced from the seed. */
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random values and mutations of a valid message: dropped keys, wrong types, odd strings, prototype keys. */
function fuzzer(rand: () => number) {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const weird = (): unknown => pick<() => unknown>([
    () => null, () => true, () => -1, () => 1e308, () => Number.MAX_SAFE_INTEGER + 2, () => '', () => '\u0000\ud800',
    () => 'x'.repeat(Math.floor(rand() * 5000)), () => [], () => [null], () => ({}), () => ({ __proto__: { polluted: true } }),
    () => ({ constructor: { prototype: { polluted: true } } }), () => '../../../../etc/passwd', () => ({ iterable: 'no' }),
    () => ({ iterable: [{}, null, 1] }), () => ({ value: 'not a date' }),
  ])();
  const mutate = (v: unknown, depth: number): unknown => {
    if (depth > 6 || rand() < 0.15) return weird();
    if (Array.isArray(v)) return v.map((x) => mutate(x, depth + 1));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = rand();
        if (r < 0.1) continue; // drop a required key
        out[k] = r < 0.3 ? mutate(x, depth + 1) : x;
      }
      if (rand() < 0.2) out[pick(['extra', 'paths', 'seeds', 'options', 'model', 'query', 'relevant', '__proto__'])] = weird();
      return out;
    }
    return rand() < 0.5 ? weird() : v;
  };
  return { pick, mutate };
}

describe('bridge: security on loopback', function () {
  let fx: BridgeFixture;
  before(async () => {
    fx = await startFixture({ limits: { bodyBytes: 64 * 1024, jsonDepth: 32, urlLength: 2048 } });
  });
  after(async () => fx?.close());

  it('refuses a Host that is not a loopback name with this port (DNS rebinding): 421, on HTTP and WS', async () => {
    const forged = ['evil.example', `evil.example:${fx.port}`, `localhost:${fx.port + 1}`, `127.0.0.1.evil.example:${fx.port}`, `localhost`];
    for (const host of forged) {
      const r = await raw(fx.port, { path: '/models', headers: { Host: host } });
      assert.equal(r.status, 421, host);
      assert.match(JSON.parse(r.body).message, /Host/);
      const ws = new WebSocket(`ws://127.0.0.1:${fx.port}/qgpt/stream`, { headers: { Host: host } });
      ws.on('error', () => {});
      assert.equal(await refusedWith(ws), 421, `WS ${host}`);
    }
    for (const host of [`localhost:${fx.port}`, `127.0.0.1:${fx.port}`, `[::1]:${fx.port}`, `LOCALHOST:${fx.port}`]) {
      const r = await raw(fx.port, { path: '/.well-known/health', headers: { Host: host } });
      assert.equal(r.status, 200, host);
    }
  });

  it('refuses a foreign Origin on HTTP (403, no CORS headers), VS Code webviews included, and lets our page in', async () => {
    // Any extension's webview has a vscode-webview:// origin; askcode's own panel talks to the worker by messages.
    const webviews = ['vscode-webview://1c2d3e4f5a6b', 'vscode-webview://x/../evil'];
    for (const origin of ['http://evil.example', 'null', `http://localhost:${fx.port + 1}`, 'https://localhost:' + fx.port, ...webviews]) {
      for (const req of [{ path: '/models' }, { method: 'POST', path: '/qgpt/relevance', body: '{"query":"x"}' }, { method: 'OPTIONS', path: '/models' }]) {
        const r = await raw(fx.port, { ...req, headers: { Origin: origin, 'Content-Type': 'application/json' } });
        assert.equal(r.status, 403, `${origin} ${req.method ?? 'GET'} ${req.path}`);
        assert.equal(r.headers['access-control-allow-origin'], undefined);
      }
    }
    const own = await raw(fx.port, { path: '/.well-known/health', headers: { Origin: `http://localhost:${fx.port}` } });
    assert.equal(own.status, 200);
    assert.equal(own.headers['access-control-allow-origin'], undefined, 'same origin needs no CORS header');
    for (const method of ['GET', 'OPTIONS']) {
      const ownPre = await raw(fx.port, { method, path: '/models', headers: { Origin: `http://127.0.0.1:${fx.port}` } });
      assert.ok(ownPre.status < 300, `${method} from our page`);
      for (const [k] of Object.entries(ownPre.headers)) assert.ok(!k.startsWith('access-control-'), `no CORS allowance is ever sent (${k})`);
    }
    const cross = await raw(fx.port, { path: '/.well-known/health', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' } });
    assert.equal(cross.status, 403, 'a cross-site browser request without Origin is refused too');
  });

  it('refuses a foreign Origin on every WebSocket route (403) and accepts our own page', async () => {
    for (const p of ['/qgpt/stream', '/askcode/rpc', '/models/stream/identifiers']) {
      for (const origin of ['http://evil.example', 'vscode-webview://1c2d3e4f5a6b']) {
        const evil = fx.ws(p, { Origin: origin });
        assert.equal(await refusedWith(evil), 403, `${origin} ${p}`);
      }
    }
    const own = fx.ws('/askcode/rpc', { Origin: `http://127.0.0.1:${fx.port}` });
    await opened(own);
    own.close();
  });

  it('caps body size (413), JSON depth, URL length (414) and refuses non-JSON bodies; the data is intact', async () => {
    const before = (await raw(fx.port, { path: '/models' })).body;
    const big = JSON.stringify({ query: 'x'.repeat(100 * 1024) });
    const r = await raw(fx.port, { method: 'POST', path: '/qgpt/relevance', headers: { 'Content-Type': 'application/json' }, body: big });
    assert.equal(r.status, 413);
    assert.equal(JSON.parse(r.body).field, 'body');
    // The same without Content-Length (chunked): the cap holds while reading.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: fx.port, method: 'POST', path: '/models/create', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    assert.equal(chunked, 413);

    const deep = '{"query":"x","seeds":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const d = await raw(fx.port, { method: 'POST', path: '/qgpt/relevance', headers: { 'Content-Type': 'application/json' }, body: deep });
    assert.equal(d.status, 413);
    assert.match(JSON.parse(d.body).message, /deeper than 32/);

    const long = await raw(fx.port, { path: '/models?' + 'a'.repeat(3000) });
    assert.equal(long.status, 414);

    const text = await raw(fx.port, { method: 'POST', path: '/qgpt/relevance', headers: { 'Content-Type': 'text/plain' }, body: '{"query":"x"}' });
    assert.equal(text.status, 400);
    assert.equal(JSON.parse(text.body).field, 'Content-Type');

    const utf = await raw(fx.port, { method: 'POST', path: '/models/create', headers: { 'Content-Type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    assert.equal(utf.status, 400);
    assert.equal((await raw(fx.port, { path: '/models' })).body, before, 'nothing changed');
  });

  it('survives a thousand fuzzed bodies on every POST route: no crash, no 500, data intact', async function () {
    this.timeout(240_000);
    const rand = mulberry32(0xa5c0de);
    const { pick, mutate } = fuzzer(rand);
    const models = JSON.parse((await raw(fx.port, { path: '/models' })).body) as { iterable: { id: string }[] };
    const ids = [...models.iterable.map((m) => m.id), 'nope', '..', '%2e%2e', 'a%2Fb', '%00', encodeURIComponent('x'.repeat(300))];
    const routes: [string, string][] = [
      ['/models/create', 'SeededModel.typical'],
      ['/qgpt/relevance', 'QGPTRelevanceInput.seedsAndAnswer'],
      ['/qgpt/question', 'QGPTQuestionInput.withSeed'],
      ['/qgpt/hints', 'QGPTHintsInput.followup'],
      ['/qgpt/reprompt', 'QGPTRepromptInput.history'],
      ['/qgpt/persons/related?transferables=true', 'QGPTPersonsRelatedInput.seed'],
      ['/models/{id}/delete/cache', 'ModelDeleteCacheInput'],
      ['/models/{id}/delete', 'ModelDeleteCacheInput'],
      ['/model/{id}/load', 'ModelDeleteCacheInput'],
      ['/model/{id}/unload', 'ModelDeleteCacheInput'],
      ['/model/{id}/download/cancel', 'ModelDeleteCacheInput'],
    ];
    const created: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const one = async () => {
      const [route, example] = pick(routes);
      const target = route.replace('{id}', encodeURIComponent(pick(ids)));
      let body: string | Buffer = JSON.stringify(mutate(readExample(example), 0)) ?? '';
      const r = rand();
      if (r < 0.1) body = body.slice(0, Math.floor(body.length * rand())); // truncated
      else if (r < 0.13) body = Buffer.concat([Buffer.from(body), Buffer.from([0xc3, 0x28])]); // bad UTF-8
      else if (r < 0.15) body = '';
      else if (r < 0.17) body = JSON.stringify(pick([[], 'str', 42, null]));
      else if (r < 0.19) body = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"query":"x","name":"p"}';
      const res = await raw(fx.port, { method: 'POST', path: target, headers: { 'Content-Type': 'application/json' }, body });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok(res.status !== 500 && res.status < 600, `POST ${target} → ${res.status}: ${res.body.slice(0, 300)}\nbody: ${String(body).slice(0, 300)}`);
      if (res.status >= 400) {
        const err = JSON.parse(res.body) as { message: string; requestId: string };
        assert.ok(err.message.length > 0 && err.requestId.length > 0);
      }
      if (route === '/models/create' && res.status === 200) created.push((JSON.parse(res.body) as { id: string }).id);
      sent++;
    };
    // Eight at a time: enough to interleave requests, bounded for a shared 2-core machine.
    let left = 1000;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (left-- > 0) await one();
    }));
    assert.equal(sent, 1000);
    assert.ok((statuses.get(400) ?? 0) > 100, `most fuzzed bodies are refused as invalid: ${JSON.stringify([...statuses])}`);

    // Intact: the built-in models are all still there, and the only new ones are those created above.
    const after = JSON.parse((await raw(fx.port, { path: '/models' })).body) as { iterable: { id: string }[] };
    const expected = new Set([...models.iterable.map((m) => m.id), ...created]);
    assert.deepEqual(new Set(after.iterable.map((m) => m.id)), expected);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    const health = await raw(fx.port, { path: '/.well-known/health' });
    assert.equal(health.body, 'ok');
  });

  it('survives fuzzed frames on /qgpt/stream and /askcode/rpc: the sockets stay open and still answer', async function () {
    this.timeout(120_000);
    const rand = mulberry32(0x5eed);
    const { mutate } = fuzzer(rand);
    const stream = fx.ws('/qgpt/stream');
    const rpc = fx.ws('/askcode/rpc');
    await Promise.all([opened(stream), opened(rpc)]);
    let closed = 0;
    for (const s of [stream, rpc]) s.on('close', () => closed++);
    const examples = ['QGPTStreamInput', 'QGPTStreamInput.relevance', 'QGPTStreamInput.stop', 'QGPTStreamInput.reset', 'QGPTStreamInput.conversation'];
    for (let i = 0; i < 300; i++) {
      const frame = JSON.stringify(mutate(readExample(examples[i % examples.length]), 0)) ?? 'undefined';
      stream.send(rand() < 0.1 ? frame.slice(0, Math.floor(frame.length * rand())) : frame);
      const method = ['qgpt/relevance', 'qgpt/question', 'models/create', 'model/get', 'qgpt/stream', 'no/such'][i % 6];
      const msg = mutate({ jsonrpc: '2.0', id: i, method, params: readExample(examples[i % examples.length]) }, 0);
      rpc.send(JSON.stringify(msg) ?? 'null');
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(closed, 0, 'no socket was dropped');
    const reply = new Promise<Record<string, unknown>>((resolve) => rpc.on('message', (d) => {
      const m = JSON.parse(String(d)) as Record<string, unknown>;
      if (m.id === 'last') resolve(m);
    }));
    rpc.send(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'models/snapshot', params: null }));
    const r = await reply;
    assert.ok(r.result || (r.error as { code: number }).code === -32601, 'the RPC socket still answers');
    const ok = new Promise<Record<string, unknown>>((resolve) => stream.on('message', (d) => {
      const m = JSON.parse(String(d)) as Record<string, unknown>;
      if (m.request === 'last') resolve(m);
    }));
    stream.send(JSON.stringify({ request: 'last', question: 5 }));
    assert.equal((await ok).status, 'FAILED', 'the stream socket still answers');
    assert.equal((await raw(fx.port, { path: '/.well-known/health' })).body, 'ok');
  });

  it('listens on loopback only unless --allow-remote is given', async () => {
    await assert.rejects(startBridge(fx.core, { port: 0, host: '0.0.0.0', log: silentLogger }), /allow-remote/);
    const warnings: string[] = [];
    const log = { ...silentLogger, warn: (m: string) => void warnings.push(m) };
    const b = await startBridge(fx.core, { port: 0, host: '0.0.0.0', allowRemote: true, log });
    try {
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /anyone who can reach/);
      // Reached by one of this machine's addresses: fine; by a DNS name: still a rebinding suspect.
      const lan = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
      if (lan) assert.equal((await raw(b.port, { path: '/.well-known/health', headers: { Host: `${lan.address}:${b.port}` } })).status, 200);
      assert.equal((await raw(b.port, { path: '/.well-known/health', headers: { Host: `evil.example:${b.port}` } })).status, 421);
    } finally {
      await b.close();
    }
  });

  it('serves the chat page with a strict CSP, and nothing outside its own files', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-web-'));
    fs.mkdirSync(path.join(web, 'webview'));
    fs.writeFileSync(path.join(web, 'webview', 'index.html'), '<!doctype html><script src="/webview.js"></script>');
    fs.writeFileSync(path.join(web, 'webview.js'), 'console.log(1)');
    fs.writeFileSync(path.join(web, 'secret.txt'), 'do not serve');
    const b = await startBridge(fx.core, { port: 0, log: silentLogger, webRoot: web });
    try {
      const page = await raw(b.port, { path: '/', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' } });
      assert.equal(page.status, 200, 'a link from elsewhere may open the page');
      assert.match(String(page.headers['content-type']), /text\/html/);
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal((await raw(b.port, { path: '/webview.js' })).body, 'console.log(1)');
      for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/webview/../../secret.txt', '/%00']) {
        const r = await raw(b.port, { path: p });
        assert.equal(r.status, 404, p);
        assert.doesNotMatch(r.body, /do not serve/);
      }
    } finally {
      await b.close();
      fs.rmSync(web, { recursive: true, force: true });
    }
  });
});
