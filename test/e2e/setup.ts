/**
 * Mocha root hooks for the e2e suite (loaded with --require): one code-server + Chromium session
 * for all scenario files, a screenshot of every failed test, logs collected at the end.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Context } from 'mocha';
import { ROOT, VSCodeSession, log } from './harness';

let current: VSCodeSession | undefined;
let startError: unknown;

/** The running session; fails the calling test if the harness could not start. */
export function vscode(): VSCodeSession {
  if (!current) throw new Error(`the VS Code session did not start: ${startError}`);
  return current;
}

interface Contributes {
  commands?: { command: string; title: string; category?: string }[];
  viewsContainers?: Record<string, { id: string }[]>;
  views?: Record<string, { id: string }[]>;
  menus?: Record<string, { command: string }[]>;
}

/** package.json `contributes`, read fresh (the client engineer is still filling it in). */
export function contributes(): Contributes {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).contributes ?? {};
}

/** The palette title of a contributed command ("askcode: List Models"); fails clearly when absent. */
export function commandTitle(id: string): string {
  const c = (contributes().commands ?? []).find((x) => x.command === id);
  if (!c) throw new Error(`command ${id} is not contributed in package.json yet`);
  return c.category ? `${c.category}: ${c.title}` : c.title;
}

/** A command's title without its category, as context menus show it. */
export function menuTitle(id: string): string {
  const c = (contributes().commands ?? []).find((x) => x.command === id);
  if (!c) throw new Error(`command ${id} is not contributed in package.json yet`);
  return c.title;
}

export const mochaHooks = {
  async beforeAll(this: Context) {
    this.timeout(240_000);
    const s = new VSCodeSession();
    try {
      await s.start();
      current = s;
    } catch (e) {
      startError = e;
      log(`harness start failed: ${e}`);
      await s.screenshot('start-failed').catch(() => undefined);
      await s.stop().catch(() => undefined);
    }
  },
  async afterEach(this: Context) {
    const t = this.currentTest;
    if (current && t?.state === 'failed') {
      this.timeout(30_000);
      await current.screenshot(`FAILED-${t.fullTitle().replace(/\W+/g, '-').slice(0, 80)}`);
      await current.closeQuickInput().catch(() => undefined);
    }
  },
  async afterAll(this: Context) {
    this.timeout(30_000);
    await current?.stop();
    current = undefined;
  },
};
