import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, SHARED_MODELS } from '../helpers/worker';
import type { Models } from '../../server/src/protocol/wire';
import { EXTRACTIVE_MODEL_ID } from '../../server/src/models/catalog';
import { tempDir, assertWireModels } from './fixtures';

describe('askcode models (CLI)', function () {
  this.timeout(60_000);
  let dataDir: string;
  const cli = (...args: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'models', ...args], {
    env: { ...process.env, ASKCODE_DATA_DIR: dataDir, ASKCODE_MODELS_DIR: SHARED_MODELS },
    encoding: 'utf8',
  });
  beforeEach(() => {
    dataDir = tempDir('cli-models');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('--json prints wire-valid Models that the published client parses', () => {
    const models = JSON.parse(cli('--json')) as Models;
    assertWireModels(models);
    assert.ok(models.iterable.some((m) => m.id === EXTRACTIVE_MODEL_ID));
    assert.ok(models.iterable.some((m) => m.name === 'stories260K'));
    assert.ok(fs.existsSync(path.join(dataDir, 'models.json')), 'the registry lives in the data dir');
  });

  it('prints a table with one row per model', () => {
    const out = cli().trim().split('\n');
    const count = (JSON.parse(cli('--json')) as Models).iterable.length;
    assert.equal(out.length, count + 1);
    assert.match(out[0]!, /^ID\s+USAGE/);
    assert.ok(out.some((l) => l.includes('stories260K') && l.includes('CODE_CONVERSATION')));
  });
});
