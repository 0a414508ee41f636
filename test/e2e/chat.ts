/**
 * Helpers for the chat view's document (the webview's inner frame): ask and wait, record how an
 * answer streams, wait for the index. Shared by the chat, resilience, conversation and model files.
 */
import type { Frame } from 'playwright-core';
import type { VSCodeSession } from './harness';
import { commandTitle } from './setup';

export interface StreamEvent {
  /** How many assistant messages there were (so the newest one is `n - 1`). */
  n: number;
  status: string;
  /** Length of the answer text shown (the "Searching…" placeholder excluded). */
  len: number;
  t: number;
}

/** Records every change of the newest assistant message (status, text length) inside the webview. */
export async function watchAnswers(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = window as unknown as { __e2eEvents: unknown[]; __e2eObserver?: MutationObserver };
    w.__e2eObserver?.disconnect();
    w.__e2eEvents = [];
    const messages = document.querySelector('#messages')!;
    const record = () => {
      const all = messages.querySelectorAll<HTMLElement>('.message.assistant');
      const last = all[all.length - 1];
      if (!last) return;
      const body = last.querySelector<HTMLElement>('.message-body');
      const clone = body?.cloneNode(true) as HTMLElement | undefined;
      clone?.querySelectorAll('.typing').forEach((e) => e.remove());
      const ev = { n: all.length, status: last.dataset.status ?? '', len: (clone?.textContent ?? '').trim().length, t: performance.now() };
      const prev = w.__e2eEvents[w.__e2eEvents.length - 1] as typeof ev | undefined;
      if (!prev || prev.n !== ev.n || prev.status !== ev.status || prev.len !== ev.len) w.__e2eEvents.push(ev);
    };
    w.__e2eObserver = new MutationObserver(record);
    w.__e2eObserver.observe(messages, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

export async function answerEvents(frame: Frame): Promise<StreamEvent[]> {
  return frame.evaluate(() => (window as unknown as { __e2eEvents: StreamEvent[] }).__e2eEvents ?? []);
}

export async function assistantCount(frame: Frame): Promise<number> {
  return frame.locator('#messages .message.assistant').count();
}

/** Waits until the `index`-th assistant message is no longer streaming. */
export async function waitAnswered(frame: Frame, index: number, timeoutMs = 120_000): Promise<string> {
  await frame.waitForFunction(
    (i) => {
      const m = document.querySelectorAll<HTMLElement>('#messages .message.assistant')[i];
      return !!m && m.dataset.status !== 'streaming';
    },
    index,
    { timeout: timeoutMs, polling: 100 },
  );
  return (await frame.locator('#messages .message.assistant').nth(index).getAttribute('data-status')) ?? '';
}

/** Types a question, sends it with the Send button and waits for the answer to finish. */
export async function ask(frame: Frame, question: string, timeoutMs = 120_000): Promise<{ status: string; events: StreamEvent[]; error: string }> {
  const before = await assistantCount(frame);
  await watchAnswers(frame);
  await frame.locator('#prompt').fill(question);
  await frame.locator('#send').click();
  const msg = frame.locator('#messages .message.assistant').nth(before);
  try {
    await msg.waitFor({ state: 'attached', timeout: 15_000 });
  } catch {
    // Seen once in CI after the chat view had been shown again: the click brought no answer (the
    // prompt was empty or still held the question). Say so in the log, and send once more.
    const prompt = await frame.locator('#prompt').inputValue().catch(() => '(unreadable)');
    const answers = await assistantCount(frame).catch(() => -1);
    process.stdout.write(`      [e2e] Send brought no answer within 15 s (prompt ${JSON.stringify(prompt)}, ${answers} answers, ${before} before); sending again\n`);
    await frame.locator('#prompt').fill(question);
    await frame.locator('#send').click();
    await msg.waitFor({ state: 'attached', timeout: 15_000 });
  }
  const status = await waitAnswered(frame, before, timeoutMs);
  const error = (await msg.locator('.message-error').allInnerTexts()).join(' ');
  return { status, events: await answerEvents(frame), error };
}

/** The events of the newest answer only. */
export function newestAnswer(events: StreamEvent[]): StreamEvent[] {
  const newest = Math.max(...events.map((e) => e.n));
  return events.filter((e) => e.n === newest);
}

/** Opens the chat view through its command and returns its document. */
export async function openChat(vs: VSCodeSession): Promise<Frame> {
  await vs.runCommand(commandTitle('askcode.openChat'));
  return vs.chatFrame(60_000);
}

/** Waits for `#index-status` to say ready (the worker answered index/status or sent progress). */
export async function waitIndexReady(frame: Frame, timeoutMs = 180_000): Promise<void> {
  const status = frame.locator('#index-status');
  await status.waitFor({ state: 'attached' });
  await frame
    .waitForFunction(() => document.querySelector<HTMLElement>('#index-status')?.dataset.state === 'ready', undefined, { timeout: timeoutMs, polling: 250 })
    .catch(async (e) => {
      throw new Error(`index not ready: #index-status is "${await status.innerText()}" (state ${await status.getAttribute('data-state')}): ${e}`);
    });
}

/** Snippet references (path, start line) of an assistant message. */
export async function snippetRefs(frame: Frame, index: number): Promise<{ path: string; start: number }[]> {
  return frame
    .locator('#messages .message.assistant')
    .nth(index)
    .locator('.snippet-ref')
    .evaluateAll((els) => els.map((e) => ({ path: (e as HTMLElement).dataset.path ?? '', start: Number((e as HTMLElement).dataset.start) })));
}
