/**
 * Files that must never stall or poison the index, through the real worker and its file events:
 * a FIFO named in a created event is never opened (issue 13, item 4), so the edits after it are
 * indexed; and files that are not indexed are counted by reason in the status.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { QgptRelevance } from '../../server/src/protocol/qgpt';
import { CodeRead } from '../../server/src/protocol/symbols';
import { WorkspaceFileEvents, IndexStatus, IndexRebuild } from '../../server/src/protocol/workspace';

const noModels = { ASKCODE_MODELS_DIR: path.join(os.tmpdir(), 'askcode-no-models') };

describe('index: special files never stall the index', function () {
  this.timeout(120_000);
  let root: string;
  let repo: string;
  let w: WorkerHandle | undefined;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-special-'));
    repo = path.join(root, 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'app.py'), 'def start_app():\n    return "started"\n');
    fs.writeFileSync(path.join(repo, 'src', 'other.py'), 'def other_thing():\n    return 1\n');
  });
  afterEach(async () => {
    await w?.stop().catch(() => {});
    w?.child.kill('SIGKILL');
    w = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const ready = (h: WorkerHandle) => waitFor(async () => {
    const s = await h.request(IndexStatus, undefined);
    return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
  }, 'the index to be ready', 60_000);
  const finds = async (h: WorkerHandle, word: string) =>
    (await h.request(QgptRelevance, { query: word, options: { database: true } })).relevant.iterable.some((s) => s.seed?.asset?.format?.fragment?.string?.raw?.includes(word));

  it('a created event for a FIFO is skipped; the edit after it is indexed and the FIFO is counted as special', async () => {
    w = await startWorker({ folders: [repo], dataDir: path.join(root, 'data'), autoIndex: true, env: noModels });
    await ready(w);
    const fifo = path.join(repo, 'src', 'pipe.py');
    execFileSync('mkfifo', [fifo]);
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'created', path: fifo }] });
    fs.writeFileSync(path.join(repo, 'src', 'other.py'), 'def quokka_handler():\n    return "quokka"\n');
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: path.join(repo, 'src', 'other.py') }] });
    await waitFor(async () => ((await finds(w!, 'quokka_handler')) ? true : undefined), 'the edit after the FIFO event to be indexed', 20_000);
    // The edit's embeddings may still be filling in: the FIFO must not keep the index from ready.
    const status = await ready(w);
    assert.equal(status.state, 'ready');
    assert.equal(status.skipped?.special, 1, JSON.stringify(status));
    // Named directly, the FIFO is refused at once rather than read.
    const byPath = await rpcError(w.request(QgptRelevance, { query: 'pipe', paths: [fifo] }));
    assert.equal(byPath.data?.kind, 'invalid');
    const read = await rpcError(w.request(CodeRead, { path: fifo }));
    assert.equal(read.data?.kind, 'invalid');
    // A full walk with the FIFO in place finishes too.
    await w.request(IndexRebuild, undefined);
    await ready(w);
    assert.ok(await finds(w, 'quokka_handler'));
  });

  it('counts skipped files by reason (status and `askcode index`), and reads latin-1 and Shift-JIS text without replacement characters', async () => {
    const src = path.join(repo, 'src');
    fs.writeFileSync(path.join(src, 'menu_fr.py'), Buffer.from('def dessert_menu():\n    return "crème brûlée à la française"\n', 'latin1'));
    fs.writeFileSync(path.join(src, 'greet_ja.py'), new Uint8Array([
      ...Buffer.from('def konnichiwa_greeting():\n    return "'), 0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd, ...Buffer.from('"\n'),
    ]));
    // Bytes that are neither UTF-8 nor text in latin-1 (C1 control codes) nor Shift-JIS.
    fs.writeFileSync(path.join(src, 'garbled.py'), new Uint8Array([...Buffer.from('def garbled():\n    x = "'), 0x81, 0x0b, 0x9d, 0x90, 0x8d, ...Buffer.from('"\n')]));
    fs.writeFileSync(path.join(src, 'blob.py'), Buffer.concat([Buffer.from('def blob():\n'), Buffer.alloc(64, 0)]));
    fs.writeFileSync(path.join(src, 'bundle.js'), 'var a=1;'.repeat(2000));
    // Minified but wrapped: 30 lines of about 500 characters (as prettify-min.js), none past 1,000.
    fs.writeFileSync(path.join(src, 'theme.js'), Array.from({ length: 30 }, (_, i) => `var t${i}=function(e){return e.replace(/a/g,"b")};`.repeat(11)).join('\n'));
    fs.writeFileSync(path.join(src, 'huge.py'), '# big\n'.repeat(300_000));
    fs.writeFileSync(path.join(src, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // A bundle built from the sources, its source map beside it (axios' `dist/`).
    fs.mkdirSync(path.join(repo, 'dist'));
    fs.writeFileSync(path.join(repo, 'dist', 'app.js'), 'function dessert_menu() {\n  return "built";\n}\n');
    fs.writeFileSync(path.join(repo, 'dist', 'app.js.map'), '{"version":3}');
    fs.writeFileSync(path.join(root, 'elsewhere.py'), 'def elsewhere():\n    return 0\n');
    fs.symlinkSync(path.join(root, 'elsewhere.py'), path.join(src, 'link_out.py'));
    execFileSync('mkfifo', [path.join(src, 'pipe.py')]);
    const want = { binary: 2, minified: 2, built: 1, too_large: 1, encoding: 1, outside: 1, special: 1 };

    w = await startWorker({ folders: [repo], dataDir: path.join(root, 'data'), autoIndex: true, env: noModels });
    const status = await ready(w);
    assert.deepEqual(status.skipped, want);
    // Candidates of the walk: the 8 regular files not excluded by extension, size, place or a source map (4 of them then skipped on reading).
    assert.equal(status.filesTotal, 8);
    const seeds = async (q: string) => (await w!.request(QgptRelevance, { query: q, options: { database: true } })).relevant.iterable;
    const fr = (await seeds('dessert_menu')).find((s) => s.path?.endsWith('menu_fr.py'));
    assert.ok(fr?.seed?.asset?.format?.fragment?.string?.raw?.includes('crème brûlée à la française'), 'latin-1 decoded');
    const ja = (await seeds('konnichiwa_greeting')).find((s) => s.path?.endsWith('greet_ja.py'));
    assert.ok(ja?.seed?.asset?.format?.fragment?.string?.raw?.includes('こんにちは'), 'Shift-JIS decoded');
    for (const q of ['dessert_menu', 'konnichiwa_greeting', 'garbled', 'blob']) {
      for (const s of await seeds(q)) assert.ok(!s.seed?.asset?.format?.fragment?.string?.raw?.includes('\ufffd'), `no U+FFFD stored (${s.path})`);
    }
    assert.ok(!(await seeds('garbled')).some((s) => s.path?.endsWith('garbled.py')), 'an undecodable file is not indexed');
    assert.ok(!(await seeds('dessert_menu')).some((s) => s.path?.endsWith('app.js')), 'a built bundle is not indexed');
    // Nor when one file's event names it.
    const built = path.join(repo, 'dist', 'app.js');
    fs.writeFileSync(built, 'function quokka_built() {\n  return 1;\n}\n');
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: built }] });
    fs.writeFileSync(path.join(src, 'other.py'), 'def quokka_source():\n    return 2\n');
    await w.notify(WorkspaceFileEvents, { events: [{ type: 'changed', path: path.join(src, 'other.py') }] });
    await waitFor(async () => ((await finds(w!, 'quokka_source')) ? true : undefined), 'the edit after the bundle event to be indexed', 20_000);
    assert.ok(!(await finds(w, 'quokka_built')), 'a built bundle named by a file event is not indexed');
    const read = await w.request(CodeRead, { path: path.join(src, 'menu_fr.py') });
    assert.match(read.text, /crème brûlée/);
    await w.stop();
    w = undefined;

    // The CLI says the same: counted apart from indexed files, with why.
    const out = execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'cli.js'), 'index', repo, '--no-embed', '--data-dir', path.join(root, 'cli-data')], {
      env: { ...process.env, ...noModels }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.match(out, /9 skipped \((?=.*2 binary)(?=.*2 minified)(?=.*1 built)(?=.*1 too large)(?=.*1 encoding)(?=.*1 outside)(?=.*1 special)[^)]*\)/, out);
  });
});
