/**
 * `askcode serve` as a user runs it (the built dist/cli.js as a child): prints the URL, serves,
 * stops cleanly on SIGINT and SIGTERM, and what was written survives the restart.
 * Needs `npm run build` first.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, serve } from '../helpers/serve';
import { makeRepo, readExample } from './bridgeFixture';

describe('bridge: askcode serve', function () {
  let root: string;
  let repo: string;
  const children: ChildProcess[] = [];

  before(function () {
    if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-serve-'));
    repo = makeRepo(root);
  });
  after(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints the loopback URL, serves, and stops cleanly on ${signal} with the data kept`, async function () {
      this.timeout(90_000);
      const dataDir = path.join(root, `data-${signal}`);
      const s = await serve([repo, '--port', '0', '--data-dir', dataDir]);
      children.push(s.child);
      assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.ok(s.output().includes(repo), 'the served folder is named');
      assert.equal(await (await fetch(`${s.url}.well-known/health`)).text(), 'ok');
      const create = await fetch(`${s.url}models/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...readExample('SeededModel'), name: `kept over ${signal}` }),
      });
      assert.equal(create.status, 200);
      const { id } = (await create.json()) as { id: string };

      s.child.kill(signal);
      assert.equal(await s.exited, 0, s.output());
      assert.match(s.output(), /stopped/);

      const again = await serve([repo, '--port', '0', '--data-dir', dataDir]);
      children.push(again.child);
      const got = await fetch(`${again.url}model/${encodeURIComponent(id)}`);
      assert.equal(got.status, 200, 'the model created before the stop is still there');
      again.child.kill('SIGTERM');
      assert.equal(await again.exited, 0);
    });
  }

  it('refuses a non-loopback address without --allow-remote, and a bad port', async function () {
    this.timeout(60_000);
    const run = (args: string[]) => new Promise<{ code: number | null; err: string }>((resolve) => {
      const c = spawn(process.execPath, [CLI, 'serve', ...args, '--data-dir', path.join(root, 'data-refuse')], { stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(c);
      let err = '';
      c.stderr!.on('data', (d: Buffer) => (err += String(d)));
      c.once('exit', (code) => resolve({ code, err }));
    });
    const remote = await run(['--host', '0.0.0.0', '--port', '0']);
    assert.equal(remote.code, 2);
    assert.match(remote.err, /allow-remote/);
    const port = await run(['--port', 'eighty']);
    assert.equal(port.code, 2);
    assert.match(port.err, /--port/);
  });
});
