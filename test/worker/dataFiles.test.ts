/**
 * The data files after crashes, through the real worker (issue 13, item 5): temp files of writes a
 * SIGKILL interrupted are removed on the next start; a conversation restored from its backup loses
 * nothing; one that cannot be restored is an error, never silently replaced by a new one.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { QgptStream } from '../../server/src/protocol/stream';
import { ModelsCreate, ModelsSnapshot } from '../../server/src/protocol/models';
import { ConversationsGet, ConversationsList, ConversationsDelete } from '../../server/src/protocol/workspace';
import { Frames, relevantSeed, tempDir, PARSER } from '../qgpt/fixtures';
import { seeded } from '../models/fixtures';

const tmpFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')) : []);

/** The pid of a process that has exited (what a crashed writer leaves in its temp file names). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('worker: data files after a crash', function () {
  this.timeout(120_000);
  let dataDir: string;
  let w: WorkerHandle | undefined;
  const relevant = { iterable: [relevantSeed(PARSER, { path: 'src/parser/config.ts', startLine: 1 })] };

  beforeEach(() => {
    dataDir = tempDir('crashdata');
  });
  afterEach(async () => {
    await w?.stop().catch(() => {});
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function ask(h: WorkerHandle, frames: Frames, request: string, conversation: string, query: string) {
    await h.request(QgptStream, { request, conversation, question: { query, relevant } });
    return (await frames.terminal(request)).frame;
  }

  it('removes the temp files of interrupted writes on start (SIGKILL mid-write), keeping a live writer\'s', async () => {
    const convDir = path.join(dataDir, 'conversations');
    for (let round = 0; round < 3; round++) {
      w = await startWorker({ dataDir, autoIndex: false });
      const pending = Array.from({ length: 12 }, (_, i) => w!.request(ModelsCreate, seeded({ name: `r${round}-${i}` })).catch(() => null));
      await new Promise((r) => setTimeout(r, 5 + round * 7));
      await w.kill();
      await Promise.all(pending);
      w = undefined;
    }
    // And as a crash mid-write leaves them: a dead writer's temp files next to each store.
    fs.mkdirSync(convDir, { recursive: true });
    const dead = deadPid();
    const left = [
      path.join(dataDir, `models.json.${dead}.${Date.now()}.tmp`),
      path.join(dataDir, `models.json.bak.${dead}.${Date.now()}.tmp`),
      path.join(convDir, `conv-x.json.${dead}.${Date.now()}.tmp`),
    ];
    for (const f of left) fs.writeFileSync(f, '{"half": ');
    const live = path.join(dataDir, `models.json.${process.pid}.${Date.now()}.tmp`);
    fs.writeFileSync(live, '{"being written": ');

    w = await startWorker({ dataDir, autoIndex: false });
    await w.request(ConversationsList, undefined as never);
    const models = await w.request(ModelsSnapshot, undefined);
    assert.ok(models.iterable.length > 0);
    for (const f of left) assert.ok(!fs.existsSync(f), `${path.basename(f)} is removed`);
    assert.ok(fs.existsSync(live), 'the temp file of a running process is left alone');
    assert.deepEqual(tmpFiles(dataDir).filter((n) => !n.includes(`.${process.pid}.`)), []);
    assert.deepEqual(tmpFiles(convDir), []);
    JSON.parse(fs.readFileSync(path.join(dataDir, 'models.json'), 'utf8'));
  });

  it('restores a damaged conversation from its backup with every message; one with no good copy is an error, not a new conversation', async () => {
    w = await startWorker({ dataDir, autoIndex: false });
    let frames = new Frames(w);
    for (const [i, q] of ['What does parseConfig do?', 'How are comments skipped?'].entries()) await ask(w, frames, `b${i}`, 'conv-b', q);
    for (const [i, q] of ['What is a Map?', 'Where is the file read?'].entries()) await ask(w, frames, `c${i}`, 'conv-c', q);
    const before = await w.request(ConversationsGet, { id: 'conv-b' });
    assert.equal(before.messages_.length, 4);
    await w.stop();

    const conv = path.join(dataDir, 'conversations');
    fs.writeFileSync(path.join(conv, 'conv-b.json'), '{"id": "conv-b", "messa');
    fs.writeFileSync(path.join(conv, 'conv-c.json'), 'garbage');
    fs.rmSync(path.join(conv, 'conv-c.json.bak'));

    w = await startWorker({ dataDir, autoIndex: false });
    frames = new Frames(w);
    const restored = await w.request(ConversationsGet, { id: 'conv-b' });
    assert.deepEqual(restored.messages_.map((m) => m.text), before.messages_.map((m) => m.text), 'the backup is the last complete state');

    const e = await rpcError(w.request(ConversationsGet, { id: 'conv-c' }));
    assert.equal(e.data?.kind, 'conflict');
    assert.match(e.message, /damaged/);
    const failed = await ask(w, frames, 'c-after', 'conv-c', 'Is it still there?');
    assert.equal(failed.status, 'FAILED');
    assert.match(JSON.stringify(failed), /damaged/);
    assert.ok(!fs.existsSync(path.join(conv, 'conv-c.json')), 'no new conversation was started under that id');
    assert.ok(fs.existsSync(path.join(conv, 'conv-c.json.corrupt')), 'the damaged file is kept aside');
    // Deleting clears it; the id can then start afresh.
    await w.request(ConversationsDelete, { id: 'conv-c' });
    assert.equal((await ask(w, frames, 'c-new', 'conv-c', 'A fresh start')).status, 'COMPLETED');
    assert.equal((await w.request(ConversationsGet, { id: 'conv-c' })).messages_.length, 2);
  });
});
