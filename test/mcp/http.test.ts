/**
 * MCP over Streamable HTTP on the real bridge, driven by the SDK's own client in both protocol
 * eras (2025: initialize + a session; 2026-07-28: per-request), at `/mcp` and at PiecesOS's path,
 * under the bridge's Host / Origin / size protections.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startFixture, type BridgeFixture } from '../bridge/bridgeFixture';
import { ModelsSnapshot } from '../../server/src/protocol/models';
import { addCaller, linkOutside, checkBadArguments, checkCancelled, checkConcurrent, checkEachTool, checkToolList, call, textOf } from './mcpFixture';
import { raw } from '../helpers/rawHttp';


const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('MCP over Streamable HTTP on the bridge', function () {
  this.timeout(120_000);
  let fx: BridgeFixture;
  let stories: string;
  const clients: Client[] = [];

  async function connect(pathname: string, mode: 'legacy' | 'auto' = 'legacy'): Promise<Client> {
    const c = new Client({ name: 'askcode-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${fx.base}${pathname}`)));
    clients.push(c);
    return c;
  }

  before(async () => {
    fx = await startFixture();
    linkOutside(path.dirname(fx.repo), fx.repo);
    addCaller(fx.repo);
    await fx.core.index.indexAll();
    const models = await fx.core.service.request(ModelsSnapshot, undefined);
    stories = models.iterable.find((m) => m.name === 'stories260K' && m.usage === 'CODE_CONVERSATION')!.id;
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await fx?.close();
  });

  describe('a 2025-era client (initialize, a session) at /mcp', () => {
    let c: Client;
    before(async () => {
      c = await connect('/mcp');
    });

    it('initializes in the 2025 era and lists the tools', async () => {
      assert.equal(c.getProtocolEra(), 'legacy');
      assert.equal(c.getServerVersion()?.name, 'askcode');
      await checkToolList(c);
    });

    it('each tool answers on the fixture, citing path:lines', async () => {
      await checkEachTool(c);
    });

    it('bad arguments are MCP errors', async () => {
      await checkBadArguments(c);
    });

    it('16 concurrent calls on one session', async () => {
      await checkConcurrent(c);
    });

    it('notifications/cancelled stops a stories260K answer mid-way', async () => {
      fx.core.options.settings = { ...fx.core.options.settings, defaultModel: stories };
      try {
        await checkCancelled(c, fx.dataDir, 'mcp-http-legacy-cancel');
      } finally {
        fx.core.options.settings = { ...fx.core.options.settings, defaultModel: '' };
      }
    });
  });

  describe('a 2026-era client (per-request) at /mcp', () => {
    let c: Client;
    before(async () => {
      c = await connect('/mcp', 'auto');
    });

    it('negotiates the modern era and calls the tools', async () => {
      assert.equal(c.getProtocolEra(), 'modern');
      await checkToolList(c);
      const r = await call(c, 'search_code', { query: 'greet hello', limit: 1 });
      assert.equal((r.structuredContent!.results as { path: string }[])[0]!.path, 'src/greet.py');
      await checkBadArguments(c, false);
    });

    it('closing the call stops a stories260K answer mid-way', async () => {
      fx.core.options.settings = { ...fx.core.options.settings, defaultModel: stories };
      try {
        await checkCancelled(c, fx.dataDir, 'mcp-http-modern-cancel');
      } finally {
        fx.core.options.settings = { ...fx.core.options.settings, defaultModel: '' };
      }
    });
  });

  describe("PiecesOS's MCP paths", () => {
    it('GET /model_context_protocol/schema_versions names the Streamable HTTP endpoint, which serves the tools', async () => {
      const res = await fetch(`${fx.base}/model_context_protocol/schema_versions`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { iterable: { version: string; entry_endpoint: string }[] };
      assert.deepEqual(body.iterable, [{ version: '2025-03-26', entry_endpoint: `${fx.base}/model_context_protocol/2025-03-26/mcp` }]);
      const c = await connect(new URL(body.iterable[0]!.entry_endpoint).pathname);
      const r = await call(c, 'read_code', { path: 'src/math.ts' });
      assert.equal(r.structuredContent!.totalLines, 3, textOf(r));
    });

    it("a plain GET (Pieces' CLI probe) answers 200; a request without a session is refused with a JSON-RPC error", async () => {
      const probe = await raw(fx.port, { path: '/model_context_protocol/2025-03-26/mcp', headers: { Host: `localhost:${fx.port}` } });
      assert.equal(probe.status, 200);
      assert.match(probe.body, /MCP endpoint/);
      const noSession = await raw(fx.port, {
        method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      });
      assert.equal(noSession.status, 400);
      assert.equal(JSON.parse(noSession.body).error.code, -32000);
      const unknown = await raw(fx.port, {
        method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS, 'Mcp-Session-Id': 'no-such-session' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }),
      });
      assert.equal(unknown.status, 404);
    });

    it('a session ends with DELETE', async () => {
      const init = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: INIT });
      assert.equal(init.status, 200, init.body);
      const sid = init.headers['mcp-session-id'] as string;
      assert.ok(sid);
      const del = await raw(fx.port, { method: 'DELETE', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, 'Mcp-Session-Id': sid } });
      assert.equal(del.status, 200);
      const after = await raw(fx.port, {
        method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS, 'Mcp-Session-Id': sid },
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }),
      });
      assert.equal(after.status, 404);
    });
  });

  describe("the bridge's protections hold on the MCP endpoints", () => {
    for (const pathname of ['/mcp', '/model_context_protocol/2025-03-26/mcp']) {
      it(`${pathname}: forged Host 421, foreign Origin 403, our own page's Origin allowed`, async () => {
        const forged = await raw(fx.port, { method: 'POST', path: pathname, headers: { Host: 'evil.example', ...JSON_HEADERS }, body: INIT });
        assert.equal(forged.status, 421);
        const forgedPort = await raw(fx.port, { method: 'POST', path: pathname, headers: { Host: `127.0.0.1:${fx.port + 1}`, ...JSON_HEADERS }, body: INIT });
        assert.equal(forgedPort.status, 421);
        const foreign = await raw(fx.port, { method: 'POST', path: pathname, headers: { Host: `127.0.0.1:${fx.port}`, Origin: 'https://evil.example', ...JSON_HEADERS }, body: INIT });
        assert.equal(foreign.status, 403);
        const crossSite = await raw(fx.port, { path: pathname, headers: { Host: `127.0.0.1:${fx.port}`, 'Sec-Fetch-Site': 'cross-site' } });
        assert.equal(crossSite.status, 403);
        const own = await raw(fx.port, { method: 'POST', path: pathname, headers: { Host: `127.0.0.1:${fx.port}`, Origin: `http://127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: INIT });
        assert.equal(own.status, 200, own.body);
        const schemaForged = await raw(fx.port, { path: '/model_context_protocol/schema_versions', headers: { Host: 'evil.example' } });
        assert.equal(schemaForged.status, 421);
      });
    }

    it('200 mangled JSON-RPC bodies (both eras, with and without a session) never get a 500 and never stop it', async () => {
      let seed = 12;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const weird = () => pick<unknown>([null, true, -1, '', 'x'.repeat(300), [], {}, [null], { __proto__: { polluted: true } }, '2026-07-28', 'tools/call']);
      const mutate = (v: unknown, depth: number): unknown => {
        if (depth > 4 || rand() < 0.2) return weird();
        if (Array.isArray(v)) return v.map((x) => mutate(x, depth + 1));
        if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(() => rand() > 0.15).map(([k, x]) => [k, rand() < 0.7 ? x : mutate(x, depth + 1)]));
        return rand() < 0.5 ? v : weird();
      };
      const init = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: INIT });
      const sid = init.headers['mcp-session-id'] as string;
      const messages = [
        JSON.parse(INIT),
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'add' } } },
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'read_code', arguments: { path: 'src/math.ts' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
      ];
      for (let i = 0; i < 200; i++) {
        const body = JSON.stringify(mutate(pick(messages), 0));
        const headers: Record<string, string> = { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS, ...(rand() < 0.5 ? { 'Mcp-Session-Id': sid } : {}), ...(rand() < 0.3 ? { 'Mcp-Protocol-Version': '2026-07-28' } : {}) };
        const r = await raw(fx.port, { method: 'POST', path: pick(['/mcp', '/model_context_protocol/2025-03-26/mcp']), headers, body });
        assert.ok(r.status < 500, `#${i} ${body.slice(0, 200)} → ${r.status} ${r.body.slice(0, 200)}`);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const c = await connect('/mcp');
      assert.equal((await call(c, 'read_code', { path: 'src/math.ts' })).structuredContent!.totalLines, 3);
    });

    it('an oversized or too deeply nested body is refused (413), bad JSON is a parse error (400)', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(9 * 1024 * 1024) } });
      const tooBig = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: big });
      assert.equal(tooBig.status, 413);
      const deep = '['.repeat(200) + ']'.repeat(200);
      const tooDeep = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: deep });
      assert.equal(tooDeep.status, 413);
      const bad = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: '{"jsonrpc":' });
      assert.equal(bad.status, 400);
      assert.equal(JSON.parse(bad.body).error.code, -32700);
      // Still serving.
      const ok = await raw(fx.port, { method: 'POST', path: '/mcp', headers: { Host: `127.0.0.1:${fx.port}`, ...JSON_HEADERS }, body: INIT });
      assert.equal(ok.status, 200);
    });
  });
});
