/**
 * The chat page as `npm start -- <folder>` serves it: the built UI (dist/) in Chromium, talking
 * to a real bridge and core over `/askcode/rpc`, under the bridge's CSP. Needs `npm run build`.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from '../helpers/worker';
import { startFixture, type BridgeFixture } from './bridgeFixture';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('bridge: the chat page in a browser', function () {
  this.timeout(120_000);
  let fx: BridgeFixture;
  let browser: Browser;

  before(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'webview', 'index.html'))) throw new Error('dist/webview is missing: run `npm run build` first');
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
    fx = await startFixture({ webRoot: path.join(ROOT, 'dist') }, { autoIndex: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('loads under the CSP, connects to /askcode/rpc and answers a question from the served folder', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
    const res = await page.goto(`http://localhost:${fx.port}/`);
    assert.equal(res?.status(), 200);
    assert.match(String(res?.headers()['content-security-policy']), /script-src 'self'/);
    await page.locator('#index-status[data-state="ready"]').waitFor({ timeout: 60_000 });
    assert.deepEqual([...new Set(sockets)], ['/askcode/rpc']);

    await page.locator('#prompt').fill('How are two numbers added?');
    await page.locator('#prompt').press('Enter');
    const msg = page.locator('.message.assistant[data-status="done"]').last();
    await msg.waitFor({ timeout: 60_000 });
    const refs = await msg.locator('.snippet-ref').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    assert.ok(refs.length > 0, 'the answer cites snippets');
    for (const r of refs) assert.ok(r.startsWith(fx.repo), `${r} is inside the served folder`);
    assert.deepEqual(problems, [], 'no errors and no CSP violations in the page');
    await page.close();
  });

  it('a citation opens the cited lines in the page, with "copy location" and the people who wrote them', async () => {
    const page = await browser.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.goto(`http://localhost:${fx.port}/`);
    await page.locator('#index-status[data-state="ready"]').waitFor({ timeout: 60_000 });
    await page.locator('#prompt').fill('How are two numbers added?');
    await page.locator('#prompt').press('Enter');
    const msg = page.locator('.message.assistant[data-status="done"]').last();
    await msg.waitFor({ timeout: 60_000 });

    // The answer's `src/math.ts:1-3` is a citation; in a browser it opens the lines inline (askcode/code/read).
    const cite = msg.locator('.message-body .citation', { hasText: 'src/math.ts' }).first();
    await cite.click();
    const view = msg.locator('.code-view[aria-busy="false"]');
    await view.waitFor();
    assert.equal(await view.locator('.code-view-path').innerText(), 'src/math.ts:1-3');
    assert.equal(await view.locator('pre code').textContent(), 'export function addNumbers(a: number, b: number): number {\n  return a + b;\n}\n');
    assert.equal(await view.locator('.code-gutter').textContent(), '1\n2\n3');
    await view.locator('.copy-location').click();
    await view.locator('.copy-location[data-flash="Copied"]').waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'src/math.ts:1-3');

    // Find related people, from the view: the real git history of the fixture (Ada wrote math.ts).
    await view.locator('.code-view-people').click();
    const people = view.locator('.people-panel[aria-busy="false"]');
    await people.waitFor({ timeout: 30_000 });
    assert.deepEqual(await people.locator('.person-name').allInnerTexts(), ['Ada Lovelace']);
    assert.match(await people.locator('.person-facts').innerText(), /^100% of lines/);

    // …and from a reference, whose path shows relative to the served folder.
    await msg.locator('.snippets summary').click();
    const ref = msg.locator('.snippet', { hasText: 'src/math.ts:1-3' });
    assert.equal(await ref.count(), 1, 'the reference is shown relative to the served folder');
    await ref.locator('.snippet-people').click();
    const refPeople = msg.locator('.snippet + .people-panel[aria-busy="false"]');
    await refPeople.waitFor({ timeout: 30_000 });
    assert.deepEqual(await refPeople.locator('.person-name').allInnerTexts(), ['Ada Lovelace']);
    // A second click on the citation closes its view.
    await cite.click();
    await view.waitFor({ state: 'detached' });
    fs.mkdirSync(path.join(ROOT, '.e2e', 'webview'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, '.e2e', 'webview', 'bridge-citation.png') });
    assert.deepEqual(problems, [], 'no errors and no CSP violations in the page');
    await page.close();
  });
});
