/**
 * The answer as a reader meets it, in Chromium against RECORDED frames with AnswerExtras
 * (fixtures/stream.extras.json): answer first and references collapsed, sorted and relative under
 * it; long questions collapsed; the rewritten follow-up; notices with their buttons; people; code
 * without its gutter; citations; persistent toasts; history per workspace; cancellation.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { fixture, type Frame } from './recordedHost';
import { launchChromium, openChat, ask, waitFor, type ChatPage } from './harness';
import { ROOT } from '../helpers/worker';

const SHOTS = path.join(ROOT, '.e2e', 'webview');

interface Recorded { answer: string; frames: Frame[] }

describe('webview: the answer layout and its extras', function () {
  this.timeout(60_000);
  let browser: Browser;
  let chat: ChatPage | undefined;

  before(async () => {
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async function () {
    if (!chat) return;
    if (this.currentTest) {
      const name = this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 60);
      await chat.page.screenshot({ path: path.join(SHOTS, `answer-${name}.png`) }).catch(() => {});
    }
    const errors = chat.errors.splice(0);
    await chat.close();
    chat = undefined;
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
  });

  const extras = () => fixture<Recorded>('stream.extras.json');

  it('shows the relevance frame at once, then the answer first with "N references" collapsed below it, sorted by score, relative, the why on expand', async () => {
    const rec = extras();
    // Empty frames after the relevance frame: a search that is done while the answer is slow to come.
    const rel = rec.frames.findIndex((f) => f.relevance);
    const wait: Frame[] = Array.from({ length: 15 }, () => ({ status: 'IN-PROGRESS' }));
    chat = await openChat(browser, 'browser', [{ frames: [...rec.frames.slice(0, rel + 1), ...wait, ...rec.frames.slice(rel + 1)], delayMs: 200 }]);
    const { page } = chat;
    await ask(page, 'and where is that called?');
    const msg = page.locator('.message.assistant').last();
    // Before any answer text: the references count and an "answering" line.
    await msg.locator('.snippets summary', { hasText: '4 references' }).waitFor();
    assert.match(await msg.locator('.typing').innerText(), /Found 4 references — answering/);
    assert.equal(await msg.getAttribute('data-status'), 'streaming');

    await page.locator('.message.assistant[data-status="done"]').waitFor();
    // Order: the answer's body comes before the references in the message.
    const order = await msg.evaluate((m) => [...m.querySelectorAll('.message-body, .snippets')].map((e) => e.className.split(' ')[0]));
    assert.deepEqual(order, ['message-body', 'snippets']);
    const details = msg.locator('.snippets details');
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false, 'collapsed');
    assert.equal(await msg.locator('.snippet-ref').first().isVisible(), false);

    await msg.locator('.snippets summary').click();
    const labels = (await msg.locator('.snippet-ref').allInnerTexts()).map((s) => s.trim());
    assert.deepEqual(labels, ['src/router.ts:10-42', 'src/compose.ts:5-18', 'src/router.test.ts:3-20', 'src/app.ts:284-290']);
    assert.deepEqual(await msg.locator('.snippet-score').allInnerTexts(), ['1.00', '0.95', '0.90', '0.86']);
    assert.equal(await msg.locator('.snippet-ref').first().getAttribute('data-path'), '/ws/project/src/router.ts');
    assert.match(await msg.locator('.snippet-why').first().innerText(), /keywords 0\.93.*meaning 0\.81.*matched route, match/);
    assert.match((await msg.locator('.snippet').first().getAttribute('title')) ?? '', /keywords 0\.93/, 'the why on hover');
  });

  it('shows the rewritten query, the notices with their buttons, and the people of the answer', async () => {
    const rec = extras();
    chat = await openChat(browser, 'browser', [{ frames: rec.frames }]);
    const { page, host } = chat;
    host.held.add('model/download');
    await ask(page, 'and where is that called?');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    assert.equal((await msg.locator('.rewritten-query').textContent())?.trim(), 'Searched for: Where is Router.match called?');
    assert.equal(await msg.locator('.rewritten-query code').innerText(), 'Router.match');
    // Notices sit above the answer, as callouts with their action.
    const notices = msg.locator('.notice');
    assert.equal(await notices.count(), 2);
    assert.equal(await notices.first().getAttribute('data-kind'), 'model-unavailable');
    assert.match(await notices.first().innerText(), /not downloaded, so this answer quotes the code/);
    const download = notices.first().locator('.notice-action');
    assert.equal(await download.innerText(), 'Download Qwen2.5-Coder 0.5B Instruct');
    await download.click();
    await waitFor(() => host.requests('model/download').length === 1);
    assert.deepEqual(host.requests('model/download')[0]?.params, { model: 'qwen2.5-coder-0.5b-instruct' });
    await page.locator('#model-note', { hasText: 'Downloading Qwen2.5-Coder' }).waitFor();
    // "Pick another model" takes the reader to the picker.
    await notices.nth(1).locator('.notice-action[data-command="pick-model"]').click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'model-picker');

    // People: name, share of the lines, files (relative).
    const people = msg.locator('.people .person');
    assert.equal(await people.count(), 2);
    assert.deepEqual(await msg.locator('.person-name').allInnerTexts(), ['Ada Lovelace', 'Grace Hopper']);
    assert.deepEqual(await msg.locator('.person-share').allInnerTexts(), ['67%', '33%']);
    assert.match(await people.first().locator('.person-facts').innerText(), /67% of lines \(16 of 24\) · 3 commits · last change 2025-06-01/);
    assert.equal(await people.first().locator('.person-files').innerText(), 'src/router.ts (12 lines), src/compose.ts (4 lines)');
    assert.equal(await people.first().getAttribute('title'), 'wrote 16 of the 24 lines');
  });

  it('collapses a long question behind "Show more"', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    chat = await openChat(browser, 'browser', [{ frames: rec.frames }]);
    const { page, host } = chat;
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} of a pasted stack trace at handler (src/app.ts:${i})`).join('\n');
    await ask(page, long);
    await page.locator('.message.assistant[data-status="done"]').waitFor();
    const user = page.locator('.message.user').last();
    const body = user.locator('.message-body');
    const collapsedHeight = await body.evaluate((e) => e.getBoundingClientRect().height);
    assert.ok(collapsedHeight < 200, `collapsed to ${collapsedHeight}px`);
    await user.locator('.show-more').click();
    assert.equal(await user.locator('.show-more').innerText(), 'Show less');
    const fullHeight = await body.evaluate((e) => e.getBoundingClientRect().height);
    assert.ok(fullHeight > 3 * collapsedHeight, `expanded to ${fullHeight}px`);
    assert.equal((host.requests('qgpt/stream')[0]?.params as { relevance: { query: string } }).relevance.query, long, 'the whole question is asked');
    // A short question has no toggle.
    await ask(page, 'Where is the configuration loaded?');
    await page.locator('.message.assistant[data-status="done"]').nth(1).waitFor();
    assert.equal(await page.locator('.message.user').nth(1).locator('.show-more').count(), 0);
  });

  it('copies and saves quoted code without the line-number gutter', async () => {
    const rec = extras();
    chat = await openChat(browser, 'browser', [{ frames: rec.frames }], (host) => {
      host.results.set('askcode/assets/save', (p: unknown) => ({ id: 'a1', name: 'Saved snippet', created: new Date().toISOString(), preview: '', _p: p }));
    });
    const { page, host } = chat;
    await ask(page, 'and where is that called?');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    const block = msg.locator('.code-block');
    const clean = 'class App {\n  handle(req: Request) {\n    return this.router.match(req.path);\n  }\n}\n';
    assert.equal(await block.locator('pre code').textContent(), clean);
    assert.equal(await block.locator('.code-gutter').textContent(), '284\n285\n286\n287\n288', 'numbers shown beside the code');
    await block.hover();
    await block.locator('.code-action[data-action="copy"]').click();
    await block.locator('.code-action[data-flash="Copied"]').waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), clean);
    await block.locator('.code-action[data-action="save"]').click();
    await waitFor(() => host.requests('askcode/assets/save').length === 1);
    const saved = host.requests('askcode/assets/save')[0]?.params as { seed: { asset: { format: { fragment: { string: { raw: string }; metadata?: { ext?: string } } } } } };
    assert.equal(saved.seed.asset.format.fragment.string.raw, clean);
    assert.equal(saved.seed.asset.format.fragment.metadata?.ext, 'ts');
  });

  it('in VS Code a citation (inline code or link) opens the editor at its lines, resolved to the reference\'s full path', async () => {
    const rec = extras();
    chat = await openChat(browser, 'vscode', [{ frames: rec.frames }]);
    const { page, host } = chat;
    await ask(page, 'and where is that called?');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    await msg.locator('code.citation', { hasText: 'src/router.ts:10-42' }).click();
    await waitFor(() => host.requests('askcode/ui/openLocation').length === 1);
    assert.deepEqual(host.requests('askcode/ui/openLocation')[0]?.params, { path: '/ws/project/src/router.ts', startLine: 10, endLine: 42 });
    await msg.locator('a.citation', { hasText: 'compose' }).click();
    await waitFor(() => host.requests('askcode/ui/openLocation').length === 2);
    assert.deepEqual(host.requests('askcode/ui/openLocation')[1]?.params, { path: '/ws/project/src/compose.ts', startLine: 5, endLine: 18 });
    assert.equal(await page.locator('.code-view').count(), 0, 'no inline view inside VS Code');
  });

  /** An answer whose first snippet's "related people" was clicked, that request held unanswered. */
  async function peopleRequestHeld(carrier: 'browser' | 'vscode'): Promise<ChatPage> {
    const rec = fixture<Recorded>('stream.answer.json');
    chat = await openChat(browser, carrier, [{ frames: rec.frames }]);
    const { page, host } = chat;
    host.held.add('qgpt/personsRelated');
    await ask(page, 'Where is the configuration loaded?');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    await msg.locator('.snippets summary').click();
    await msg.locator('.snippet-people').first().click();
    await waitFor(() => host.requests('qgpt/personsRelated').length === 1);
    return chat;
  }

  for (const carrier of ['browser', 'vscode'] as const) {
    it(`cancels a request over ${carrier === 'browser' ? 'the WebSocket' : 'postMessage'}: closing "related people" sends $/cancelRequest for it`, async () => {
      const { page, host } = await peopleRequestHeld(carrier);
      await page.locator('.people-panel[aria-busy="true"]').waitFor();
      const req = host.requests('qgpt/personsRelated')[0]!;
      const input = req.params as { input: { conversation: { iterable: { text: string }[] } }; transferables: boolean };
      assert.equal(input.input.conversation.iterable[0]?.text, 'src/config.ts:12-30', 'the place, relative');
      await page.locator('.people-panel .people-close').click();
      await waitFor(() => host.requests('$/cancelRequest').length === 1);
      assert.deepEqual(host.requests('$/cancelRequest')[0]?.params, { id: req.id });
      assert.equal(await page.locator('.people-panel').count(), 0);
    });
  }

  it('renders a "Sources" section as a collapsed <details>, its #L links as citations, and no other raw HTML', async () => {
    const text = [
      '`loadConfig` in [`src/config.ts:12-30`](/ws/project/src/config.ts#L12-L30) reads the file.',
      '',
      '<details><summary>Sources (2)</summary>',
      '',
      '- [`src/config.ts:12-30`](/ws/project/src/config.ts#L12-L30) — defines `loadConfig`',
      '- [`src/main.ts:4`](src/main.ts#L4) — matches `config`',
      '',
      '</details>',
      '',
      '<details open onclick="window.__xss=1"><summary>x</summary>',
      '',
      '```html',
      '<details><summary>in a fence</summary>',
      '```',
    ].join('\n');
    const frames: Frame[] = [{ status: 'INITIALIZED' }, { status: 'IN-PROGRESS', question: { answers: { iterable: [{ score: 0.8, text }] } } }, { status: 'COMPLETED' }];
    chat = await openChat(browser, 'vscode', [{ frames }]);
    const { page, host } = chat;
    await ask(page, 'Where is the configuration loaded?');
    const body = page.locator('.message.assistant[data-status="done"] .message-body');
    await body.waitFor();
    const details = body.locator('details.answer-details');
    assert.equal(await details.count(), 1);
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
    assert.equal(await details.locator('summary').innerText(), 'Sources (2)');
    await details.locator('summary').click();
    await details.locator('a.citation', { hasText: 'src/main.ts:4' }).click();
    await waitFor(() => host.requests('askcode/ui/openLocation').length === 1);
    assert.deepEqual(host.requests('askcode/ui/openLocation')[0]?.params, { path: '/ws/project/src/main.ts', startLine: 4, endLine: 4 });
    const lead = body.locator('p a.citation').first();
    assert.equal(await lead.getAttribute('data-start'), '12');
    assert.equal(await lead.getAttribute('data-end'), '30');
    // Anything else that looks like HTML is text, in a fence or not.
    assert.equal(await body.locator('[onclick]').count(), 0);
    assert.equal(await body.locator('details').count(), 1, 'only the Sources section became a <details>');
    assert.match(await body.innerText(), /<details open onclick="window\.__xss=1"><summary>x<\/summary>/);
    assert.equal(await body.locator('pre code').textContent(), '<details><summary>in a fence</summary>\n');
  });

  it('in a browser, a lost connection fails the requests in flight, says so, and reconnects', async () => {
    const held = await peopleRequestHeld('browser');
    const { page, host } = held;
    const snapshots = host.requests('models/snapshot').length;
    held.dropSockets();
    await page.locator('.people-panel .message-error', { hasText: 'the connection to askcode was lost' }).waitFor();
    // Reconnected (with backoff): the banner goes and the page reloads what it shows.
    await page.locator('#connection').waitFor({ state: 'hidden', timeout: 10_000 });
    await waitFor(() => host.requests('models/snapshot').length > snapshots, 10_000);
    await ask(page, 'And where is it called?');
    await page.locator('.message.assistant[data-status="done"]').nth(1).waitFor();
  });

  it('keeps an error toast until it is dismissed', async () => {
    const rec = fixture<Recorded>('stream.answer.json');
    chat = await openChat(browser, 'browser', [{ frames: rec.frames }]);
    const { page } = chat;
    // Save fails: the recorded host does not know assets/save.
    await ask(page, 'Where is the configuration loaded?');
    const msg = page.locator('.message.assistant[data-status="done"]');
    await msg.waitFor();
    await msg.locator('.code-block').hover();
    await msg.locator('.code-action[data-action="save"]').click();
    const toast = page.locator('.toast');
    await toast.waitFor();
    assert.match(await toast.innerText(), /unknown method askcode\/assets\/save/);
    await page.waitForTimeout(5000);
    assert.equal(await toast.isVisible(), true, 'still there after 5 s');
    await toast.locator('.toast-close').click();
    assert.equal(await page.locator('.toast').count(), 0);
  });

  it('history shows this workspace\'s conversations, "All folders" every folder\'s', async () => {
    chat = await openChat(browser, 'browser', [], (host) => {
      const at = (d: string) => `2025-0${d}T10:00:00.000Z`;
      host.results.set('askcode/conversations/list', [
        { id: 'c1', name: 'Routing here', created: at('1-01'), updated: at('3-01'), messages: 2, folders: ['/ws/project'] },
        { id: 'c2', name: 'Elsewhere', created: at('1-01'), updated: at('4-01'), messages: 2, folders: ['/ws/other'] },
        { id: 'c3', name: 'Old, no folder', created: at('1-01'), updated: at('2-01'), messages: 2 },
      ]);
    });
    const { page, host } = chat;
    await page.locator('#history-toggle').click();
    await page.locator('.history-item').first().waitFor();
    assert.deepEqual(await page.locator('.history-open').allInnerTexts(), ['Routing here', 'Old, no folder']);
    await page.locator('#history-all').click();
    await page.locator('.history-item[data-id="c2"]').waitFor();
    assert.deepEqual(await page.locator('.history-open').allInnerTexts(), ['Elsewhere', 'Routing here', 'Old, no folder']);
    assert.equal(await page.locator('#history-all').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('.history-item[data-id="c2"] .history-folder').innerText(), 'other');
    // The worker is asked for every folder's conversations only in the "All folders" view.
    const asked = host.requests('askcode/conversations/list').map((m) => m.params ?? null);
    assert.deepEqual(asked, [null, { all: true }]);
  });
});
