// `askcode bench mcp`: what an MCP agent waits for, measured with the MCP SDK's own client.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { registerBench } from '../registry';
import { parse } from '../common';
import { invalid } from '../../core/errors';

const USAGE = `Usage: askcode bench mcp [--folder DIR] [--calls N] [--query Q] [--json]

Starts \`askcode mcp DIR\` (stdio) and \`askcode serve DIR\` (Streamable HTTP at /mcp) as children
with fresh data dirs, connects the MCP SDK's client to each and prints: the time from spawn to a
listed tool set, the time until search_code finds something (the index's first pass), then
search_code latency p50/p95 for N calls one after another and for N calls 16 at a time.`;

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

interface Row {
  transport: string;
  listedMs: number;
  firstHitMs: number;
  sequential: { p50: number; p95: number };
  concurrent16: { p50: number; p95: number; callsPerS: number };
}

async function timed(client: Client, query: string): Promise<number> {
  const t = performance.now();
  const r = await client.callTool({ name: 'search_code', arguments: { query, limit: 8 } });
  if (r.isError) throw new Error(`search_code failed: ${JSON.stringify(r.content).slice(0, 200)}`);
  return performance.now() - t;
}

async function measure(transport: string, client: Client, t0: number, calls: number, query: string): Promise<Row> {
  await client.listTools();
  const listedMs = performance.now() - t0;
  for (;;) {
    const r = await client.callTool({ name: 'search_code', arguments: { query, limit: 1 } });
    if (((r.structuredContent as { results?: unknown[] } | undefined)?.results ?? []).length) break;
    if (performance.now() - t0 > 600_000) throw new Error('the folder was not indexed within 10 minutes');
    await new Promise((res) => setTimeout(res, 100));
  }
  const firstHitMs = performance.now() - t0;
  const seq: number[] = [];
  for (let i = 0; i < calls; i++) seq.push(await timed(client, query));
  const conc: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i += 16) {
    conc.push(...(await Promise.all(Array.from({ length: Math.min(16, calls - i) }, () => timed(client, query)))));
  }
  const wall = (performance.now() - started) / 1000;
  seq.sort((a, b) => a - b);
  conc.sort((a, b) => a - b);
  return {
    transport,
    listedMs,
    firstHitMs,
    sequential: { p50: percentile(seq, 50), p95: percentile(seq, 95) },
    concurrent16: { p50: percentile(conc, 50), p95: percentile(conc, 95), callsPerS: conc.length / wall },
  };
}

registerBench({
  name: 'mcp',
  summary: 'MCP: startup, first search and search_code latency over stdio and Streamable HTTP',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      folder: { type: 'string', default: process.cwd() },
      calls: { type: 'string', default: '64' },
      query: { type: 'string', default: 'where are errors handled' },
      json: { type: 'boolean', default: false },
    });
    const folder = path.resolve(values.folder!);
    const calls = Number(values.calls);
    if (!Number.isInteger(calls) || calls < 1) throw invalid('--calls must be a positive whole number', 'calls');
    const cli = process.argv[1]!;
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'askcode-bench-mcp-'));
    const rows: Row[] = [];
    try {
      {
        const t0 = performance.now();
        const client = new Client({ name: 'askcode-bench', version: '1' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', folder, '--data-dir', path.join(tmp, 'stdio')], stderr: 'ignore' }));
        rows.push(await measure('stdio', client, t0, calls, values.query!));
        await client.close();
      }
      {
        const t0 = performance.now();
        const child = spawn(process.execPath, [cli, 'serve', folder, '--port', '0', '--data-dir', path.join(tmp, 'http')], { stdio: ['ignore', 'pipe', 'ignore'] });
        try {
          const url = await new Promise<string>((resolve, reject) => {
            child.stdout!.on('data', (d) => {
              const m = /serving (http:\/\/\S+?)\/?(\s|$)/.exec(String(d));
              if (m) resolve(m[1]!);
            });
            child.once('exit', (code) => reject(new Error(`askcode serve exited with ${code}`)));
          });
          const client = new Client({ name: 'askcode-bench', version: '1' });
          await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
          rows.push(await measure('http', client, t0, calls, values.query!));
          await client.close();
        } finally {
          child.kill('SIGINT');
        }
      }
    } finally {
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
    }
    if (values.json) {
      process.stdout.write(JSON.stringify({ folder, calls, rows }, null, 2) + '\n');
      return 0;
    }
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    process.stdout.write(`MCP on ${folder} (${calls} search_code calls each)\n`);
    for (const r of rows) {
      process.stdout.write(
        `  ${r.transport.padEnd(5)}  tools listed ${ms(r.listedMs)}, first hit ${ms(r.firstHitMs)}; ` +
          `sequential p50 ${ms(r.sequential.p50)} p95 ${ms(r.sequential.p95)}; ` +
          `16 at a time p50 ${ms(r.concurrent16.p50)} p95 ${ms(r.concurrent16.p95)}, ${r.concurrent16.callsPerS.toFixed(0)} calls/s\n`,
      );
    }
    return 0;
  },
});
