/**
 * The chat page in a browser against the REAL worker: `askcode/settings` with `bridge.enabled`
 * makes the worker (not the extension host) serve the page and `/askcode/rpc`; the page's WebSocket
 * transport then talks to the real core. Turning the setting off closes the port.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startWorker, ROOT, type WorkerHandle } from '../helpers/worker';
import { SettingsChanged, ModelsSnapshot } from '../../server/src/protocol';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function until<T>(fn: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webview: the chat page served by the worker\'s bridge (askcode.bridge.enabled)', function () {
  this.timeout(90_000);
  let worker: WorkerHandle;
  let browser: Browser | undefined;
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-bridge-page-'));
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src', 'config.ts'), 'export function loadConfig(file: string) {\n  return JSON.parse(file);\n}\n');
    worker = await startWorker({ dataDir: path.join(tmp, 'data'), folders: [ws], autoIndex: true });
  });

  after(async () => {
    await browser?.close();
    await worker?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('starts on the setting, serves a working page, and stops when the setting is turned off', async () => {
    const logsBefore = worker.logs.length;
    await worker.notify(SettingsChanged, { bridge: { enabled: true, port: 0 } } as never);
    const url = await until(() => worker.logs.slice(logsBefore).map((l) => /bridge listening on (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean), 20_000, 'the bridge to listen');

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: { width: 480, height: 820 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);
    await page.locator('.empty-state').waitFor();

    // The picker lists the worker's real conversation models, over the page's WebSocket.
    const models = (await worker.request(ModelsSnapshot, undefined)).iterable.filter((m) => m.usage === 'CODE_CONVERSATION');
    assert.ok(models.length > 0, 'the catalog has conversation models');
    await page.locator('#model-picker option').nth(models.length - 1).waitFor({ state: 'attached' });
    const values = await page.locator('#model-picker option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(values.sort(), models.map((m) => m.id).sort());
    // The index status comes from the real worker too; then a real streamed, cited answer.
    await page.locator('#index-status[data-state="ready"]').waitFor({ timeout: 60_000 });
    await page.locator('#prompt').fill('Where is the configuration loaded?');
    await page.locator('#prompt').press('Enter');
    const answer = page.locator('.message.assistant[data-status="done"]');
    await answer.waitFor({ timeout: 60_000 });
    const ref = answer.locator('.snippet-ref').first();
    assert.equal(await ref.getAttribute('data-path'), path.join(tmp, 'ws', 'src', 'config.ts'));
    assert.equal(await ref.getAttribute('data-start'), '1');
    assert.ok((await answer.locator('.message-body').innerText()).trim().length > 0, 'the answer has text');
    fs.mkdirSync(path.join(ROOT, '.e2e', 'webview'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, '.e2e', 'webview', 'bridge-page.png') });
    assert.deepEqual(errors, []);

    const logsMid = worker.logs.length;
    await worker.notify(SettingsChanged, { bridge: { enabled: false, port: 0 } } as never);
    await until(() => (worker.logs.slice(logsMid).some((l) => l.includes('bridge stopped')) ? true : undefined), 10_000, 'the bridge to stop');
    await assert.rejects(fetch(url), 'the port is closed');
  });
});
