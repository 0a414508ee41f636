/**
 * The protocol as a contract (in the manner of Cody's vscode/src/jsonrpc/protocol.test.ts): every
 * method and notification is documented and declares a params schema, and every params schema
 * accepts the wire examples of ../shared/api/examples that it is the door for.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import * as protocol from '../../server/src/protocol';
import { UNCHECKED, type NotificationDef, type RequestDef } from '../../server/src/protocol/base';
import { parseParams } from '../../server/src/core/validation';
import { AskcodeError } from '../../server/src/core/errors';

const ROOT = path.resolve(__dirname, '..', '..');
const PROTOCOL_DIR = path.join(ROOT, 'server', 'src', 'protocol');
const EXAMPLES = path.resolve(ROOT, '..', 'shared', 'api', 'examples');

type Def = RequestDef<unknown, unknown> | NotificationDef<unknown>;
const defs: Def[] = (Object.values(protocol) as unknown[]).filter(
  (v): v is Def => typeof v === 'object' && v !== null && 'method' in v && 'kind' in v && (v.kind === 'request' || v.kind === 'notification'),
);

/** Which method each example type is the input of, and how the worker's params carry it. */
const DOORS: Record<string, { def: Def; wrap?: (example: unknown) => unknown; body?: Def }> = {
  QGPTRelevanceInput: { def: protocol.QgptRelevance },
  QGPTQuestionInput: { def: protocol.QgptQuestion },
  QGPTRepromptInput: { def: protocol.QgptReprompt },
  QGPTHintsInput: { def: protocol.QgptHints },
  // The bridge's POST /qgpt/persons/related body becomes `input`; `transferables` is its query parameter.
  QGPTPersonsRelatedInput: { def: protocol.QgptPersonsRelated, wrap: (x) => ({ input: x }) },
  QGPTStreamInput: { def: protocol.QgptStream },
  SeededModel: { def: protocol.ModelsCreate },
  // POST /model/{model}/delete/cache: the path names the model, the body is the input.
  ModelDeleteCacheInput: { def: protocol.ModelsDeleteCache, wrap: (x) => ({ model: 'a-model-id', input: x }) },
  Seed: { def: protocol.AssetsSave, wrap: (x) => ({ seed: x }) },
};

function check(def: Def, params: unknown, prefix = ''): void {
  try {
    parseParams(def.params as z.ZodType, params, def.shape, prefix);
  } catch (e) {
    assert.fail(`${def.method} refused the example: ${e instanceof AskcodeError ? `${e.field}: ${e.message}` : String(e)}`);
  }
}

describe('protocol', () => {
  it('has the methods the worker serves', () => {
    assert.ok(defs.length >= 30, `found ${defs.length} entries`);
    assert.equal(new Set(defs.map((d) => d.method)).size, defs.length, 'no method is declared twice');
  });

  it('every method and notification has a doc comment', () => {
    const undocumented: string[] = [];
    let entries = 0;
    for (const file of fs.readdirSync(PROTOCOL_DIR).filter((f) => f.endsWith('.ts'))) {
      const lines = fs.readFileSync(path.join(PROTOCOL_DIR, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/^export const \w+\s*=\s*$|^export const \w+ = (request|notification)</.test(line) && !/^export const \w+ =\s*$/.test(line)) return;
        const declares = /(request|notification)</.test(line) || /^\s*(request|notification)</.test(lines[i + 1] ?? '');
        if (!declares) return;
        entries++;
        if (!/\*\/\s*$/.test(lines[i - 1] ?? '')) undocumented.push(`${file}:${i + 1} ${line.trim().slice(0, 60)}`);
      });
    }
    assert.ok(entries >= defs.length, `scanned ${entries} entries, the module exports ${defs.length}`);
    assert.deepEqual(undocumented, []);
  });

  it('every method declares a params schema', () => {
    const unchecked = defs.filter((d) => d.params === UNCHECKED).map((d) => d.method);
    assert.deepEqual(unchecked, []);
  });

  it('every params schema converts to JSON Schema (what the MCP tools publish)', async () => {
    const { z } = await import('zod');
    for (const d of defs) {
      const json = z.toJSONSchema(d.params as z.ZodType, { unrepresentable: 'any' });
      assert.equal(typeof json, 'object', d.method);
    }
  });

  const examples = fs.existsSync(EXAMPLES) ? fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')) : [];
  it('finds the wire examples', () => {
    assert.ok(examples.length > 0, `no examples in ${EXAMPLES}`);
    const inputs = examples.filter((f) => DOORS[f.split('.')[0]!]);
    assert.ok(inputs.length >= 15, `only ${inputs.length} examples are inputs of a method`);
    for (const type of Object.keys(DOORS)) assert.ok(examples.some((f) => f.split('.')[0] === type), `no example of ${type}`);
  });

  for (const file of examples) {
    const door = DOORS[file.split('.')[0]!];
    if (!door) continue;
    it(`${door.def.method} accepts ${file}`, () => {
      const example: unknown = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
      check(door.def, door.wrap ? door.wrap(example) : example);
      // A stream input's body is checked when the request runs, by the schema of the step it asks for.
      const body = example as { question?: unknown; relevance?: unknown };
      if (door.def === protocol.QgptStream && body.question) check(protocol.QgptQuestion, body.question, 'question');
      if (door.def === protocol.QgptStream && body.relevance) check(protocol.QgptRelevance, body.relevance, 'relevance');
    });
  }

  it('a schema refuses what its method cannot take, naming the field', () => {
    const refuse = (def: Def, params: unknown, field: string, kind = 'invalid') => {
      assert.throws(() => parseParams(def.params as z.ZodType, params, def.shape), (e: AskcodeError) => {
        assert.equal(e.field, field, e.message);
        assert.equal(e.kind, kind, e.message);
        assert.ok(e.message.includes(field), `the message names ${field}: ${e.message}`);
        return true;
      });
    };
    refuse(protocol.QgptQuestion, { query: 'q', relevant: { iterable: [{ seed: { asset: { format: { fragment: { string: { base64: '%%' } } } } } }] } },
      'relevant.iterable[0].seed.asset.format.fragment.string.base64');
    refuse(protocol.QgptRelevance, { query: 'x'.repeat(20_001), options: { database: true } }, 'query', 'too_large');
    refuse(protocol.ModelsCreate, { version: '1', name: 'n', created: { value: 'yesterday' }, cloud: false, type: 'BALANCED', usage: 'CODE_CONVERSATION' }, 'created.value');
    refuse(protocol.ModelsCreate, {
      version: '1', name: 'n', created: { value: '2025-01-01' }, cloud: false, type: 'BALANCED', usage: 'CODE_CONVERSATION',
      askcode: { source: { kind: 'openai', model: 'm', baseUrl: 'http://localhost:1', apiKey: 'sk-1' } },
    }, 'askcode.source.apiKey');
    refuse(protocol.ConversationsGet, { id: '../x' }, 'id');
  });
});
