import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes files under `root` by relative path, making their folders: how tests lay out a repository. */
export function fileWriter(root: string): (rel: string, text: string) => void {
  return (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
}
