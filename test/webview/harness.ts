/**
 * One Chromium for a webview test file, and fresh pages on either carrier against a RecordedHost:
 * the bridge-style WebSocket (a browser page) or postMessage (as inside VS Code). Uncaught errors and
 * console errors in the page are collected for the test to assert on.
 */
import * as fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { RecordedHost, serveWebview, type Frame, type RpcMessage } from './recordedHost';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

export interface ChatPage {
  page: Page;
  host: RecordedHost;
  context: BrowserContext;
  errors: string[];
  /** Cuts the page's WebSocket (the bridge restarting); the page reconnects. */
  dropSockets(): void;
  close(): Promise<void>;
}

export type Scripts = { frames: Frame[]; delayMs?: number }[];

/**
 * The postMessage carrier, as inside VS Code (call before the page loads): `acquireVsCodeApi`
 * posts to the recorded host, whose replies come back as window `message` events.
 */
export async function useVsCodeCarrier(page: Page, host: RecordedHost): Promise<void> {
  const toPage = (m: RpcMessage) => void page.evaluate((msg) => window.postMessage(msg, '*'), m).catch(() => {});
  host.sinks.add(toPage);
  await page.exposeBinding('__askcodeHost', (_src, msg: RpcMessage) => host.handle(msg, toPage));
  // A string, not a function: tsx's transform would add helpers the page does not have.
  await page.addInitScript(`
    let state;
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__askcodeHost(m),
      getState: () => state,
      setState: (s) => { state = s; },
    });
  `);
}

export async function openChat(browser: Browser, carrier: 'browser' | 'vscode', scripts: Scripts, setup?: (host: RecordedHost) => void, viewport = { width: 480, height: 820 }): Promise<ChatPage> {
  const host = new RecordedHost();
  host.scripts = scripts.map((s) => ({ frames: s.frames, delayMs: s.delayMs ?? 5 }));
  setup?.(host);
  const server = await serveWebview(host);
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  if (carrier === 'vscode') await useVsCodeCarrier(page, host);
  await page.goto(server.url);
  await page.locator('#index-status[data-state="ready"]').waitFor();
  return {
    page, host, context, errors,
    dropSockets: () => server.dropSockets(),
    async close() {
      await context.close();
      await server.close();
    },
  };
}

export async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#prompt').fill(text);
  await page.locator('#prompt').press('Enter');
}

export async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
