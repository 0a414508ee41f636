import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createCore, type Core } from '../../server/src/core/core';
import type { RankParams } from '../../server/src/index/searchEngine';
import { silentLogger } from '../../server/src/core/logger';
import { tempDir } from '../models/fixtures';
import { fileWriter } from './files';

/**
 * The files a search ranks for `text`, best first, each once; with `overrides` the ranking knobs
 * are changed for this search only (to show what a knob does: "without the factor …").
 */
export function rankedFiles(engine: Core['index']['engine'], text: string, overrides: Partial<RankParams> = {}): string[] {
  return [...new Set(searchWith(engine, text, overrides).map((h) => h.chunk.rel))];
}

/**
 * What one ranking rule does: with the knobs `off` (its weight at 0) another file than `file` comes
 * first for `text`; with `on` (the defaults, or the other rules held off as in `off`) `file` does.
 */
export function assertLifts(engine: Core['index']['engine'], text: string, file: string, off: Partial<RankParams>, on: Partial<RankParams> = {}, rule = 'it'): void {
  const without = rankedFiles(engine, text, off);
  assert.notEqual(without[0], file, `without ${rule} another file is first: ${without}`);
  const withIt = rankedFiles(engine, text, on);
  assert.equal(withIt[0], file, `with ${rule}: ${withIt}`);
}

/** The hits of a search for `text`, with the ranking knobs changed by `overrides` for this search only. */
export function searchWith(engine: Core['index']['engine'], text: string, overrides: Partial<RankParams> = {}): ReturnType<Core['index']['engine']['search']>['hits'] {
  engine.rankOverrides = overrides;
  try {
    return engine.search(text).hits;
  } finally {
    engine.rankOverrides = {};
  }
}

/**
 * The real core over repositories a suite writes, in a temporary folder removed after the suite
 * (call it inside a `describe`). No models: ranking by the words alone.
 */
export function realCore(name: string) {
  let root = '';
  let core: Core | undefined;
  before(() => (root = tempDir(name)));
  after(async () => {
    await core?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return {
    /** The suite's temporary folder. */
    get root(): string {
      return root;
    },
    /** A folder of the suite's to write a repository in, and its writer. */
    repo(name = 'repo'): { dir: string; write: (rel: string, text: string) => void } {
      const dir = path.join(root, name);
      return { dir, write: fileWriter(dir) };
    },
    /** The core over `repo`, indexed, its data under `data` (a core opened before is disposed). */
    async open(repo: string, data = 'data'): Promise<Core> {
      await core?.dispose();
      core = await createCore({ dataDir: path.join(root, data), modelsDir: path.join(root, 'no-models'), folders: [repo], log: silentLogger, autoIndex: false });
      await core.index.indexAll();
      return core;
    },
  };
}
