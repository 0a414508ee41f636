import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { QgptStream } from '../../server/src/protocol/stream';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete } from '../../server/src/protocol/workspace';
import { Frames, makeProjectRepo, relevantSeed, tempDir, PARSER } from './fixtures';
import { QgptRelevance } from '../../server/src/protocol';

describe('askcode/conversations over the worker', function () {
  let dataDir: string;
  let w: WorkerHandle;
  let frames: Frames;
  const relevant = { iterable: [relevantSeed(PARSER, { path: 'src/parser/config.ts', startLine: 1 })] };
  before(async () => {
    dataDir = tempDir('cdata');
    w = await startWorker({ dataDir });
    frames = new Frames(w);
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a streamed question persists its conversation: messages with seeds, model and score; survives a restart', async () => {
    await w.request(QgptStream, { request: 'c1', conversation: 'conv-a', question: { query: 'What does parseConfig do?', relevant } });
    await frames.terminal('c1');
    await w.request(QgptStream, { request: 'c2', conversation: 'conv-a', question: { query: 'How are comments skipped?', relevant } });
    await frames.terminal('c2');
    const created = await w.request(QgptStream, { request: 'c3', question: { query: 'Another one', relevant } });
    await frames.terminal('c3');

    const list = await w.request(ConversationsList, undefined as never);
    const a = list.find((c) => c.id === 'conv-a')!;
    assert.equal(a.messages, 4);
    assert.equal(a.name, 'What does parseConfig do?');
    assert.ok(list.some((c) => c.id === created.conversation), 'a conversation the server created is listed');
    const rec = await w.request(ConversationsGet, { id: 'conv-a' });
    assert.deepEqual(rec.messages_.map((m) => m.role), ['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    const answer = rec.messages_[1];
    assert.ok(answer.model && answer.model.length > 0, 'the model that answered');
    assert.ok(answer.score! >= 0 && answer.score! <= 1);
    assert.deepEqual(answer.relevant?.map((r) => [r.path, r.startLine]), [['src/parser/config.ts', 1]]);
    assert.equal(answer.text, frames.of('c1').map((f) => f.question?.answers.iterable[0].text ?? '').join(''));
    assert.ok(fs.existsSync(path.join(dataDir, 'conversations', 'conv-a.json')));

    await w.stop();
    w = await startWorker({ dataDir });
    frames = new Frames(w);
    const again = await w.request(ConversationsGet, { id: 'conv-a' });
    assert.deepEqual(again, rec);
  });

  it('renames and deletes', async () => {
    const s = await w.request(ConversationsRename, { id: 'conv-a', name: '  Parsing  ' });
    assert.equal(s.name, 'Parsing');
    assert.equal((await w.request(ConversationsList, undefined as never)).find((c) => c.id === 'conv-a')?.name, 'Parsing');
    assert.equal(await w.request(ConversationsDelete, { id: 'conv-a' }), null);
    assert.ok(!(await w.request(ConversationsList, undefined as never)).some((c) => c.id === 'conv-a'));
    assert.ok(!fs.existsSync(path.join(dataDir, 'conversations', 'conv-a.json')));
    assert.equal((await rpcError(w.request(ConversationsGet, { id: 'conv-a' }))).data?.kind, 'not_found');
  });

  /** The concurrent conversation's name: its first question to be answered, whichever that was. */
  let parName = '';
  it('concurrent answers in one conversation lose no message', async () => {
    const ids = ['p1', 'p2', 'p3', 'p4'];
    for (const r of ids) await w.request(QgptStream, { request: r, conversation: 'conv-par', question: { query: `q ${r}`, relevant } });
    for (const r of ids) await frames.terminal(r);
    const rec = await w.request(ConversationsGet, { id: 'conv-par' });
    assert.equal(rec.messages_.length, 8);
    assert.deepEqual(rec.messages_.filter((m) => m.role === 'USER').map((m) => m.text).sort(), ids.map((r) => `q ${r}`));
    parName = rec.name;
    assert.ok(ids.some((r) => parName === `q ${r}`), parName);
  });

  describe('bad input names the field and changes nothing', () => {
    const cases: [string, string, unknown, string, string][] = [
      ['get: unknown id', 'askcode/conversations/get', { id: 'nope' }, 'not_found', 'id'],
      ['get: id with a path separator', 'askcode/conversations/get', { id: '../x' }, 'invalid', 'id'],
      ['get: params not an object', 'askcode/conversations/get', 'x', 'invalid', 'params'],
      ['rename: empty name', 'askcode/conversations/rename', { id: 'conv-par', name: ' ' }, 'invalid', 'name'],
      ['rename: name not a string', 'askcode/conversations/rename', { id: 'conv-par', name: 3 }, 'invalid', 'name'],
      ['rename: name too long', 'askcode/conversations/rename', { id: 'conv-par', name: 'x'.repeat(201) }, 'invalid', 'name'],
      ['rename: unknown id', 'askcode/conversations/rename', { id: 'nope', name: 'x' }, 'not_found', 'id'],
      ['delete: unknown id', 'askcode/conversations/delete', { id: 'nope' }, 'not_found', 'id'],
      ['delete: id not a string', 'askcode/conversations/delete', { id: 1 }, 'invalid', 'id'],
    ];
    for (const [name, method, params, kind, field] of cases) {
      it(name, async () => {
        const err = await rpcError(w.raw(method, params));
        assert.equal(err.data?.kind, kind, err.message);
        assert.equal(err.data?.field, field, err.message);
      });
    }
    it('the conversation is intact afterwards', async () => {
      const rec = await w.request(ConversationsGet, { id: 'conv-par' });
      assert.equal(rec.messages_.length, 8);
      assert.equal(rec.name, parName);
    });
  });
});

describe('askcode/conversations: cited snippets of a workspace answer', function () {
  let dataDir: string;
  let repo: string;
  let w: WorkerHandle;
  let frames: Frames;
  before(async () => {
    dataDir = tempDir('cdata-ws');
    repo = makeProjectRepo().dir;
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true });
    frames = new Frames(w);
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('keeps the paths the stream gave (absolute, so a reopened conversation can open them), not the prompt\'s relative ones', async () => {
    const deadline = Date.now() + 30_000;
    while ((await w.request(QgptRelevance, { query: 'parse config', options: { database: true } })).relevant.iterable.length === 0) {
      if (Date.now() > deadline) throw new Error('the workspace was not indexed within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const { conversation } = await w.request(QgptStream, { request: 'ws1', relevance: { query: 'How does parseConfig skip comments?', options: { question: true, database: true } } });
    assert.equal((await frames.terminal('ws1')).frame.status, 'COMPLETED');
    const streamed = new Set(frames.of('ws1').flatMap((f) => f.relevance?.relevant?.iterable ?? []).map((s) => s.path));
    const rec = await w.request(ConversationsGet, { id: conversation! });
    const cited = rec.messages_.find((m) => m.role === 'ASSISTANT')?.relevant ?? [];
    assert.ok(cited.length > 0, 'the answer cites snippets');
    for (const r of cited) {
      assert.ok(r.path && path.isAbsolute(r.path) && fs.existsSync(r.path), `stored path ${r.path} must be an existing absolute path`);
      assert.ok(streamed.has(r.path), `stored path ${r.path} is one the stream listed: ${[...streamed].join(', ')}`);
    }
  });
});
