import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import type { Generator } from '../../server/src/core/interfaces';
import { packPrompt, sourcesFooter } from '../../server/src/qgpt/prompt';
import type { Passage } from '../../server/src/qgpt/seeds';
import { SHARED_MODELS } from '../helpers/worker';
import { tempDir, PARSER, MATH_V2 } from './fixtures';

/** Prompt packing with the real stories260K tokenizer (a 512-token context). */
describe('prompt packing within the context budget (stories260K tokenizer)', function () {
  let dataDir: string;
  let core: Core;
  let gen: Generator;
  const passage = (index: number, text: string, p: string): Passage => ({ index, text, path: p, startLine: 1, endLine: text.split('\n').length, entry: {} });

  before(async () => {
    dataDir = tempDir('prompt');
    core = await createCore({ dataDir, modelsDir: SHARED_MODELS, folders: [], log: silentLogger, autoIndex: false });
    const snap = (await core.service.call('models/snapshot', undefined)) as { iterable: { id: string; name: string }[] };
    gen = (await core.models.getGenerator(snap.iterable.find((m) => m.name === 'stories260K')!.id))!;
    assert.ok(gen);
  });
  after(async () => {
    await core?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps prompt + reserved answer within the context, best snippets first, cutting the one that does not fit', async () => {
    const big = Array.from({ length: 200 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    const passages = [passage(0, PARSER, 'src/parser/config.ts'), passage(1, big, 'src/big.ts'), passage(2, MATH_V2, 'src/math.ts')];
    const packed = await packPrompt(gen, 'What does parseConfig do?', passages);
    assert.ok(packed.promptTokens + packed.maxTokens <= gen.contextTokens, `${packed.promptTokens} + ${packed.maxTokens} <= ${gen.contextTokens}`);
    assert.equal(packed.included[0].path, 'src/parser/config.ts', 'the best snippet goes first');
    const user = packed.messages.at(-1)!.content;
    assert.match(user, /\[1\] src\/parser\/config\.ts:1-\d+/);
    assert.match(user, /Question: What does parseConfig do\?$/);
    const big2 = packed.included.find((p) => p.path === 'src/big.ts');
    if (big2) assert.ok(big2.endLine! < 200, 'a snippet that does not fit is cut, and its cited lines say so');
    assert.ok(packed.dropped + packed.included.length === 3);
    assert.match(sourcesFooter(packed.included), /<details><summary>Sources \(1\)<\/summary>\n\n- \[1\] \[`src\/parser\/config\.ts:1-\d+`\]\(src\/parser\/config\.ts#L1-L\d+\)/);
  });

  it('refuses a query that alone overflows the context, naming the field', async () => {
    await assert.rejects(packPrompt(gen, 'why '.repeat(2000), []), (e: { kind: string; field: string }) => e.kind === 'too_large' && e.field === 'query');
  });
});
