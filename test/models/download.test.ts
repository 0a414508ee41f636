/**
 * `model/download` from a model hub over HTTP. The hub here is a small local server laying out a
 * real model folder the way a hub serves it (`<repo>/resolve/main/<file>`, HEAD with sizes), so the
 * product's real fetch/progress/cancel code runs; HF_ENDPOINT points the worker at it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { ModelDownload, ModelDownloadCancel, ModelGet, ModelLoad, ModelDownloadProgressNotification } from '../../server/src/protocol/models';
import type { ModelDownloadProgress } from '../../server/src/protocol/wire';
import { MINILM_MODEL_ID, QWEN_05B_MODEL_ID, POTION_CODE_MODEL_ID } from '../../server/src/models/catalog';
import { writeStaticModel } from './staticModel';
import { silentLogger } from '../../server/src/core/logger';
import { tempDir, openModels, MINILM_SHAPE_DIR } from './fixtures';

const REPO = 'Xenova/all-MiniLM-L6-v2';

/** Serves MINILM_SHAPE_DIR as REPO (or `dir` as `repo`); `slow` sends 64 kB every 25 ms so a download can be cancelled. */
function startHub(opts: { slow?: boolean; repo?: string; dir?: string } = {}): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const root = opts.dir ?? MINILM_SHAPE_DIR;
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const prefix = `/${opts.repo ?? REPO}/resolve/main/`;
    const rel = decodeURIComponent((req.url ?? '').split('?')[0]!);
    const file = rel.startsWith(prefix) ? path.join(root, rel.slice(prefix.length)) : '';
    if (!file || !file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const size = fs.statSync(file).size;
    res.writeHead(200, { 'content-length': String(size), 'content-type': 'application/octet-stream' });
    if (req.method === 'HEAD') return void res.end();
    if (!opts.slow) return void fs.createReadStream(file).pipe(res);
    const data = fs.readFileSync(file);
    let off = 0;
    const tick = setInterval(() => {
      if (res.destroyed || off >= data.length) {
        clearInterval(tick);
        res.end();
        return;
      }
      res.write(data.subarray(off, (off += 65536)));
    }, 25);
    res.on('close', () => clearInterval(tick));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function cacheEntries(dataDir: string): string[] {
  const root = path.join(dataDir, 'models');
  return fs.existsSync(root) ? fs.readdirSync(root) : [];
}

describe('model/download from a model hub (no ASKCODE_MODELS_DIR)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let w: WorkerHandle | undefined;
  beforeEach(() => {
    dataDir = tempDir('download');
  });
  afterEach(async () => {
    await w?.stop();
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is a clear offline error when the hub cannot be reached, with nothing half-written', async () => {
    // A loopback port nobody listens on: connection refused, as on a machine without network.
    w = await startWorker({ dataDir, env: { ASKCODE_MODELS_DIR: '', HF_ENDPOINT: `http://127.0.0.1:${await closedPort()}` } });
    const frames: ModelDownloadProgress[] = [];
    w.onNotification(ModelDownloadProgressNotification, (p) => void frames.push(p.progress));
    for (const id of [QWEN_05B_MODEL_ID, MINILM_MODEL_ID]) {
      const e = await rpcError(w.request(ModelDownload, { model: id }));
      assert.equal(e.data?.kind, 'offline', e.message);
      assert.match(e.message, /offline|reach/);
      assert.equal((await w.request(ModelGet, { model: id })).downloaded, false);
    }
    assert.deepEqual(cacheEntries(dataDir), [], 'no temp folder left');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(frames.at(-1)?.status, 'FAILED');
    assert.equal((await rpcError(w.request(ModelLoad, { model: QWEN_05B_MODEL_ID }))).data?.kind, 'unavailable');
  });

  it('downloads over HTTP with byte progress into one cache folder, then loads from it', async () => {
    const hub = await startHub();
    try {
      w = await startWorker({ dataDir, env: { ASKCODE_MODELS_DIR: '', HF_ENDPOINT: hub.url } });
      const frames: ModelDownloadProgress[] = [];
      w.onNotification(ModelDownloadProgressNotification, (p) => p.model === MINILM_MODEL_ID && void frames.push(p.progress));
      const m = await w.request(ModelDownload, { model: MINILM_MODEL_ID });
      assert.equal(m.downloaded, true);
      assert.ok(m.bytes!.value > 20_000_000, `size measured in the cache: ${m.bytes!.value}`);
      await new Promise((r) => setTimeout(r, 100));
      const pcts = frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.percentage!);
      assert.ok(pcts.length > 5, `byte progress: ${pcts}`);
      assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b));
      assert.equal(frames.at(-1)?.status, 'COMPLETED');
      assert.deepEqual(cacheEntries(dataDir), ['Xenova--all-MiniLM-L6-v2']);
      assert.ok(hub.requests.some((r) => r === `GET /${REPO}/resolve/main/onnx/model_quantized.onnx`));
      assert.equal((await w.request(ModelLoad, { model: MINILM_MODEL_ID })).loaded, true);
    } finally {
      await hub.close();
    }
  });

  it('model/download/cancel stops a running download: CANCELED, a cancelled error, nothing left', async () => {
    const hub = await startHub({ slow: true });
    try {
      w = await startWorker({ dataDir, env: { ASKCODE_MODELS_DIR: '', HF_ENDPOINT: hub.url } });
      const frames: ModelDownloadProgress[] = [];
      w.onNotification(ModelDownloadProgressNotification, (p) => p.model === MINILM_MODEL_ID && void frames.push(p.progress));
      const running = rpcError(w.request(ModelDownload, { model: MINILM_MODEL_ID }));
      const end = Date.now() + 20_000;
      while (!frames.some((f) => (f.percentage ?? 0) > 0) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await w.request(ModelGet, { model: MINILM_MODEL_ID })).downloading, true);
      const after = await w.request(ModelDownloadCancel, { model: MINILM_MODEL_ID });
      assert.equal(after.downloading, false);
      assert.equal(after.downloaded, false);
      const e = await running;
      assert.equal(e.data?.kind, 'cancelled');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(frames.at(-1)?.status, 'CANCELED');
      assert.deepEqual(cacheEntries(dataDir), [], 'the temp folder is removed');
    } finally {
      await hub.close();
    }
  });

  it('the embedding model is fetched automatically on first use when no models dir is set', async () => {
    const hub = await startHub();
    const old = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = hub.url;
    const core = await openModels({ dataDir, log: silentLogger, settings: { embeddingModel: MINILM_MODEL_ID } });
    try {
      const e = await core.models.getEmbedder();
      assert.equal(e?.modelId, MINILM_MODEL_ID);
      assert.equal((await e!.embed(['fetched on first use']))[0]!.length, 384);
      assert.deepEqual(cacheEntries(dataDir), ['Xenova--all-MiniLM-L6-v2']);
    } finally {
      await core.dispose();
      if (old === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = old;
      await hub.close();
    }
  });

  it('potion-code-16M (model2vec layout) downloads with progress, then embeds with the static loader', async () => {
    // A tiny model in model2vec's own layout (model.safetensors), served as minishlab/potion-code-16M.
    const src = writeStaticModel(path.join(dataDir, 'hub-potion'), ['[UNK]', 'read', 'file', 'socket'], [[0, 0], [1, 0.2], [0.8, 0.3], [0, 1]]);
    fs.renameSync(path.join(src, 'embeddings.safetensors'), path.join(src, 'model.safetensors'));
    const hub = await startHub({ repo: 'minishlab/potion-code-16M', dir: src });
    try {
      w = await startWorker({ dataDir, env: { ASKCODE_MODELS_DIR: '', HF_ENDPOINT: hub.url } });
      const frames: ModelDownloadProgress[] = [];
      w.onNotification(ModelDownloadProgressNotification, (p) => p.model === POTION_CODE_MODEL_ID && void frames.push(p.progress));
      assert.equal((await w.request(ModelGet, { model: POTION_CODE_MODEL_ID })).downloaded, false);
      const m = await w.request(ModelDownload, { model: POTION_CODE_MODEL_ID });
      assert.equal(m.downloaded, true);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(frames[0]?.status, 'IN-PROGRESS');
      assert.equal(frames.at(-1)?.status, 'COMPLETED');
      assert.deepEqual(hub.requests.filter((r) => r.startsWith('GET')).sort(), [
        'GET /minishlab/potion-code-16M/resolve/main/config.json',
        'GET /minishlab/potion-code-16M/resolve/main/model.safetensors',
        'GET /minishlab/potion-code-16M/resolve/main/tokenizer.json',
      ]);
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'models', 'minishlab--potion-code-16M')).sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
      assert.equal((await w.request(ModelLoad, { model: POTION_CODE_MODEL_ID })).loaded, true);
    } finally {
      await hub.close();
    }
  });
});
