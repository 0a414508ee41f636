// Registers `askcode bench index` (see ../bench.ts).
import { promises as fs, existsSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { registerBench } from '../registry';
import { parse, openCore } from '../common';
import { EmbedCounter, addSyntheticChunks, pendingEmbedTexts, allEmbedTexts } from './indexHooks';
import { sampleEvenly } from '../../index/embeddings';
import { QgptRelevance } from '../../protocol/qgpt';
import { resolveModelsDir } from '../../core/options';
import type { Core } from '../../core/core';
import { DEFAULT_EMBEDDING_MODEL_ID } from '../../models/catalog';
import { WORKER_ENV } from '../../protocol/launch';

const USAGE = `Usage: askcode bench index --repo-dir DIR --data-dir D [--synthetic-chunks N] [--embed-sample N]
                            [--static-model ID|PATH|none] [--json] [--slow] [--cpu-prof-dir DIR] [--plain-malloc]

Indexes DIR into an empty index under D and prints: time until BM25 answers (bm25_ready_s),
embedding throughput of the index and of @huggingface/transformers alone on the same chunks
(MiniLM-shaped random weights from ASKCODE_MODELS_DIR), relevance p50/p95 at 10k and N chunks
(extra chunks are copies with random vectors; the query path is the real one), peak RSS, disk
size, and the chunks embedded again when the unchanged tree is indexed a second time. With the
static model (default: the one askcode ships) the whole tree is embedded with it
(static_embed_chunks_per_s, static_full_embed_s) and the latency steps use its vectors.
Latency is wall and CPU time per query over 200 queries after 5 warm-up ones (CPU time is steadier on a shared machine); queries are
built from the words of chunks across the tree, so some are all common words.

  --embed-sample 0    skip the ONNX (transformers.js) measurements: the process then holds only
                      what the default static model needs, as the worker does (rss_mb_100k)
  --slow              print the six slowest queries of each latency step
  --cpu-prof-dir DIR  write V8 CPU profiles of the static embedding run and the large latency step
  --plain-malloc      run without the allocator settings the worker starts with (protocol/launch.ts)

The benchmark runs itself again in a process started as the extension starts the worker (the
allocator settings of protocol/launch.ts), and collects garbage twice before it reads the RSS at
N chunks, so that the figure is the idle worker's rather than a collection's timing.`;

const MODEL = 'minilm-l6-shape-random-weights';

async function du(dir: string): Promise<number> {
  let n = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? await du(p) : (await fs.stat(p)).size;
  }
  return n;
}

/**
 * A full garbage collection on demand, without starting node with --expose-gc: the flag set at
 * run time makes `gc` available to a new context.
 */
function collector(): () => void {
  if (typeof global.gc === 'function') return global.gc as () => void;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const mb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Queries from the indexed text itself: symbol names and words of random chunks. */
function sampleQueries(texts: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n && texts.length; i++) {
    const t = texts[(i * 7919) % texts.length]!;
    const words = t.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? ['index'];
    out.push(`where is ${words.slice(0, 3).join(' ')} handled and why does ${words[words.length - 1]} fail`);
  }
  return out;
}

/** Wall and CPU milliseconds per query (CPU time says more than wall time on a shared machine). */
async function timeQueries(core: Core, queries: string[], slow = false): Promise<{ p50: number; p95: number; cpuP50: number; cpuP95: number }> {
  const times: number[] = [];
  const cpus: number[] = [];
  for (const query of queries) {
    const t = process.hrtime.bigint();
    const c = process.cpuUsage();
    await core.service.request(QgptRelevance, { query, options: { database: true } });
    const cu = process.cpuUsage(c);
    cpus.push((cu.user + cu.system) / 1000);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  if (slow) for (const i of times.map((_, i) => i).sort((a, b) => times[b]! - times[a]!).slice(0, 6)) process.stderr.write(`slow ${times[i]!.toFixed(1)} ms (cpu ${cpus[i]!.toFixed(1)}): ${queries[i]}\n`);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { p50: r(q(times, 0.5)), p95: r(q(times, 0.95)), cpuP50: r(q(cpus, 0.5)), cpuP95: r(q(cpus, 0.95)) };
}

/** Starts a V8 CPU profile when `dir` is set; the returned function writes `<dir>/<name>.cpuprofile`. */
async function profile(dir: string | null, name: string): Promise<() => Promise<void>> {
  if (!dir) return async () => {};
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile: p } = await session.post('Profiler.stop');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(p));
    session.disconnect();
  };
}

/** @huggingface/transformers alone, one text at a time (its fastest setting on 2 cores, per the models README). */
async function rawThroughput(modelsDir: string, texts: string[]): Promise<number> {
  const t = await import('@huggingface/transformers');
  t.env.allowRemoteModels = false;
  t.env.localModelPath = modelsDir + path.sep;
  const pipe = await t.pipeline('feature-extraction', MODEL, { dtype: 'q8' as never });
  const t0 = Date.now();
  for (const s of texts) await pipe(s, { pooling: 'mean', normalize: true, truncation: true } as never);
  const rate = texts.length / ((Date.now() - t0) / 1000);
  await pipe.dispose();
  return Math.round(rate * 10) / 10;
}

registerBench({
  name: 'index',
  summary: 'time to BM25-ready, embedding throughput, relevance p50/p95 at 10k and N chunks, peak RSS, disk',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      'repo-dir': { type: 'string' }, 'data-dir': { type: 'string' }, 'synthetic-chunks': { type: 'string' },
      'embed-sample': { type: 'string' }, json: { type: 'boolean' }, 'static-model': { type: 'string' }, slow: { type: 'boolean' },
      'cpu-prof-dir': { type: 'string' }, 'plain-malloc': { type: 'boolean' },
    });
    // Measured as the worker runs: started with the allocator settings the extension gives it.
    if (!values['plain-malloc'] && !Object.keys(WORKER_ENV).every((k) => process.env[k] === WORKER_ENV[k])) {
      const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, ...WORKER_ENV } });
      return child.status ?? 1;
    }
    if (!values['repo-dir'] || !values['data-dir']) {
      process.stderr.write(USAGE + '\n');
      return 2;
    }
    const repo = path.resolve(values['repo-dir']);
    const dataDir = path.resolve(values['data-dir']);
    const big = Number(values['synthetic-chunks'] ?? 100_000);
    const sample = Number(values['embed-sample'] ?? 1000);
    const slow = !!values.slow;
    const profileDir = values['cpu-prof-dir'] ? path.resolve(values['cpu-prof-dir']) : null;
    // Like the tests: the shared model folders beside the checkout when the variable is not set.
    const beside = path.resolve('..', 'shared', 'models');
    const modelsDir = resolveModelsDir() ?? (existsSync(path.join(beside, MODEL)) ? beside : undefined);
    if (modelsDir) process.env.ASKCODE_MODELS_DIR = modelsDir;
    const log = (s: string) => process.stderr.write(s + '\n');
    await fs.rm(dataDir, { recursive: true, force: true });
    const out: Record<string, number | string | null> = {};

    // 1. An empty index to BM25-ready (the lexical pass; embeddings come after it).
    let core = await openCore({ dataDir, folders: [repo], autoIndex: false });
    core.index.setDense(false);
    let t0 = Date.now();
    await core.index.indexAll();
    out.bm25_ready_s = Math.round((Date.now() - t0) / 100) / 10;
    const st = await core.index.currentStatus();
    out.files = st.filesTotal;
    out.chunks = st.chunks;
    log(`BM25 ready in ${out.bm25_ready_s} s: ${st.filesTotal} files, ${st.chunks} chunks`);

    // 2. Embedding throughput: the index's own path vs transformers.js alone, on the same chunks.
    let dims: number | undefined;
    let firstRun = new Set<string>();
    if (modelsDir && sample > 0) {
      await core.dispose();
      const counter = new EmbedCounter(sample);
      core = await openCore({ dataDir, folders: [repo], autoIndex: false, embedding: counter.options });
      (core.options.settings ??= {}).embeddingModel = MODEL;
      core.index.setDense(false);
      await core.index.indexAll(); // unchanged tree: reloads and walks; nothing to chunk again
      const texts = pendingEmbedTexts(core.index.engine, sample);
      core.index.setDense(true);
      t0 = Date.now();
      await core.index.embedNow();
      const embedded = counter.count;
      firstRun = new Set(counter.hashes);
      out.embed_chunks_per_s = embedded ? Math.round((embedded / ((Date.now() - t0) / 1000)) * 10) / 10 : 0;
      out.embed_sample = embedded;
      const e = await core.models.getEmbedder();
      dims = e?.dims;
      log(`index embedded ${embedded} chunks at ${out.embed_chunks_per_s}/s; measuring transformers.js alone on the same chunks…`);
      out.raw_transformers_chunks_per_s = await rawThroughput(modelsDir, texts);
      out.embed_ratio = out.raw_transformers_chunks_per_s ? Math.round(((out.embed_chunks_per_s as number) / out.raw_transformers_chunks_per_s) * 100) / 100 : null;
    } else if (!modelsDir) {
      log('ASKCODE_MODELS_DIR is not set: skipping the embedding measurements');
    } else log('--embed-sample 0: skipping the ONNX measurements (the worker then holds only what the default model needs)');

    // 2b. The static model over the whole tree; its vectors then serve the latency steps.
    let staticModel: string | null = values['static-model'] === 'none' ? null : (values['static-model'] ?? DEFAULT_EMBEDDING_MODEL_ID);
    if (staticModel && existsSync(path.join(staticModel, 'config.json'))) {
      process.env.ASKCODE_MODELS_DIR = path.dirname(path.resolve(staticModel));
      staticModel = path.basename(path.resolve(staticModel));
    }
    if (staticModel) {
      await core.dispose();
      const counter = new EmbedCounter(Infinity);
      core = await openCore({ dataDir, folders: [repo], autoIndex: false, embedding: counter.options });
      (core.options.settings ??= {}).embeddingModel = staticModel;
      core.index.setDense(false);
      await core.index.indexAll();
      core.index.setDense(true);
      const before = counter.count;
      t0 = Date.now();
      let cpu0 = process.cpuUsage();
      const stop = await profile(profileDir, 'embed');
      await core.index.embedNow();
      await stop();
      let cpu = process.cpuUsage(cpu0);
      const n = counter.count - before;
      const s = (Date.now() - t0) / 1000;
      // CPU seconds of this process: on a shared machine wall time says more about the neighbours.
      const cpuS = (cpu.user + cpu.system) / 1e6;
      const e = await core.models.getEmbedder();
      if (e && n) {
        dims = e.dims;
        out.static_model = e.modelId;
        out.static_embedded = n;
        out.static_full_embed_s = Math.round(s * 10) / 10;
        out.static_embed_chunks_per_s = Math.round(n / s);
        out.static_embed_chunks_per_cpu_s = Math.round(n / cpuS);
        // The embedder alone (tokenize + pool), without the index's batching and LanceDB writes.
        const texts = allEmbedTexts(core.index.engine);
        const tr = Date.now();
        cpu0 = process.cpuUsage();
        await e.embed(texts);
        cpu = process.cpuUsage(cpu0);
        out.static_raw_chunks_per_s = Math.round(texts.length / ((Date.now() - tr) / 1000));
        out.static_raw_chunks_per_cpu_s = Math.round(texts.length / ((cpu.user + cpu.system) / 1e6));
        log(`static model embedded ${n} chunks in ${s.toFixed(1)} s (${out.static_embed_chunks_per_s}/s; alone ${out.static_raw_chunks_per_s}/s)`);
      } else log(`static model ${staticModel} not available: ${e ? 'nothing to embed' : 'see the warning above'}`);
    }

    // 3. Relevance latency at 10k and N chunks (copies with random vectors; real query path, query embedded for real).
    // Queries from the words of chunks spread over the whole tree (not only the ones left to embed).
    // 200 of them: a p95 over 60 queries is their third slowest, one garbage collection's luck.
    // Five warm-up queries after each growth: a real index is warm long before it is asked.
    const queries = sampleQueries(sampleEvenly(allEmbedTexts(core.index.engine), 997), 200);
    const warmUp = () => timeQueries(core, queries.slice(-5));
    const have = (await core.index.currentStatus()).chunks;
    if (have < 10_000) addSyntheticChunks(core.index.engine, 10_000 - have, dims);
    await warmUp();
    const at10k = await timeQueries(core, queries, slow);
    out.p50_ms_10k = at10k.p50;
    out.p95_ms_10k = at10k.p95;
    out.p95_cpu_ms_10k = at10k.cpuP95;
    if (big > 10_000) {
      addSyntheticChunks(core.index.engine, big - 10_000, dims);
      await warmUp();
      const stop = await profile(profileDir, `queries-${big / 1000}k`);
      const atN = await timeQueries(core, queries, slow);
      await stop();
      // Chunks with a vector: every synthetic chunk has one (dense scoring is timed, not skipped).
      const vectors = core.index.engine.vectorCount;
      out[`vectors_${big / 1000}k`] = vectors;
      // Figures "with vectors" of an index that lacks most of them would be wrong (it happened once).
      const distinct = new Set([...core.index.engine.allChunks()].map((c) => c.hash)).size;
      if (dims && vectors < distinct * 0.9) throw new Error(`only ${vectors} of ${distinct} distinct chunks have a vector: the figures at ${big / 1000}k would not be of a full hybrid index`);
      out[`p50_ms_${big / 1000}k`] = atN.p50;
      out[`p95_ms_${big / 1000}k`] = atN.p95;
      out[`p50_cpu_ms_${big / 1000}k`] = atN.cpuP50;
      out[`p95_cpu_ms_${big / 1000}k`] = atN.cpuP95;
      // Twice: typed arrays freed by the first collection's finalisers go in the second.
      const gc = collector();
      gc();
      gc();
      const mem = process.memoryUsage();
      out[`rss_mb_${big / 1000}k`] = Math.round(mem.rss / 1048576);
      // Where it is: the JS heap (chunk records, maps) and typed arrays (postings, vectors, the model).
      out[`heap_mb_${big / 1000}k`] = Math.round(mem.heapUsed / 1048576);
      out[`array_buffers_mb_${big / 1000}k`] = Math.round(mem.arrayBuffers / 1048576);
    }
    out.dense_in_queries = dims ? `yes (${dims} dims)` : 'no';
    await core.dispose();
    out.disk_mb = Math.round((await du(path.join(dataDir, 'index'))) / 1e5) / 10;

    // 4. Rerun on the unchanged tree: nothing may be embedded again.
    const rerun = new EmbedCounter(sample);
    core = await openCore({ dataDir, folders: [repo], autoIndex: false, embedding: rerun.options });
    if (modelsDir) (core.options.settings ??= {}).embeddingModel = MODEL;
    await core.index.indexAll();
    await core.index.whenIdle();
    // Embedding runs cheapest-first, so a rerun that had lost the vectors would embed exactly the same sample again.
    out.reembedded_on_rerun = [...rerun.hashes].filter((h) => firstRun.has(h)).length;
    out.embedded_on_rerun_new = rerun.count - (out.reembedded_on_rerun as number);
    await core.dispose();
    out.peak_rss_mb = mb();

    for (const [k, v] of Object.entries(out)) process.stdout.write(`${k.padEnd(32)} ${v}\n`);
    if (values.json) process.stdout.write(JSON.stringify(out) + '\n');
    return 0;
  },
});
