import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import { QgptStream } from '../../server/src/protocol/stream';
import type { QGPTStreamOutput } from '../../server/src/protocol/wire';
import type { CallContext } from '../../server/src/core/service';
import { SHARED_MODELS } from '../helpers/worker';
import { relevantSeed, tempDir, PARSER } from './fixtures';

/** The core driven directly with two connections, as the bridge does with two WebSockets. */
describe('qgpt/stream per connection (core)', function () {
  let dataDir: string;
  let core: Core;
  const got: Record<string, QGPTStreamOutput[]> = { a: [], b: [] };
  const ctx = (connection: 'a' | 'b'): Partial<CallContext> => ({
    connection,
    emit: (_def, p) => void got[connection].push(p as QGPTStreamOutput),
  });
  const question = { query: 'What does parseConfig do?', relevant: { iterable: [relevantSeed(PARSER, { path: 'c.ts', startLine: 1 })] } };
  const until = async (pred: () => boolean, ms = 5000) => {
    const t0 = Date.now();
    while (!pred()) {
      if (Date.now() - t0 > ms) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const ended = (c: 'a' | 'b', request: string) => got[c].some((f) => f.request === request && f.status && f.status !== 'IN-PROGRESS');

  before(async () => {
    dataDir = tempDir('conn');
    core = await createCore({ dataDir, modelsDir: SHARED_MODELS, folders: [], log: silentLogger, autoIndex: false });
  });
  after(async () => {
    await core?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('frames go only to the connection that asked; the same request id may be used on two connections', async () => {
    await core.service.request(QgptStream, { request: 'same', question }, ctx('a'));
    await core.service.request(QgptStream, { request: 'same', question }, ctx('b'));
    await until(() => ended('a', 'same') && ended('b', 'same'));
    assert.ok(got.a.length > 2 && got.b.length > 2);
    assert.equal(got.a.map((f) => f.question?.answers.iterable[0].text ?? '').join(''), got.b.map((f) => f.question?.answers.iterable[0].text ?? '').join(''));
    assert.notEqual(got.a[0].conversation, got.b[0].conversation);
  });

  it('reset on one connection leaves the other running; closeConnection ends work silently', async () => {
    const models = await core.models.getGenerator(undefined);
    assert.equal(models, null, 'the default is the extractive answerer');
    const stories = (await core.service.call('models/snapshot', undefined)) as { iterable: { id: string; name: string }[] };
    const model = stories.iterable.find((m) => m.name === 'stories260K')!.id;
    got.a.length = 0;
    got.b.length = 0;
    await core.service.request(QgptStream, { request: 'ra', question: { ...question, model } }, ctx('a'));
    await core.service.request(QgptStream, { request: 'rb', question: { ...question, model } }, ctx('b'));
    await core.service.request(QgptStream, { reset: true }, ctx('a'));
    await until(() => ended('a', 'ra'));
    assert.equal(got.a.at(-1)?.status, 'RESET');
    await until(() => ended('b', 'rb'), 30_000);
    assert.equal(got.b.at(-1)?.status, 'COMPLETED');

    await core.service.request(QgptStream, { request: 'rc', question: { ...question, model } }, ctx('b'));
    core.streams.closeConnection('b');
    const n = got.b.length;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(got.b.length, n, 'nothing is sent to a closed connection');
    // The request id is free again on that connection.
    await core.service.request(QgptStream, { request: 'rc', question }, ctx('b'));
    await until(() => ended('b', 'rc'));
  });
});
