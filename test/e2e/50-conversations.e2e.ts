/**
 * Conversations in the chat view: New Conversation empties the chat, the history lists the
 * earlier conversation, opens it with its messages, renames and deletes it; Escape in the prompt
 * stops a running answer.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { ask, assistantCount, openChat, waitAnswered, waitIndexReady } from './chat';
import { log } from './harness';
import { vscode } from './setup';

const Q1 = 'How is the invoice total computed with tax?';
const Q2 = 'When do session tokens expire?';
const RENAMED = `Invoices and sessions (e2e ${process.pid})`;

interface Shown {
  role: string;
  status: string;
  text: string;
  refs: string[];
}

/** What the chat shows: each message's role, status, body text and snippet references. */
async function shownMessages(frame: Frame): Promise<Shown[]> {
  return frame.locator('#messages .message').evaluateAll((els) =>
    els.map((e) => {
      const el = e as HTMLElement;
      return {
        role: el.classList.contains('user') ? 'user' : 'assistant',
        status: el.dataset.status ?? '',
        text: (el.querySelector('.message-body') as HTMLElement | null)?.innerText.trim() ?? '',
        refs: [...el.querySelectorAll<HTMLElement>('.snippet-ref')].map((r) => `${r.dataset.path}:${r.dataset.start}-${r.dataset.end}`),
      };
    }),
  );
}

async function assertEmptyChat(frame: Frame): Promise<void> {
  await frame.locator('#messages .empty-state').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await frame.locator('#messages .message').count(), 0, 'a new conversation shows no messages');
}

/**
 * Opens the history panel (if closed) and waits for the list the worker sends now: the panel keeps
 * the items of its last opening until the new list replaces them, so those are marked stale first.
 */
async function openHistory(frame: Frame): Promise<void> {
  const panel = frame.locator('#history-panel');
  if (await panel.isHidden()) {
    await frame.locator('#history > li').evaluateAll((els) => els.forEach((e) => e.setAttribute('data-e2e-stale', '')));
    await frame.locator('#history-toggle').click();
  }
  await panel.waitFor({ state: 'visible', timeout: 10_000 });
  await frame.locator('#history > li:not([data-e2e-stale])').first().waitFor({ state: 'visible', timeout: 15_000 });
}

async function closeHistory(frame: Frame): Promise<void> {
  const panel = frame.locator('#history-panel');
  if (await panel.isVisible()) await frame.locator('#history-toggle').click();
  await panel.waitFor({ state: 'hidden', timeout: 10_000 });
}

function historyItem(frame: Frame, id: string): Locator {
  return frame.locator(`#history .history-item[data-id="${id}"]`);
}

describe('conversations (real VS Code)', function () {
  let frame: Frame;
  let id = '';
  let asked: Shown[] = [];

  before(async function () {
    this.timeout(120_000);
    frame = await openChat(vscode());
    await waitIndexReady(frame);
    await closeHistory(frame);
  });

  it('New Conversation empties the chat after two questions; the history lists the earlier conversation', async function () {
    this.timeout(240_000);
    const vs = vscode();
    await frame.locator('#new-conversation').click();
    await assertEmptyChat(frame);
    for (const q of [Q1, Q2]) {
      const { status, error } = await ask(frame, q);
      assert.equal(status, 'done', `"${q}" ended "${status}" ${error}`);
    }
    asked = await shownMessages(frame);
    assert.deepEqual(asked.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    assert.deepEqual([asked[0].text, asked[2].text], [Q1, Q2]);

    // The history marks the conversation on screen as the current one.
    await openHistory(frame);
    const current = frame.locator('#history .history-item[aria-current="true"]');
    await current.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await current.count(), 1, 'exactly one current conversation');
    id = (await current.getAttribute('data-id')) ?? '';
    assert.ok(id, 'the history item has an id');
    assert.equal((await current.locator('.history-open').innerText()).trim(), Q1, 'a conversation is named after its first question');
    await closeHistory(frame);

    await frame.locator('#new-conversation').click();
    await assertEmptyChat(frame);
    await openHistory(frame);
    const item = historyItem(frame, id);
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    assert.notEqual(await item.getAttribute('aria-current'), 'true', 'after New Conversation the earlier one is no longer current');
    await vs.screenshot('conversation-history');
  });

  it('opening the earlier conversation from the history shows its messages again', async function () {
    this.timeout(60_000);
    const vs = vscode();
    assert.ok(id, 'needs the conversation of the previous test');
    await openHistory(frame);
    await historyItem(frame, id).locator('.history-open').click();
    await frame.locator('#history-panel').waitFor({ state: 'hidden', timeout: 10_000 });
    await frame.locator('#messages .message').nth(3).waitFor({ state: 'visible', timeout: 15_000 });
    const shown = await shownMessages(frame);
    assert.deepEqual(shown.map((m) => m.role), asked.map((m) => m.role));
    assert.deepEqual(shown.map((m) => m.status), asked.map((m) => m.status));
    for (let i = 0; i < asked.length; i++) {
      assert.equal(shown[i].text, asked[i].text, `message ${i + 1} (${asked[i].role}) must read as it did when it was asked`);
    }
    assert.deepEqual(shown[1].refs, asked[1].refs, 'the first answer keeps its snippet references');
    assert.ok(shown[1].refs.length > 0, 'the reopened answer cites snippets');
    // And its references still open their files.
    // (one whose file is not the active tab already, so the click has something to prove)
    const active = await vs.activeTabName();
    const firstAnswer = frame.locator('#messages .message.assistant').first();
    await firstAnswer.locator('.snippets summary').click();
    const refs = firstAnswer.locator('.snippet-ref');
    let ref = refs.first();
    for (const r of await refs.all()) if (path.basename((await r.getAttribute('data-path')) ?? '') !== active) ref = r;
    const name = path.basename((await ref.getAttribute('data-path')) ?? '');
    assert.notEqual(name, active, `every reference points to the active tab ${active}`);
    await ref.click();
    await vs.activeTab(name).waitFor({ state: 'visible', timeout: 20_000 }).catch(async (e) => {
      const toast = (await frame.locator('.toast').allInnerTexts()).join(' | ');
      throw new Error(`a snippet reference of the reopened conversation did not open ${name} (chat says: ${toast || 'nothing'}): ${e}`);
    });
    await openHistory(frame);
    assert.equal(await historyItem(frame, id).getAttribute('aria-current'), 'true', 'the opened conversation is the current one');
    await closeHistory(frame);
  });

  it('renames the conversation inline in the history', async function () {
    this.timeout(60_000);
    assert.ok(id, 'needs the conversation of the first test');
    await openHistory(frame);
    const item = historyItem(frame, id);
    await item.locator('.history-rename').click();
    const input = item.locator('.history-rename-input');
    await input.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await input.inputValue(), Q1, 'the rename box starts with the current name');
    await input.fill(RENAMED);
    await input.press('Enter');
    await item.locator('.history-open', { hasText: RENAMED }).waitFor({ state: 'visible', timeout: 10_000 });
    // The worker kept the name: closing and reopening the history reads it again.
    await closeHistory(frame);
    await openHistory(frame);
    assert.equal((await historyItem(frame, id).locator('.history-open').innerText()).trim(), RENAMED);
  });

  it('deletes the conversation from the history; the chat it was showing empties', async function () {
    this.timeout(60_000);
    assert.ok(id, 'needs the conversation of the first test');
    await openHistory(frame);
    await historyItem(frame, id).locator('.history-delete').click();
    await historyItem(frame, id).waitFor({ state: 'detached', timeout: 10_000 });
    // It was the open conversation: the chat starts afresh.
    await assertEmptyChat(frame);
    await closeHistory(frame);
    await openHistory(frame);
    assert.equal(await historyItem(frame, id).count(), 0, 'the deleted conversation is gone from the history');
    const names = await frame.locator('#history .history-open').allInnerTexts();
    assert.ok(!names.some((n) => n.includes(RENAMED)), `still listed: ${JSON.stringify(names)}`);
    await closeHistory(frame);
  });

  it('Escape in the prompt stops a running answer', async function () {
    this.timeout(180_000);
    const vs = vscode();
    const prompt = frame.locator('#prompt');
    // A real Escape key must land while the answer streams. An extractive answer takes ~100-200 ms,
    // so the worker may have sent its last frame before the stop reached it: such a try (Escape did
    // ask to stop, the answer still completed) is repeated, never counted as a pass.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const before = await assistantCount(frame);
      await frame.evaluate((i) => {
        type Esc = { at?: number; statusAtKey?: string; stopAsked?: boolean; endedAt?: number };
        const w = window as unknown as { __e2eEsc?: Esc };
        const state: Esc = {};
        w.__e2eEsc = state;
        const msg = () => document.querySelectorAll<HTMLElement>('#messages .message.assistant')[i];
        document.addEventListener('keydown', (e) => {
          if (e.key !== 'Escape' || state.at !== undefined) return;
          state.at = performance.now();
          state.statusAtKey = msg()?.dataset.status ?? 'none';
        }, { capture: true });
        const stop = document.querySelector<HTMLButtonElement>('#stop')!;
        const obs = new MutationObserver(() => {
          // The chat disables Stop the moment it asks the worker to stop.
          if (state.at !== undefined && msg()?.dataset.status === 'streaming' && stop.disabled) state.stopAsked = true;
          if (msg() && msg().dataset.status !== 'streaming' && state.endedAt === undefined) {
            state.endedAt = performance.now();
            obs.disconnect();
          }
        });
        obs.observe(document.querySelector('#messages')!, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
        obs.observe(stop, { attributes: true, attributeFilter: ['disabled'] });
      }, before);
      await prompt.fill('Explain every function in this repository in detail, with examples.');
      await prompt.focus();
      // Enter sends; Escape follows at once, to the same focused prompt.
      await vs.page.keyboard.press('Enter');
      await vs.page.keyboard.press('Escape');
      const status = await waitAnswered(frame, before, 60_000);
      type Esc = { at?: number; statusAtKey?: string; stopAsked?: boolean; endedAt?: number };
      const esc = await frame.evaluate(() => (window as unknown as { __e2eEsc: Esc }).__e2eEsc);
      const took = esc.at !== undefined && esc.endedAt !== undefined ? esc.endedAt - esc.at : NaN;
      log(`Escape try ${attempt}: status at the key "${esc.statusAtKey}", stop asked ${!!esc.stopAsked}, ended "${status}" ${Math.round(took)} ms after it`);
      assert.ok(esc.at !== undefined, 'the Escape key never reached the chat');
      if (esc.statusAtKey !== 'streaming') {
        assert.equal(status, 'done', 'an answer that finished before Escape stays done');
        continue;
      }
      assert.ok(esc.stopAsked, `Escape while the answer streamed did not ask to stop (it ended "${status}")`);
      if (status === 'done') continue; // the worker had finished before the stop arrived
      assert.equal(status, 'stopped', 'Escape while streaming must stop the answer');
      assert.ok(took < 2500, `the worker did not confirm the stop (took ${Math.round(took)} ms; the UI's own 3 s fallback is not a stop)`);
      assert.ok(await frame.locator('#send').isVisible(), 'Send is back after stopping');
      assert.ok(await frame.locator('#stop').isHidden(), 'Stop is hidden after stopping');
      await vs.screenshot('escape-stopped');
      return;
    }
    assert.fail('in 5 tries every answer finished before the Escape key could stop it');
  });
});
