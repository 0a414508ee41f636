/**
 * The worker over stdio (`dist/server.js --stdio`), as a real child process (issue 13, item 5):
 * malformed JSON-RPC (bad JSON, a batch, an object id, a non-object) gets JSON-RPC errors and the
 * worker keeps serving; a framing error (bad Content-Length) ends the connection, so a client sees
 * it close and restarts the worker instead of talking to a deaf one.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/worker';
import { tempDir } from '../qgpt/fixtures';

type Msg = { id?: unknown; method?: string; result?: unknown; error?: { code: number; message: string } };

class StdioWorker {
  readonly child: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  readonly got: Msg[] = [];
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(dataDir: string) {
    this.child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--stdio'], { env: { ...process.env, ASKCODE_DATA_DIR: dataDir } });
    this.exited = new Promise((r) => this.child.once('exit', (code) => r(code)));
    this.child.stderr.resume();
    this.child.stdout.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const len = Number(/Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString())?.[1]);
        if (this.buf.length < end + 4 + len) break;
        this.got.push(JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString()) as Msg);
        this.buf = this.buf.subarray(end + 4 + len);
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  send(raw: string): void {
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(raw)}\r\n\r\n${raw}`);
  }

  /** The next replies (not log notifications) up to `n` of them, in order. */
  async replies(n: number, ms = 20_000): Promise<Msg[]> {
    const t0 = Date.now();
    for (;;) {
      const r = this.got.filter((m) => m.method === undefined);
      if (r.length >= n) return r.slice(0, n);
      if (Date.now() - t0 > ms) throw new Error(`only ${r.length} of ${n} replies: ${JSON.stringify(this.got)}`);
      await new Promise<void>((res) => {
        this.waiters.push(res);
        setTimeout(res, 200);
      });
    }
  }
}

describe('worker: JSON-RPC over stdio', function () {
  this.timeout(60_000);
  let dataDir: string;
  let w: StdioWorker | undefined;
  before(() => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing: run `npm run build` first');
  });
  beforeEach(() => {
    dataDir = tempDir('stdio');
  });
  afterEach(() => {
    w?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const init = (h: StdioWorker) =>
    h.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {}, initializationOptions: { folders: [], autoIndex: false } } }));

  it('answers malformed messages with JSON-RPC errors and keeps serving', async () => {
    w = new StdioWorker(dataDir);
    init(w);
    w.send('{"jsonrpc": "2.0", "id": 2, ');
    w.send('[{"jsonrpc":"2.0","id":3,"method":"askcode/index/status"}]');
    w.send('{"jsonrpc":"2.0","id":{"a":1},"method":"askcode/index/status"}');
    w.send('42');
    w.send('{"jsonrpc":"1.0","id":6,"method":"askcode/index/status"}');
    w.send('{"jsonrpc":"2.0","id":7,"method":"askcode/index/status"}');
    const all = await w.replies(7);
    assert.ok(all.some((r) => r.id === 1 && r.result), 'initialize answered');
    // Errors are answered as each frame is read, so they may come before initialize's own reply.
    const rest = all.filter((r) => r.id !== 1);
    assert.deepEqual(rest.map((r) => [r.id, r.error?.code]), [[null, -32700], [null, -32600], [null, -32600], [null, -32600], [6, -32600], [7, undefined]]);
    assert.equal((rest[5]!.result as { state: string }).state, 'idle');
    assert.equal(w.child.exitCode, null, 'still running');
  });

  it('ends the connection on a framing error (bad Content-Length) after saying why', async () => {
    w = new StdioWorker(dataDir);
    init(w);
    await w.replies(1);
    w.child.stdin.write('Content-Length: abc\r\n\r\n{}');
    w.send('{"jsonrpc":"2.0","id":9,"method":"askcode/index/status"}');
    const code = await Promise.race([w.exited, new Promise((r) => setTimeout(() => r('alive'), 15_000))]);
    assert.notEqual(code, 'alive', 'the worker must not stay alive but deaf');
    assert.notEqual(code, 0);
    const [, framing] = await w.replies(2);
    assert.equal(framing!.error?.code, -32700);
    assert.match(framing!.error!.message, /Content-Length/);
  });
});
