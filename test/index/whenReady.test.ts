/**
 * WorkspaceIndex.whenReady: what a face that answers as soon as it starts (the MCP server) waits
 * on — the real core over a repository written here, indexed in the background.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import type { IndexProgress } from '../../server/src/protocol/workspace';
import { tempDir } from '../models/fixtures';
import { fileWriter } from '../helpers/files';
import { waitFor } from '../helpers/wait';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { IndexWhenReady } from '../../server/src/protocol/workspace';

describe('index: whenReady, the first index waited for', function () {
  this.timeout(120_000);
  let root = '';
  let core: Core | undefined;
  const open = async (data: string, autoIndex: boolean) => {
    await core?.dispose();
    core = await createCore({ dataDir: path.join(root, data), modelsDir: path.join(root, 'no-models'), folders: [path.join(root, 'repo')], log: silentLogger, autoIndex });
    return core;
  };

  before(() => {
    root = tempDir('askcode-ready-');
    const write = fileWriter(path.join(root, 'repo'));
    for (let i = 0; i < 1500; i++) write(`pkg/m${Math.floor(i / 100)}/mod${i}.py`, `def part_${i}(page):\n    """Draws part ${i} of the page."""\n    return page.rect(${i})\n`);
  });
  after(async () => {
    await core?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is false while the folder is being indexed and maxMs runs out, then true once it is ready, reporting progress meanwhile', async () => {
    const c = await open('data', true);
    assert.equal(await c.index.whenReady(1), false, 'still indexing after 1 ms');
    const seen: IndexProgress[] = [];
    assert.equal(await c.index.whenReady(60_000, undefined, (p) => seen.push(p)), true);
    assert.ok(seen.length >= 1 && seen.every((p) => p.state === 'indexing' || p.state === 'idle'), JSON.stringify(seen.at(-1)));
    const st = c.index.status();
    assert.equal(st.state, 'ready');
    assert.equal(st.files, 1500);
    assert.equal((await c.index.findSymbols('part_1499')).length, 1, 'everything is searchable');
  });

  it('does not wait out maxMs for an index nobody starts, nor once the caller has gone', async () => {
    const c = await open('data2', false);
    const t0 = Date.now();
    assert.equal(await c.index.whenReady(60_000), true);
    assert.ok(Date.now() - t0 < 10_000, `${Date.now() - t0} ms`);
    assert.equal(c.index.status().state, 'idle');
    const c2 = await open('data3', true);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t1 = Date.now();
    assert.equal(await c2.index.whenReady(60_000, ac.signal), false);
    assert.ok(Date.now() - t1 < 10_000);
  });

  it('the worker answers askcode/index/whenReady (what the editor\'s chat tools call first); bad maxMs is a clear error', async () => {
    await core?.dispose();
    core = undefined;
    let w: WorkerHandle | undefined;
    try {
      w = await startWorker({ dataDir: path.join(root, 'data4'), folders: [path.join(root, 'repo')], autoIndex: true, env: { ASKCODE_MODELS_DIR: path.join(root, 'no-models') } });
      const early = await w.request(IndexWhenReady, { maxMs: 0 });
      assert.equal(early.ready, false, JSON.stringify(early.status));
      // While the files are being indexed, the notice answers use says so.
      const building = await waitFor(async () => {
        const x = await w!.request(IndexWhenReady, { maxMs: 0 });
        return x.status.state === 'indexing' && x.status.files < x.status.filesTotal ? x : undefined;
      }, 'a reply while indexing', 30_000, 20);
      assert.equal(building.ready, false);
      assert.match(building.notice ?? '', /still being built \(\d+ of 1500 files so far\)/);
      const r = await w.request(IndexWhenReady, { maxMs: 60_000 });
      assert.equal(r.ready, true);
      assert.equal(r.status.state, 'ready');
      assert.equal(r.status.files, 1500);
      assert.equal(r.notice, undefined);
      for (const bad of [{ maxMs: -1 }, { maxMs: 'soon' }, {}, { maxMs: 1e9 }]) {
        const e = await rpcError(w.raw(IndexWhenReady.method, bad));
        assert.equal(e.data?.kind, 'invalid', e.message);
        assert.equal(e.data?.field, 'maxMs');
      }
    } finally {
      await w?.stop();
    }
  });
});
