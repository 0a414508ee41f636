/**
 * Paths as a reader wants them: relative to the workspace folder they are in. The full path stays in
 * `data-path` for opening; a relative citation (`src/app.py:12`) is resolved back against the
 * answer's own references first, then the folders.
 */
export class Paths {
  folders: string[] = [];

  /** Path relative to the workspace folder it is in; the path itself when it is in none. */
  display(p: string): string {
    for (const f of [...this.folders].sort((a, b) => b.length - a.length)) {
      const root = f.endsWith('/') || f.endsWith('\\') ? f : `${f}/`;
      if (p.startsWith(root)) return p.slice(root.length);
    }
    return p;
  }

  /** An absolute path for a citation: a known path that ends with it, else under the first folder. */
  resolve(p: string, known: string[] = []): string {
    if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return p;
    const rel = p.replace(/^\.\//, '');
    const hit = known.find((k) => k === rel || k.endsWith(`/${rel}`) || k.endsWith(`\\${rel}`));
    if (hit) return hit;
    const root = this.folders[0];
    return root ? `${root.replace(/[\\/]+$/, '')}/${rel}` : rel;
  }
}
