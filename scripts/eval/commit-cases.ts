/**
 * Makes commit-eval-like cases (a commit's message → the source files it modified) from the
 * history of repositories in no evaluation set, listed in scripts/eval/outside.json: a check of
 * the ranking outside the dev sets. Each repository is read from a bare clone at its pinned
 * commit, so the cases are the same on every machine.
 *
 *   npx tsx scripts/eval/commit-cases.ts --eval-repos DIR [--list scripts/eval/outside.json] [--out cases.jsonl]
 *
 * (`npm run bench:outside` makes them and ranks them.)
 *
 * DIR holds a full bare clone of each repository as <owner>+<name>/repo (as for the dev sets).
 * Rules, as commit-eval's rows read: no merges, no bots, no releases, version bumps, change-log or
 * documentation-only commits, no reverts; at most 8 files changed, of which 1–3 modified source
 * files (.py .ts .tsx .js .jsx .mjs .go .rs .java .kt .cs .rb .php) that are not tests and all still exist at the pinned
 * commit (commit-eval's "cheap" mode: index once there). The same message and files twice
 * (a change picked onto two branches) count once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

interface ListEntry {
  repo: string;
  ref: string;
}

const CODE = /\.(py|ts|tsx|js|jsx|mjs|go|rs|java|kt|cs|rb|php)$/;
/** Tests as the labels count them (written out here, so the labels do not follow the ranking's own rules). */
const TEST = /(^|\/)(tests?|__tests__|testing|fixtures?|spec|e2e)\/|\.(test|spec)\.[a-z]+$|(^|\/)test_[^/]*$|_(test|spec)\.[a-z]+$|-tests?\.[a-z]+$|conftest\.py$|Tests?\.(java|kt|cs|php)$|\.Tests?\//;
const NOT_A_CHANGE = /changelog|\brelease\b|prepare .*\d\.\d/i;
const NOT_A_CHANGE_START = /^(bump|release|version|v?\d+\.\d+|chore\(release|update dependency|merge|revert|docs?[:(]|ci[:(]|build\(deps)/i;

function gitDirOf(root: string, repo: string): string {
  const [owner, name] = repo.split('/');
  for (const d of [path.join(root, `${owner}+${name}`, 'repo'), path.join(root, owner!, name!), path.join(root, `${name}.git`)]) {
    if (existsSync(d)) return d;
  }
  throw new Error(`no bare clone of ${repo} under ${root} (expected ${owner}+${name}/repo)`);
}

function casesOf(gitDir: string, repo: string, ref: string, count: number): object[] {
  const git = (...args: string[]) => execFileSync('git', [`--git-dir=${gitDir}`, ...args], { maxBuffer: 1 << 28 }).toString('utf8');
  const atRef = new Set(git('ls-tree', '-r', '--name-only', ref).split('\n'));
  const out: object[] = [];
  const seen = new Set<string>();
  for (const entry of git('log', '--no-merges', '--format=%H%x01%P%x01%an%x01%B%x02', '-n', '3000', ref).split('\x02')) {
    const e = entry.replace(/^\n+|\n+$/g, '');
    if (!e) continue;
    const [hash, parents, author, body] = e.split('\x01') as [string, string, string, string];
    if (/bot/i.test(author)) continue;
    const text = body.trim();
    const subject = text.split('\n')[0]!;
    if (NOT_A_CHANGE.test(subject) || NOT_A_CHANGE_START.test(subject)) continue;
    const parent = parents.split(' ')[0] || `${hash}^`;
    const changed = git('diff', '--name-status', parent, hash).trim().split('\n').filter(Boolean);
    if (changed.length > 8) continue;
    const relevant = changed.filter((l) => l.startsWith('M')).map((l) => l.split('\t').pop()!).filter((f) => CODE.test(f) && !TEST.test(f));
    if (!relevant.length || relevant.length > 3 || !relevant.every((f) => atRef.has(f))) continue;
    const rest = text.includes('\n') ? `\n\n${text.split('\n').slice(1).join('\n').trim()}` : '';
    const query = (subject.replace(/\s*\(#\d+\)\s*$/, '') + rest).replace(/\n*(Co-authored-by|Signed-off-by):.*/g, '').trim();
    if (query.length < 20) continue;
    const key = `${subject}\0${relevant.join('\0')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: `${repo}@${hash.slice(0, 12)}`, repo, commit: hash, parent, query: query.slice(0, 4000), relevant_files: relevant, relevant_spans: [], exists_at_ref: true, ref_commit: ref });
    if (out.length >= count) break;
  }
  return out;
}

const { values } = parseArgs({ options: { 'eval-repos': { type: 'string' }, list: { type: 'string' }, out: { type: 'string' } } });
const root = values['eval-repos'] ?? process.env.ASKCODE_EVAL_REPOS;
if (!root) {
  process.stderr.write('usage: tsx scripts/eval/commit-cases.ts --eval-repos DIR [--list scripts/eval/outside.json] [--out cases.jsonl]\n');
  process.exit(2);
}
const list = JSON.parse(readFileSync(values.list ?? path.join(__dirname, 'outside.json'), 'utf8')) as { count: number; repos: ListEntry[] };
const lines: string[] = [];
for (const { repo, ref } of list.repos) {
  const rows = casesOf(gitDirOf(root, repo), repo, ref, list.count);
  process.stderr.write(`${repo}: ${rows.length} cases\n`);
  for (const r of rows) lines.push(JSON.stringify(r));
}
if (values.out) {
  mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
  writeFileSync(values.out, lines.map((l) => `${l}\n`).join(''));
} else process.stdout.write(lines.map((l) => `${l}\n`).join(''));
