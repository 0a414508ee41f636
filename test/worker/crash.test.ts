import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, type WorkerHandle } from '../helpers/worker';
import { ModelsCreate, ModelsSnapshot } from '../../server/src/protocol/models';
import type { SeededModel } from '../../server/src/protocol/wire';
import { EXTRACTIVE_MODEL_ID, MINILM_MODEL_ID } from '../../server/src/models/catalog';

const seeded = (name: string): SeededModel => ({
  version: '1', created: { value: '2025-01-01T00:00:00.000Z' }, name, cloud: false, type: 'BALANCED', usage: 'CODE_CONVERSATION',
  unique: `ollama:${name}`,
});

describe('worker crash and restart on the same data dir', function () {
  this.timeout(120_000);
  let dataDir: string;
  let w: WorkerHandle | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-crash-'));
  });
  afterEach(async () => {
    await w?.stop();
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const customNames = async (h: WorkerHandle) =>
    (await h.request(ModelsSnapshot, undefined)).iterable.filter((m) => m.custom).map((m) => m.name);

  it('SIGKILL while registry writes are in flight: every acknowledged create survives, the file stays whole', async () => {
    w = await startWorker({ dataDir });
    const acked: string[] = [];
    for (let i = 0; i < 5; i++) {
      await w.request(ModelsCreate, seeded(`acked-${i}`));
      acked.push(`acked-${i}`);
    }
    // Fire more writes and kill the process while they run.
    const inflight = Array.from({ length: 20 }, (_, i) => w!.request(ModelsCreate, seeded(`inflight-${i}`)).catch(() => null));
    await new Promise((r) => setTimeout(r, 5));
    await w.kill();
    await Promise.all(inflight);
    JSON.parse(fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8'));
    w = await startWorker({ dataDir });
    const names = await customNames(w);
    for (const n of acked) assert.ok(names.includes(n), `${n} survived`);
    assert.ok(names.length <= 25);
    assert.ok(!fs.existsSync(path.join(dataDir, 'models.json.corrupt')), 'the registry was never half-written');
    // A temp file of an interrupted write never replaces the registry.
    assert.ok(fs.readdirSync(dataDir).every((f) => f === 'models.json' || f.startsWith('models.json.') || !f.endsWith('.json')));
  });

  it('the askcode/test/crash hook: a new worker finds the registry intact', async () => {
    w = await startWorker({ dataDir });
    await w.request(ModelsCreate, seeded('before-crash'));
    const exited = new Promise<number | null>((r) => w!.child.once('exit', (code) => r(code)));
    void w.raw('askcode/test/crash').catch(() => null);
    assert.equal(await exited, 3);
    w.conn.dispose();
    w = await startWorker({ dataDir });
    assert.deepEqual(await customNames(w), ['before-crash']);
    const ids = (await w.request(ModelsSnapshot, undefined)).iterable.map((m) => m.id);
    assert.ok(ids.includes(MINILM_MODEL_ID) && ids.includes(EXTRACTIVE_MODEL_ID));
  });

  it('a corrupt registry file is recovered from the last good copy, and kept aside', async () => {
    w = await startWorker({ dataDir });
    await w.request(ModelsCreate, seeded('first'));
    await w.request(ModelsCreate, seeded('second'));
    await w.stop();
    const file = path.join(dataDir, 'models.json');
    fs.writeFileSync(file, '{"version": 1, "models": [ {"model": ');
    w = await startWorker({ dataDir });
    const names = await customNames(w);
    assert.ok(names.includes('first'), `recovered from the last good copy: ${names}`);
    assert.ok(fs.existsSync(file + '.corrupt'), 'the bad file is kept for inspection');
    JSON.parse(fs.readFileSync(file, 'utf8'));
    // Still fully working.
    await w.request(ModelsCreate, seeded('third'));
    assert.ok((await customNames(w)).includes('third'));
  });

  it('a registry of the wrong shape and no good copy: starts from the catalog, never crashes', async () => {
    fs.writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify({ version: 1, models: 'nope' }));
    fs.writeFileSync(path.join(dataDir, 'models.json.bak'), '\u0000\u0001garbage');
    w = await startWorker({ dataDir });
    const models = await w.request(ModelsSnapshot, undefined);
    assert.ok(models.iterable.some((m) => m.id === MINILM_MODEL_ID));
    assert.deepEqual(models.iterable.filter((m) => m.custom), []);
  });
});
