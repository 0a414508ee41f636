// `askcode bench bridge`: throughput and latency of the bridge on loopback (see ../bench.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { registerBench } from '../registry';
import { parse } from '../common';
import { resolveModelsDir } from '../../core/options';
import type { Models, QGPTStreamOutput } from '../../protocol/wire';
import type { IndexProgress } from '../../protocol/workspace';

const USAGE = `Usage: askcode bench bridge [--folder DIR] [--seconds S] [--clients 1,8,32] [--conversations N] [--query Q] [--json]

Starts \`askcode serve DIR\` as a child on a free loopback port (fresh data dir), waits for the
index, then for each client count runs GET /models and POST /qgpt/relevance back to back for S
seconds and prints requests/s and p50/p99 latency. Then opens N WebSockets on /qgpt/stream, one
conversation each, asks stories260K (from ASKCODE_MODELS_DIR) on all at once and prints frames/s
and how many frames were lost or misrouted.`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface LoadRow {
  route: string;
  clients: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

async function load(route: string, clients: number, seconds: number, send: () => Promise<Response>): Promise<LoadRow> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const t = performance.now();
      try {
        const r = await send();
        await r.arrayBuffer();
        if (!r.ok) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t);
    }
  }));
  const wall = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { route, clients, requests: latencies.length, errors, rps: latencies.length / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** One JSON-RPC call over /askcode/rpc (used for the index status, which has no REST route). */
function rpc(base: string, method: string, params: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + 'askcode/rpc');
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id?: number; result?: unknown; error?: { message: string } };
      if (m.id !== 1) return;
      ws.close();
      if (m.error) reject(new Error(m.error.message));
      else resolve(m.result);
    });
  });
}

function startServe(folder: string, dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [process.argv[1], 'serve', folder, '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, ASKCODE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, base: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

interface StreamResult {
  conversations: number;
  frames: number;
  seconds: number;
  completed: number;
  lost: number;
  misrouted: number;
  failed: string[];
}

/** N sockets, one conversation each, all asking at once; every frame must carry its own socket's request id. */
async function streams(base: string, model: string, n: number): Promise<StreamResult> {
  const question = (i: number) => ({
    request: `bench-${i}`,
    question: {
      query: `Tell me a story about the number ${i}.`,
      model,
      relevant: { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: {
        application: { id: 'bench', name: 'OPEN_SOURCE', version: '0.1.0', platform: 'LINUX', onboarded: true, privacy: 'OPEN' },
        format: { fragment: { string: { raw: `function story${i}() { return 'once upon a time'; }` }, metadata: { ext: 'ts' } } },
      } } }] },
    },
  });
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + 'qgpt/stream');
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  })));
  let frames = 0;
  let misrouted = 0;
  let completed = 0;
  const failed: string[] = [];
  const started = performance.now();
  await Promise.all(sockets.map((ws, i) => new Promise<void>((resolve) => {
    const t = setTimeout(() => resolve(), 120_000);
    ws.on('message', (d) => {
      const f = JSON.parse(String(d)) as QGPTStreamOutput;
      frames++;
      if (f.request !== `bench-${i}`) misrouted++;
      if (f.status && ['COMPLETED', 'FAILED', 'STOPPED', 'RESET', 'CANCELED'].includes(f.status)) {
        if (f.status === 'COMPLETED') completed++;
        else failed.push(`${f.status} ${f.statusCode ?? ''} ${f.errorMessage ?? ''}`);
        clearTimeout(t);
        resolve();
      }
    });
    ws.send(JSON.stringify(question(i)));
  })));
  const seconds = (performance.now() - started) / 1000;
  for (const ws of sockets) ws.close();
  return { conversations: n, frames, seconds, completed, lost: n - completed - failed.length, misrouted, failed };
}

registerBench({
  name: 'bridge',
  summary: 'requests/s and p50/p99 latency of the bridge at 1, 8 and 32 clients; 32 WebSocket conversations',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      folder: { type: 'string', default: process.cwd() },
      seconds: { type: 'string', default: '3' },
      clients: { type: 'string', default: '1,8,32' },
      conversations: { type: 'string', default: '32' },
      query: { type: 'string', default: 'where are incoming requests checked before they reach the service' },
      json: { type: 'boolean' },
    });
    const seconds = Math.max(0.5, Number(values.seconds) || 3);
    const clientCounts = values.clients.split(',').map(Number).filter((n) => n > 0);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'askcode-bench-bridge-'));
    const folder = path.resolve(values.folder);
    const { child, base } = await startServe(folder, dataDir);
    const log = (s: string) => void (values.json ? process.stderr : process.stdout).write(s + '\n');
    try {
      log(`bridge at ${base}, serving ${folder}`);
      const t0 = performance.now();
      let status: IndexProgress | undefined;
      for (;;) {
        status = (await rpc(base, 'askcode/index/status', null).catch(() => undefined)) as IndexProgress | undefined;
        if (!status || status.state === 'ready' || status.state === 'error' || performance.now() - t0 > 600_000) break;
        await sleep(500);
      }
      log(status
        ? `index ${status.state}: ${status.files} files, ${status.chunks} chunks, ${status.embedded} embedded${status.bm25Only ? ' (BM25 only)' : ''}, ${((performance.now() - t0) / 1000).toFixed(1)} s`
        : 'index status not available');

      const relevanceBody = JSON.stringify({ query: values.query, options: { database: true } });
      const rows: LoadRow[] = [];
      for (const clients of clientCounts) {
        rows.push(await load('GET /models', clients, seconds, () => fetch(`${base}models`)));
        rows.push(await load('POST /qgpt/relevance', clients, seconds, () =>
          fetch(`${base}qgpt/relevance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: relevanceBody })));
      }
      log(`\n${'route'.padEnd(22)} ${'clients'.padStart(7)} ${'requests'.padStart(9)} ${'errors'.padStart(6)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
      for (const r of rows) {
        log(`${r.route.padEnd(22)} ${String(r.clients).padStart(7)} ${String(r.requests).padStart(9)} ${String(r.errors).padStart(6)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)}`);
      }

      let stream: StreamResult | { skipped: string } = { skipped: 'stories260K is not in ASKCODE_MODELS_DIR' };
      const models = (await (await fetch(`${base}models`)).json()) as Models;
      const tiny = models.iterable?.find((m) => m.name === 'stories260K');
      if (!resolveModelsDir()) stream = { skipped: 'ASKCODE_MODELS_DIR is not set' };
      else if (tiny) {
        if (!tiny.downloaded) await fetch(`${base}model/${encodeURIComponent(tiny.id)}/download`, { method: 'POST' });
        stream = await streams(base, tiny.id, Math.max(1, Number(values.conversations) || 32));
        const s = stream;
        log(`\n/qgpt/stream, stories260K: ${s.conversations} sockets × 1 conversation, ${s.frames} frames in ${s.seconds.toFixed(2)} s = ` +
          `${(s.frames / s.seconds).toFixed(0)} frames/s; completed ${s.completed}, failed ${s.failed.length}, lost ${s.lost}, misrouted ${s.misrouted}`);
        for (const f of [...new Set(s.failed)].slice(0, 5)) log(`  failed: ${f}`);
      } else log(`\n/qgpt/stream: skipped (${stream.skipped})`);
      if (values.json) process.stdout.write(JSON.stringify({ folder, index: status, rows, stream }, null, 2) + '\n');
      return 0;
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
});
