import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';

describe('worker over JSON-RPC (IPC)', () => {
  let dataDir: string;
  let w: WorkerHandle | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-worker-'));
  });
  afterEach(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers an unknown method with a not_found error naming it', async () => {
    w = await startWorker({ dataDir });
    const err = await rpcError(w.raw('askcode/nope', {}));
    assert.equal(err.data?.kind, 'not_found');
    assert.match(err.message, /askcode\/nope/);
  });
});
