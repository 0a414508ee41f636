/** Shared by the MCP tests: the SDK's own client, the tools' expectations, and a cancelled answer. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from '../helpers/wait';

/** A folder outside the served one, and a link to it inside: nothing may be read through the link. */
export function linkOutside(root: string, repo: string): void {
  const outside = path.join(root, 'outside');
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret words\n');
  fs.symlinkSync(outside, path.join(repo, 'outlink'));
}

/** A caller of addNumbers in a file of its own, by the second author: something for find_references. */
export function addCaller(repo: string): void {
  fs.writeFileSync(path.join(repo, 'src', 'total.ts'), "import { addNumbers } from './math';\n\nexport function total(xs: number[]): number {\n  return xs.reduce((sum, x) => addNumbers(sum, x), 0);\n}\n");
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Grace Hopper', GIT_AUTHOR_EMAIL: 'grace@example.com', GIT_COMMITTER_NAME: 'Grace Hopper', GIT_COMMITTER_EMAIL: 'grace@example.com' };
  execFileSync('git', ['add', 'src/total.ts'], { cwd: repo, env, stdio: 'ignore' });
  execFileSync('git', ['commit', '-q', '-m', 'add total'], { cwd: repo, env, stdio: 'ignore' });
}

export const TOOL_NAMES = ['ask', 'find_references', 'find_symbol', 'read_code', 'related_people', 'search_code'];

export interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');

/** initialize happened in connect(); every tool is listed with a JSON schema and a description. */
export async function checkToolList(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name} has an object input schema`);
    assert.ok(Object.keys(t.inputSchema.properties ?? {}).length > 0, `${t.name} declares its arguments`);
    assert.ok((t.description ?? '').length > 80, `${t.name} has a description an agent can act on`);
    assert.ok(t.outputSchema, `${t.name} declares its structured output`);
    assert.equal(t.annotations?.readOnlyHint, true, `${t.name} is read-only`);
  }
  const search = tools.find((t) => t.name === 'search_code')!;
  assert.deepEqual(search.inputSchema.required, ['query']);
}

/** The index has the fixture's files (the server indexes in the background from the start). */
export async function indexed(client: Client): Promise<void> {
  await waitFor(async () => {
    const r = await call(client, 'search_code', { query: 'greet hello name' });
    return (r.structuredContent?.results as unknown[] | undefined)?.length ? true : undefined;
  }, 'the fixture to be indexed', 60_000, 200);
}

/** Each tool on the fixture repository (src/math.ts by Ada, src/greet.py by Grace), citing path:lines. */
export async function checkEachTool(client: Client): Promise<void> {
  const s = await call(client, 'search_code', { query: 'add two numbers', limit: 3 });
  assert.ok(!s.isError, textOf(s));
  const results = s.structuredContent!.results as { path: string; startLine: number; endLine: number; text: string }[];
  assert.ok(results.length >= 1 && results.length <= 3);
  assert.equal(results[0]!.path, 'src/math.ts');
  assert.match(results[0]!.text, /addNumbers/);
  assert.match(textOf(s), /src\/math\.ts:1-3/);

  const within = await call(client, 'search_code', { query: 'hello', paths: ['src/greet.py'] });
  assert.deepEqual([...new Set((within.structuredContent!.results as { path: string }[]).map((r) => r.path))], ['src/greet.py']);

  const a = await call(client, 'ask', { question: 'How are two numbers added?' });
  assert.ok(!a.isError, textOf(a));
  const out = a.structuredContent as { answer: string; conversation: string; status: string; sources: { path: string; startLine: number }[] };
  assert.equal(out.status, 'COMPLETED');
  assert.ok(out.answer.length > 0);
  assert.ok(out.sources.some((x) => x.path === 'src/math.ts' && x.startLine === 1), JSON.stringify(out.sources));
  assert.match(textOf(a), /Sources:\n- src\/math\.ts:1-3/);
  // A follow-up in the same conversation.
  const f = await call(client, 'ask', { question: 'and where is the greeting?', conversation: out.conversation });
  assert.ok(!f.isError, textOf(f));
  assert.equal((f.structuredContent as { conversation: string }).conversation, out.conversation);

  const p = await call(client, 'related_people', { path: 'src/greet.py', startLine: 1, endLine: 3 });
  assert.ok(!p.isError, textOf(p));
  const people = p.structuredContent!.people as { name: string; email?: string; files: string[]; lines: number }[];
  assert.deepEqual(people.map((x) => x.email), ['grace@example.com']);
  const two = await call(client, 'related_people', { path: 'src/greet.py', startLine: 2, endLine: 3 });
  assert.deepEqual((two.structuredContent!.people as { lines: number }[]).map((x) => x.lines), [2], 'only the lines asked about are counted');
  assert.deepEqual(people[0]!.files, ['src/greet.py']);
  assert.match(textOf(p), /Grace Hopper <grace@example\.com>/);
  assert.match(textOf(p), /src\/greet\.py:1-3/);

  const r = await call(client, 'read_code', { path: 'src/greet.py', startLine: 2, endLine: 3 });
  assert.ok(!r.isError, textOf(r));
  assert.deepEqual(
    { path: r.structuredContent!.path, startLine: r.structuredContent!.startLine, endLine: r.structuredContent!.endLine, totalLines: r.structuredContent!.totalLines },
    { path: 'src/greet.py', startLine: 2, endLine: 3, totalLines: 3 },
  );
  assert.equal(r.structuredContent!.text, '    """Say hello to someone."""\n    return f"hello {name}"');
  assert.match(textOf(r), /^src\/greet\.py:2-3/);

  const d = await call(client, 'find_symbol', { name: 'addNumbers' });
  assert.ok(!d.isError, textOf(d));
  const defs = d.structuredContent!.definitions as { name: string; kind: string; path: string; startLine: number }[];
  assert.deepEqual(defs.map((x) => [x.name, x.kind, x.path, x.startLine]), [['addNumbers', 'function', 'src/math.ts', 1]]);
  assert.match(textOf(d), /src\/math\.ts:1-3/);
  const kinds = await call(client, 'find_symbol', { name: 'greet', kind: 'class' });
  assert.deepEqual(kinds.structuredContent!.definitions, [], 'greet is a function, not a class');
  const refs = await call(client, 'find_references', { name: 'addNumbers', callsOnly: true });
  assert.ok(!refs.isError, textOf(refs));
  const uses = refs.structuredContent!.references as { path: string; startLine: number; kind: string; text: string; enclosing?: string }[];
  assert.deepEqual(uses.map((x) => [x.path, x.startLine, x.kind]), [['src/total.ts', 4, 'call']]);
  assert.equal(uses[0]!.enclosing, 'total');
  assert.match(textOf(refs), /src\/total\.ts:4 call in total: return xs\.reduce/);
}

/** Bad arguments are MCP errors (isError results the agent reads), and the server keeps serving. */
export async function checkBadArguments(client: Client, fuzz = true): Promise<void> {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['search_code', {}, /query/],
    ['search_code', { query: '' }, /query/],
    ['search_code', { query: 'x', limit: 0 }, /limit/],
    ['search_code', { query: 'x', limit: 'ten' }, /limit/],
    ['search_code', { query: 'x', paths: ['../../etc'] }, /outside the served folders/],
    ['ask', { question: 42 }, /question/],
    ['ask', { question: 'why', conversation: '../../x' }, /conversation/],
    ['find_symbol', { name: 'x', kind: 'galaxy' }, /kind/],
    ['related_people', { path: '/etc/passwd' }, /outside the served folders/],
    ['related_people', { path: 'src/math.ts', startLine: 3, endLine: 1 }, /endLine/],
    ['read_code', { path: '../../../etc/passwd' }, /outside the served folders/],
    ['read_code', { path: 'src/nope.ts' }, /no file or folder 'src\/nope\.ts'/],
    ['read_code', { path: 'outlink/secret.txt' }, /outside the served folders/],
    ['related_people', { path: 'outlink' }, /outside the served folders/],
    ['search_code', { query: 'secret', paths: ['outlink'] }, /outside the served folders/],
    ['read_code', { path: 'src/math.ts', startLine: -1 }, /startLine/],
  ];
  for (const [name, args, why] of cases) {
    let r: ToolResult;
    try {
      r = await call(client, name, args);
    } catch (e) {
      // A JSON-RPC invalid-params error is an MCP error too.
      assert.match(String(e), why, `${name} ${JSON.stringify(args)}`);
      continue;
    }
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} is an error: ${textOf(r)}`);
    assert.match(textOf(r), why, `${name} ${JSON.stringify(args)}`);
  }
  // Every argument of every tool with values of the wrong kind: always an answer, never a dead server.
  const weird: unknown[] = [null, true, -1, 0, 1.5, 1e308, '', '\u0000', 'x'.repeat(5000), [], [null], {}, { __proto__: { polluted: true } }, '../../../../etc/passwd'];
  const { tools } = fuzz ? await client.listTools() : { tools: [] };
  for (const t of tools) {
    for (const prop of Object.keys(t.inputSchema.properties ?? {})) {
      for (const v of weird) {
        const base: Record<string, unknown> = { query: 'add', question: 'add?', name: 'addNumbers', path: 'src/math.ts' };
        const args = Object.fromEntries(Object.keys(t.inputSchema.properties ?? {}).map((k) => [k, base[k]]).filter(([, x]) => x !== undefined));
        args[prop] = v;
        const r = (await client.callTool({ name: t.name, arguments: args }).catch((e: Error) => ({ content: [{ type: 'text', text: e.message }], isError: true }))) as ToolResult;
        assert.ok(Array.isArray(r.content), `${t.name}.${prop} = ${JSON.stringify(v)?.slice(0, 40)} got an answer`);
      }
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }).then((r) => {
    if ((r as ToolResult).isError) throw new Error('isError');
  }));
  // Still serving.
  const ok = await call(client, 'search_code', { query: 'greet' });
  assert.ok(!ok.isError);
}

/** 16 calls at once, of every kind, each answered with its own result. */
export async function checkConcurrent(client: Client): Promise<void> {
  const calls = Array.from({ length: 16 }, (_, i) => {
    switch (i % 4) {
      case 0: return call(client, 'search_code', { query: i % 8 ? 'add numbers' : 'greet hello' }).then((r) => ['search', r] as const);
      case 1: return call(client, 'read_code', { path: 'src/math.ts', startLine: 1 + (i % 3), endLine: 3 }).then((r) => ['read', r] as const);
      case 2: return call(client, 'related_people', { path: 'src/math.ts' }).then((r) => ['people', r] as const);
      default: return call(client, 'ask', { question: `what does addNumbers return? (${i})` }).then((r) => ['ask', r] as const);
    }
  });
  const results = await Promise.all(calls);
  results.forEach(([kind, r], i) => {
    assert.ok(!r.isError, `${kind} #${i}: ${textOf(r)}`);
    if (kind === 'search') assert.equal((r.structuredContent!.results as { path: string }[])[0]!.path, i % 8 ? 'src/math.ts' : 'src/greet.py');
    if (kind === 'read') assert.equal(r.structuredContent!.startLine, 1 + (i % 3));
    if (kind === 'people') assert.deepEqual((r.structuredContent!.people as { email: string }[]).map((p) => p.email), ['ada@example.com']);
    if (kind === 'ask') assert.equal(r.structuredContent!.status, 'COMPLETED');
  });
}

/**
 * An `ask` answered by stories260K, cancelled once its first words arrived: the call rejects and
 * the conversation (named by the test, so it can be found on disk) keeps the answer marked stopped.
 */
export async function checkCancelled(client: Client, dataDir: string, conversation: string): Promise<void> {
  const ac = new AbortController();
  let deltas = 0;
  const t0 = Date.now();
  const pending = client.callTool(
    { name: 'ask', arguments: { question: 'Tell me the story of how addNumbers adds two numbers', conversation } },
    {
      signal: ac.signal,
      onprogress: (p) => {
        // The first progress lines say what was searched and found; later ones are the answer's words.
        if (++deltas === 3) ac.abort('the user pressed stop');
      },
    },
  );
  await assert.rejects(pending);
  assert.ok(deltas >= 3, `the answer had started streaming (${deltas} progress notifications)`);
  const file = path.join(dataDir, 'conversations', `${conversation}.json`);
  const last = await waitFor(async () => {
    if (!fs.existsSync(file)) return undefined;
    const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages_: { role: string; text: string }[] };
    const m = rec.messages_.at(-1);
    return m?.role === 'ASSISTANT' ? m : undefined;
  }, 'the stopped answer to be saved', 20_000);
  assert.match(last.text, /\(stopped\)$/, 'the generation was stopped, not run to its end');
  assert.ok(Date.now() - t0 < 20_000);
}
