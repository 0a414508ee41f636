/**
 * Find Related People from the editor's context menu on a file both fixture authors edited, and
 * from the Explorer's context menu on the `src` folder (the worker resolves a folder to its recently
 * changed files): both authors must be offered, with their emails.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ALICE, BOB, FIXTURE } from './fixture';
import { log } from './harness';
import { menuTitle, vscode } from './setup';

describe('related people (real VS Code)', function () {
  it('Find Related People from the editor context menu lists both authors of the file', async function () {
    this.timeout(180_000);
    const vs = vscode();
    await vs.openFile(FIXTURE.server);
    await vs.editorContextMenu(new RegExp(`^\\s*${menuTitle('askcode.findRelatedPeople').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));

    // People show in a quick pick, each with email and why.
    const rows = vs.quickRows;
    const alice = rows.filter({ hasText: ALICE.email }).first();
    const bob = rows.filter({ hasText: BOB.email }).first();
    try {
      await alice.waitFor({ state: 'visible', timeout: 90_000 });
      await bob.waitFor({ state: 'visible', timeout: 10_000 });
    } catch (e) {
      const note = (await vs.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).join(' | ');
      throw new Error(`both authors expected; quick pick "${await vs.quickTitle()}" rows ${JSON.stringify(await vs.quickRowTexts())}; notifications: ${note}: ${e}`);
    }
    const texts = await vs.quickRowTexts();
    log(`related people: ${JSON.stringify(texts)}`);
    assert.ok(texts.some((t) => t.includes(ALICE.name) && t.includes(ALICE.email)), `Alice's name and email: ${JSON.stringify(texts)}`);
    assert.ok(texts.some((t) => t.includes(BOB.name) && t.includes(BOB.email)), `Bob's name and email: ${JSON.stringify(texts)}`);
    await vs.screenshot('related-people', { docs: 'related-people.png' });
    await vs.closeQuickInput();
  });

  it('Find Related People from the Explorer context menu on a folder lists both authors', async function () {
    this.timeout(180_000);
    const vs = vscode();
    const folder = path.dirname(FIXTURE.server); // src
    await vs.explorerContextMenu(folder, new RegExp(`^\\s*${menuTitle('askcode.findRelatedPeople').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
    const rows = vs.quickRows;
    try {
      await rows.filter({ hasText: ALICE.email }).first().waitFor({ state: 'visible', timeout: 90_000 });
      await rows.filter({ hasText: BOB.email }).first().waitFor({ state: 'visible', timeout: 10_000 });
    } catch (e) {
      const note = (await vs.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).join(' | ');
      throw new Error(`both authors expected for the folder; quick pick "${await vs.quickTitle()}" rows ${JSON.stringify(await vs.quickRowTexts())}; notifications: ${note}: ${e}`);
    }
    const title = await vs.quickTitle();
    const texts = await vs.quickRowTexts();
    log(`related people of ${folder}/: "${title}" ${JSON.stringify(texts)}`);
    assert.match(title, new RegExp(`People related to ${folder}\\b`), 'the quick pick names the folder');
    assert.ok(texts.some((t) => t.includes(ALICE.name) && t.includes(ALICE.email)), `Alice's name and email: ${JSON.stringify(texts)}`);
    assert.ok(texts.some((t) => t.includes(BOB.name) && t.includes(BOB.email)), `Bob's name and email: ${JSON.stringify(texts)}`);
    await vs.screenshot('related-people-folder');
    await vs.closeQuickInput();
  });
});
