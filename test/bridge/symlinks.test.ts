/**
 * Symlinks never lead the index out of the served folders (issue 13, item 1): a folder holding
 * links to /etc, to /etc/passwd and to a secret folder elsewhere is served; relevance over the
 * whole database (REST through the SDK, the WebSocket stream, /askcode/rpc) returns nothing from
 * outside, the LanceDB tables hold no outside file, and links that stay inside are indexed once.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as pieces from '@pieces.app/pieces-os-client';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import { startBridge, type Bridge } from '../../server/src/bridge/bridge';
import { IndexStatus } from '../../server/src/protocol/workspace';
import type { QGPTStreamOutput, RelevantQGPTSeed } from '../../server/src/protocol/wire';
import { SHARED_MODELS } from '../helpers/worker';
import { makeRepo, frames, opened } from './bridgeFixture';
import WebSocket from 'ws';

// The hidden word is never asked for, so an answer echoing the question cannot trip the check.
const SECRET = 'zebracorn quasarleak xylophonium nologin daemon root bin';

describe('bridge: symlinks out of the served folder are not followed', function () {
  let root: string;
  let repo: string;
  let dataDir: string;
  let core: Core;
  let bridge: Bridge;
  let base: string;
  const hasEtcPasswd = fs.existsSync('/etc/passwd');

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-links-'));
    repo = makeRepo(root);
    dataDir = path.join(root, 'data');
    const outside = path.join(root, 'outside');
    fs.mkdirSync(path.join(outside, 'deep'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    fs.writeFileSync(path.join(outside, 'deep', 'leak.py'), `def leak():\n    return "${SECRET}"\n`);
    if (hasEtcPasswd) {
      fs.symlinkSync('/etc', path.join(repo, 'link_etc'));
      fs.symlinkSync('/etc/passwd', path.join(repo, 'passwd_link.txt'));
    }
    fs.symlinkSync(outside, path.join(repo, 'outside_dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'secret_link.md'));
    fs.symlinkSync('../../outside/deep', path.join(repo, 'src', 'relative_out'));
    // Links that stay inside: indexed once, under the file's own name.
    fs.symlinkSync('src', path.join(repo, 'src_again'));
    fs.symlinkSync(path.join(repo, 'src', 'math.ts'), path.join(repo, 'math_link.ts'));
    core = await createCore({ dataDir, modelsDir: SHARED_MODELS, folders: [repo], log: silentLogger, autoIndex: true });
    await core.index.whenIdle();
    bridge = await startBridge(core, { port: 0, log: silentLogger });
    base = `http://127.0.0.1:${bridge.port}`;
  });
  after(async () => {
    await bridge?.close();
    await core?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const outsidePath = (p: string | undefined) => {
    const s = p ?? '';
    return s.includes('link_etc') || s.includes('passwd_link') || s.includes('outside') || s.includes('secret_link') || s.includes('relative_out') || s.startsWith('/etc');
  };
  const assertNothingOutside = (seeds: RelevantQGPTSeed[], how: string) => {
    for (const s of seeds) {
      assert.ok(!outsidePath(s.path), `${how}: ${s.path} comes from outside the served folder`);
      const raw = s.seed?.asset?.format?.fragment?.string?.raw ?? '';
      assert.ok(!raw.includes('xylophonium') && !/root:.*:0:0:/.test(raw), `${how}: outside text returned from ${s.path}`);
    }
  };

  const queries = ['root bin daemon nologin', 'zebracorn quasarleak', 'leak secret'];

  it('POST /qgpt/relevance {database: true} through the SDK returns nothing from outside', async () => {
    const qgpt = new pieces.QGPTApi(new pieces.Configuration({ basePath: base }));
    for (const query of queries) {
      const out = await qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } });
      assertNothingOutside(out.relevant.iterable as unknown as RelevantQGPTSeed[], `REST '${query}'`);
    }
    // Plain fetch too, reading the raw JSON (no SDK model in between).
    const res = await fetch(`${base}/qgpt/relevance`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'root bin daemon nologin zebracorn', options: { database: true } }),
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(!text.includes('xylophonium') && !/root:[^"]*:0:0:/.test(text), 'no outside text in the raw body');
  });

  it('the /qgpt/stream WebSocket and /askcode/rpc return nothing from outside either', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/qgpt/stream`);
    await opened(ws);
    const got = frames<QGPTStreamOutput>(ws, Number.MAX_SAFE_INTEGER, 30_000, (f) => ['COMPLETED', 'FAILED'].includes(f.status ?? ''));
    ws.send(JSON.stringify({ relevance: { query: 'zebracorn quasarleak root daemon', options: { database: true, question: true } } }));
    const all = await got;
    ws.close();
    assert.equal(all[all.length - 1]!.status, 'COMPLETED');
    for (const f of all) {
      if (f.relevance) assertNothingOutside(f.relevance.relevant.iterable, 'stream');
      for (const a of f.question?.answers.iterable ?? []) assert.ok(!a.text.includes('xylophonium'), 'the answer quotes no outside text');
    }
    const rpc = new WebSocket(`ws://127.0.0.1:${bridge.port}/askcode/rpc`);
    await opened(rpc);
    const reply = frames<Record<string, unknown>>(rpc, Number.MAX_SAFE_INTEGER, 20_000, (f) => f.id === 7);
    rpc.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'qgpt/relevance', params: { query: 'zebracorn root nologin', options: { database: true } } }));
    const r = (await reply).pop()!;
    rpc.close();
    assertNothingOutside((r.result as { relevant: { iterable: RelevantQGPTSeed[] } }).relevant.iterable, 'rpc');
    // A link's path named directly is refused as outside the served folder.
    const refused = await fetch(`${base}/qgpt/relevance`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'leak', paths: [path.join(repo, 'outside_dir')] }),
    });
    assert.equal(refused.status, 403);
  });

  it('the LanceDB tables hold no outside file, inside links are indexed once, and the status counts the links out', async () => {
    const lance = await import('@lancedb/lancedb');
    const db = await lance.connect(path.join(dataDir, 'index'));
    const paths: string[] = [];
    for (const name of await db.tableNames()) {
      const t = await db.openTable(name);
      const rows = (await t.query().toArray()) as { path?: string; text?: string }[];
      for (const row of rows) {
        if (typeof row.path === 'string') paths.push(row.path);
        assert.ok(!String(row.text ?? '').includes('xylophonium'), `table ${name} holds outside text (${row.path})`);
        assert.ok(!/root:[^\n]*:0:0:/.test(String(row.text ?? '')), `table ${name} holds /etc/passwd text (${row.path})`);
      }
    }
    assert.ok(paths.length > 0, 'the folder was indexed');
    for (const p of paths) assert.ok(!outsidePath(p), `stored row from outside: ${p}`);
    const files = new Set(paths);
    assert.ok(files.has('src/math.ts'));
    assert.ok(![...files].some((p) => p.startsWith('src_again/') || p === 'math_link.ts'), `inside links are not indexed twice: ${[...files].join(', ')}`);
    const status = await core.service.request(IndexStatus, undefined);
    assert.equal(status.skipped?.outside, hasEtcPasswd ? 5 : 3, `skipped: ${JSON.stringify(status.skipped)}`);
    assert.equal(status.filesTotal, 3);
  });
});
