import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { QgptRelevance, QgptQuestion } from '../../server/src/protocol/qgpt';
import { ModelsSnapshot } from '../../server/src/protocol/models';
import { IndexStatus, SettingsChanged } from '../../server/src/protocol/workspace';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('settings take effect without a restart (askcode/settings)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let repo: string;
  let w: WorkerHandle;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-settings-'));
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-settings-repo-'));
    fs.mkdirSync(path.join(repo, 'src'));
    fs.mkdirSync(path.join(repo, 'vendor'));
    fs.writeFileSync(path.join(repo, 'src', 'ledger.ts'), 'export function reconcileLedgerEntries(entries: number[]) {\n  return entries.reduce((a, b) => a + b, 0);\n}\n');
    fs.writeFileSync(path.join(repo, 'vendor', 'ledger-copy.ts'), 'export function reconcileLedgerEntriesVendored(entries: number[]) {\n  return entries.length;\n}\n');
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true });
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });

  const paths = async () =>
    (await w.request(QgptRelevance, { query: 'reconcile ledger entries', paths: [repo] })).relevant.iterable.map((s) => path.relative(repo, s.path ?? ''));

  it('a new exclude list re-walks the folder: excluded files leave the index, and come back when the list is cleared', async () => {
    await waitFor(async () => ((await paths()).includes('vendor/ledger-copy.ts') ? true : undefined), 'both files indexed');
    await w.notify(SettingsChanged, { exclude: ['vendor/**'] });
    await waitFor(async () => ((await paths()).includes('vendor/ledger-copy.ts') ? undefined : true), 'vendor/ to leave the index');
    assert.deepEqual(await paths(), ['src/ledger.ts']);
    await w.notify(SettingsChanged, { exclude: [] });
    await waitFor(async () => ((await paths()).includes('vendor/ledger-copy.ts') ? true : undefined), 'vendor/ to come back');
    // Embeddings of the files that came back may still be filling in: wait for ready, not a snapshot.
    const status = await waitFor(async () => {
      const s = await w!.request(IndexStatus, undefined);
      return s.state === 'ready' ? s : undefined;
    }, 'the index to be ready again');
    assert.equal(status.state, 'ready');
  });

  it('a new default model answers the next question (stories260K instead of the extractive answerer)', async () => {
    const relevant = (await w.request(QgptRelevance, { query: 'reconcile ledger entries', paths: [repo] })).relevant;
    const before = await w.request(QgptQuestion, { query: 'What does reconcileLedgerEntries return?', relevant });
    assert.match(before.answers.iterable[0].text, /No language model was used/);
    const stories = (await w.request(ModelsSnapshot, undefined)).iterable.find((m) => m.name === 'stories260K');
    assert.ok(stories, 'stories260K is listed from ASKCODE_MODELS_DIR');
    await w.notify(SettingsChanged, { defaultModel: stories.id });
    await sleep(200);
    const after = await w.request(QgptQuestion, { query: 'What does reconcileLedgerEntries return?', relevant });
    assert.doesNotMatch(after.answers.iterable[0].text, /No language model was used/);
  });

  it('malformed settings are refused and leave the current ones in force', async () => {
    const err = await rpcError(w.raw(SettingsChanged.method, { exclude: 'vendor/**' }));
    assert.equal(err.data?.kind, 'invalid');
    assert.equal(err.data?.field, 'exclude');
    assert.ok((await paths()).includes('vendor/ledger-copy.ts'));
  });
});
