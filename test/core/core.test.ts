/**
 * The core in process: `createCore` (the composition root) on a temp data folder and a real git
 * repository, driven through `service` as every face drives it — no build, no worker process.
 * The forked-worker suites keep what needs a process (transport, crash, settings, cancellation).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import type { AskcodeError } from '../../server/src/core/errors';
import type { CallContext } from '../../server/src/core/service';
import { QgptRelevance, QgptQuestion, QgptHints, QgptPersonsRelated } from '../../server/src/protocol/qgpt';
import { QgptStream } from '../../server/src/protocol/stream';
import { ConversationsGet } from '../../server/src/protocol/workspace';
import type { QGPTStreamOutput } from '../../server/src/protocol/wire';
import { ADA, BOB, MATH_V2, makeProjectRepo, seed, tempDir, type Repo } from '../qgpt/fixtures';

const lines = (text: string, from: number, to: number) => text.split('\n').slice(from - 1, to).join('\n');

describe('core in process (createCore on a git fixture)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let repo: Repo;
  let core: Core;

  before(async () => {
    dataDir = tempDir('core');
    repo = makeProjectRepo();
    core = await createCore({ dataDir, folders: [repo.dir], log: silentLogger, autoIndex: false });
    // BM25 alone: the figures below do not depend on an embedding model being there.
    core.index.setDense(false);
    await core.index.indexAll();
    await core.index.whenIdle();
  });
  after(async () => {
    await core?.dispose();
    for (const d of [dataDir, repo?.dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('relevance over the workspace: the defining file first, each snippet with its id, fragment, lines and why', async () => {
    const out = await core.service.request(QgptRelevance, { query: 'where is the config file parsed? parseConfig', options: { database: true } });
    const top = out.relevant.iterable[0]!;
    assert.equal(top.path, path.join(repo.dir, 'src/parser/config.ts'));
    assert.match(top.seed?.asset?.format.fragment?.string?.raw ?? '', /export function parseConfig/);
    assert.equal(top.seed?.asset?.format.fragment?.metadata?.ext, 'ts');
    assert.equal(typeof top.id, 'string');
    assert.ok(top.askcode!.startLine >= 1 && top.askcode!.endLine >= top.askcode!.startLine);
    assert.ok(top.askcode!.matched!.some((t) => /parseconfig|config|pars/i.test(t)));
    assert.equal(top.askcode!.score, 1);
    assert.equal(out.answer, undefined);
  });

  it('relevance with options.question answers from the same hits that qgpt/question gets back as seeds', async () => {
    const query = 'what does parseConfig return?';
    const both = await core.service.request(QgptRelevance, { query, options: { database: true, question: true } });
    assert.ok(both.answer, 'an answer comes with the snippets');
    const text = both.answer.answers.iterable[0]!.text;
    assert.match(text, /src\/parser\/config\.ts/, 'the answer cites the file, relative to the workspace');
    // A client that sends the seeds back (what the SDK does in two calls) gets the same answer.
    const again = await core.service.request(QgptQuestion, { query, relevant: both.relevant });
    assert.equal(again.answers.iterable[0]!.text, text);
    // And by bare ids, looked up in the index: the same places, without the retrieval scores the ids do not carry.
    const byId = await core.service.request(QgptQuestion, { query, relevant: { iterable: both.relevant.iterable.map((s) => ({ id: s.id })) } });
    const noScore = (t: string) => t.replace(/; retrieval score [0-9.]+/g, '');
    assert.equal(noScore(byId.answers.iterable[0]!.text), noScore(text));
    assert.notEqual(byId.answers.iterable[0]!.text, text);
  });

  it('hints suggest 3 to 5 next questions about the snippets found', async () => {
    const rel = await core.service.request(QgptRelevance, { query: 'multiply numbers', options: { database: true } });
    const out = await core.service.request(QgptHints, { query: 'multiply numbers', relevant: rel.relevant });
    const hs = out.answers.iterable.map((a) => a.text);
    assert.ok(hs.length >= 3 && hs.length <= 5, hs.join(' | '));
    assert.ok(hs.some((h) => /multiply|add/.test(h)), hs.join(' | '));
    for (const h of hs) assert.ok(h.endsWith('?'), h);
  });

  it('persons: who wrote the lines of a snippet, from the fixture git history', async () => {
    const out = await core.service.request(QgptPersonsRelated, { input: { seed: seed(lines(MATH_V2, 7, 12), 'ts') } });
    const emails = out.persons.iterable.map((p) => p.type.basic?.email);
    assert.deepEqual(emails, [BOB.email, ADA.email]);
    assert.equal(out.askcode?.files?.[0]?.path, path.join(repo.dir, 'src/math.ts'));
  });

  it('stream: a relevance frame, answer deltas, COMPLETED; the conversation keeps the question and the cited snippet', async () => {
    const frames: QGPTStreamOutput[] = [];
    const ctx: Partial<CallContext> = { connection: 'core-test', emit: (_d, p) => void frames.push(p as QGPTStreamOutput) };
    const accepted = await core.service.request(QgptStream, {
      request: 'r1', conversation: 'conv-core',
      relevance: { query: 'how are two numbers multiplied?', options: { database: true, question: true } },
    }, ctx);
    assert.deepEqual(accepted, { conversation: 'conv-core', request: 'r1' });
    const t0 = Date.now();
    while (!frames.some((f) => f.status && f.status !== 'IN-PROGRESS')) {
      if (Date.now() - t0 > 20_000) throw new Error('no terminal frame');
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(frames[0]!.relevance, 'the snippets come first');
    const cited = frames[0]!.relevance!.relevant.iterable[0]!;
    assert.equal(cited.path, path.join(repo.dir, 'src/math.ts'));
    const deltas = frames.filter((f) => f.question);
    assert.ok(deltas.length > 0);
    assert.equal(frames.at(-1)!.status, 'COMPLETED');
    const text = deltas.map((f) => f.question!.answers.iterable[0]!.text).join('');
    assert.match(text, /src\/math\.ts/);
    const conv = await core.service.request(ConversationsGet, { id: 'conv-core' });
    assert.deepEqual(conv.messages_.map((m) => m.role), ['USER', 'ASSISTANT']);
    assert.ok(conv.messages_[1]!.relevant!.some((r) => r.path === path.join(repo.dir, 'src/math.ts')), 'kept with the absolute path the chat opens');
  });

  it('params are checked once, at the door: a bad call names the field and reaches no handler', async () => {
    const before = await core.service.request(QgptRelevance, { query: 'multiply', options: { database: true } });
    const refused = async (method: string, params: unknown, field: string, kind = 'invalid') => {
      await assert.rejects(core.service.call(method, params), (e: AskcodeError) => e.kind === kind && e.field === field);
    };
    await refused('qgpt/relevance', { query: 'x', paths: ['relative'] }, 'paths[0]');
    await refused('qgpt/question', { query: 'x', relevant: { iterable: [{ seed: { asset: { format: { fragment: { string: { raw: 1 } } } } } }] } },
      'relevant.iterable[0].seed.asset.format.fragment.string.raw');
    await refused('qgpt/relevance', { query: 'x'.repeat(20_001), options: { database: true } }, 'query', 'too_large');
    const name = (await core.service.request(ConversationsGet, { id: 'conv-core' })).name;
    await refused('askcode/conversations/rename', { id: 'conv-core', name: '   ' }, 'name');
    assert.equal((await core.service.request(ConversationsGet, { id: 'conv-core' })).name, name);
    const after = await core.service.request(QgptRelevance, { query: 'multiply', options: { database: true } });
    assert.deepEqual(after.relevant.iterable.map((s) => s.id), before.relevant.iterable.map((s) => s.id));
  });
});
