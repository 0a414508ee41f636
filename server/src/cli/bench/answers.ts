// Registers `askcode bench answers` (see ../bench.ts).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { registerBench } from '../registry';
import { parse, openCore } from '../common';
import type { Core } from '../../core/core';
import { QgptStream, QgptStreamOutputNotification } from '../../protocol/stream';
import type { NotificationDef } from '../../protocol/base';
import type { QGPTStreamOutput } from '../../protocol/wire';
import { treeFor } from './qa';
import { DEFAULT_EMBEDDING_MODEL_ID, ASKCODE_STATIC_FOLDER } from '../../models/catalog';

/**
 * Does the answer a person reads cite the right place first? For each question the answer is
 * asked through `qgpt/stream` (relevance with options.question, as the chat asks) and the first
 * place the answer cites — the first entry of the assistant message's `relevant` as the
 * conversation stores it — is checked against the row's `relevant_files` and `relevant_spans`.
 *
 * The follow-up set: each dev question is asked, then, in the same conversation, a follow-up that
 * names nothing and refers back with a pronoun (one of FOLLOW_UPS, picked by the row's position),
 * whose gold is the first question's files and spans. A follow-up searched on its own words finds
 * nothing related; one rewritten with its history should find what the first answer found.
 */

interface Row {
  id: string;
  repo: string;
  commit: string;
  ref_commit?: string;
  question?: string;
  query?: string;
  relevant_files: string[];
  relevant_spans?: { file: string; start: number; end: number }[];
}

export const FOLLOW_UPS = [
  'Where is that implemented?',
  'Which file does that?',
  'and where does it happen in the code?',
  'Show me the code for that.',
];

const USAGE = `Usage: askcode bench answers [--sets sweqa,qa] [--eval DIR] [--trees DIR] [--eval-repos DIR]
                            [--data-dir DIR] [--max-rows N] [--embedder MODEL|none] [--no-follow-ups] [--json]

  --sets          which dev sets (default sweqa,qa: sweqa.dev.jsonl and qa.dev.jsonl under --eval)
  --eval          the evaluation data folder (default ../shared/eval)
  --trees         work trees named <owner>+<name>@<commit12> (default .bench/trees)
  --eval-repos    bare git dirs (<owner>+<name>/repo) to extract missing trees from (default ASKCODE_EVAL_REPOS)
  --data-dir      where the indexes live (default .bench/answers/data)
  --max-rows N    the first N rows of each set
  --embedder      the embedding model of the hybrid retrieval (default: the product's default,
                  askcode-code-static); none: BM25 retrieval only

Prints, per set, the share of answers whose first cited place is in relevant_files, and whose
first cited place overlaps a relevant span (qa only: sweqa has no spans); then the same for the
follow-up of each question (the extractive answerer over the product's retrieval).`;

interface Cited {
  file?: string;
  start?: number;
  end?: number;
}

interface Turn {
  cited?: Cited;
  rewritten?: string;
  status: string;
}

async function ask(core: Core, tree: string, query: string, conversation: string): Promise<Turn> {
  let rewritten: string | undefined;
  const end = await new Promise<QGPTStreamOutput>((resolve, reject) => {
    const emit = <P>(def: NotificationDef<P>, p: P) => {
      if (def.method !== QgptStreamOutputNotification.method) return;
      const f = p as QGPTStreamOutput;
      const extras = (f as { askcode?: { rewrittenQuery?: string } }).askcode;
      if (extras?.rewrittenQuery) rewritten = extras.rewrittenQuery;
      if (f.status && f.status !== 'IN-PROGRESS') resolve(f);
    };
    core.service
      .request(QgptStream, { conversation, relevance: { query, paths: [tree], options: { question: true } } }, { emit, connection: 'bench' })
      .catch(reject);
  });
  const rec = await core.conversations.get(conversation).catch(() => null);
  const last = rec?.messages_.filter((m) => m.role === 'ASSISTANT').at(-1);
  const first = last?.relevant?.[0];
  let cited: Cited | undefined;
  if (first?.path) {
    const rel = path.isAbsolute(first.path) ? path.relative(tree, first.path).split(path.sep).join('/') : first.path;
    cited = { file: rel, start: first.startLine, end: first.endLine };
  }
  return { cited, rewritten, status: end.status ?? 'UNKNOWN' };
}

function hits(row: Row, c: Cited | undefined): { file: boolean; span: boolean } {
  if (!c?.file) return { file: false, span: false };
  const file = row.relevant_files.includes(c.file);
  const span = (row.relevant_spans ?? []).some((s) => s.file === c.file && (c.start === undefined || (c.start <= s.end && s.start <= (c.end ?? c.start))));
  return { file, span };
}

interface SetResult {
  set: string;
  n: number;
  spans: boolean;
  first_file: number;
  first_span?: number;
  followup_file: number;
  followup_span?: number;
}

registerBench({
  name: 'answers',
  summary: "share of answers whose first cited place is a reference file / span, for questions and follow-ups",
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      sets: { type: 'string', default: 'sweqa,qa' }, eval: { type: 'string' }, trees: { type: 'string' }, 'eval-repos': { type: 'string' },
      'data-dir': { type: 'string' }, 'max-rows': { type: 'string' }, 'no-follow-ups': { type: 'boolean' }, json: { type: 'boolean' },
      embedder: { type: 'string' },
    });
    const embedder = values.embedder === 'none' ? null : (values.embedder ?? DEFAULT_EMBEDDING_MODEL_ID);
    const embedderName = values.embedder ?? (DEFAULT_EMBEDDING_MODEL_ID === embedder ? ASKCODE_STATIC_FOLDER : embedder);
    const evalDir = path.resolve(values.eval ?? '../shared/eval');
    const treesDir = path.resolve(values.trees ?? '.bench/trees');
    const dataDir = path.resolve(values['data-dir'] ?? '.bench/answers/data');
    const evalRepos = values['eval-repos'] ?? process.env.ASKCODE_EVAL_REPOS;
    const followUps = !values['no-follow-ups'];
    const log = (s: string) => process.stderr.write(s + '\n');
    const out: SetResult[] = [];
    for (const set of values.sets!.split(',').map((s) => s.trim()).filter(Boolean)) {
      let rows = readFileSync(path.join(evalDir, `${set}.dev.jsonl`), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Row);
      if (values['max-rows']) rows = rows.slice(0, Number(values['max-rows']));
      const byTree = new Map<string, Row[]>();
      for (const r of rows) {
        const key = `${r.repo}@${r.ref_commit ?? r.commit}`;
        byTree.set(key, [...(byTree.get(key) ?? []), r]);
      }
      let n = 0;
      const got = { file: 0, span: 0, fFile: 0, fSpan: 0 };
      const spans = rows.some((r) => r.relevant_spans?.length);
      let k = 0;
      for (const group of byTree.values()) {
        const g0 = group[0]!;
        const tree = await treeFor({ repo: g0.repo, commit: g0.ref_commit ?? g0.commit }, treesDir, evalRepos ? path.resolve(evalRepos) : undefined);
        const core = await openCore({ dataDir, folders: [tree], autoIndex: false });
        try {
          if (embedder) (core.options.settings ??= {}).embeddingModel = embedder;
          core.index.setDense(embedder !== null);
          await core.index.indexAll();
          await core.index.whenIdle();
          const st = core.index.status();
          if (embedder && (st.bm25Only || !st.embedded)) throw new Error(`the embedding model '${embedder}' did not load (see the warning above)`);
          log(`${set}: indexed ${path.basename(tree)} (${st.chunks} chunks, ${st.embedded} with vectors)`);
          for (const row of group) {
            const conversation = randomUUID();
            const q = row.question ?? row.query ?? '';
            const a = await ask(core, tree, q, conversation);
            const h = hits(row, a.cited);
            n++;
            if (h.file) got.file++;
            if (h.span) got.span++;
            let line = `  ${h.span ? 'span' : h.file ? 'file' : 'miss'} ${row.id}  ${a.cited?.file ?? '-'}:${a.cited?.start ?? ''}`;
            if (followUps) {
              const fq = FOLLOW_UPS[k % FOLLOW_UPS.length]!;
              const b = await ask(core, tree, fq, conversation);
              const fh = hits(row, b.cited);
              if (fh.file) got.fFile++;
              if (fh.span) got.fSpan++;
              line += `  | follow-up ${fh.span ? 'span' : fh.file ? 'file' : 'miss'} ${b.cited?.file ?? '-'}${b.rewritten ? `  «${b.rewritten.slice(0, 80)}»` : ''}`;
            }
            k++;
            log(line);
          }
        } finally {
          await core.dispose();
        }
      }
      const pct = (x: number) => (n ? Math.round((x / n) * 1000) / 10 : 0);
      out.push({
        set, n, spans,
        first_file: pct(got.file), ...(spans ? { first_span: pct(got.span) } : {}),
        followup_file: followUps ? pct(got.fFile) : NaN, ...(spans && followUps ? { followup_span: pct(got.fSpan) } : {}),
      });
    }
    if (values.json) process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    else {
      process.stdout.write([`answers bench (${embedder ? `hybrid retrieval with ${embedderName}` : 'BM25 retrieval'}, extractive answerer): first cited place`].concat(out.map((r) =>
        `  ${r.set.padEnd(6)} n=${r.n}  in relevant_files ${r.first_file}%${r.spans ? `, overlaps relevant_spans ${r.first_span}%` : ''}` +
        (followUps ? `   follow-up: files ${r.followup_file}%${r.spans ? `, spans ${r.followup_span}%` : ''}` : ''),
      )).join('\n') + '\n');
    }
    return 0;
  },
});
