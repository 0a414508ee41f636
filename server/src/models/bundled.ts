import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Where a model shipped with askcode lives: `models/<name>` at the package root, which is one
 * level above the bundles in dist/ and three above this source file when run from source.
 */
export function bundledModelDir(name: string): string | undefined {
  for (const root of [path.resolve(__dirname, '..'), path.resolve(__dirname, '..', '..', '..')]) {
    const dir = path.join(root, 'models', name);
    if (existsSync(path.join(dir, 'config.json'))) return dir;
  }
  return undefined;
}
