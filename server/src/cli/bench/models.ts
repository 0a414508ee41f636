// `askcode bench models`: the worker's resident memory around model loads (see ../bench.ts).
import { WORKER_ENV } from '../../protocol/launch';
import { fork } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import { registerBench } from '../registry';
import { parse } from '../common';
import { resolveModelsDir } from '../../core/options';
import { ModelLoad, ModelsSnapshot, ModelsUnload } from '../../protocol/models';
import type { Models } from '../../protocol/wire';

const USAGE = `Usage: askcode bench models [--cycles N] [--embedding NAME] [--llm NAME] [--plain-malloc] [--json]

Starts the real worker (dist/server.js) over IPC and prints its RSS before any load, after
loading the embedding model and the LLM, and after models/unload, for N load/unload cycles.
Needs ASKCODE_MODELS_DIR (default models: minilm-l6-shape-random-weights and stories260K).

The worker starts with the environment the extension gives it (protocol/launch.ts: glibc told to
return freed ONNX memory); --plain-malloc starts it without, for comparison.`;


/** Resident set size of another process, in bytes. */
function rssOf(pid: number): Promise<number> {
  return fs.readFile(`/proc/${pid}/status`, 'utf8').then(
    (s) => Number(/VmRSS:\s+(\d+)\s+kB/.exec(s)?.[1] ?? 0) * 1024,
    () => Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024,
  );
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

registerBench({
  name: 'models',
  summary: 'worker RSS before a load, after loading the embedding model and stories260K, and after models/unload',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      cycles: { type: 'string', default: '3' },
      embedding: { type: 'string', default: 'minilm-l6-shape-random-weights' },
      llm: { type: 'string', default: 'stories260K' },
      json: { type: 'boolean' },
      'plain-malloc': { type: 'boolean' },
    });
    // Like the tests: ASKCODE_MODELS_DIR, else ../shared/models beside the checkout when present.
    const besides = path.resolve(__dirname, '..', '..', 'shared', 'models');
    const modelsDir = resolveModelsDir() ?? (await fs.stat(besides).then(() => besides, () => undefined));
    if (!modelsDir) {
      process.stderr.write('askcode bench models: set ASKCODE_MODELS_DIR to a folder of local models (e.g. ../shared/models)\n');
      return 2;
    }
    const cycles = Math.max(1, Number(values.cycles) || 1);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'askcode-bench-models-'));
    const child = fork(path.join(__dirname, 'server.js'), ['--node-ipc'], {
      env: { ...process.env, ASKCODE_MODELS_DIR: modelsDir, ASKCODE_LOG_LEVEL: 'warn', ...(values['plain-malloc'] ? {} : WORKER_ENV) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const conn = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    conn.listen();
    const rows: { step: string; rss: number }[] = [];
    const measure = async (step: string) => {
      await sleep(1000);
      const rss = await rssOf(child.pid!);
      rows.push({ step, rss });
      if (!values.json) process.stdout.write(`${step.padEnd(44)} ${mb(rss).padStart(10)}\n`);
    };
    try {
      await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { dataDir, autoIndex: false } });
      await conn.sendNotification('initialized', {});
      const models = (await conn.sendRequest(ModelsSnapshot.method, null)) as Models;
      const find = (name: string) => {
        const m = models.iterable.find((x) => x.name === name || x.id === name);
        if (!m) throw new Error(`no model '${name}' in the registry (is it in ASKCODE_MODELS_DIR?)`);
        return m;
      };
      const emb = find(values.embedding!);
      const llm = find(values.llm!);
      if (!values.json) process.stdout.write(`worker pid ${child.pid}; embedding ${emb.name}, LLM ${llm.name}\n`);
      await measure('before any load');
      for (let c = 1; c <= cycles; c++) {
        let t = Date.now();
        await conn.sendRequest(ModelLoad.method, { model: emb.id });
        const embMs = Date.now() - t;
        await measure(`cycle ${c}: after loading ${emb.name} (${embMs} ms)`);
        t = Date.now();
        await conn.sendRequest(ModelLoad.method, { model: llm.id });
        const llmMs = Date.now() - t;
        await measure(`cycle ${c}: + ${llm.name} (${llmMs} ms)`);
        await conn.sendRequest(ModelsUnload.method, null);
        await measure(`cycle ${c}: after models/unload`);
      }
      const base = rows[0]!.rss;
      const peak = Math.max(...rows.map((r) => r.rss));
      const last = rows.at(-1)!.rss;
      const returned = peak > base ? (peak - last) / (peak - base) : 1;
      if (values.json) process.stdout.write(JSON.stringify({ rows, base, peak, last, returned }, null, 2) + '\n');
      else {
        process.stdout.write(`returned after unload: ${(returned * 100).toFixed(0)}% of the ${mb(peak - base)} the loads added (${mb(last - base)} above the start)\n`);
        process.stdout.write('(the first load also maps onnxruntime and transformers.js into the worker; that part stays by design)\n');
      }
      return 0;
    } finally {
      try {
        await conn.sendRequest('shutdown');
        await conn.sendNotification('exit');
      } catch {
        /* already gone */
      }
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      clearTimeout(t);
      conn.dispose();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
});
