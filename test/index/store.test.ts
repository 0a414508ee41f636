/** The LanceDB store (index/store.ts) on a temp folder: tables per folder and model, replace by path, reopen. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IndexStore, sqlString, tableKey, type ChunkRow } from '../../server/src/index/store';
import { silentLogger } from '../../server/src/core/logger';

const row = (p: string, start: number, text: string): ChunkRow => ({
  id: `${p}:${start}`, path: p, start, end: start + 1, symbol: '', hash: `${p}-${start}-${text.length}`,
  lang: 'python', ext: 'py', code: true, text, mtime: 1, size: text.length,
});

describe('index/store (LanceDB)', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-store-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('replacePaths swaps exactly the rows of the named paths; a reopened store reads the last committed state', async () => {
    const store = await IndexStore.open(dataDir, silentLogger);
    const t = await store.chunksTable('/ws/a');
    await store.replacePaths(t, ['a.py', 'b.py'], [row('a.py', 1, 'x = 1'), row('a.py', 3, 'y = 2'), row('b.py', 1, 'z = 3')]);
    await store.replacePaths(t, ['a.py'], [row('a.py', 1, 'x = 10')]);
    await store.replacePaths(t, ["it's.py"], [row("it's.py", 1, 'q = 1')]);
    await store.compact(t);
    const rows = (await store.readAll<ChunkRow>(t)).sort((a, b) => a.path.localeCompare(b.path) || a.start - b.start);
    assert.deepEqual(rows.map((r) => [r.path, r.start, r.text]), [['a.py', 1, 'x = 10'], ['b.py', 1, 'z = 3'], ["it's.py", 1, 'q = 1']]);
    store.close();

    const again = await IndexStore.open(dataDir, silentLogger);
    const t2 = await again.chunksTable('/ws/a');
    assert.equal((await again.readAll<ChunkRow>(t2)).length, 3);
    // Another folder has its own table.
    assert.equal((await again.readAll<ChunkRow>(await again.chunksTable('/ws/b'))).length, 0);
    again.close();
  });

  it('vectors: a table per model and dimension, read back as the floats written', async () => {
    const store = await IndexStore.open(dataDir, silentLogger);
    const t = await store.vectorsTable('model-a', 4);
    await store.addVectors(t, [{ hash: 'h1', vector: Float32Array.from([0.5, -0.5, 0.25, 0]) }]);
    await store.addVectors(t, []);
    const rows = await store.readAll<{ hash: string; vector: { toArray(): Float32Array } }>(t);
    assert.deepEqual(rows.map((r) => [r.hash, [...r.vector.toArray()]]), [['h1', [0.5, -0.5, 0.25, 0]]]);
    // A batch is one Arrow buffer: every row keeps its own hash (any UTF-8) and its own floats.
    const batch = Array.from({ length: 300 }, (_, i) => ({ hash: i % 7 ? `h-${i}` : `ключ-${i}-é`, vector: Float32Array.from([i, -i, i / 4, 1]) }));
    await store.addVectors(t, batch);
    const back = new Map((await store.readAll<{ hash: string; vector: { toArray(): Float32Array } }>(t)).map((r) => [r.hash, [...r.vector.toArray()]]));
    assert.equal(back.size, 301);
    for (const b of batch) assert.deepEqual(back.get(b.hash), [...b.vector], b.hash);
    assert.equal((await store.readAll(await store.vectorsTable('model-b', 4))).length, 0);
    store.close();
  });

  it('table names and SQL strings are safe for any folder path or id', () => {
    const a = tableKey('chunks', '/home/u/my project');
    const b = tableKey('chunks', '/home/u/my-project');
    assert.notEqual(a, b);
    assert.match(a, /^[A-Za-z0-9_]+$/);
    assert.equal(sqlString("it's"), "'it''s'");
  });
});
