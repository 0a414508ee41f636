/**
 * The answer flow as a user meets it: the real worker over JSON-RPC, a real git repository with
 * three authors, the streamed frames the chat renders.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startWorker, type WorkerHandle } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { QgptStream } from '../../server/src/protocol/stream';
import { QgptHints, QgptPersonsRelated } from '../../server/src/protocol/qgpt';
import { ConversationsGet, ConversationsList, IndexStatus, IndexPause, WorkspaceSetFolders } from '../../server/src/protocol/workspace';
import { ModelsSnapshot } from '../../server/src/protocol/models';
import type { QGPTStreamOutput, RelevantQGPTSeed } from '../../server/src/protocol/wire';
import { Frames, Repo, relevantSeed, tempDir, textOf } from './fixtures';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
const BOB = { name: 'Bob Byte', email: 'bob@example.com' };
const CY = { name: 'Cy Coder', email: 'cy@example.com' };
const DEE = { name: 'Dee Docs', email: 'dee@example.com' };

// 24 lines: Cy wrote 8 (2021), Ada 12 (2022), Bob 4 (2025, the most recent).
const ROUTER_CY = [
  "import type { Handler, Route } from '../types';",
  '',
  '/** Finds the handler of a request path: the first route whose pattern matches the path. */',
  'export function matchRoute(routes: Route[], path: string): Handler | undefined {',
  '  for (const route of routes) {',
  '    if (matchPattern(route.pattern, path)) return route.handler;',
  '  }',
  '  return undefined;',
];
const ROUTER_ADA = [
  '}',
  '',
  '/** Compares a route pattern such as /users/:id with a path, segment by segment. */',
  'export function matchPattern(pattern: string, path: string): Record<string, string> | null {',
  "  const want = pattern.split('/');",
  "  const got = path.split('/');",
  '  if (want.length !== got.length) return null;',
  '  const params: Record<string, string> = {};',
  '  for (let i = 0; i < want.length; i++) {',
  "    if (want[i].startsWith(':')) params[want[i].slice(1)] = got[i];",
  '    else if (want[i] !== got[i]) return null;',
  '  }',
];
const ROUTER_BOB = ['  // Trailing slashes were matched by accident before.', "  if (path.endsWith('/') && path !== '/') return null;", '  return params;', '}'];
const ROUTER = [...ROUTER_CY, ...ROUTER_ADA, ...ROUTER_BOB].join('\n') + '\n';

const APP = [
  "import { matchRoute } from '../router/router';",
  "import { routes } from './routes';",
  '',
  '/** Serves one request: looks its handler up and runs it. */',
  'export function serveRequest(req: Request): Response {',
  '  const handler = matchRoute(routes, new URL(req.url).pathname);',
  "  if (!handler) return new Response('not found', { status: 404 });",
  '  return handler(req);',
  '}',
  '',
].join('\n');

const ROUTER_TEST = [
  "import { matchRoute, matchPattern } from '../src/router/router';",
  '',
  "describe('routing: match paths to handlers', () => {",
  "  it('matches paths to handlers by pattern', () => {",
  "    const handler = () => new Response('ok');",
  "    expect(matchRoute([{ pattern: '/users/:id', handler }], '/users/7')).toBe(handler);",
  "    expect(matchPattern('/users/:id', '/users/7')).toEqual({ id: '7' });",
  '  });',
  "  it('does not match paths of another length to handlers', () => {",
  "    expect(matchRoute([{ pattern: '/users/:id', handler: () => new Response('') }], '/users')).toBeUndefined();",
  '  });',
  '});',
  '',
].join('\n');

function makeRouterRepo(): Repo {
  const r = Repo.init('flow');
  r.write('src/router/router.ts', ROUTER_CY.join('\n') + '\n');
  r.write('README.md', '# tiny server\n\nServes requests.\n');
  r.commit(CY, '2021-03-01T10:00:00Z', 'router skeleton');
  r.write('src/router/router.ts', [...ROUTER_CY, ...ROUTER_ADA].join('\n') + '\n');
  r.commit(ADA, '2022-05-01T10:00:00Z', 'pattern matching');
  r.write('src/router/router.ts', ROUTER);
  r.write('src/server/app.ts', APP);
  r.write('src/server/routes.ts', "import type { Route } from '../types';\n\nexport const routes: Route[] = [];\n");
  r.write('src/types.ts', 'export type Handler = (req: Request) => Response;\nexport interface Route { pattern: string; handler: Handler }\n');
  r.commit(BOB, '2025-01-15T10:00:00Z', 'no trailing slashes; the server');
  r.write('test/router.test.ts', ROUTER_TEST);
  r.write('docs/deploy.md', '# Deploying\n\nCopy the build to the server.\n');
  r.commit(DEE, '2025-02-01T10:00:00Z', 'tests and docs');
  return r;
}

/** Markdown links of an answer before its collapsed sources, in order: [path, start, end]. */
function citations(text: string): [string, number, number][] {
  const body = text.split('<details>')[0]!;
  return [...body.matchAll(/\[`([^`]+?):(\d+)(?:-(\d+))?`\]\(([^)]+)\)/g)].map((m) => [m[1]!, Number(m[2]), Number(m[3] ?? m[2])]);
}

describe('the answer flow over the worker (follow-ups, extractive answers, notices, people)', function () {
  let dataDir: string;
  let repo: Repo;
  let w: WorkerHandle;
  let frames: Frames;
  let n = 0;

  async function ask(query: string, extra: Record<string, unknown> = {}): Promise<{ rel: QGPTStreamOutput; end: QGPTStreamOutput; text: string; request: string }> {
    const request = `flow-${++n}`;
    await w.request(QgptStream, { request, relevance: { query, paths: [repo.dir], options: { question: true } }, ...extra } as never);
    const end = (await frames.terminal(request)).frame;
    const list = frames.of(request);
    const rel = list.find((f) => f.relevance)!;
    assert.equal(end.status, 'COMPLETED', end.errorMessage);
    return { rel, end, text: textOf(list), request };
  }

  before(async () => {
    dataDir = tempDir('flowdata');
    repo = makeRouterRepo();
    w = await startWorker({ dataDir, folders: [repo.dir], autoIndex: true });
    frames = new Frames(w);
    await waitFor(async () => {
      const s = await w.request(IndexStatus, undefined as never);
      return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
    }, 'the fixture indexed');
  });
  after(async () => {
    await w?.stop();
    for (const d of [dataDir, repo?.dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('an extractive answer leads with where it happens, then at most 3 excerpts with relative links in rank order, no tests, sources collapsed', async () => {
    const { rel, text } = await ask('How does routing match paths to handlers?');
    const seeds = rel.relevance!.relevant.iterable;
    assert.match(text, /^`matchRoute` in \[`src\/router\/router\.ts:\d+-\d+`\]\(src\/router\/router\.ts#L\d+-L\d+\) is where this happens/, text);
    const cited = citations(text);
    assert.ok(cited.length >= 1);
    for (const [p] of cited) {
      assert.ok(!path.isAbsolute(p), `relative link: ${p}`);
      assert.ok(!p.startsWith('test/'), `no test cited for a question not about tests: ${p}\n${text}`);
    }
    const excerpts = text.split('<details>')[0]!.match(/^```/gm)!.length / 2;
    assert.ok(excerpts >= 1 && excerpts <= 3, `1 to 3 excerpts, got ${excerpts}`);
    assert.doesNotMatch(text, /^\s*\d+ \| /m, 'no line-number gutter in the quoted code');
    // Rank order: the first citation is the first place of the list the reader sees, and the list is sorted by the score it shows.
    const first = seeds.find((s) => !/\/test\//.test(s.path ?? ''))!;
    assert.equal(path.relative(repo.dir, first.path!), cited[0]![0]);
    const shown = seeds.map((s) => s.askcode!.score);
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a), 'the list is in the order of the score it shows');
    assert.match(text, /<details><summary>Sources \(\d+\)<\/summary>/);
    assert.match(text, /No language model was used/);
  });

  it('a question about tests cites the test', async () => {
    const { text } = await ask('How is matching paths to handlers tested?');
    assert.equal(citations(text)[0]?.[0], 'test/router.test.ts', text);
  });

  it('a follow-up is rewritten with its history: the rewritten query is on the relevance and terminal frames, and the answer cites the call site', async () => {
    const conversation = 'conv-follow-up';
    const a = await ask('How does routing match paths to handlers?', { conversation });
    assert.equal(a.rel.askcode?.rewrittenQuery, undefined, 'a standalone question is not rewritten');
    const b = await ask('and where is that called?', { conversation });
    const rewritten = b.rel.askcode?.rewrittenQuery;
    assert.ok(rewritten, `the relevance frame carries the rewritten query: ${JSON.stringify(b.rel.askcode)}`);
    assert.match(rewritten, /`matchRoute`/);
    assert.match(rewritten, /called/);
    assert.equal(b.end.askcode?.rewrittenQuery, rewritten, 'the terminal frame carries it too');
    const cited = citations(b.text);
    assert.equal(cited[0]?.[0], 'src/server/app.ts', `the call site first:\n${b.text}`);
    assert.equal(b.rel.relevance!.relevant.iterable[0]!.path, path.join(repo.dir, 'src/server/app.ts'), 'the list shows the call site first too');
    const rec = await w.request(ConversationsGet, { id: conversation });
    const users = rec.messages_.filter((m) => m.role === 'USER');
    assert.deepEqual(users.map((m) => m.text), ['How does routing match paths to handlers?', 'and where is that called?']);
    assert.equal(users[1]!.rewrittenQuery, rewritten);
  });

  it('"where is X called?" answers with its call sites, not its definition', async () => {
    const { text } = await ask('Where is `matchPattern` called?');
    assert.equal(citations(text)[0]?.[0], 'src/router/router.ts', text);
    // matchRoute's chunk calls matchPattern; the definition's own line is not what is quoted first.
    const firstExcerpt = /```\w*\n([\s\S]*?)```/.exec(text)?.[1] ?? text;
    assert.match(firstExcerpt, /matchPattern\(route\.pattern, path\)/, firstExcerpt);
    // The answer names the function the call is in, not the definition that follows it in the chunk.
    assert.match(text, /^`matchRoute` in /, text);
    const other = await ask('Where is `matchRoute` called?');
    assert.equal(citations(other.text)[0]?.[0], 'src/server/app.ts', other.text);
    assert.match(/```\w*\n([\s\S]*?)```/.exec(other.text)![1]!, /const handler = matchRoute\(routes/);
  });

  it('"where is X tested?" answers with the test that calls it; "how is X used?" with a call site', async () => {
    const tested = await ask('Where is `matchPattern` tested?');
    assert.match(citations(tested.text)[0]?.[0] ?? '', /router\.test\.ts$/, tested.text);
    assert.match(tested.text, /^(?:`[^`]+` in )?\[`test\/router\.test\.ts:\d+-\d+`\]\([^)]*\) tests it/, tested.text);
    assert.match(/```\w*\n([\s\S]*?)```/.exec(tested.text)![1]!, /matchPattern\('\/users\/:id'/);
    const used = await ask('How is `matchRoute` used?');
    assert.equal(citations(used.text)[0]?.[0], 'src/server/app.ts', used.text);
    assert.match(used.text, /calls it/);
  });

  it('a chosen model that is not downloaded: the answer quotes the code and a notice says why, with a download action', async () => {
    const models = await w.request(ModelsSnapshot, undefined as never);
    const missing = models.iterable.find((m) => /Qwen2\.5-Coder 0\.5B/i.test(m.name) && m.usage === 'CODE_CONVERSATION');
    assert.ok(missing, models.iterable.map((m) => m.name).join(', '));
    const { end, text } = await ask('How does routing match paths to handlers?', { relevance: { query: 'How does routing match paths to handlers?', paths: [repo.dir], options: { question: true }, model: missing.id } });
    assert.match(text, /^`matchRoute` in /);
    const notice = end.askcode?.notices?.find((x) => x.kind === 'model-unavailable');
    assert.ok(notice, JSON.stringify(end.askcode));
    assert.match(notice.message, /is not downloaded yet, so this answer quotes the code instead/);
    assert.doesNotMatch(notice.message, /model\/download|call /);
    assert.deepEqual(notice.action, { label: 'Download model', command: 'download-model', model: missing.id });
  });

  it('hints name what the answer is about: callers, tests, what it calls — never pronouns, keywords, strings, paths or 1–2 letter names', async () => {
    const relevant = {
      iterable: [
        { ...relevantSeed(ROUTER, { path: 'src/router/router.ts', startLine: 1 }), askcode: { startLine: 1, endLine: 24, score: 0.9, scores: { fused: 0.9 }, symbol: 'matchRoute, matchPattern' } },
        { ...relevantSeed("class Box {\n  constructor(readonly to: string) {}\n}\nconst up = '../..';\n", { path: 'src/box.ts', startLine: 1 }), askcode: { startLine: 1, endLine: 4, score: 0.5, scores: { fused: 0.5 }, symbol: "Box › constructor, to, '../..'" } },
      ] as RelevantQGPTSeed[],
    };
    const hints = (await w.request(QgptHints, { query: 'How does routing work?', relevant })).answers.iterable.map((h) => h.text);
    assert.ok(hints.length >= 3, hints.join(' | '));
    assert.ok(hints.includes('Where is `matchRoute` called?'), hints.join(' | '));
    assert.ok(hints.some((h) => /tested\?$/.test(h)), hints.join(' | '));
    for (const h of hints) {
      assert.doesNotMatch(h, /`constructor`|`to`|'\.\.\/\.\.'|`\.\.|\b(?:this|it|that)\b\?/, h);
      const names = [...h.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      for (const x of names) assert.ok(x.length > 2 || /\./.test(x), `${x} in ${h}`);
    }
  });

  it('people are ranked by share of the relevant lines (recency only breaks ties); nobody with 0 lines', async () => {
    const out = await w.request(QgptPersonsRelated, {
      input: { conversation: { iterable: [{ role: 'ASSISTANT', text: 'See `src/router/router.ts:1-24`.', timestamp: { value: '2025-01-01T00:00:00.000Z' } }] } },
    });
    const rows = out.persons.iterable.map((p) => [p.type.basic?.email, p.askcode?.lines, p.askcode?.score]);
    assert.deepEqual(rows, [
      [ADA.email, 12, 0.5],
      [CY.email, 8, 0.333],
      [BOB.email, 4, 0.167],
    ]);
    assert.match(out.explanations![out.persons.iterable[1]!.id]!, /wrote 8 of the 24 relevant lines \(33%\)/i);
    assert.ok(!out.persons.iterable.some((p) => p.type.basic?.email === DEE.email), 'Dee wrote none of these lines');
  });

  it('a question about people is answered with people (AnswerExtras.persons and a short text naming them)', async () => {
    const { end, text } = await ask('Who can help with matching route patterns?');
    const persons = end.askcode?.persons?.persons.iterable ?? [];
    assert.ok(persons.length >= 2, JSON.stringify(end.askcode));
    const lines = persons.map((p) => p.askcode!.lines);
    assert.deepEqual(lines, [...lines].sort((a, b) => b - a), 'the author of most of the relevant lines first');
    assert.ok(end.askcode!.persons!.askcode!.files!.some((f) => f.path.endsWith('src/router/router.ts')), 'computed on the places that match');
    const name = persons[0]!.type.basic!.name!;
    assert.match(text, new RegExp(`^\\*\\*${name}\\*\\* knows “matching route patterns” best`), text);
    assert.match(text, new RegExp(`1\\. \\*\\*${name}\\*\\*.* — ${lines[0]} of \\d+ relevant lines \\(\\d+%\\)`), text);
    assert.doesNotMatch(text, /```/, 'people, not code');
  });

  it('conversations belong to their folder: the list shows this folder\'s by default, every one with all', async () => {
    const other = Repo.init('other');
    other.write('lib.py', 'def helper():\n    return 1\n');
    other.commit(DEE, '2025-03-01T10:00:00Z', 'lib');
    try {
      await ask('How does routing match paths to handlers?', { conversation: 'conv-router-folder' });
      await w.request(WorkspaceSetFolders, { folders: [other.dir] });
      await w.request(QgptStream, { request: 'other-1', conversation: 'conv-other-folder', relevance: { query: 'what does helper return?', paths: [other.dir], options: { question: true } } } as never);
      await frames.terminal('other-1');
      const mine = (await w.request(ConversationsList, undefined as never)).map((c) => c.id);
      assert.ok(mine.includes('conv-other-folder'), mine.join(', '));
      assert.ok(!mine.includes('conv-router-folder'), `another folder's conversation is not listed: ${mine.join(', ')}`);
      const all = (await w.request(ConversationsList, { all: true })).map((c) => c.id);
      assert.ok(all.includes('conv-router-folder') && all.includes('conv-other-folder'), all.join(', '));
      const rec = (await w.request(ConversationsList, { all: true })).find((c) => c.id === 'conv-other-folder')!;
      assert.ok(rec.folders?.length === 1 && path.basename(rec.folders[0]!) === path.basename(other.dir), `the folder is stored on the conversation: ${JSON.stringify(rec.folders)}`);
    } finally {
      await w.request(WorkspaceSetFolders, { folders: [repo.dir] });
      fs.rmSync(other.dir, { recursive: true, force: true });
    }
  });

  it('"where is X tested?" finds the test that makes a generic X (`new RetryStrategyOptions<int>()`), however many other files use X', async () => {
    // Polly: its samples use `new RetryStrategyOptions()`; its test `new RetryStrategyOptions<int>()`.
    const cs = Repo.init('generic');
    cs.write('src/Retry/RetryStrategyOptions.cs', 'namespace Polly.Retry;\n\n/// <summary>The options of the retry strategy.</summary>\npublic class RetryStrategyOptions<TResult>\n{\n    public int MaxRetryAttempts { get; set; } = 3;\n}\n');
    for (let i = 0; i < 10; i++) {
      cs.write(`samples/Sample${i}/Program.cs`, `public static class Sample${i}\n{\n    public static void Run()\n    {\n        var pipeline = new ResiliencePipelineBuilder().AddRetry(new RetryStrategyOptions()).Build();\n    }\n}\n`);
    }
    cs.write('test/Retry/RetryStrategyOptionsTests.cs', 'public class RetryStrategyOptionsTests\n{\n    [Fact]\n    public void Ctor_Ok()\n    {\n        var options = new RetryStrategyOptions<int>();\n        options.MaxRetryAttempts.Should().Be(3);\n    }\n}\n');
    const data = tempDir('flowdata3');
    const w3 = await startWorker({ dataDir: data, folders: [cs.dir], autoIndex: true });
    try {
      const f3 = new Frames(w3);
      await waitFor(async () => {
        const s = await w3.request(IndexStatus, undefined as never);
        return s.state === 'ready' && s.filesTotal > 0 && s.files === s.filesTotal ? s : undefined;
      }, 'the C# fixture indexed');
      await w3.request(QgptStream, { request: 'g-1', relevance: { query: 'Where is RetryStrategyOptions tested?', paths: [cs.dir], options: { question: true } } } as never);
      assert.equal((await f3.terminal('g-1')).frame.status, 'COMPLETED');
      const text = textOf(f3.of('g-1'));
      assert.match(text, /^`(?:RetryStrategyOptionsTests\.)?Ctor_Ok` in \[`test\/Retry\/RetryStrategyOptionsTests\.cs:\d+-\d+`\]\([^)]*\) tests it/, text);
    } finally {
      await w3.stop();
      for (const d of [cs.dir, data]) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it('an answer given while the index is still building says so', async () => {
    const big = Repo.init('big');
    for (let i = 0; i < 400; i++) big.write(`src/mod${i}.ts`, `export function handler${i}(x: number) {\n  return x + ${i};\n}\n`);
    const data2 = tempDir('flowdata2');
    const w2 = await startWorker({ dataDir: data2, folders: [big.dir], autoIndex: true });
    try {
      await w2.request(IndexPause, undefined as never);
      const f2 = new Frames(w2);
      const st = await w2.request(IndexStatus, undefined as never);
      // The whole index (not a path, which would wait for its folder's pass), as the chat asks.
      await w2.request(QgptStream, { request: 'b-1', relevance: { query: 'where is handler7?', options: { question: true, database: true } } } as never);
      const end = (await f2.terminal('b-1')).frame;
      const rel = f2.of('b-1').find((f) => f.relevance);
      if (st.files < st.filesTotal || st.filesTotal === 0) {
        const n1 = rel?.askcode?.notices?.find((x) => x.kind === 'index-building');
        assert.ok(n1, `the relevance frame says the index is building: ${JSON.stringify(rel?.askcode)} (status ${JSON.stringify(st)})`);
        assert.match(n1.message, /still being built.*may miss places/);
        assert.ok(end.askcode?.notices?.some((x) => x.kind === 'index-building'));
      } else {
        assert.fail(`the index finished before it could be paused (${JSON.stringify(st)}); the fixture needs more files`);
      }
    } finally {
      await w2.stop();
      for (const d of [big.dir, data2]) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
