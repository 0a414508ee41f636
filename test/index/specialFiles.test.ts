/**
 * Files that must never stall or poison the index, through the real worker and its file events:
 * a FIFO named in a created event is never opened (issue 13, item 4), so the edits after it are
 * indexed; and files that are not indexed are counted by reason in the status.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { QgptRelevance } from '../../server/src/protocol/qgpt';
import { CodeRead } from '../../server/src/protocol/symbols';
import { WorkspaceFileEvents, IndexStatus, IndexRebuild } from '../../server/src/protocol/workspace';

const noModels = { ASKCODE_MODELS_DIR: path.join(os.tmpdir(), 'askcode-no-models') };

describe('index: special files never stall the index', function () {
  this.timeout(120_000);
  let root: string;
  let repo: string;
  let w: WorkerHandle | undefined;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-special-'));
    repo = path.join(root, 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'app.py'), 'def start_app():\n    return "started"\n');
    fs.writeFileSync(path.join(repo, 'src', 'other.py'), 'def other_thing():\n    return 1\n');
  });
  afterEach(async () => {
    await w?.stop().catch(() => {});
    w?.child.kill('SIGKILL');
    w = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const ready = (h: WorkerHandle) => waitFor(async () => {
    const s = await h.request(IndexStatus, undefined);
    return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
  }, 'the index to be ready', 60_000);
  const finds = async (h: WorkerHandle, word: string) =>
    (await h.request(QgptRelevance, { query: word, options: { database: true } })).relevant.iterable.some((s) => s.seed?.asset?.format?.fragment?.string?.raw?.includes(word));

  it('a created event for a FIFO is skipped; the edit after it is indexed and the FIFO is counted as special', async () => {
    w = await startWorker({ folders: [repo], dataDir: path.join(root, 'data'), autoIndex: true, env: noModels });
    await ready(w);
    const fifo = path.join(repo, 'src', 'pipe.py');
    execFileSync('mkfifo', [fifo]);
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'created', path: fifo }] });
    fs.writeFileSync(path.join(repo, 'src', 'other.py'), 'def quokka_handler():\n    return "quokka"\n');
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: path.join(repo, 'src', 'other.py') }] });
    await waitFor(async () => ((await finds(w!, 'quokka_handler')) ? true : undefined), 'the edit after the FIFO event to be indexed', 20_000);
    const status = await w.request(IndexStatus, undefined);
    assert.equal(status.state, 'ready');
    assert.equal(status.skipped?.special, 1, JSON.stringify(status));
    // Named directly, the FIFO is refused at once rather than read.
    const byPath = await rpcError(w.request(QgptRelevance, { query: 'pipe', paths: [fifo] }));
    assert.equal(byPath.data?.kind, 'invalid');
    const read = await rpcError(w.request(CodeRead, { path: fifo }));
    assert.equal(read.data?.kind, 'invalid');
    // A full walk with the FIFO in place finishes too.
    await w.request(IndexRebuild, undefined);
    await ready(w);
    assert.ok(await finds(w, 'quokka_handler'));
  });
});
