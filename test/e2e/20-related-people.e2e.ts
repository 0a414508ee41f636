/**
 * Find Related People from the editor's context menu on a file both fixture authors edited:
 * both must be offered, with their emails.
 */
import { strict as assert } from 'node:assert';
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
});
