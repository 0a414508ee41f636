// Registers `askcode bench qa` (see ../bench.ts).
import { promises as fs, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { registerBench } from '../registry';
import { parse, openCore } from '../common';
import { invalid } from '../../core/errors';
import { QgptStream, QgptStreamOutputNotification } from '../../protocol/stream';
import type { NotificationDef } from '../../protocol/base';
import type { QGPTStreamOutput } from '../../protocol/wire';

interface Row {
  id: string;
  repo: string;
  commit: string;
  kind: string;
  question: string;
  relevant_files: string[];
  relevant_spans: { file: string; start: number; end: number }[];
}

const USAGE = `Usage: askcode bench qa [--cases FILE.jsonl] [--trees DIR] [--eval-repos DIR] [--data-dir DIR]
                       [--max-rows N] [--dense] [--json]

  --cases       qa rows (default ../shared/eval/qa.dev.jsonl)
  --trees       work trees named <owner>+<name>@<commit12> (default .bench/trees)
  --eval-repos  a folder of bare git dirs (<owner>+<name>/repo); missing trees are extracted from them
  --data-dir    where the index lives (default .bench/qa/data)
  --dense       also use the embedding model (default: BM25 only)

Asks every row through qgpt/stream (relevance with options.question, the extractive answerer) and
prints the share of questions whose cited snippets overlap a reference span, and the time to the
first relevance frame and to the first answer delta (p50/p95) on an indexed repository.`;

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

export async function treeFor(row: { repo: string; commit: string }, treesDir: string, evalRepos: string | undefined): Promise<string> {
  const name = row.repo.replace('/', '+');
  const out = path.join(treesDir, `${name}@${row.commit.slice(0, 12)}`);
  if (existsSync(out) && (await fs.readdir(out)).length > 0) return out;
  if (!evalRepos) throw invalid(`no work tree at ${out}; pass --eval-repos DIR (bare git dirs) to extract it`, 'eval-repos');
  const gitDir = [path.join(evalRepos, name, 'repo'), path.join(evalRepos, name)].find((d) => existsSync(path.join(d, 'HEAD')));
  if (!gitDir) throw invalid(`no git dir for ${row.repo} under ${evalRepos}`, 'eval-repos');
  await fs.mkdir(out, { recursive: true });
  // `git archive | tar -x` writes nothing into the git dir.
  const tar = execFileSync('git', [`--git-dir=${gitDir}`, 'archive', '--format=tar', row.commit], { maxBuffer: 4 * 1024 ** 3 });
  execFileSync('tar', ['-x', '-C', out], { input: tar, maxBuffer: 4 * 1024 ** 3, stdio: ['pipe', 'ignore', 'ignore'] });
  return out;
}

/** Places an answer cites: its `[\`path:start-end\`](…)` links before the collapsed sources (or the older `**\`path:start-end\`**` headings). */
export function citedPlaces(text: string): { file: string; start: number; end: number }[] {
  const body = text.split('<details>')[0]!;
  return [...body.matchAll(/(?:\[|\*\*)`([^`]+?):(\d+)(?:-(\d+))?`(?:\]|\*\*)/g)].map((m) => ({ file: m[1]!, start: Number(m[2]), end: Number(m[3] ?? m[2]) }));
}

interface RowResult {
  id: string;
  kind: string;
  overlap: boolean;
  fileHit: boolean;
  relevanceMs: number;
  deltaMs: number;
  totalMs: number;
  score: number;
  cited: string[];
}

registerBench({
  name: 'qa',
  summary: 'cited-snippet overlap with reference spans; time to first relevance frame and first answer delta',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      cases: { type: 'string' }, trees: { type: 'string' }, 'eval-repos': { type: 'string' }, 'data-dir': { type: 'string' },
      'max-rows': { type: 'string' }, dense: { type: 'boolean' }, json: { type: 'boolean' },
    });
    const casesFile = path.resolve(values.cases ?? '../shared/eval/qa.dev.jsonl');
    const treesDir = path.resolve(values.trees ?? '.bench/trees');
    const dataDir = path.resolve(values['data-dir'] ?? '.bench/qa/data');
    let rows = readFileSync(casesFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Row);
    if (values['max-rows']) rows = rows.slice(0, Number(values['max-rows']));
    const log = (s: string) => process.stderr.write(s + '\n');
    const byTree = new Map<string, Row[]>();
    for (const r of rows) {
      const key = `${r.repo}@${r.commit}`;
      byTree.set(key, [...(byTree.get(key) ?? []), r]);
    }
    const results: RowResult[] = [];
    for (const group of byTree.values()) {
      const tree = await treeFor(group[0]!, treesDir, values['eval-repos'] ? path.resolve(values['eval-repos']) : undefined);
      const core = await openCore({ dataDir, folders: [tree], autoIndex: false });
      try {
        core.index.setDense(values.dense ?? false);
        const t0 = Date.now();
        await core.index.indexAll();
        await core.index.whenIdle();
        log(`indexed ${path.basename(tree)} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${core.index.status().chunks} chunks)`);
        for (const row of group) {
          let rel = -1;
          let delta = -1;
          let text = '';
          let score = 0;
          const start = performance.now();
          const end = await new Promise<QGPTStreamOutput>((resolve, reject) => {
            const emit = <P>(def: NotificationDef<P>, p: P) => {
              if (def.method !== QgptStreamOutputNotification.method) return;
              const f = p as QGPTStreamOutput;
              const now = performance.now() - start;
              if (f.relevance && rel < 0) rel = now;
              const a = f.question?.answers.iterable[0];
              if (a) {
                if (delta < 0) delta = now;
                text += a.text;
                score = a.score;
              }
              if (f.status && f.status !== 'IN-PROGRESS') resolve(f);
            };
            core.service
              .request(QgptStream, { request: row.id.replace(/[^A-Za-z0-9._:-]/g, '_'), relevance: { query: row.question, paths: [tree], options: { question: true } } }, { emit, connection: 'bench' })
              .catch(reject);
          });
          const total = performance.now() - start;
          if (end.status !== 'COMPLETED') log(`  ${row.id}: ${end.status} ${end.errorMessage ?? ''}`);
          const cited = citedPlaces(text);
          const overlap = cited.some((c) => row.relevant_spans.some((s) => s.file === c.file && c.start <= s.end && s.start <= c.end));
          const fileHit = cited.some((c) => row.relevant_files.includes(c.file));
          results.push({ id: row.id, kind: row.kind, overlap, fileHit, relevanceMs: rel, deltaMs: delta, totalMs: total, score, cited: cited.map((c) => `${c.file}:${c.start}-${c.end}`) });
          log(`  ${overlap ? 'overlap' : fileHit ? 'file   ' : 'miss   '} ${row.id}  rel ${rel.toFixed(0)} ms, delta ${delta.toFixed(0)} ms  ${cited.map((c) => `${c.file}:${c.start}-${c.end}`).join(' ')}`);
        }
      } finally {
        await core.dispose();
      }
    }
    const share = (f: (r: RowResult) => boolean, rs = results) => (rs.length ? Math.round((rs.filter(f).length / rs.length) * 1000) / 1000 : 0);
    const ms = (xs: number[], q: number) => Math.round(quantile(xs, q) * 10) / 10;
    const summary = {
      n: results.length,
      cited_overlap: share((r) => r.overlap),
      cited_file: share((r) => r.fileHit),
      by_kind: Object.fromEntries([...new Set(results.map((r) => r.kind))].map((k) => {
        const rs = results.filter((r) => r.kind === k);
        return [k, { n: rs.length, cited_overlap: share((r) => r.overlap, rs), cited_file: share((r) => r.fileHit, rs) }];
      })),
      first_relevance_ms: { p50: ms(results.map((r) => r.relevanceMs), 0.5), p95: ms(results.map((r) => r.relevanceMs), 0.95) },
      first_delta_ms: { p50: ms(results.map((r) => r.deltaMs), 0.5), p95: ms(results.map((r) => r.deltaMs), 0.95) },
      total_ms: { p50: ms(results.map((r) => r.totalMs), 0.5), p95: ms(results.map((r) => r.totalMs), 0.95) },
      mean_answer_score: results.length ? Math.round((results.reduce((a, r) => a + r.score, 0) / results.length) * 1000) / 1000 : 0,
      answerer: 'extractive',
      retrieval: values.dense ? 'bm25+dense' : 'bm25',
    };
    if (values.json) process.stdout.write(JSON.stringify({ summary, rows: results }, null, 2) + '\n');
    else {
      process.stdout.write(
        [
          `qa bench: ${summary.n} questions (${casesFile}), ${summary.retrieval} retrieval, extractive answerer`,
          `  cited snippets overlap a reference span: ${(summary.cited_overlap * 100).toFixed(1)}%   (target ≥ 60%)`,
          `  cited snippets include a reference file: ${(summary.cited_file * 100).toFixed(1)}%`,
          ...Object.entries(summary.by_kind).map(([k, v]) => `    ${k.padEnd(10)} n=${v.n}  overlap ${(v.cited_overlap * 100).toFixed(1)}%  file ${(v.cited_file * 100).toFixed(1)}%`),
          `  first relevance frame: p50 ${summary.first_relevance_ms.p50} ms, p95 ${summary.first_relevance_ms.p95} ms   (target p95 ≤ 150 ms)`,
          `  first answer delta:    p50 ${summary.first_delta_ms.p50} ms, p95 ${summary.first_delta_ms.p95} ms`,
          `  whole answer:          p50 ${summary.total_ms.p50} ms, p95 ${summary.total_ms.p95} ms`,
          `  mean answer score: ${summary.mean_answer_score}`,
          '',
        ].join('\n'),
      );
    }
    return 0;
  },
});
