import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { QgptPersonsRelated } from '../../server/src/protocol/qgpt';
import type { QGPTPersonsRelatedOutput, Person } from '../../server/src/protocol/wire';
import { makeProjectRepo, seed, tempDir, MATH_V2, PARSER, ADA, BOB, type Repo } from './fixtures';

const lines = (text: string, from: number, to: number) => text.split('\n').slice(from - 1, to).join('\n');
const emailOf = (p: Person) => p.type.basic?.email;

function checkWire(out: QGPTPersonsRelatedOutput): void {
  assert.ok(Array.isArray(out.persons.iterable));
  for (const p of out.persons.iterable) {
    assert.match(p.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(new Date(p.created.value).toISOString(), p.created.value);
    assert.equal(new Date(p.updated.value).toISOString(), p.updated.value);
    assert.ok(p.updated.value >= p.created.value);
    assert.ok(p.type.basic?.name);
    assert.ok(out.explanations?.[p.id], 'each person has an explanation');
  }
}

describe('qgpt/personsRelated over the worker (real git history)', function () {
  let dataDir: string;
  let repo: Repo;
  let plain: string;
  let w: WorkerHandle;
  before(async () => {
    dataDir = tempDir('pdata');
    repo = makeProjectRepo();
    w = await startWorker({ dataDir, folders: [repo.dir] });
  });
  after(async () => {
    await w?.stop();
    for (const d of [dataDir, repo.dir, plain]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('ranks who wrote most of the lines, recently, first; explains files, lines, last change', async () => {
    // Lines 7-12 of math.ts: the signature and closing brace are Ada's (2023), the body Bob's (2024).
    const out = await w.request(QgptPersonsRelated, { input: { seed: seed(lines(MATH_V2, 7, 12), 'ts') } });
    checkWire(out);
    const [first, second] = out.persons.iterable;
    assert.equal(emailOf(first), BOB.email);
    assert.equal(emailOf(second), ADA.email);
    assert.equal(first.type.basic?.name, BOB.name);
    assert.equal(first.askcode?.lines, 4);
    assert.equal(second.askcode?.lines, 2);
    assert.ok(first.askcode!.score > second.askcode!.score);
    assert.ok(first.askcode!.score <= 1 && second.askcode!.score >= 0);
    assert.equal(first.askcode?.files[0].path, 'src/math.ts');
    assert.equal(first.askcode?.lastChange, '2024-06-01T10:00:00.000Z');
    assert.equal(second.created.value, '2023-01-10T10:00:00.000Z');
    assert.match(out.explanations![first.id], /wrote 4 of the 6 relevant lines/i);
    assert.match(out.explanations![first.id], /2024-06-01/);
    // `*.ts @ada` in CODEOWNERS makes Ada an owner of math.ts.
    assert.equal(second.askcode?.codeowner, true);
    assert.match(out.explanations![second.id], /code owner/);
    assert.deepEqual(out.askcode?.files?.map((f) => [path.relative(repo.dir, f.path), f.startLine, f.endLine]), [['src/math.ts', 7, 12]]);
  });

  it('adds CODEOWNERS (the last matching rule wins) to the authors', async () => {
    const out = await w.request(QgptPersonsRelated, { input: { seed: seed(lines(PARSER, 4, 11), 'ts') } });
    checkWire(out);
    const ada = out.persons.iterable.find((p) => emailOf(p) === ADA.email)!;
    const bob = out.persons.iterable.find((p) => emailOf(p) === BOB.email)!;
    assert.equal(out.persons.iterable[0], ada, 'the author of every line comes first');
    assert.equal(ada.askcode?.lines, 8);
    assert.equal(ada.askcode?.codeowner, undefined, '/src/parser/ @bob overrides *.ts @ada');
    assert.equal(bob.askcode?.codeowner, true);
    assert.equal(bob.askcode?.lines, 0);
    assert.match(out.explanations![bob.id], /code owner.*\/src\/parser\//i);
  });

  it('transferables=false leaves the nested per-file data out', async () => {
    const out = await w.request(QgptPersonsRelated, { input: { seed: seed(lines(MATH_V2, 7, 12), 'ts') }, transferables: false });
    checkWire(out);
    assert.equal(out.persons.iterable.length, 2);
    for (const p of out.persons.iterable) assert.equal(p.askcode, undefined);
    assert.equal(out.askcode?.files, undefined);
  });

  it('finds people for the files a conversation cites', async () => {
    const out = await w.request(QgptPersonsRelated, {
      input: {
        conversation: {
          iterable: [
            { role: 'ASSISTANT', text: 'See **`src/math.ts:7-12`** for `multiply`.', timestamp: { value: '2025-01-01T00:00:05.000Z' } },
            { role: 'USER', text: 'What does multiply do?', timestamp: { value: '2025-01-01T00:00:00.000Z' } },
          ],
        },
      },
    });
    checkWire(out);
    assert.deepEqual(out.persons.iterable.map(emailOf), [BOB.email, ADA.email]);
  });

  it('finds people for a folder a conversation names (Find Related People on a folder), from the files changed in it', async () => {
    const out = await w.request(QgptPersonsRelated, {
      input: { conversation: { iterable: [{ role: 'USER', text: `Who works on \`${path.join(repo.dir, 'src', 'parser')}\`?`, timestamp: { value: '2025-01-01T00:00:00.000Z' } }] } },
    });
    checkWire(out);
    const people = out.persons.iterable.map(emailOf);
    // Ada wrote every line of the parser; Bob owns src/parser/ in CODEOWNERS.
    assert.deepEqual([...people].sort(), [ADA.email, BOB.email].sort());
    assert.equal(people[0], ADA.email);
    const files = out.persons.iterable.flatMap((p) => p.askcode?.files.map((f) => f.path) ?? []);
    assert.ok(files.length === 0 || files.every((f) => f.includes('parser')), `only files of the folder: ${files.join(', ')}`);
  });

  it('an empty input, an unknown snippet, or a conversation citing nothing: empty list with a reason', async () => {
    const empty = await w.request(QgptPersonsRelated, { input: {} });
    assert.deepEqual(empty.persons.iterable, []);
    assert.match(empty.askcode?.reason ?? '', /seed|conversation/);
    const unknown = await w.request(QgptPersonsRelated, { input: { seed: seed('this text is in no file of the repo at all') } });
    assert.deepEqual(unknown.persons.iterable, []);
    assert.match(unknown.askcode?.reason ?? '', /not found/);
    const none = await w.request(QgptPersonsRelated, { input: { conversation: { iterable: [{ role: 'USER', text: 'hello', timestamp: { value: '2025-01-01T00:00:00.000Z' } }] } } });
    assert.deepEqual(none.persons.iterable, []);
    assert.match(none.askcode?.reason ?? '', /cites no file/);
  });

  it('a folder that is not a git repository gives an empty list with a reason, not an error', async () => {
    plain = tempDir('plain');
    fs.mkdirSync(path.join(plain, 'src'));
    fs.writeFileSync(path.join(plain, 'src', 'math.ts'), MATH_V2);
    const w2 = await startWorker({ dataDir: tempDir('pdata2'), folders: [plain] });
    try {
      const out = await w2.request(QgptPersonsRelated, { input: { seed: seed(lines(MATH_V2, 7, 12)) } });
      assert.deepEqual(out.persons.iterable, []);
      assert.match(out.askcode?.reason ?? '', /not a git repository/);
    } finally {
      await w2.stop();
    }
  });

  describe('bad input names the field', () => {
    const msg = (text: unknown) => ({ role: 'USER', text, timestamp: { value: '2025-01-01T00:00:00.000Z' } });
    const cases: [string, unknown, string][] = [
      ['params not an object', [], 'params'],
      ['input not an object', { input: 'x' }, 'input'],
      ['transferables not a boolean', { input: {}, transferables: 'false' }, 'transferables'],
      ['seed not an object', { input: { seed: 3 } }, 'input.seed'],
      ['seed without a fragment', { input: { seed: { type: 'SEEDED_ASSET' } } }, 'input.seed'],
      ['empty fragment', { input: { seed: seed('   ') } }, 'input.seed.asset.format.fragment.string.raw'],
      ['conversation not an object', { input: { conversation: 'hi' } }, 'input.conversation'],
      ['conversation.iterable not an array', { input: { conversation: { iterable: 1 } } }, 'input.conversation.iterable'],
      ['message text not a string', { input: { conversation: { iterable: [msg(5)] } } }, 'input.conversation.iterable[0].text'],
      ['model not a string', { input: { model: false } }, 'input.model'],
    ];
    for (const [name, params, field] of cases) {
      it(name, async () => {
        const err = await rpcError(w.raw('qgpt/personsRelated', params));
        assert.equal(err.data?.kind, 'invalid', err.message);
        assert.equal(err.data?.field, field, err.message);
      });
    }
  });
});
