/**
 * The chat UI alone in Debian's Chromium, against RECORDED worker frames (tests/webview/fixtures and
 * the SPEC examples), over both carriers: the bridge's WebSocket and VS Code's postMessage.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { RecordedHost, serveWebview, fixture, type Frame, type RpcMessage } from './recordedHost';
import { ROOT } from '../helpers/worker';
import { useVsCodeCarrier } from './harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(ROOT, '.e2e', 'webview');
const SPEC_EXAMPLES = path.resolve(ROOT, '..', 'shared', 'api', 'examples');

interface Recorded { answer: string; frames: Frame[] }

describe('webview: chat UI in Chromium against a recorded stream', function () {
  this.timeout(60_000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let host: RecordedHost;
  let server: { url: string; close(): Promise<void> };
  const pageErrors: string[] = [];

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
  });

  /** A recorded host that replays `scripts`, the page server, and a fresh browser page. */
  async function newPage(scripts: { frames: Frame[]; delayMs?: number }[]): Promise<void> {
    host = new RecordedHost();
    host.scripts = scripts.map((s) => ({ frames: s.frames, delayMs: s.delayMs ?? 5 }));
    server = await serveWebview(host);
    context = await browser.newContext({ viewport: { width: 480, height: 820 } });
    page = await context.newPage();
    watchErrors(page);
  }

  /** A fresh page on the bridge-style WebSocket carrier. */
  async function openBrowserPage(scripts: { frames: Frame[]; delayMs?: number }[]): Promise<void> {
    await newPage(scripts);
    await page.goto(server.url);
    await page.locator('#index-status[data-state="ready"]').waitFor();
  }

  /**
   * A fresh page on the postMessage carrier, as inside VS Code: `acquireVsCodeApi` posts to the
   * recorded host, whose replies come back as window `message` events, as the extension's do.
   */
  async function openVsCodePage(scripts: { frames: Frame[]; delayMs?: number }[]): Promise<void> {
    await newPage(scripts);
    await useVsCodeCarrier(page, host);
    await page.goto(server.url);
    await page.locator('#index-status[data-state="ready"]').waitFor();
  }

  /** Uncaught errors and console errors (CSP refusals, failed loads) fail the test. */
  function watchErrors(p: Page): void {
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    p.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
  }

  afterEach(async function () {
    if (page && this.currentTest) {
      const name = this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 60);
      await page.screenshot({ path: path.join(SHOTS, `${name}.png`) }).catch(() => {});
    }
    await context?.close();
    await server?.close();
    assert.deepEqual(pageErrors.splice(0), [], 'no uncaught errors in the page');
  });

  async function ask(text: string): Promise<void> {
    await page.locator('#prompt').fill(text);
    await page.locator('#prompt').press('Enter');
  }

  it('shows an empty state with index progress, then streams an answer with snippet refs and hint chips', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    await openBrowserPage([{ frames: rec.frames, delayMs: 15 }]);
    await page.locator('.empty-state').waitFor();
    assert.match(await page.locator('.empty-state').innerText(), /Index ready · 12 files/);
    assert.equal(await page.locator('#model-picker').inputValue(), 'askcode-extractive');
    assert.match(await page.locator('#model-note').innerText(), /no language model — extractive answers/i);

    await ask('Where is the configuration loaded?');
    const msg = page.locator('.message.assistant').last();
    await msg.locator('.snippets summary').waitFor();
    // Mid-stream: the answer is still streaming and the stop button is offered.
    assert.equal(await msg.getAttribute('data-status'), 'streaming');
    assert.equal(await page.locator('#stop').isVisible(), true);

    await page.locator('.message.assistant[data-status="done"]').waitFor();
    assert.equal(await page.locator('.empty-state').count(), 0);
    assert.equal(await page.locator('.message.user').last().innerText().then((t) => t.includes('Where is the configuration loaded?')), true);

    // References are collapsed under the answer until asked for.
    await msg.locator('.snippets summary').click();
    const refs = msg.locator('.snippet-ref');
    assert.equal(await refs.count(), 2);
    assert.equal(await refs.first().getAttribute('data-path'), '/ws/project/src/config.ts');
    assert.equal(await refs.first().getAttribute('data-start'), '12');
    assert.equal(await refs.first().getAttribute('data-end'), '30');
    assert.match(await refs.first().innerText(), /src\/config\.ts:12-30/);
    assert.match(await msg.locator('.snippet-why').first().innerText(), /keywords 0\.82.*meaning 0\.77.*matched config, load/);

    // The deltas, concatenated and rendered as Markdown: bold, inline code and a highlighted block.
    const body = msg.locator('.message-body');
    assert.equal(await body.locator('strong code').innerText(), 'loadConfig');
    assert.equal(await body.locator('.code-block pre code').textContent(), "export function loadConfig(path: string) {\n  return JSON.parse(readFileSync(path, 'utf8'));\n}\n");
    assert.ok((await body.locator('.code-block .hljs-keyword').count()) > 0, 'code is highlighted');
    assert.equal(await body.locator('.code-action[data-action="copy"]').count(), 1);
    assert.equal(await body.locator('.code-action[data-action="save"]').count(), 1);
    assert.match(await msg.locator('.message-meta').innerText(), /score 0\.87/);

    await msg.locator('.hint-chip').first().waitFor();
    assert.deepEqual(await msg.locator('.hint-chip').allInnerTexts(), [
      'Where is loadConfig called?', 'What happens when the config file is missing?', 'How are defaults merged in config.ts?',
    ]);
    assert.equal(await page.locator('#stop').isVisible(), false);

    // What the UI asked for: one relevance+question stream over the whole index, then hints from the answer.
    const streamReq = host.requests('qgpt/stream')[0]?.params as { request: string; relevance: { query: string; options: unknown; model: string } };
    assert.equal(streamReq.relevance.query, 'Where is the configuration loaded?');
    assert.deepEqual(streamReq.relevance.options, { question: true, database: true });
    assert.equal(streamReq.relevance.model, 'askcode-extractive');
    const hintsReq = host.requests('qgpt/hints')[0]?.params as { query: string; answer: { text: string }; relevant: { iterable: unknown[] } };
    assert.equal(hintsReq.answer.text, rec.answer);
    assert.equal(hintsReq.relevant.iterable.length, 2);
  });

  it('shows the first words at once, even when the frames arrive back to back', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    await openBrowserPage([{ frames: rec.frames, delayMs: 0 }]);
    // Record what a user could see after each task: (status, text length) of the answer.
    await page.evaluate(() => {
      const seen: { status: string; len: number }[] = [];
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        const m = document.querySelector<HTMLElement>('.message.assistant');
        const body = m?.querySelector<HTMLElement>('.message-body');
        if (m && body && !body.querySelector('.typing')) seen.push({ status: m.dataset.status ?? '', len: body.innerText.length });
      }).observe(document.getElementById('messages')!, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await ask('Where is the configuration loaded?');
    await page.locator('.message.assistant[data-status="done"]').waitFor();
    const seen = await page.evaluate(() => (window as unknown as { __seen: { status: string; len: number }[] }).__seen);
    const streaming = seen.filter((e) => e.status === 'streaming' && e.len > 0);
    assert.ok(streaming.length >= 1, `text shown while streaming: ${JSON.stringify(seen)}`);
    assert.ok(streaming[0]!.len < seen.filter((e) => e.status === 'done').pop()!.len, 'the text grows into the final answer');
  });

  it('renders the SPEC example stream (initialized → chunk → chunk2 → completed) as "Hello!"', async () => {
    const read = (n: string) => JSON.parse(fs.readFileSync(path.join(SPEC_EXAMPLES, `QGPTStreamOutput.${n}.json`), 'utf8')) as Frame;
    await openBrowserPage([{ frames: ['initialized', 'chunk', 'chunk2', 'completed'].map(read) }]);
    await ask('Say hello.');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    assert.equal(await msg.locator('.message-body').innerText(), 'Hello!');
  });

  it('shows a FAILED frame as a failed message with the worker\'s error', async () => {
    const failed = JSON.parse(fs.readFileSync(path.join(SPEC_EXAMPLES, 'QGPTStreamOutput.failed.json'), 'utf8')) as Frame;
    await openBrowserPage([{ frames: [{ status: 'INITIALIZED' }, failed] }]);
    await ask('Explain this.');
    const msg = page.locator('.message.assistant[data-status="failed"]');
    await msg.waitFor();
    assert.match(await msg.locator('.message-error').innerText(), /model not loaded/);
    assert.equal(await page.locator('#send').isEnabled(), true);
  });

  it('never executes script, onerror, javascript: or iframe payloads in an answer', async () => {
    const rec = fixture<Recorded>('stream.xss.json');
    await openBrowserPage([{ frames: rec.frames }]);
    await ask('Show me the HTML.');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    await page.waitForTimeout(300); // let any injected handler have its chance
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss), undefined);
    const body = msg.locator('.message-body');
    assert.equal(await body.locator('script, img, iframe, [onerror], [onclick]').count(), 0);
    assert.equal(await body.locator('a[href^="javascript:"]').count(), 0);
    // The payloads are shown as text, so the user sees what the answer said.
    assert.match(await body.innerText(), /<script>window\.__xss = 'script'<\/script>/);
    assert.match(await body.locator('.code-block code').innerText(), /<img src=y onerror=/);
    // A click on what is left of the link must not run anything either.
    const links = body.locator('a');
    for (let i = 0; i < (await links.count()); i++) await links.nth(i).click();
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss), undefined);
  });

  it('stops a running answer with the stop button and with Escape', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    const relevance = rec.frames.find((f) => f.relevance)!;
    const words: Frame[] = Array.from({ length: 300 }, (_, i) => ({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ score: 0.5, text: `word${i} ` }] } } }));
    const long = { frames: [relevance, ...words, { status: 'COMPLETED' } as Frame], delayMs: 30 };
    await openBrowserPage([long, long]);

    await ask('Tell me everything.');
    const first = page.locator('.message.assistant').nth(0);
    await first.locator('.message-body', { hasText: 'word3' }).waitFor();
    await page.locator('#stop').click();
    await page.locator('.message.assistant[data-status="stopped"]').waitFor();
    const stopReq = host.requests('qgpt/stream').find((m) => (m.params as { stop?: boolean }).stop)?.params as { request: string; conversation: string; stop: boolean };
    const started = host.requests('qgpt/stream')[0]?.params as { request: string };
    assert.equal(stopReq.request, started.request, 'stop names the running request');
    assert.equal(stopReq.conversation, 'conv-1');
    const textAtStop = await first.locator('.message-body').innerText();
    await page.waitForTimeout(200);
    assert.equal(await first.locator('.message-body').innerText(), textAtStop, 'no text after STOPPED');
    assert.ok(!textAtStop.includes('word299'));
    assert.equal(await page.locator('#send').isVisible(), true);

    // The follow-up goes to the same conversation; Escape stops it.
    await ask('And then?');
    const second = page.locator('.message.assistant').nth(1);
    await second.locator('.message-body', { hasText: 'word2' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.message.assistant[data-status="stopped"]').nth(1).waitFor();
    const streams = host.requests('qgpt/stream').map((m) => m.params as { conversation?: string; stop?: boolean; request: string });
    assert.equal(streams.filter((s) => !s.stop)[1]?.conversation, 'conv-1');
    assert.equal(streams.filter((s) => s.stop).length, 2);
  });

  it('Enter sends, Shift+Enter adds a new line, an empty prompt sends nothing', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    await openBrowserPage([{ frames: rec.frames }]);
    const prompt = page.locator('#prompt');
    await prompt.focus();
    await page.keyboard.press('Enter');
    assert.equal(host.requests('qgpt/stream').length, 0, 'empty prompt: nothing sent');
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal(await prompt.inputValue(), 'first line\nsecond line');
    assert.equal(host.requests('qgpt/stream').length, 0);
    await page.keyboard.press('Enter');
    await page.locator('.message.assistant[data-status="done"]').waitFor();
    assert.equal(await prompt.inputValue(), '');
    const sent = host.requests('qgpt/stream')[0]?.params as { relevance: { query: string } };
    assert.equal(sent.relevance.query, 'first line\nsecond line');
    assert.equal(await page.locator('.message.user .message-body').innerText(), 'first line\nsecond line');
  });

  it('a hint chip asks its question in the same conversation', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    await openBrowserPage([{ frames: rec.frames }]);
    await ask('Where is the configuration loaded?');
    await page.locator('.hint-chip').first().waitFor();
    // The name in backticks shows as code, and the question keeps its backticks (they mark names for the worker).
    assert.equal(await page.locator('.hint-chip code', { hasText: 'loadConfig' }).count(), 1);
    await page.locator('.hint-chip', { hasText: 'Where is loadConfig called?' }).click();
    await page.locator('.message.assistant[data-status="done"]').nth(1).waitFor();
    const streams = host.requests('qgpt/stream').map((m) => m.params as { conversation?: string; relevance: { query: string } });
    assert.equal(streams.length, 2);
    assert.equal(streams[1]?.relevance.query, 'Where is `loadConfig` called?');
    assert.equal(await page.locator('.message.user').nth(1).locator('code', { hasText: 'loadConfig' }).count(), 1);
    assert.equal(streams[1]?.conversation, 'conv-1');
    assert.equal(await page.locator('.message.user').count(), 2);
  });

  it('in VS Code (postMessage): a snippet ref opens the file at its lines; new conversation and history work', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    await openVsCodePage([{ frames: rec.frames }]);
    assert.equal(host.requests('askcode/ui/ready').length, 1, 'the page announced itself to the host');
    await ask('Where is the configuration loaded?');
    await page.locator('.message.assistant[data-status="done"]').waitFor();
    // Insert-at-cursor exists only with a VS Code host.
    assert.equal(await page.locator('.code-action[data-action="insert"]').count(), 1);

    await page.locator('.snippets summary').first().click();
    await page.locator('.snippet-ref').first().click();
    await waitFor(() => host.requests('askcode/ui/openLocation').length === 1);
    assert.deepEqual(host.requests('askcode/ui/openLocation')[0]?.params, { path: '/ws/project/src/config.ts', startLine: 12, endLine: 30 });

    await page.locator('.code-action[data-action="insert"]').click();
    await waitFor(() => host.requests('askcode/ui/insert').length === 1);
    assert.match((host.requests('askcode/ui/insert')[0]?.params as { text: string }).text, /^export function loadConfig/);

    // A host-side ask (Ask About Selection) arrives as a notification and runs with the selection as its seed.
    host.notifyAll('askcode/ui/ask', { query: 'What does this do?', selection: { text: 'const a = 1;', path: '/ws/project/src/a.ts', startLine: 3, endLine: 3, ext: 'ts' } });
    await page.locator('.message.assistant[data-status="done"]').nth(1).waitFor();
    const seeded = host.requests('qgpt/stream')[1]?.params as { relevance: { seeds: { iterable: { asset: { format: { fragment: { string: { raw: string } } } } }[] } } };
    assert.equal(seeded.relevance.seeds.iterable[0]?.asset.format.fragment.string.raw, 'const a = 1;');
    assert.match(await page.locator('.message.user').nth(1).innerText(), /about src\/a\.ts:3-3/);

    await page.locator('#new-conversation').click();
    await page.locator('.empty-state').waitFor();
    assert.equal(await page.locator('.message').count(), 0);

    host.results.set('askcode/conversations/get', (p: unknown) => ({
      ...host.conversations.get((p as { id: string }).id),
      messages_: [
        { id: 'm1', role: 'USER', text: 'Where is the configuration loaded?', created: new Date().toISOString() },
        { id: 'm2', role: 'ASSISTANT', text: 'In **loadConfig**.', created: new Date().toISOString(), score: 0.9, relevant: [{ id: 'rel-0', path: '/ws/project/src/config.ts', startLine: 12, endLine: 30, score: 0.91 }] },
      ],
    }));
    host.results.set('askcode/conversations/rename', (p: unknown) => {
      const { id, name } = p as { id: string; name: string };
      const c = host.conversations.get(id)!;
      c.name = name;
      return c;
    });
    host.results.set('askcode/conversations/delete', (p: unknown) => (host.conversations.delete((p as { id: string }).id), null));
    await page.locator('#history-toggle').click();
    await page.locator('#history .history-item').first().waitFor();
    assert.equal(await page.locator('.history-item').count(), 1);
    await page.locator('.history-item .history-open').first().click();
    await page.locator('.message.assistant[data-status="done"] strong', { hasText: 'loadConfig' }).waitFor();
    assert.equal(await page.locator('.message.assistant .snippet-ref').getAttribute('data-start'), '12');

    await page.locator('#history-toggle').click();
    await page.locator('.history-item .history-rename').first().click();
    await page.locator('.history-rename-input').fill('Config loading');
    await page.locator('.history-rename-input').press('Enter');
    await page.locator('.history-item', { hasText: 'Config loading' }).waitFor();
    await page.locator('.history-item .history-delete').first().click();
    await page.locator('#history', { hasText: 'No conversations yet.' }).waitFor();
    assert.equal(host.conversations.size, 0);
  });

  it('offers to download a local model when only the extractive answerer is there, with progress', async () => {
    await openBrowserPage([]);
    const btn = page.locator('#download-model');
    assert.equal(await btn.isVisible(), true);
    assert.match((await btn.getAttribute('aria-label')) ?? '', /Download Qwen2\.5-Coder 0\.5B Instruct \(522 MB\)/);
    let finish: ((v: unknown) => void) | undefined;
    // Hold the download open: answer only when the test says so.
    host.handle = ((orig) => (msg: RpcMessage, send: (m: RpcMessage) => void) => {
      if (msg.method === 'model/download') {
        host.received.push(msg);
        finish = (result) => send({ jsonrpc: '2.0', id: msg.id, result });
        return;
      }
      orig(msg, send);
    })(host.handle.bind(host));
    await btn.click();
    await waitFor(() => finish !== undefined);
    host.notifyAll('model/download/progress', { model: 'qwen2.5-coder-0.5b-instruct', progress: { status: 'IN-PROGRESS', percentage: 42 } });
    await page.locator('#model-note', { hasText: '42%' }).waitFor();
    assert.equal(await page.locator('#download-progress').evaluate((e) => (e as HTMLProgressElement).value), 42);
    const models = fixture<{ iterable: { id: string; downloaded?: boolean }[] }>('models.json');
    models.iterable[1]!.downloaded = true;
    host.results.set('models/snapshot', models);
    finish!({ ...models.iterable[1] });
    await page.locator('#model-picker').locator('option[value="qwen2.5-coder-0.5b-instruct"]', { hasText: /^Qwen2\.5-Coder 0\.5B Instruct$/ }).waitFor({ state: 'attached' });
    assert.equal(await page.locator('#model-picker').inputValue(), 'qwen2.5-coder-0.5b-instruct');
    assert.equal(await btn.isVisible(), false);
    assert.match(await page.locator('#model-note').innerText(), /Answers by Qwen2\.5-Coder/);
  });

  it('keeps index status current from askcode/indexProgress notifications', async () => {
    await openBrowserPage([]);
    host.notifyAll('askcode/indexProgress', { state: 'indexing', files: 3, filesTotal: 10, chunks: 9, embedded: 0, bm25Only: true });
    await page.locator('#index-status[data-state="indexing"]').waitFor();
    assert.match(await page.locator('#index-status').innerText(), /Indexing 3\/10 files · keyword search only/);
    assert.match(await page.locator('.empty-state').innerText(), /Indexing 3\/10/);
    host.notifyAll('askcode/indexProgress', { state: 'ready', files: 10, filesTotal: 10, chunks: 30, embedded: 30, bm25Only: false });
    await page.locator('#index-status[data-state="ready"]', { hasText: '10 files' }).waitFor();
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
