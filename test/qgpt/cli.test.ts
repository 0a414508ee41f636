/**
 * The CLI as a user runs it (dist/cli.js in a child process): clear errors and exit codes for a
 * path that is missing or a file, the answer alone on stdout, follow-ups with --conversation.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, SHARED_MODELS } from '../helpers/worker';
import { Repo, tempDir, ADA } from './fixtures';

describe('askcode CLI messages (serve, index, ask)', function () {
  this.timeout(90_000);
  let dataDir: string;
  let repo: Repo;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), ...args], {
      env: { ...process.env, ASKCODE_DATA_DIR: dataDir, ASKCODE_MODELS_DIR: SHARED_MODELS, ASKCODE_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 80_000,
    });
  before(() => {
    dataDir = tempDir('cli-msg');
    repo = Repo.init('cli');
    repo.write('src/cart.ts', [
      '/** Adds up the prices of the items in a cart, with the VAT rate applied. */',
      'export function cartTotal(items: { price: number }[], vat: number): number {',
      '  return items.reduce((sum, i) => sum + i.price, 0) * (1 + vat);',
      '}',
      '',
    ].join('\n'));
    repo.write('src/checkout.ts', "import { cartTotal } from './cart';\n\nexport function checkout(items: { price: number }[]) {\n  return { total: cartTotal(items, 0.2) };\n}\n");
    repo.commit(ADA, '2024-01-01T10:00:00Z', 'cart');
  });
  after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo.dir, { recursive: true, force: true });
  });

  const missing = () => path.join(repo.dir, 'does', 'not', 'exist');
  const file = () => path.join(repo.dir, 'src', 'cart.ts');
  const cases: [string, () => string[], number, RegExp][] = [
    ['serve a missing folder', () => ['serve', missing(), '--port', '0'], 3, /does not exist/],
    ['serve a file', () => ['serve', file(), '--port', '0'], 2, /is a file, not a folder/],
    ['index a missing folder', () => ['index', missing()], 3, /does not exist/],
    ['index a file', () => ['index', file()], 2, /is a file, not a folder/],
    ['ask --path a missing folder', () => ['ask', 'what?', '--path', missing()], 3, /does not exist/],
    ['ask --path a file', () => ['ask', 'what?', '--path', file()], 2, /is a file, not a folder/],
  ];
  for (const [name, args, code, re] of cases) {
    it(`${name}: a clear error on stderr and exit code ${code}, nothing served`, () => {
      const r = run(...args());
      assert.equal(r.status, code, `exit code; stderr: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.doesNotMatch(r.stdout, /serving|files, \d+ chunks/, r.stdout);
    });
  }

  it('ask: stdout is the answer alone (sources as plain text); the snippets, notices and conversation go to stderr; a follow-up is rewritten', () => {
    const a = run('ask', 'How is the cart total computed?', '--path', repo.dir);
    assert.equal(a.status, 0, a.stderr);
    assert.match(a.stdout, /^`cartTotal` in \[`src\/cart\.ts:1-4`\]\(src\/cart\.ts#L1-L4\)/, a.stdout);
    assert.doesNotMatch(a.stdout, /<details>|<\/summary>|Relevant snippets|answer score|warn|conversation /i, a.stdout);
    assert.match(a.stdout, /Sources \(\d+\):/);
    assert.match(a.stderr, /Relevant snippets:/);
    const conv = /conversation ([0-9a-f-]{36})/.exec(a.stderr)?.[1];
    assert.ok(conv, a.stderr);
    const b = run('ask', 'and where is it called?', '--path', repo.dir, '--conversation', conv);
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stderr, /searched as: .*`cartTotal`.*called/, b.stderr);
    assert.match(b.stdout, /^`checkout` in \[`src\/checkout\.ts:/, b.stdout);
  });

  it('ask --conversation with an id that does not exist: a clear error and exit code 3, no conversation made', () => {
    const r = run('ask', 'and where is it called?', '--path', repo.dir, '--conversation', 'no-such-conversation');
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /conversation 'no-such-conversation' does not exist: leave out --conversation/);
    assert.equal(r.stdout, '');
    assert.ok(!fs.existsSync(path.join(dataDir, 'conversations', 'no-such-conversation.json')), 'no conversation file');
  });

  it('ask piped into a reader that stops early (`| head`): it stops quietly with exit code 0, no stack trace', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'ask', 'How is the cart total computed?', '--path', repo.dir], {
      env: { ...process.env, ASKCODE_DATA_DIR: dataDir, ASKCODE_MODELS_DIR: SHARED_MODELS, ASKCODE_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the answer comes: every write to stdout meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled 'error' event|\n\s+at /, stderr);
  });

  it('index run again: progress says it is looking for files with the last run\'s chunks, not "0/0 files, 0 embedded"', () => {
    const data = tempDir('cli-again');
    try {
      assert.equal(run('index', repo.dir, '--data-dir', data).status, 0);
      const r = run('index', repo.dir, '--data-dir', data);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /indexing: looking for files \(\d+ chunks from the last run\)/, r.stderr);
      assert.doesNotMatch(r.stderr, /0\/0 files/, r.stderr);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });

  it('ask on a folder never indexed: the built-in model embeds it first, so the answer is hybrid', () => {
    const fresh = tempDir('cli-fresh');
    try {
      const r = run('ask', 'How is the cart total computed?', '--path', repo.dir, '--json', '--data-dir', fresh);
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { relevant: { place: string; signals?: { bm25?: number; dense?: number; fused: number } }[] };
      assert.match(out.relevant[0]!.place, /^src\/cart\.ts:/);
      for (const s of out.relevant) assert.equal(typeof s.signals?.dense, 'number', `no dense score: ${JSON.stringify(s)}`);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('bench retrieval: a question whose answer names two files scores at most 0.5 at 1, and the bench says what a perfect ranking could reach', () => {
    const data = tempDir('cli-bench');
    try {
      const cases = path.join(data, 'cases.jsonl');
      fs.writeFileSync(cases, [
        { id: 'one', repo: 'fixture/cli', query: 'How is the cart total computed with VAT?', relevant_files: ['src/cart.ts'] },
        { id: 'two', repo: 'fixture/cli', query: 'What does checkout return, and how is its total computed?', relevant_files: ['src/checkout.ts', 'src/cart.ts'] },
      ].map((r) => JSON.stringify(r)).join('\n') + '\n');
      const r = run('bench', 'retrieval', '--cases', cases, '--repo-dir', repo.dir, '--data-dir', path.join(data, 'd'), '--embedder', 'none');
      assert.equal(r.status, 0, r.stderr);
      // Row one can score 1 at 1, row two 1/2: (1 + 0.5) / 2; at 5 both can score 1.
      assert.match(r.stdout, /best possible\s+R@1 0\.750  R@5 1\.000/, r.stdout);
      const all = r.stdout.split('\n').find((l) => l.startsWith('ALL'))!;
      const r1 = Number(all.trim().split(/\s+/)[2]);
      assert.ok(r1 <= 0.75, all);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});
