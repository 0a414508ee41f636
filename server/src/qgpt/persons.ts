/**
 * One concern: people related to code, from git (blame of the relevant lines, log for recency) and
 * CODEOWNERS — which lines and files to look at, who wrote them, and how they rank.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import ignore from 'ignore';
import type { Retriever } from '../core/interfaces';
import type { Logger } from '../core/logger';
import type { Person, PersonInfo, QGPTConversationMessage, QGPTPersonsRelatedOutput } from '../protocol/wire';
import { entitiesOf } from './reprompt';

/**
 * Who can help with a snippet or a conversation: `git blame` of the relevant lines and `git log`
 * of their files, weighted by recency and share of lines, plus CODEOWNERS.
 *
 * A person's score (in [0, 1]) is their share of the blamed relevant lines: whoever wrote most of
 * the code ranks first, however old. Ties go to the most recent change, then to more commits to
 * the files. People with no line are left out unless CODEOWNERS names them for one of the files
 * (score 0, and the explanation says so). With no blamed line at all, the share of the files'
 * commits (each weighted by 0.5^(age/180 days) from the newest change seen) stands in.
 */

const HALF_LIFE_DAYS = 180;
const MAX_LOG = 300;
const MAX_PERSONS = 10;
const MAX_FILES = 20;
const GIT_TIMEOUT_MS = 15_000;

export interface Target {
  /** Absolute path of the file. */
  file: string;
  /** 1-based inclusive; absent = the whole file. */
  startLine?: number;
  endLine?: number;
}

interface Acc {
  key: string;
  name: string;
  email?: string;
  username?: string;
  blame: number;
  lines: number;
  commitsW: number;
  commits: number;
  first?: number;
  last?: number;
  owner: string[];
  files: Map<string, { path: string; lines: number; commits: number; last?: number }>;
}

function git(cwd: string, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: GIT_TIMEOUT_MS, signal, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout);
    });
  });
}

export async function gitRoot(dir: string, signal?: AbortSignal): Promise<string | null> {
  try {
    return path.resolve((await git(dir, ['rev-parse', '--show-toplevel'], signal)).trim());
  } catch {
    return null;
  }
}

function personId(key: string): string {
  const h = createHash('sha1').update('askcode-person:' + key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const iso = (sec: number) => new Date(sec * 1000).toISOString();
const day = (sec: number) => iso(sec).slice(0, 10);

interface BlameLine {
  name: string;
  email: string;
  time: number;
}

function parseBlame(out: string): BlameLine[] {
  const lines: BlameLine[] = [];
  let cur: Partial<BlameLine> & { sha?: string } = {};
  for (const l of out.split('\n')) {
    if (/^[0-9a-f]{40} \d+ \d+/.test(l)) cur = { sha: l.slice(0, 40) };
    else if (l.startsWith('author ')) cur.name = l.slice(7);
    else if (l.startsWith('author-mail ')) cur.email = l.slice(12).replace(/^<|>$/g, '').toLowerCase();
    else if (l.startsWith('author-time ')) cur.time = Number(l.slice(12));
    else if (l.startsWith('\t')) {
      // Lines not committed yet have no author to ask.
      if (cur.sha && !/^0+$/.test(cur.sha) && cur.name !== undefined && cur.time !== undefined) {
        lines.push({ name: cur.name, email: cur.email ?? '', time: cur.time });
      }
    }
  }
  return lines;
}

interface Owners {
  file: string;
  rules: { pattern: string; owners: string[] }[];
}

async function readCodeowners(root: string): Promise<Owners | null> {
  for (const rel of ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS']) {
    try {
      const text = await fs.readFile(path.join(root, rel), 'utf8');
      const rules: Owners['rules'] = [];
      for (const raw of text.split(/\r?\n/)) {
        const line = raw.replace(/(^|\s)#.*$/, '').trim();
        if (!line || line.startsWith('[')) continue;
        const [pattern, ...owners] = line.split(/\s+/);
        rules.push({ pattern, owners: owners.filter((o) => o.startsWith('@') || o.includes('@')) });
      }
      return { file: rel, rules };
    } catch {
      /* next candidate */
    }
  }
  return null;
}

/** CODEOWNERS: gitignore-style patterns, the last matching rule wins. */
function ownersOf(owners: Owners, rel: string): { pattern: string; owners: string[] } | null {
  let hit: { pattern: string; owners: string[] } | null = null;
  for (const r of owners.rules) {
    try {
      if (ignore().add(r.pattern).ignores(rel)) hit = r;
    } catch {
      /* a malformed pattern matches nothing */
    }
  }
  return hit;
}

function ownerMatches(owner: string, acc: Acc): boolean {
  const o = owner.toLowerCase();
  if (!o.startsWith('@')) return acc.email === o;
  const handle = o.slice(1);
  if (handle.includes('/')) return false;
  const local = acc.email?.split('@')[0].replace(/^\d+\+/, '') ?? '';
  return local === handle || acc.name.toLowerCase().replace(/\s+/g, '') === handle;
}

const authorsCache = new Map<string, Promise<{ name: string; email: string }[]>>();

/** Everyone who committed to a repository (recent history), to match CODEOWNERS handles. */
function authorsOf(root: string, signal?: AbortSignal): Promise<{ name: string; email: string }[]> {
  let p = authorsCache.get(root);
  if (!p) {
    p = git(root, ['log', '--no-merges', '-n2000', '--format=%an%x1f%ae'], signal)
      .then((out) => {
        const seen = new Map<string, string>();
        for (const row of out.split('\n')) {
          const [name, email] = row.split('\x1f');
          if (name && email && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), name);
        }
        return [...seen].map(([email, name]) => ({ name, email }));
      })
      .catch(() => []);
    authorsCache.set(root, p);
    // History moves on: forget after a minute.
    setTimeout(() => authorsCache.delete(root), 60_000).unref();
  }
  return p;
}

export interface PersonsResult extends QGPTPersonsRelatedOutput {
  reason?: string;
  /** The blamed lines the shares are of. */
  totalLines?: number;
}

/** Files a conversation cites, resolved inside the workspace folders. */
export async function targetsFromConversation(messages: QGPTConversationMessage[], folders: string[]): Promise<Target[]> {
  const out: Target[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    const withLines = [...m.text.matchAll(/(\/?(?:[\w.@-]+\/)*[\w.@-]+\.[A-Za-z]\w{0,9}):(\d+)(?:-(\d+))?/g)];
    const refs: { p: string; s?: number; e?: number }[] = withLines.map((x) => ({ p: x[1], s: Number(x[2]), e: Number(x[3] ?? x[2]) }));
    // `a.ts:10-20` names lines of a.ts, not the whole file: the bare path it also contains is not a second target.
    const ranged = new Set(refs.map((r) => r.p));
    for (const p of entitiesOf(m.text).paths) if (!ranged.has(p)) refs.push({ p });
    for (const r of refs) {
      const candidates = path.isAbsolute(r.p) ? [r.p] : folders.map((f) => path.join(f, r.p));
      for (const c of candidates) {
        const abs = path.resolve(c);
        if (!folders.some((f) => abs === f || abs.startsWith(path.resolve(f) + path.sep))) continue;
        const key = `${abs}:${r.s ?? ''}-${r.e ?? ''}`;
        if (seen.has(key)) continue;
        let isFile = false;
        try {
          const st = await fs.stat(abs);
          isFile = st.isFile();
          if (!isFile && !st.isDirectory()) continue;
        } catch {
          continue;
        }
        seen.add(key);
        if (isFile) out.push({ file: abs, startLine: r.s, endLine: r.e });
        else for (const file of await recentFilesOf(abs)) out.push({ file });
      }
    }
  }
  return out.slice(0, MAX_FILES);
}

/**
 * A folder stands for the files in it that changed most recently (git's own order), so people who
 * work on the folder now come before people who once wrote a file in it.
 */
async function recentFilesOf(dir: string): Promise<string[]> {
  let out = '';
  try {
    out = await git(dir, ['log', '--format=', '--name-only', '--relative', '-n', '300', '--', '.']);
  } catch {
    return []; // not a git repository: the caller reports that for the whole request
  }
  const files: string[] = [];
  for (const rel of out.split('\n')) {
    const abs = rel.trim() ? path.join(dir, rel.trim()) : '';
    if (!abs || files.includes(abs)) continue;
    try {
      if ((await fs.stat(abs)).isFile()) files.push(abs);
    } catch {
      /* deleted since */
    }
    if (files.length >= MAX_FILES) break;
  }
  return files;
}

async function absoluteIn(p: string, folders: string[]): Promise<string | undefined> {
  if (path.isAbsolute(p)) return p;
  for (const f of folders) {
    const abs = path.resolve(f, p);
    try {
      if ((await fs.stat(abs)).isFile()) return abs;
    } catch {
      /* not in this folder */
    }
  }
  return undefined;
}

/** Where a fragment lives: the retriever first, else `git grep` for its most distinctive line. */
export async function locateFragment(fragment: string, retriever: Retriever, signal?: AbortSignal): Promise<Target[]> {
  try {
    const hits = await retriever.locate(fragment, signal);
    const out: Target[] = [];
    for (const h of hits) {
      const file = await absoluteIn(h.path, retriever.folders());
      if (file) out.push({ file, startLine: h.startLine, endLine: h.endLine });
    }
    if (out.length) return out.slice(0, MAX_FILES);
  } catch {
    /* fall back to git grep */
  }
  const fragLines = fragment.split(/\r?\n/);
  const candidates = fragLines
    .map((l, i) => ({ l: l.trim(), i }))
    .filter((x) => x.l.length >= 6)
    .sort((a, b) => b.l.length - a.l.length);
  const anchor = candidates[0];
  if (!anchor) return [];
  const out: Target[] = [];
  for (const folder of retriever.folders()) {
    const root = await gitRoot(folder, signal);
    if (!root) continue;
    let listing = '';
    try {
      listing = await git(folder, ['grep', '-n', '-F', '--no-color', '-I', '-e', anchor.l, '--', '.'], signal);
    } catch {
      continue; // exit 1: no match
    }
    for (const row of listing.split('\n')) {
      const m = /^(.*?):(\d+):/.exec(row);
      if (!m) continue;
      const start = Math.max(1, Number(m[2]) - anchor.i);
      out.push({ file: path.resolve(folder, m[1]), startLine: start, endLine: start + Math.max(0, fragLines.length - 1) });
      if (out.length >= MAX_FILES) return out;
    }
  }
  return out;
}

export async function personsFor(targets: Target[], transferables: boolean, log?: Logger, signal?: AbortSignal): Promise<PersonsResult> {
  if (!targets.length) return { persons: { iterable: [] }, reason: 'no file or lines to look at' };
  const people = new Map<string, Acc>();
  const reasons: string[] = [];
  const blameLines: { who: string; time: number; rel: string }[] = [];
  const commits: { who: string; time: number; rel: string }[] = [];
  const ownerHits: { rel: string; root: string; pattern: string; owners: string[]; file: string }[] = [];
  const accOf = (name: string, email: string): Acc => {
    const key = email || name.toLowerCase();
    let a = people.get(key);
    if (!a) {
      a = { key, name, email: email || undefined, blame: 0, lines: 0, commitsW: 0, commits: 0, owner: [], files: new Map() };
      people.set(key, a);
    }
    return a;
  };
  const fileOf = (a: Acc, rel: string) => {
    let f = a.files.get(rel);
    if (!f) a.files.set(rel, (f = { path: rel, lines: 0, commits: 0 }));
    return f;
  };
  const ownersCache = new Map<string, Owners | null>();
  const loggedFiles = new Set<string>();
  let anyRepo = false;
  for (const t of targets) {
    const dir = path.dirname(t.file);
    const root = await gitRoot(dir, signal);
    if (!root) {
      reasons.push(`${t.file} is not in a git repository`);
      continue;
    }
    anyRepo = true;
    const rel = path.relative(root, path.resolve(t.file)).split(path.sep).join('/');
    const range = t.startLine !== undefined ? ['-L', `${t.startLine},${Math.max(t.startLine, t.endLine ?? t.startLine)}`] : [];
    try {
      const out = await git(root, ['blame', '--line-porcelain', '-w', ...range, '--', rel], signal);
      for (const b of parseBlame(out)) {
        const a = accOf(b.name, b.email);
        a.name = b.name;
        blameLines.push({ who: a.key, time: b.time, rel });
      }
    } catch (e) {
      // A range past the end of the file (it changed since) still has a history worth reading.
      log?.debug(`persons: git blame ${rel}: ${String(e).split('\n')[0]}`);
      if (!range.length) {
        reasons.push(`${rel} is not tracked by git`);
        continue;
      }
    }
    if (!loggedFiles.has(root + '\0' + rel)) {
      loggedFiles.add(root + '\0' + rel);
      try {
        const out = await git(root, ['log', '--no-merges', `-n${MAX_LOG}`, '--format=%H%x1f%an%x1f%ae%x1f%at', '--', rel], signal);
        for (const row of out.split('\n')) {
          const [sha, name, email, at] = row.split('\x1f');
          if (!sha || !at) continue;
          const a = accOf(name, (email ?? '').toLowerCase());
          commits.push({ who: a.key, time: Number(at), rel });
        }
      } catch (e) {
        log?.debug(`persons: git log ${rel}: ${String(e).split('\n')[0]}`);
      }
    }
    if (!ownersCache.has(root)) ownersCache.set(root, await readCodeowners(root));
    const owners = ownersCache.get(root);
    if (owners) {
      const hit = ownersOf(owners, rel);
      if (hit && hit.owners.length) ownerHits.push({ rel, root, pattern: hit.pattern, owners: hit.owners, file: owners.file });
    }
  }
  if (!anyRepo) return { persons: { iterable: [] }, reason: [...new Set(reasons)].join('; ') || 'not a git repository' };

  const newest = Math.max(0, ...blameLines.map((b) => b.time), ...commits.map((c) => c.time));
  const weight = (t: number) => Math.pow(0.5, (newest - t) / 86400 / HALF_LIFE_DAYS);
  let blameTotal = 0;
  for (const b of blameLines) {
    const a = people.get(b.who)!;
    const w = weight(b.time);
    a.blame += w;
    blameTotal += w;
    a.lines++;
    a.first = Math.min(a.first ?? b.time, b.time);
    a.last = Math.max(a.last ?? b.time, b.time);
    const f = fileOf(a, b.rel);
    f.lines++;
    f.last = Math.max(f.last ?? b.time, b.time);
  }
  let commitTotal = 0;
  for (const c of commits) {
    const a = people.get(c.who)!;
    const w = weight(c.time);
    a.commitsW += w;
    commitTotal += w;
    a.commits++;
    const f = fileOf(a, c.rel);
    f.commits++;
    f.last = Math.max(f.last ?? c.time, c.time);
    a.first = Math.min(a.first ?? c.time, c.time);
    a.last = Math.max(a.last ?? c.time, c.time);
  }
  const ownerNote = new Map<string, string[]>();
  for (const h of ownerHits) {
    for (const o of h.owners) {
      let a = [...people.values()].find((p) => ownerMatches(o, p));
      if (!a) {
        // An owner who did not touch these files: name them as the repository's history knows them.
        const known = (await authorsOf(h.root, signal)).find((p) => ownerMatches(o, { name: p.name, email: p.email } as Acc));
        const key = known ? known.email : 'owner:' + o.toLowerCase();
        a = people.get(key);
        if (!a) {
          a = { key, name: known?.name ?? o, blame: 0, lines: 0, commitsW: 0, commits: 0, owner: [], files: new Map() };
          if (o.startsWith('@')) a.username = o;
          a.email = known?.email ?? (o.startsWith('@') ? undefined : o.toLowerCase());
          people.set(key, a);
        }
      }
      if (!a.owner.includes(h.rel)) a.owner.push(h.rel);
      const notes = ownerNote.get(a.key) ?? [];
      notes.push(`${h.file}: \`${h.pattern}\``);
      ownerNote.set(a.key, notes);
    }
  }
  // Ranked by share of the relevant lines; recency (then commits to these files) only breaks ties.
  // Nobody with no line is listed unless CODEOWNERS names them; with no blamed line at all (whole
  // files that git cannot blame) the commits to the files stand in for the lines.
  const byCommits = blameLines.length === 0;
  const scored = [...people.values()]
    .filter((a) => (byCommits ? a.commits > 0 : a.lines > 0) || a.owner.length > 0)
    .map((a) => {
      const share = byCommits ? (commitTotal > 0 ? a.commitsW / commitTotal : 0) : a.lines / blameLines.length;
      return { a, score: Math.round(share * 1000) / 1000, share };
    });
  scored.sort((x, y) => y.share - x.share || (y.a.last ?? 0) - (x.a.last ?? 0) || y.a.commits - x.a.commits || x.a.key.localeCompare(y.a.key));
  const totalLines = blameLines.length;
  const iterable: Person[] = [];
  const explanations: Record<string, string> = {};
  const fallbackTime = new Date().toISOString();
  for (const { a, score } of scored.slice(0, MAX_PERSONS)) {
    const id = personId(a.key);
    const why: string[] = [];
    if (a.lines) why.push(`wrote ${a.lines} of the ${totalLines} relevant lines (${Math.round((100 * a.lines) / Math.max(1, totalLines))}%)`);
    if (a.commits) why.push(`${a.commits} commit${a.commits === 1 ? '' : 's'} to ${[...a.files.values()].filter((f) => f.commits).map((f) => f.path).slice(0, 3).join(', ')}`);
    if (a.last) why.push(`last change ${day(a.last)}`);
    if (a.owner.length) why.push(`${a.lines ? 'code owner' : 'code owner (named in CODEOWNERS) who wrote none of these lines'} (${(ownerNote.get(a.key) ?? []).slice(0, 2).join('; ')})`);
    explanations[id] = why.join('; ').replace(/^./, (c) => c.toUpperCase()) + '.';
    const person: Person = {
      id,
      created: { value: a.first ? iso(a.first) : fallbackTime },
      updated: { value: a.last ? iso(a.last) : fallbackTime },
      type: { basic: { name: a.name, ...(a.email ? { email: a.email } : {}), ...(a.username ? { username: a.username } : {}) } },
    };
    if (transferables) {
      const info: PersonInfo = {
        score,
        lines: a.lines,
        commits: a.commits,
        ...(a.last ? { lastChange: iso(a.last) } : {}),
        files: [...a.files.values()].map((f) => ({ path: f.path, lines: f.lines, commits: f.commits, ...(f.last ? { lastChange: iso(f.last) } : {}) })),
        ...(a.owner.length ? { codeowner: true } : {}),
      };
      person.askcode = info;
    }
    iterable.push(person);
  }
  return {
    persons: { iterable },
    explanations,
    totalLines,
    reason: iterable.length ? undefined : reasons.length ? [...new Set(reasons)].join('; ') : 'git has no author for these lines',
  };
}
