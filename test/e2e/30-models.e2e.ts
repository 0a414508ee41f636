/**
 * Model management from the palette: create a custom model from a local folder (a copy of the
 * shared stories260K model), see it in List Models, delete it, and see it gone.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MODELS_DIR, log, type VSCodeSession } from './harness';
import { commandTitle, vscode } from './setup';

const MODEL_NAME = `e2e-stories-${process.pid}`;

async function listModelRows(vs: VSCodeSession): Promise<string[]> {
  await vs.runCommand(commandTitle('askcode.listModels'));
  await vs.quickRows.first().waitFor({ state: 'visible', timeout: 30_000 });
  return vs.quickRowTexts();
}

async function modelListed(vs: VSCodeSession, name: string): Promise<boolean> {
  await listModelRows(vs);
  // The list may be longer than the widget shows: filter by the name.
  await vs.quickInputBox.fill(name);
  await new Promise((r) => setTimeout(r, 500));
  const found = (await vs.quickRowTexts()).some((t) => t.includes(name));
  await vs.closeQuickInput();
  return found;
}

describe('model management from the palette (real VS Code)', function () {
  let folder: string;

  before(function () {
    const vs = vscode();
    // A copy: deleting a custom model must never touch the shared models folder.
    folder = path.join(vs.runDir, 'custom-models', MODEL_NAME);
    fs.cpSync(path.join(MODELS_DIR, 'stories260K'), folder, { recursive: true });
  });

  it('Create Custom Model (local folder) adds a model that List Models shows', async function () {
    this.timeout(180_000);
    const vs = vscode();
    assert.equal(await modelListed(vs, MODEL_NAME), false, 'the model must not exist before');
    await vs.runCommand(commandTitle('askcode.createCustomModel'));
    const steps = await vs.driveQuickInput([
      { name: 'kind', pick: /^\s*local (model )?folder/i },
      { name: 'folder', when: /folder|path|directory/i, type: folder },
      // The model's name prompt, not the palette's "Type the name of a command" (still open for a moment under load).
      { name: 'name', when: /name for the model/i, type: MODEL_NAME, optional: true },
      { name: 'confirm', button: /^(create|ok|add|yes)$/i, optional: true },
    ]);
    log(`create custom model steps: ${steps.join(' > ')}`);
    const error = vs.page.locator('.notifications-toasts .notification-toast .codicon-error');
    if (await error.count()) {
      const texts = await vs.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
      assert.fail(`creating the model failed: ${texts.join(' | ')}`);
    }
    const deadline = Date.now() + 30_000;
    let listed = false;
    while (!listed && Date.now() < deadline) listed = await modelListed(vs, MODEL_NAME);
    await vs.screenshot('custom-model-created');
    assert.ok(listed, `List Models does not show ${MODEL_NAME}`);
  });

  it('Delete Model removes the custom model', async function () {
    this.timeout(180_000);
    const vs = vscode();
    assert.ok(await modelListed(vs, MODEL_NAME), `${MODEL_NAME} must exist before it is deleted (the previous test creates it)`);
    await vs.runCommand(commandTitle('askcode.deleteModel'));
    const steps = await vs.driveQuickInput([
      { name: 'model', pick: new RegExp(`^\\s*${MODEL_NAME}(?!\\d)`) },
      { name: 'confirm', button: /^\s*(delete|yes|ok)\s*$/i },
    ]);
    log(`delete model steps: ${steps.join(' > ')}`);
    const deadline = Date.now() + 30_000;
    let listed = true;
    while (listed && Date.now() < deadline) listed = await modelListed(vs, MODEL_NAME);
    assert.equal(listed, false, `List Models still shows ${MODEL_NAME} after Delete Model`);
    // The model's files were the user's folder: deleting the registration must leave them alone.
    assert.ok(fs.existsSync(path.join(folder, 'config.json')), 'Delete Model must not delete the user\'s local folder');
  });
});
