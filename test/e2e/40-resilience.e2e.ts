/**
 * The worker dies and comes back: SIGKILL the real `dist/server.js` child of the extension host,
 * the extension restarts it by itself and the chat answers again; then "askcode: Restart Worker"
 * from the palette replaces the process with a new one that answers too.
 */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import { ask, newestAnswer, openChat, snippetRefs, waitIndexReady, assistantCount } from './chat';
import { FIXTURE } from './fixture';
import { log, type VSCodeSession, type WorkerProcess } from './harness';
import { commandTitle, vscode } from './setup';

/** Exactly one worker, run by the extension host (not some other Node process of code-server). */
async function theWorker(vs: VSCodeSession, what: string, not?: number): Promise<WorkerProcess> {
  const [w] = await vs.waitForWorkers((ws) => ws.length === 1 && ws[0].pid !== not, what, 90_000);
  assert.match(w.parentCmd, /extensionHost|bootstrap-fork/, `the worker's parent should be the extension host, not "${w.parentCmd}"`);
  return w;
}

/** Records the chat's connection banner (shown while the worker is not running) from now on. */
async function watchConnection(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = window as unknown as { __e2eConn: string[]; __e2eConnObs?: MutationObserver };
    w.__e2eConnObs?.disconnect();
    w.__e2eConn = [];
    const el = document.querySelector<HTMLElement>('#connection')!;
    w.__e2eConnObs = new MutationObserver(() => {
      if (!el.hidden) w.__e2eConn.push(el.textContent ?? '');
    });
    w.__e2eConnObs.observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
  });
}

async function connectionMessages(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => (window as unknown as { __e2eConn: string[] }).__e2eConn ?? []);
}

/** The chat is usable again: no connection banner and the index reported ready by the (new) worker. */
async function chatReconnected(frame: Frame): Promise<void> {
  await frame.locator('#connection').waitFor({ state: 'hidden', timeout: 90_000 });
  await waitIndexReady(frame, 120_000);
}

/** Asks in the chat and checks the answer is streamed, done and cited. */
async function assertCitedAnswer(frame: Frame, question: string, expectPath: string): Promise<void> {
  const before = await assistantCount(frame);
  const { status, events, error } = await ask(frame, question);
  assert.equal(status, 'done', `answer ended "${status}" ${error}`);
  const mine = newestAnswer(events);
  const final = mine.filter((e) => e.status === 'done').pop();
  assert.ok(final && final.len > 0, `no answer text (events ${JSON.stringify(mine)})`);
  assert.ok(mine.some((e) => e.status === 'streaming' && e.len > 0), `no text was shown before the answer completed (events ${JSON.stringify(mine)})`);
  const refs = await snippetRefs(frame, before);
  assert.ok(refs.some((r) => r.path.endsWith(expectPath) && r.start >= 1), `no reference to ${expectPath}: ${JSON.stringify(refs)}`);
}

describe('worker resilience (real VS Code)', function () {
  let frame: Frame;

  before(async function () {
    this.timeout(120_000);
    frame = await openChat(vscode());
    await waitIndexReady(frame);
  });

  it('a killed worker is restarted by the extension and the chat answers again', async function () {
    this.timeout(240_000);
    const vs = vscode();
    const old = await theWorker(vs, 'one running worker');
    await watchConnection(frame);
    const killedAt = Date.now();
    process.kill(old.pid, 'SIGKILL');
    log(`killed worker ${old.pid}`);
    const fresh = await theWorker(vs, `a new worker after killing ${old.pid}`, old.pid);
    log(`worker ${fresh.pid} started ${Date.now() - killedAt} ms after the kill`);
    assert.equal(fresh.ppid, old.ppid, 'the same extension host restarts it');
    await chatReconnected(frame);
    const banner = await connectionMessages(frame);
    log(`chat banner while the worker was away: ${JSON.stringify(banner)}`);
    assert.ok(banner.length > 0, 'the chat never told the user that the worker was not running');
    await assertCitedAnswer(frame, FIXTURE.question, FIXTURE.session);
    // The extension restarted it once: no "crashed n times" error for the user.
    const errors = await vs.notification(/crashed|could not start/i).count();
    assert.equal(errors, 0, 'one crash must not leave an error notification');
    await vs.screenshot('worker-restarted-after-crash');
  });

  it('Restart Worker from the palette starts a new worker process that answers', async function () {
    this.timeout(240_000);
    const vs = vscode();
    const old = await theWorker(vs, 'one running worker');
    await vs.runCommand(commandTitle('askcode.restartWorker'));
    await vs.notification(/worker was restarted/i).first().waitFor({ state: 'visible', timeout: 60_000 });
    const fresh = await theWorker(vs, `a new worker replacing ${old.pid}`, old.pid);
    log(`Restart Worker: ${old.pid} -> ${fresh.pid}`);
    assert.notEqual(fresh.pid, old.pid);
    await chatReconnected(frame);
    await assertCitedAnswer(frame, 'What does computeInvoiceTotal return?', FIXTURE.invoice);
  });
});
