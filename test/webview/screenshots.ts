/**
 * The README's screenshots of the chat (`npm run docs:screenshots`): the built page in Chromium,
 * served by a real bridge over a real core on the e2e fixture repository (made here, in a temp
 * dir), so what they show is what the product answers today. Writes docs/chat.png (a question and
 * its answer), docs/chat-followup.png (a follow-up searched as rewritten, references expanded),
 * docs/chat-people.png (a question about people) and docs/chat-citation.png (a citation opened in
 * the browser page, with the people who wrote it).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createCore } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import { startBridge } from '../../server/src/bridge/bridge';
import { ROOT, SHARED_MODELS } from '../helpers/worker';
import { createFixtureWorkspace, FIXTURE } from '../e2e/fixture';
import { launchChromium } from './harness';

const DOCS = path.join(ROOT, 'docs');
const VIEWPORT = { width: 560, height: 980 };

async function askAndWait(page: Page, text: string): Promise<void> {
  const before = await page.locator('.message.assistant').count();
  await page.locator('#prompt').fill(text);
  await page.locator('#prompt').press('Enter');
  await page.locator('.message.assistant').nth(before).and(page.locator('[data-status="done"]')).waitFor({ timeout: 120_000 });
  // Hints come after the answer; give them their moment so the shot has them.
  await page.locator('.message.assistant').nth(before).locator('.hint-chip').first().waitFor({ timeout: 5_000 }).catch(() => {});
}

/** Scrolls the conversation so that `el` starts at its top. */
async function scrollTo(page: Page, selector: string, nth: number): Promise<void> {
  await page.locator(selector).nth(nth).evaluate((e) => e.scrollIntoView({ block: 'start' }));
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'webview.js'))) throw new Error('dist/webview.js is missing: run `npm run build` first');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-shots-'));
  const repo = path.join(tmp, 'shopfront');
  createFixtureWorkspace(repo);
  const core = await createCore({ dataDir: path.join(tmp, 'data'), modelsDir: SHARED_MODELS, folders: [repo], log: silentLogger, autoIndex: true });
  const bridge = await startBridge(core, { port: 0, log: silentLogger, webRoot: path.join(ROOT, 'dist') });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${bridge.port}/`);
    await page.locator('#index-status[data-state="ready"]').waitFor({ timeout: 120_000 });
    fs.mkdirSync(DOCS, { recursive: true });

    await askAndWait(page, FIXTURE.question);
    await scrollTo(page, '.message.user', 0);
    await page.screenshot({ path: path.join(DOCS, 'chat.png') });

    // A follow-up that needs its history: "it" is validateToken.
    await askAndWait(page, 'Where is `validateToken` defined?');
    await askAndWait(page, 'and where is it called?');
    const follow = page.locator('.message.assistant').nth(2);
    await follow.locator('.snippets summary').click().catch(() => {});
    await scrollTo(page, '.message.user', 2);
    await page.screenshot({ path: path.join(DOCS, 'chat-followup.png') });

    // A question about people is answered with people.
    await askAndWait(page, 'Who can help with the session tokens?');
    await scrollTo(page, '.message.user', 3);
    await page.screenshot({ path: path.join(DOCS, 'chat-people.png') });

    const first = page.locator('.message.assistant').nth(0);
    const cite = first.locator('.message-body .citation').first();
    if (await cite.count()) {
      await cite.click();
      const view = first.locator('.code-view[aria-busy="false"]');
      await view.waitFor();
      await view.locator('.code-view-people').click();
      await view.locator('.people-panel[aria-busy="false"]').waitFor({ timeout: 60_000 });
      await cite.evaluate((e) => (e.closest('p, li') ?? e).scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(DOCS, 'chat-citation.png') });
    } else console.warn('no citation in the first answer: docs/chat-citation.png not written');
    for (const f of ['chat.png', 'chat-followup.png', 'chat-people.png', 'chat-citation.png']) {
      const p = path.join(DOCS, f);
      if (fs.existsSync(p)) console.log(`${path.relative(ROOT, p)} ${Math.round(fs.statSync(p).size / 1024)} KiB`);
    }
  } finally {
    await browser.close();
    await bridge.close();
    await core.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
