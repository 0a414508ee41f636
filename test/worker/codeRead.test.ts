import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { CodeRead } from '../../server/src/protocol/symbols';

describe('askcode/code/read over the real worker', () => {
  let tmp: string;
  let folder: string;
  let w: WorkerHandle | undefined;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-read-'));
    folder = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(folder, 'src'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'src', 'app.py'), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    fs.writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
    fs.writeFileSync(path.join(tmp, 'secret.txt'), 'outside the folder\n');
    fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(folder, 'link.txt'));
    fs.symlinkSync(path.join(folder, 'src', 'app.py'), path.join(folder, 'inner-link.py'));
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    w = await startWorker({ dataDir: path.join(tmp, 'data'), folders: [folder] });
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('returns the asked lines with the workspace-relative path, by absolute or relative path', async () => {
    const r = await w!.request(CodeRead, { path: 'src/app.py', startLine: 3, endLine: 5 });
    assert.equal(r.relativePath, 'src/app.py');
    assert.equal(r.path, path.join(folder, 'src', 'app.py'));
    assert.deepEqual([r.startLine, r.endLine, r.totalLines], [3, 5, 30]);
    assert.equal(r.text, 'line 3\nline 4\nline 5');
    assert.equal(r.language, 'python');
    const abs = await w!.request(CodeRead, { path: path.join(folder, 'src', 'app.py') });
    assert.equal(abs.endLine, 30);
  });

  it('follows a link whose target stays inside the folder', async () => {
    const r = await w!.request(CodeRead, { path: 'inner-link.py', startLine: 1, endLine: 1 });
    assert.equal(r.text, 'line 1');
  });

  it('refuses paths outside the folders, through links or dot-dot, without reading them', async () => {
    for (const p of ['link.txt', '../secret.txt', path.join(tmp, 'secret.txt'), '/etc/passwd']) {
      const err = await rpcError(w!.request(CodeRead, { path: p }));
      assert.equal(err.data?.kind, 'forbidden', p);
      assert.doesNotMatch(err.message, /outside the folder\n/);
    }
  });

  it('refuses a FIFO, a binary file, a missing file and bad line numbers with clear errors', async () => {
    const fifo = await rpcError(w!.request(CodeRead, { path: 'pipe' }));
    assert.equal(fifo.data?.kind, 'invalid');
    assert.match(fifo.message, /not a regular file/);
    assert.match((await rpcError(w!.request(CodeRead, { path: 'blob.bin' }))).message, /binary/);
    assert.equal((await rpcError(w!.request(CodeRead, { path: 'src/nope.py' }))).data?.kind, 'not_found');
    assert.equal((await rpcError(w!.request(CodeRead, { path: 'src/app.py', startLine: 0 }))).data?.field, 'startLine');
    assert.equal((await rpcError(w!.request(CodeRead, { path: 'src/app.py', startLine: 99 }))).data?.field, 'startLine');
    assert.equal((await rpcError(w!.raw(CodeRead.method, { path: 7 }))).data?.field, 'path');
  });
});
