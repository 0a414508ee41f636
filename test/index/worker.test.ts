import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startWorker, rpcError, SHARED_MODELS, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { MINILM_MODEL_ID } from '../../server/src/models/catalog';
import { QgptRelevance, QgptQuestion } from '../../server/src/protocol/qgpt';
import {
  WorkspaceSetFolders, WorkspaceFileEvents, WorkspaceBuffer, IndexStatus, IndexRebuild, IndexPause, IndexResume, IndexProgressNotification,
  AssetsSave, AssetsList, AssetsDelete, type IndexProgress,
} from '../../server/src/protocol/workspace';
import type { QGPTRelevanceInput, RelevantQGPTSeed, Seed } from '../../server/src/protocol/wire';
import { IndexStore, type ChunkRow } from '../../server/src/index/store';
import { silentLogger } from '../../server/src/core/logger';

const APP = { id: 'test', name: 'OPEN_SOURCE', version: '0', platform: 'LINUX', onboarded: true, privacy: 'OPEN' };
const seedOf = (raw: string, ext = 'py'): Seed => ({ type: 'SEEDED_ASSET', asset: { application: APP, format: { fragment: { string: { raw }, metadata: { ext } } } } });

/** A small real repository: several languages, a .gitignore, a binary, a huge file, a test file. */
function makeRepo(dir: string): void {
  const w = (rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  w('.gitignore', 'build/\n');
  w('src/billing/invoice.ts', 'export class InvoiceCalculator {\n  computeVatTotal(lines: number[]): number {\n    return lines.reduce((a, b) => a + b, 0) * 1.2;\n  }\n}\n');
  w('src/billing/invoice.test.ts', 'import { InvoiceCalculator } from "./invoice";\ntest("computeVatTotal", () => new InvoiceCalculator().computeVatTotal([1]));\n');
  w('lib/geometry.py', 'def polygon_area(points):\n    """Shoelace formula."""\n    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:])))/2\n');
  w('cmd/server.go', 'package main\n\nfunc StartHttpServer(port int) error {\n\treturn nil\n}\n');
  w('crates/tokenizer.rs', 'pub fn split_sentences(text: &str) -> Vec<&str> {\n    text.split(". ").collect()\n}\n');
  w('docs/README.md', '# Billing\n\nInvoices carry VAT.\n');
  w('build/bundle.js', 'function polygonAreaBundled() {}\n');
  w('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  w('data/huge.txt', 'zebra '.repeat(400_000));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=a@example.com', '-c', 'user.name=A', 'add', '.'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=a@example.com', '-c', 'user.name=A', 'commit', '-qm', 'init'], { cwd: dir });
}

const ready = (w: WorkerHandle, embedded = false) =>
  waitFor(async () => {
    const s = await w.request(IndexStatus, undefined);
    return s.state === 'ready' && s.files === s.filesTotal && s.filesTotal > 0 && (!embedded || s.embedded >= s.chunks) ? s : undefined;
  }, 'the index to be ready', 90_000).catch(async (e) => {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(await w.request(IndexStatus, undefined))}\n${w.logs.slice(-5).join('\n')}`);
  });

/** The real cost of MiniLM with random weights (../shared/models/README.md). */
const MINILM = { embeddingModel: 'minilm-l6-shape-random-weights' };

const files = (out: RelevantQGPTSeed[]) => out.map((s) => s.path!);

describe('index: the workspace index in the real worker', function () {
  this.timeout(120_000);
  let dataDir: string;
  let repo: string;
  let w: WorkerHandle | undefined;
  const noModels = { ASKCODE_MODELS_DIR: path.join(os.tmpdir(), 'askcode-no-models') };
  // MiniLM, absent from that models dir: BM25 alone (the shipped static model would load anywhere).
  const bm25Only = { embeddingModel: MINILM_MODEL_ID };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-idx-'));
    repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-repo-')));
    makeRepo(repo);
  });
  afterEach(async () => {
    await w?.stop();
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('indexes a repository and answers each query space with snippets that carry ids, seeds and scores', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    const st = await ready(w);
    assert.equal(st.bm25Only, true, 'no embedding model here: BM25 alone, said in the status');
    assert.equal(st.filesTotal, 7, 'ignored, binary and huge files are skipped');

    const db = await w.request(QgptRelevance, { query: 'where is the VAT total computed?', options: { database: true } });
    const top = db.relevant.iterable[0]!;
    assert.equal(top.path, path.join(repo, 'src/billing/invoice.ts'), 'implementation above its test');
    assert.ok(top.id);
    assert.equal(top.seed?.type, 'SEEDED_ASSET');
    assert.match(top.seed!.asset!.format.fragment!.string!.raw!, /computeVatTotal/);
    assert.equal(top.seed!.asset!.format.fragment!.metadata!.ext, 'ts');
    assert.equal(top.seed!.asset!.application.privacy, 'OPEN');
    const info = top.askcode!;
    assert.ok(info.startLine >= 1 && info.endLine >= info.startLine);
    assert.ok(info.score > 0 && info.score <= 1);
    assert.ok(info.scores.bm25! > 0 && info.scores.dense === undefined);
    assert.ok(info.matched!.includes('vat'));
    assert.ok(!files(db.relevant.iterable).some((p) => p.includes('build/')), 'gitignored files are not indexed');

    // The ids resolve in qgpt/question (id only, no inline seed), and options.question answers in the same call.
    const asked = await w.request(QgptQuestion, { query: 'where is the VAT total computed?', relevant: { iterable: [{ id: top.id }] } });
    assert.ok(asked.answers.iterable.length > 0);
    const both = await w.request(QgptRelevance, { query: 'where is the VAT total computed?', options: { database: true, question: true } });
    assert.ok(both.relevant.iterable.length > 0);
    const score = both.answer!.answers.iterable[0]!.score;
    assert.ok(score >= 0 && score <= 1);

    const inPaths = await w.request(QgptRelevance, { query: 'area of a polygon', paths: [path.join(repo, 'lib')] });
    assert.deepEqual([...new Set(files(inPaths.relevant.iterable))], [path.join(repo, 'lib/geometry.py')]);

    const seeds = await w.request(QgptRelevance, {
      query: 'split sentences',
      seeds: { iterable: [seedOf('def add(a, b):\n    return a + b\n'), seedOf('fn split_sentences() {}\n', 'rs')] },
    });
    assert.equal(seeds.relevant.iterable[0]!.askcode!.symbol, 'split_sentences');

    const saved = await w.request(AssetsSave, { path: path.join(repo, 'cmd/server.go'), startLine: 3, endLine: 5, name: 'http server' });
    assert.equal((await w.request(AssetsList, undefined)).length, 1);
    const inAssets = await w.request(QgptRelevance, { query: 'start the http server', assets: { iterable: [{ id: saved.id }] } });
    assert.equal(inAssets.relevant.iterable[0]!.asset?.id, saved.id);
    assert.match(inAssets.relevant.iterable[0]!.seed!.asset!.format.fragment!.string!.raw!, /StartHttpServer/);
    const everything = await w.request(QgptRelevance, { query: 'StartHttpServer', options: { database: true } });
    assert.ok(everything.relevant.iterable.some((s) => s.asset?.id === saved.id), 'database includes saved assets');
    await w.request(AssetsDelete, { id: saved.id });
    assert.equal((await w.request(AssetsList, undefined)).length, 0);
  });

  it('rejects bad input with a clear error naming the field, and keeps answering', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    await ready(w);
    const bad = async (input: unknown, kind: string, field: RegExp | string, msg: RegExp) => {
      const e = await rpcError(w!.raw(QgptRelevance.method, input));
      assert.equal(e.data?.kind, kind, e.message);
      if (typeof field === 'string') assert.equal(e.data?.field, field);
      else assert.match(e.data?.field ?? '', field);
      assert.match(e.message, msg);
    };
    await bad({ query: 'x' }, 'invalid', 'paths', /exactly one query space/);
    await bad({ query: 'x', paths: [repo], options: { database: true } }, 'invalid', 'options.database', /paths and options\.database/);
    await bad({ query: 'x', assets: { iterable: [{ id: 'nope' }] } }, 'not_found', 'assets.iterable[0].id', /no saved asset/);
    await bad({ query: 'x', paths: [path.join(repo, 'missing')] }, 'not_found', 'paths[0]', /does not exist/);
    await bad({ query: 'x', paths: ['relative/dir'] }, 'invalid', 'paths[0]', /absolute/);
    await bad({ query: 'x', seeds: { iterable: [{ type: 'SEEDED_ASSET', asset: { application: APP, format: {} } }] } }, 'invalid', /^seeds\.iterable\[0\]/, /no fragment string/);
    await bad({ query: '', options: { database: true } }, 'invalid', 'query', /empty/);
    await bad(42, 'invalid', 'query', /QGPTRelevanceInput/);
    const e = await rpcError(w.raw(AssetsDelete.method, { id: 'nope' }));
    assert.equal(e.data?.kind, 'not_found');
    const ok = await w.request(QgptRelevance, { query: 'polygon area', options: { database: true } });
    assert.ok(ok.relevant.iterable.length > 0, 'still answers after bad input');
  });

  it('applies edits, renames, deletes and unsaved buffers without a rebuild', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    await ready(w);
    const q = (query: string) => w!.request(QgptRelevance, { query, options: { database: true } } as QGPTRelevanceInput);
    const geo = path.join(repo, 'lib/geometry.py');
    fs.appendFileSync(geo, '\ndef circle_circumference(r):\n    return 2 * 3.14159 * r\n');
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: geo }] });
    await waitFor(async () => ((await q('circle circumference')).relevant.iterable[0]?.path === geo ? true : undefined), 'the edit');

    const moved = path.join(repo, 'lib/shapes.py');
    fs.renameSync(geo, moved);
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'renamed', oldPath: geo, path: moved }] });
    await waitFor(async () => {
      const p = files((await q('circle circumference')).relevant.iterable);
      return p[0] === moved && !p.includes(geo) ? true : undefined;
    }, 'the rename');

    fs.rmSync(moved);
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'deleted', path: moved }] });
    await waitFor(async () => (!files((await q('circle circumference')).relevant.iterable).includes(moved) ? true : undefined), 'the delete');

    const go = path.join(repo, 'cmd/server.go');
    await w.notify(WorkspaceBuffer, { path: go, text: 'package main\n\nfunc GracefulShutdownHandler() {}\n' });
    await waitFor(async () => ((await q('graceful shutdown handler')).relevant.iterable[0]?.path === go ? true : undefined), 'the buffer');
    await w.notify(WorkspaceBuffer, { path: go, text: null });
    await waitFor(async () => (!files((await q('graceful shutdown handler')).relevant.iterable).includes(go) ? true : undefined), 'the buffer to close');

    // A restart keeps the index: the stored rows answer before any walk.
    await w.stop();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: false, env: noModels });
    const after = await q('VAT total');
    assert.equal(after.relevant.iterable[0]!.path, path.join(repo, 'src/billing/invoice.ts'));
    assert.ok(!files((await q('circle circumference')).relevant.iterable).includes(moved));
  });

  it('indexes a folder outside the workspace on demand, and setFolders switches folders', async () => {
    w = await startWorker({ dataDir, folders: [], autoIndex: false, env: noModels });
    const out = await w.request(QgptRelevance, { query: 'tokenizer split sentences', paths: [repo] });
    assert.equal(out.relevant.iterable[0]!.path, path.join(repo, 'crates/tokenizer.rs'));
    const e = await rpcError(w.raw(WorkspaceSetFolders.method, { folders: [path.join(repo, 'nope')] }));
    assert.equal(e.data?.field, 'folders[0]');
    await w.request(WorkspaceSetFolders, { folders: [repo] });
    await ready(w);
    const db = await w.request(QgptRelevance, { query: 'polygon area', options: { database: true } });
    assert.equal(db.relevant.iterable[0]!.path, path.join(repo, 'lib/geometry.py'));
    await w.request(IndexRebuild, undefined);
    await ready(w);
    const rebuilt = await w.request(QgptRelevance, { query: 'polygon area', options: { database: true } });
    assert.equal(rebuilt.relevant.iterable[0]!.path, path.join(repo, 'lib/geometry.py'));
    assert.equal((await w.request(IndexStatus, undefined)).filesTotal, 7);
  });

  it('survives a kill mid-index: reopens, answers, and resumes where it stopped', async () => {
    for (let i = 0; i < 700; i++) {
      fs.mkdirSync(path.join(repo, 'gen', String(i % 7)), { recursive: true });
      fs.writeFileSync(path.join(repo, 'gen', String(i % 7), `mod${i}.py`), `def handler_${i}(x):\n    """Handles case number${i}."""\n    return x + ${i}\n`);
    }
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    let seen: IndexProgress | undefined;
    w.onNotification(IndexProgressNotification, (p) => void (seen = p));
    await waitFor(async () => (seen && seen.files >= 300 ? true : undefined), 'indexing to pass 300 files');
    await w.kill();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: false, env: noModels });
    const partial = await w.request(IndexStatus, undefined);
    assert.ok(partial.chunks > 0, 'the committed part of the index opens');
    const early = await w.request(QgptRelevance, { query: 'handler_0', options: { database: true } });
    assert.ok(Array.isArray(early.relevant.iterable));
    await w.stop();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    const st = await ready(w);
    assert.equal(st.filesTotal, 707);
    const last = await w.request(QgptRelevance, { query: 'handler_699 number699', options: { database: true } });
    assert.equal(last.relevant.iterable[0]!.path, path.join(repo, 'gen/6/mod699.py'));
  });

  it('an index stored by an older askcode answers at once, and its files are chunked again by the next pass', async () => {
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    await ready(w);
    await w.stop();
    w = undefined;
    const shape = (rows: ChunkRow[]) => rows.map((r) => [r.path, r.start, r.end, r.symbol, r.hash].join(' ')).sort();
    let store = await IndexStore.open(dataDir, silentLogger);
    const current = await store.chunksTable(repo);
    const fresh = await store.readAll<ChunkRow>(current);
    // What an older chunker stored: geometry.py as one chunk with no name, and a file since deleted.
    const geo = fresh.find((r) => r.path === 'lib/geometry.py')!;
    const old: ChunkRow[] = [
      ...fresh.filter((r) => r.path !== 'lib/geometry.py'),
      { ...geo, id: 'old-geo', start: 1, end: 3, symbol: '', hash: 'old-geo', text: fs.readFileSync(path.join(repo, 'lib/geometry.py'), 'utf8') },
      { ...geo, id: 'old-gone', path: 'lib/gone.py', hash: 'old-gone', text: 'def vanished_helper():\n    pass\n' },
    ];
    await current.delete('true');
    await store.replacePaths(await store.chunksTable(repo, 1), [], old);
    store.close();

    // Before any pass, the old rows answer.
    w = await startWorker({ dataDir, folders: [repo], autoIndex: false, env: noModels });
    const early = await w.request(QgptRelevance, { query: 'polygon area shoelace', options: { database: true } });
    assert.equal(early.relevant.iterable[0]!.path, path.join(repo, 'lib/geometry.py'));
    await w.stop();

    // The pass chunks every file again, even those unchanged on disk, and drops the old table.
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, env: noModels, settings: bm25Only });
    await ready(w);
    const gone = await w.request(QgptRelevance, { query: 'vanished helper', options: { database: true } });
    assert.ok(!files(gone.relevant.iterable).includes(path.join(repo, 'lib/gone.py')));
    await w.stop();
    w = undefined;
    store = await IndexStore.open(dataDir, silentLogger);
    assert.deepEqual(shape(await store.readAll<ChunkRow>(await store.chunksTable(repo))), shape(fresh));
    assert.deepEqual(await store.olderChunks(repo), []);
    store.close();
  });

  it('embeds every chunk with the MiniLM-shaped model, pauses and resumes, and never re-embeds an unchanged chunk', async function () {
    if (!fs.existsSync(path.join(SHARED_MODELS, 'minilm-l6-shape-random-weights'))) this.skip();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, settings: MINILM });
    const paused = await w.request(IndexPause, undefined);
    assert.equal(paused.state, 'paused');
    assert.equal((await w.request(IndexResume, undefined)).state === 'paused', false);
    const st = await ready(w, true);
    assert.equal(st.bm25Only, false);
    assert.match(w.logs.join('\n'), /embedded \d+ chunks/);
    assert.equal(st.embedded, st.chunks);
    const out = await w.request(QgptRelevance, { query: 'polygon area', options: { database: true } });
    // Random weights: assert the signal is there and well-formed, never what it ranks.
    const withDense = out.relevant.iterable.filter((s) => typeof s.askcode!.scores.dense === 'number');
    assert.ok(withDense.length > 0);
    for (const s of withDense) assert.ok(Math.abs(s.askcode!.scores.dense!) <= 1.0001);
    await w.stop();
    w = await startWorker({ dataDir, folders: [repo], autoIndex: true, settings: MINILM });
    const again = await ready(w, true);
    assert.equal(again.embedded, again.chunks);
    assert.doesNotMatch(w.logs.join('\n'), /embedded \d+ chunks/, 'nothing re-embedded');
  });
});
