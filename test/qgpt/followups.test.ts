import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { startWorker, rpcError, type WorkerHandle } from '../helpers/worker';
import { QgptReprompt, QgptHints } from '../../server/src/protocol/qgpt';
import { ModelsSnapshot } from '../../server/src/protocol/models';
import type { QGPTConversationMessage, QGPTQuestionOutput } from '../../server/src/protocol/wire';
import { relevantSeed, tempDir, PARSER, MATH_V2 } from './fixtures';

let t = 0;
const msg = (role: 'USER' | 'ASSISTANT', text: string): QGPTConversationMessage => ({ role, text, timestamp: { value: new Date(Date.UTC(2025, 0, 1, 0, 0, t++)).toISOString() } });
const norm = (q: string) => q.toLowerCase().replace(/[`"'?!.,:;()]/g, ' ').replace(/\s+/g, ' ').trim();

describe('qgpt/reprompt and qgpt/hints over the worker', function () {
  let dataDir: string;
  let w: WorkerHandle;
  let stories: string;
  before(async () => {
    dataDir = tempDir('fdata');
    w = await startWorker({ dataDir });
    stories = (await w.request(ModelsSnapshot, undefined as never)).iterable.find((m) => m.name === 'stories260K')!.id;
  });
  after(async () => {
    await w?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('reprompt without a model resolves references from the recent messages', () => {
    /** The standalone query a follow-up is rewritten to, after `history` (newest first). */
    const rewrite = async (query: string, history: QGPTConversationMessage[]) => (await w.request(QgptReprompt, { query, conversation: { iterable: history } })).query;
    const answerText = 'These 2 places answer the question:\n\n**`src/parser/config.ts:1-13`** (`parseConfig`) — score 0.80\n\n**`src/math.ts:1-13`** (`multiply`) — score 0.40';
    const cases: [string, QGPTConversationMessage[], RegExp][] = [
      ['a bare follow-up keeps the subject (the SDK example)', [msg('ASSISTANT', 'It returns the sum of its two arguments.'), msg('USER', 'What does add() return?')], /`add`/],
      ['"it" becomes the symbol asked about', [msg('ASSISTANT', answerText), msg('USER', 'What does `parseConfig` do?')], /^How is `parseConfig` tested\?$/],
      ['"the second file" becomes the second cited file', [msg('ASSISTANT', answerText), msg('USER', 'Where are configs parsed?')], /`src\/math\.ts`/],
      ['"that function" becomes the function', [msg('ASSISTANT', answerText), msg('USER', 'What does `parseConfig` do?')], /the function `parseConfig`/],
    ];
    const queries = ['And for three numbers?', 'How is it tested?', 'What is in the second file?', 'Who calls that function?'];
    cases.forEach(([name, history, re], i) => {
      it(name, async () => {
        const out = await w.request(QgptReprompt, { query: queries[i], conversation: { iterable: history } });
        assert.match(out.query, re);
      });
    });
    it('"that class" after an answer about a method is the method\'s class; "that function" stays the method', async () => {
      const history = [
        msg('ASSISTANT', '`Option.value_from_envvar` in [`src/click/core.py:3541-3588`](src/click/core.py#L3541-L3588) is where this happens (it matches “boolean” and “flags”).'),
        msg('USER', 'How does click parse boolean flags?'),
      ];
      assert.equal((await w.request(QgptReprompt, { query: 'Where is that class defined?', conversation: { iterable: history } })).query, 'Where is the class `Option` defined?');
      assert.equal((await w.request(QgptReprompt, { query: 'Who calls that function?', conversation: { iterable: history } })).query, 'Who calls the function `Option.value_from_envvar`?');
    });
    it('asked where a constructor is called or how it is tested, the subject is its class (`Console.__init__` is called as `Console(…)`)', async () => {
      const history = [
        msg('ASSISTANT', '`Console.__init__` in [`rich/console.py:684-743`](rich/console.py#L684-L743) is where this happens (it matches “terminal” and “width”).'),
        msg('USER', 'How does the console detect the terminal width?'),
      ];
      assert.equal((await w.request(QgptReprompt, { query: 'And where is that called?', conversation: { iterable: history } })).query, 'Where is `Console` called?');
      assert.match((await w.request(QgptReprompt, { query: 'How is it tested?', conversation: { iterable: history } })).query, /^How is `Console` tested\b/);
      assert.match((await w.request(QgptReprompt, { query: 'What does it do?', conversation: { iterable: history } })).query, /`Console\.__init__`/, 'the constructor itself otherwise');
    });
    it('a name inside a quoted value of the question is no subject (Slim\'s \'SomeClass:someMethod\'); an apostrophe quotes nothing', async () => {
      const history = [
        msg('ASSISTANT', '`CallableResolver` in [`Slim/CallableResolver.php:79-120`](Slim/CallableResolver.php#L79-L120) is where this happens (it matches “route” and “handler”).'),
        msg('USER', "When a route handler is given as a string like 'SomeClass:someMethod', how does the framework's resolver turn it into a callable?"),
      ];
      assert.equal(await rewrite('Who calls it?', history), 'Who calls `CallableResolver`?');
      const named = [msg('ASSISTANT', 'It is the resolver.'), msg('USER', "How does the framework's `resolveCallable` read 'Home:index'?")];
      assert.equal(await rewrite('Who calls it?', named), 'Who calls `resolveCallable`?');
    });
    it('after an answer that found its place by the question\'s words, "who calls it?" asks about that place\'s name, not a name the question listed on the way (gorilla/sessions\' `SameSite`)', async () => {
      const history = [
        msg('ASSISTANT', '`newCookieFromOptions` in [`cookie.go:1-23`](cookie.go#L1-L23) is where this happens (it matches “options” and “path”); see also `Options` ([`options.go:1-24`](options.go#L1-L24)).'),
        msg('USER', 'How does the session package copy my Options (path, domain, max-age, SameSite, partitioned) onto an http.Cookie?'),
      ];
      assert.equal(await rewrite('Who calls it?', history), 'Who calls `newCookieFromOptions`?');
      // A name the answer defines as asked stays the subject ("`parseConfig` … defines it").
      const asked = [msg('ASSISTANT', '`parseConfig` in [`src/parser/config.ts:1-13`](src/parser/config.ts#L1-L13) defines it.'), msg('USER', 'What does `parseConfig` do with `ConfigError`?')];
      assert.equal(await rewrite('Who calls it?', asked), 'Who calls `parseConfig`?');
    });
    it('"the file" after the user spoke of a file of theirs (an @argfile, a `.env` file) is that file, not the answer\'s source file', async () => {
      const answer = msg('ASSISTANT', '`CommandLineParser` in [`clikt/src/parsers/CommandLineParser.kt:12-66`](clikt/src/parsers/CommandLineParser.kt#L12-L66) is where this happens (it matches “split”).');
      const argfile = [answer, msg('USER', 'How does clikt split the contents of an @argfile into separate arguments?')];
      assert.doesNotMatch(await rewrite('What happens if the file has an unclosed quote?', argfile), /CommandLineParser\.kt/);
      const env = [answer, msg('USER', 'How is my .env file read?')];
      assert.doesNotMatch(await rewrite('What happens if the file is missing?', env), /CommandLineParser\.kt/);
      // Asked about code, "the file" is the answer's.
      const code = [answer, msg('USER', 'How does clikt split arguments?')];
      assert.match(await rewrite('Who wrote the file?', code), /the file `clikt\/src\/parsers\/CommandLineParser\.kt`/);
    });
    it("a follow-up to an answer whose first place goes by no name (a document) is about that file, not the next place's name", async () => {
      const history = [
        msg('ASSISTANT', '[`docs/caching.md:1-20`](docs/caching.md#L1-L20) is where this happens (it matches “cache”); see also `put_result` ([`src/cache.py:1-10`](src/cache.py#L1-L10)).'),
        msg('USER', 'How do I turn on the result cache?'),
      ];
      const out = await w.request(QgptReprompt, { query: 'Which file does that?', conversation: { iterable: history } });
      assert.match(out.query, /about: How do I turn on the result cache.*`docs\/caching\.md`/, out.query);
      assert.doesNotMatch(out.query, /put_result/, out.query);
    });
    it('a follow-up of a follow-up keeps the first question as its topic, not the rewrite nested again', async () => {
      const answer = '[`docs/caching.md:1-20`](docs/caching.md#L1-L20) is where this happens (it matches “cache”).';
      const history = [
        msg('ASSISTANT', answer),
        msg('USER', 'Where is that called — about: How do I turn on the result cache (`docs/caching.md`)'),
        msg('ASSISTANT', answer),
        msg('USER', 'How do I turn on the result cache?'),
      ];
      const out = await w.request(QgptReprompt, { query: 'How is it tested?', conversation: { iterable: history } });
      assert.equal(out.query, 'How is it tested — about: How do I turn on the result cache (`docs/caching.md`)');
    });
    it('a qualified method (`LikelihoodModel.fit`) is a name, not a file path', async () => {
      const history = [
        msg('ASSISTANT', '`LikelihoodModel.fit` in [`statsmodels/base/model.py:388-440`](statsmodels/base/model.py#L388-L440) is where this happens (it matches “fitted”).'),
        msg('USER', 'How are models fitted?'),
      ];
      const out = await w.request(QgptReprompt, { query: 'Where is that implemented?', conversation: { iterable: history } });
      assert.match(out.query, /^Where is `LikelihoodModel\.fit` implemented \(in `statsmodels\/base\/model\.py`\)\?$/, out.query);
    });
    it('a class\'s `Request.json` is a name, not a JSON file; `package.json` and `README.md` stay files', async () => {
      const history = [
        msg('ASSISTANT', '`Request.json` in [`sanic/request/types.py:493-552`](sanic/request/types.py#L493-L552) defines it.'),
        msg('USER', 'What does Request.json return?'),
      ];
      const out = await w.request(QgptReprompt, { query: 'where is it set?', conversation: { iterable: history } });
      assert.match(out.query, /^Where is `Request\.json` set/, out.query);
      const files = [msg('ASSISTANT', 'See [`package.json:1-20`](package.json#L1-L20).'), msg('USER', 'What does README.md say about package.json?')];
      const f = await w.request(QgptReprompt, { query: 'Which file does that?', conversation: { iterable: files } });
      assert.match(f.query, /`package\.json`/, f.query);
    });
    it('leaves a standalone question, or one with no history, as it is', async () => {
      const a = await w.request(QgptReprompt, { query: 'Where is `multiply` defined?', conversation: { iterable: [msg('USER', 'What does `add` do?')] } });
      assert.equal(a.query, 'Where is `multiply` defined?');
      const b = await w.request(QgptReprompt, { query: 'How is it tested?', conversation: {} });
      assert.equal(b.query, 'How is it tested?');
    });
    it('with a model (stories260K) returns a non-empty query', async () => {
      const out = await w.request(QgptReprompt, { query: 'How is it tested?', conversation: { iterable: [msg('USER', 'What does `parseConfig` do?')] }, model: stories });
      assert.equal(typeof out.query, 'string');
      assert.ok(out.query.trim().length >= 3);
    });
  });

  describe('hints', () => {
    const relevant = { iterable: [relevantSeed(PARSER, { path: 'src/parser/config.ts', startLine: 1 }), relevantSeed(MATH_V2, { path: 'src/math.ts', startLine: 1 })] };
    function check(out: QGPTQuestionOutput, previous?: string): string[] {
      const hs = out.answers.iterable;
      assert.ok(hs.length >= 3 && hs.length <= 5, `3 to 5 hints, got ${hs.length}`);
      for (const h of hs) {
        assert.ok(h.score >= 0 && h.score <= 1);
        assert.ok(h.text.trim().length > 0);
        if (previous) assert.notEqual(norm(h.text), norm(previous));
      }
      assert.equal(new Set(hs.map((h) => norm(h.text))).size, hs.length, 'no duplicates');
      return hs.map((h) => h.text);
    }
    it('without a model: 3 to 5 questions about the snippets\' symbols and files, best first, never the previous query', async () => {
      const previous = 'What does `parseConfig` do?';
      const out = await w.request(QgptHints, { query: previous, relevant, answer: { score: 0.8, text: 'It parses `key=value` lines.' } });
      const texts = check(out, previous);
      assert.ok(texts.some((h) => h.includes('`parseConfig`')), texts.join(' | '));
      const scores = out.answers.iterable.map((h) => h.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    });
    it('from nothing gives no hints: no generic filler ("how could this be tested?")', async () => {
      assert.deepEqual((await w.request(QgptHints, { relevant: { iterable: [] } })).answers.iterable, []);
    });
    it('with a model (stories260K): 3 to 5 scored questions, never the previous query', async () => {
      const previous = 'Where is `add` called?';
      check(await w.request(QgptHints, { query: previous, relevant, model: stories }), previous);
    });
  });

  describe('bad input names the field', () => {
    const good = { iterable: [relevantSeed('x = 1')] };
    const cases: [string, string, unknown, string, string][] = [
      ['reprompt: missing conversation', 'qgpt/reprompt', { query: 'q' }, 'invalid', 'conversation'],
      ['reprompt: empty query', 'qgpt/reprompt', { query: '', conversation: {} }, 'invalid', 'query'],
      ['reprompt: iterable not an array', 'qgpt/reprompt', { query: 'q', conversation: { iterable: 'x' } }, 'invalid', 'conversation.iterable'],
      ['reprompt: message not an object', 'qgpt/reprompt', { query: 'q', conversation: { iterable: [null] } }, 'invalid', 'conversation.iterable[0]'],
      ['reprompt: message without text', 'qgpt/reprompt', { query: 'q', conversation: { iterable: [{ role: 'USER' }] } }, 'invalid', 'conversation.iterable[0].text'],
      ['reprompt: unknown model', 'qgpt/reprompt', { query: 'q', conversation: {}, model: 'nope' }, 'not_found', 'model'],
      ['hints: params not an object', 'qgpt/hints', null, 'invalid', 'params'],
      ['hints: missing relevant', 'qgpt/hints', { query: 'q' }, 'invalid', 'relevant'],
      ['hints: query not a string', 'qgpt/hints', { query: 1, relevant: good }, 'invalid', 'query'],
      ['hints: answer not an object', 'qgpt/hints', { relevant: good, answer: 'x' }, 'invalid', 'answer'],
      ['hints: answer.text not a string', 'qgpt/hints', { relevant: good, answer: { score: 1 } }, 'invalid', 'answer.text'],
      ['hints: bad entry', 'qgpt/hints', { relevant: { iterable: [{ path: 'a.ts' }] } }, 'invalid', 'relevant.iterable[0]'],
      ['hints: unknown model', 'qgpt/hints', { relevant: good, model: 'nope' }, 'not_found', 'model'],
    ];
    for (const [name, method, params, kind, field] of cases) {
      it(name, async () => {
        const err = await rpcError(w.raw(method, params));
        assert.equal(err.data?.kind, kind, err.message);
        assert.equal(err.data?.field, field, err.message);
      });
    }
  });
});
