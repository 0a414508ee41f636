import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { QgptQuestion } from '../../server/src/protocol/qgpt';
import type { QGPTQuestionOutput } from '../../server/src/protocol/wire';
import { makeProjectRepo, relevantSeed, seed, tempDir, MATH_V2, PARSER, type Repo } from './fixtures';

describe('qgpt/question over the worker', function () {
  let dataDir: string;
  let repo: Repo;
  let w: WorkerHandle;
  before(async () => {
    dataDir = tempDir('qdata');
    repo = makeProjectRepo();
    w = await startWorker({ dataDir, folders: [repo.dir] });
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo.dir, { recursive: true, force: true });
  });

  const distractors = [
    relevantSeed(PARSER, { path: 'src/parser/config.ts', startLine: 1 }),
    relevantSeed('# demo\n\nA small project.\n', { path: 'README.md', startLine: 1 }, 'md'),
    relevantSeed(MATH_V2, { path: 'src/math.ts', startLine: 1 }),
  ];

  function checkScores(out: QGPTQuestionOutput): void {
    assert.ok(out.answers.iterable.length >= 1);
    for (const a of out.answers.iterable) {
      assert.equal(typeof a.text, 'string');
      assert.ok(a.score >= 0 && a.score <= 1, `score ${a.score} in [0, 1]`);
    }
  }

  it('answers with the extractive answerer by default: cites the right place by path and lines, says no model was used', async () => {
    const out = await w.request(QgptQuestion, { query: 'How does `parseConfig` skip comments?', relevant: { iterable: distractors } });
    checkScores(out);
    const text = out.answers.iterable[0].text;
    const firstCite = /\[`([^`]+)`\]\(/.exec(text);
    assert.equal(firstCite?.[1], 'src/parser/config.ts:1-13', text);
    assert.match(text, /line\.startsWith\("#"\)/, 'quotes the line that does it');
    assert.match(text, /No language model was used/);
    assert.match(text, /defines `parseConfig`/);
  });

  it('quotes the definition of the named symbol, not the top of its file', async () => {
    const out = await w.request(QgptQuestion, { query: 'What does the function `multiply` do?', relevant: { iterable: distractors } });
    const text = out.answers.iterable[0].text;
    assert.match(text, /^`multiply` in \[`src\/math\.ts:1-13`\]\(src\/math\.ts#L1-L13\) defines it/, text);
    // The quote starts at the definition (line 7) or at its doc comment just above it (line 6), with no line-number gutter.
    assert.match(text, /\[`src\/math\.ts:[67]-\d+`\][^\n]*\n```ts\n(?:\/\*\* Multiplies two numbers\. \*\/\n)?export function multiply/, 'the quote starts at the definition or its doc comment');
    assert.ok(out.answers.iterable[0].score > 0.5, `score ${out.answers.iterable[0].score}`);
  });

  it('gives several answers when several places match, best first, each with a score', async () => {
    const out = await w.request(QgptQuestion, { query: 'add multiply numbers parse config', relevant: { iterable: distractors } });
    checkScores(out);
    assert.ok(out.answers.iterable.length >= 3, `got ${out.answers.iterable.length} answers`);
    const alts = out.answers.iterable.slice(1).map((a) => a.score);
    assert.deepEqual(alts, [...alts].sort((a, b) => b - a), 'alternatives are ordered by score');
    assert.equal(out.answers.iterable[0].score, alts[0], 'the whole answer scores as its best place');
  });

  it('scores an answer whose snippets do not mention the question lower than one that does', async () => {
    const hit = await w.request(QgptQuestion, { query: 'parse configuration comments', relevant: { iterable: [distractors[0]] } });
    const miss = await w.request(QgptQuestion, { query: 'parse configuration comments', relevant: { iterable: [distractors[1]] } });
    assert.ok(hit.answers.iterable[0].score > miss.answers.iterable[0].score);
    assert.match(miss.answers.iterable[0].text, /^No place uses the words of the question; the closest is/);
  });

  it('accepts the SDK example shape (seed without path) and an empty relevant list', async () => {
    const out = await w.request(QgptQuestion, { query: 'Explain this function.', relevant: { iterable: [{ seed: seed('def add(a, b):\n    return a + b\n', 'py') }] } });
    checkScores(out);
    assert.match(out.answers.iterable[0].text, /snippet 1/);
    const empty = await w.request(QgptQuestion, { query: 'anything?', relevant: { iterable: [] } });
    assert.equal(empty.answers.iterable[0].score, 0);
    assert.equal(empty.answers.iterable[0].text, 'No place in the code matches “anything?”; try other words, or name a file or a symbol.');
  });

  describe('bad input: a clear error naming the field, and the worker keeps serving', () => {
    const good = () => ({ query: 'q', relevant: { iterable: [relevantSeed('x = 1')] } });
    const cases: [string, unknown, string, string][] = [
      ['params not an object', 'hello', 'invalid', 'params'],
      ['missing query', { relevant: { iterable: [] } }, 'invalid', 'query'],
      ['empty query', { ...good(), query: '   ' }, 'invalid', 'query'],
      ['query not a string', { ...good(), query: 42 }, 'invalid', 'query'],
      ['huge query', { ...good(), query: 'x'.repeat(20_001) }, 'too_large', 'query'],
      ['missing relevant', { query: 'q' }, 'invalid', 'relevant'],
      ['relevant.iterable not an array', { query: 'q', relevant: { iterable: {} } }, 'invalid', 'relevant.iterable'],
      ['entry not an object', { query: 'q', relevant: { iterable: [7] } }, 'invalid', 'relevant.iterable[0]'],
      ['entry with neither id nor seed', { query: 'q', relevant: { iterable: [relevantSeed('a'), {}] } }, 'invalid', 'relevant.iterable[1]'],
      ['unknown id', { query: 'q', relevant: { iterable: [{ id: 'no-such-snippet' }] } }, 'not_found', 'relevant.iterable[0].id'],
      ['id not a string', { query: 'q', relevant: { iterable: [{ id: 5 }] } }, 'invalid', 'relevant.iterable[0].id'],
      ['raw not a string', { query: 'q', relevant: { iterable: [{ seed: { asset: { format: { fragment: { string: { raw: 1 } } } } } }] } }, 'invalid', 'relevant.iterable[0].seed.asset.format.fragment.string.raw'],
      ['empty fragment', { query: 'q', relevant: { iterable: [relevantSeed('  \n')] } }, 'invalid', 'relevant.iterable[0].seed.asset.format.fragment.string.raw'],
      ['seed not an object', { query: 'q', relevant: { iterable: [{ seed: 'x' }] } }, 'invalid', 'relevant.iterable[0].seed'],
      ['too many entries', { query: 'q', relevant: { iterable: Array.from({ length: 201 }, () => relevantSeed('a')) } }, 'too_large', 'relevant.iterable'],
      ['model not a string', { ...good(), model: 3 }, 'invalid', 'model'],
      ['unknown model', { ...good(), model: 'no-such-model' }, 'not_found', 'model'],
    ];
    for (const [name, params, kind, field] of cases) {
      it(name, async () => {
        const err = await rpcError(w.raw('qgpt/question', params));
        assert.equal(err.data?.kind, kind, err.message);
        assert.equal(err.data?.field, field, err.message);
        assert.ok(err.message.length > 10);
      });
    }
    it('still answers after all of them', async () => {
      const out = await w.request(QgptQuestion, good());
      assert.equal(out.answers.iterable.length, 1);
    });
  });
});
