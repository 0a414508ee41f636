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
});
