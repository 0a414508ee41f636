/**
 * One concern: the retrieval benchmark (`askcode bench retrieval`): work trees from bare git dirs,
 * the real core per tree, plain BM25 as the baseline, Recall@k / Acc@5 / MRR with intervals.
 */
// Registers `askcode bench retrieval` (see ../bench.ts).
import { promises as fs, appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { registerBench } from '../registry';
import { parse, openCore } from '../common';
import { QgptRelevance } from '../../protocol/qgpt';
import { Bm25, countTerms } from '../../index/bm25';
import { walk, looksIndexable, DEFAULT_MAX_FILE_SIZE } from '../../index/walker';
import { MAX_QUERY_CHARS } from '../../protocol/schema';
import { languageOf } from '../../index/languages';
import { chunkText } from '../../index/chunker';
import { terms, pathTerms } from '../../index/tokens';
import { parseQuery, MAX_QUERY_TERMS } from '../../index/query';
import type { RankParams } from '../../index/searchEngine';
import type { FusionMethod } from '../../index/fusion';
import { bootstrapCI, type Interval } from './stats';
import { DEFAULT_EMBEDDING_MODEL_ID, ASKCODE_STATIC_FOLDER } from '../../models/catalog';
import { EmbedCounter } from './indexHooks';

interface Row {
  id?: string;
  instance_id?: string;
  repo: string;
  query: string;
  relevant_files: string[];
  parent?: string;
  base_commit?: string;
  commit?: string;
  ref_commit?: string;
  exists_at_ref?: boolean;
}

interface Metrics {
  n: number;
  recall_at_1: number;
  recall_at_5: number;
  recall_at_10: number;
  acc_at_5: number;
  mrr: number;
  /** The most R@1 and R@5 could be: a row whose answer names n files scores at most k / n at k. */
  best_recall_at_1: number;
  best_recall_at_5: number;
  p50_ms: number;
  p95_ms: number;
}

const USAGE = `Usage: askcode bench retrieval --cases FILE.jsonl (--repo-dir DIR | --git-dir GITDIR | --eval-repos DIR)
                                --data-dir D [--json] [--max-rows N] [--embedder ID|PATH|none] [--fusion LIST] [--repo OWNER/NAME]

  --repo-dir DIR    index DIR once and ask every row of its repo (rows with exists_at_ref: false are skipped)
  --git-dir GITDIR  index each row at its parent / base_commit (work trees cached under the data dir)
  --eval-repos DIR  a folder of bare git dirs (<owner>+<name>/repo, <owner>/<name> or <name>.git):
                    commit-eval rows in cheap mode (ref_commit once), others at their own commit
  --compare-lancedb-fts  also rank with LanceDB's full-text index over the same code-aware terms
  --embedder M      embed with M (a model id or name, a model folder, or none) and print lexical-only and
                    hybrid side by side from one index; --dense: the default embedder
  --fusion LIST     hybrid variants to compare, e.g. rrf:1,rrf:0.5,score:0.3,rerank:0.5 (method:denseW[:k];
                    the weight holds for every text, questions included)
  --rank-params JSON  ranking overrides (RankParams in index/searchEngine.ts), for measuring a knob
  --dump FILE       one JSON line per row: relevant files, lexical and hybrid top 10 (to read the misses)
Prints Recall@1/5/10, Acc@5, MRR with 95% bootstrap intervals (R@1, R@5, MRR), p50/p95 query latency,
the best R@1 and R@5 any ranking could reach (a row naming n files scores at most k/n at k), and the
same for plain BM25 over whole files.`;

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

class Scorer {
  /** Per query, for the intervals. */
  readonly per: { r1: number[]; r5: number[]; rr: number[] } = { r1: [], r5: [], rr: [] };
  private r1 = 0;
  private r5 = 0;
  private r10 = 0;
  private acc5 = 0;
  private rr = 0;
  private best1 = 0;
  private best5 = 0;
  private n = 0;
  readonly times: number[] = [];
  add(ranked: string[], relevant: string[], ms: number): void {
    const rec = (k: number) => relevant.filter((f) => ranked.slice(0, k).includes(f)).length / relevant.length;
    const first = ranked.findIndex((f) => relevant.includes(f));
    this.n++;
    this.best1 += Math.min(1, 1 / relevant.length);
    this.best5 += Math.min(1, 5 / relevant.length);
    this.r1 += rec(1);
    this.r5 += rec(5);
    this.r10 += rec(10);
    this.acc5 += rec(5) === 1 ? 1 : 0;
    this.rr += first >= 0 ? 1 / (first + 1) : 0;
    this.times.push(ms);
    this.per.r1.push(rec(1));
    this.per.r5.push(rec(5));
    this.per.rr.push(first >= 0 ? 1 / (first + 1) : 0);
  }
  intervals(): { r1: Interval; r5: Interval; mrr: Interval } {
    return { r1: bootstrapCI(this.per.r1), r5: bootstrapCI(this.per.r5), mrr: bootstrapCI(this.per.rr) };
  }
  merge(o: Scorer): void {
    this.r1 += o.r1; this.r5 += o.r5; this.r10 += o.r10; this.acc5 += o.acc5; this.rr += o.rr; this.n += o.n;
    this.best1 += o.best1; this.best5 += o.best5;
    this.times.push(...o.times);
    this.per.r1.push(...o.per.r1);
    this.per.r5.push(...o.per.r5);
    this.per.rr.push(...o.per.rr);
  }
  metrics(): Metrics {
    const n = this.n || 1;
    const r = (x: number) => Math.round((x / n) * 1000) / 1000;
    return {
      n: this.n, recall_at_1: r(this.r1), recall_at_5: r(this.r5), recall_at_10: r(this.r10), acc_at_5: r(this.acc5), mrr: r(this.rr),
      best_recall_at_1: r(this.best1), best_recall_at_5: r(this.best5),
      p50_ms: Math.round(quantile(this.times, 0.5) * 10) / 10, p95_ms: Math.round(quantile(this.times, 0.95) * 10) / 10,
    };
  }
}

/** Plain BM25 over whole files, words lower-cased: the baseline the issue quotes. */
class PlainBm25 {
  private readonly idx = new Bm25();
  private readonly rels: string[] = [];
  static async build(dir: string): Promise<PlainBm25> {
    const p = new PlainBm25();
    for (const f of await walk(dir, { maxFileSize: DEFAULT_MAX_FILE_SIZE })) {
      const buf = await fs.readFile(f.abs);
      if (!looksIndexable(buf, f.rel)) continue;
      const words = buf.toString('utf8').toLowerCase().match(/[a-z0-9_]+/g) ?? [];
      p.idx.add(countTerms(words), words.length);
      p.rels.push(f.rel);
    }
    return p;
  }
  rank(query: string): string[] {
    const q = [...countTerms(query.toLowerCase().match(/[a-z0-9_]+/g) ?? [])].map(([term, w]) => ({ term, weight: w }));
    const { scores, touched } = this.idx.score(q);
    return [...touched].sort((a, b) => scores[b]! - scores[a]!).slice(0, 10).map((d) => this.rels[d]!);
  }
}

function findGitDir(root: string, repo: string): string | null {
  const [owner, name] = repo.split('/');
  for (const c of [`${owner}+${name}/repo`, `${owner}+${name}`, `${owner}/${name}`, `${name}.git`, name!]) {
    const p = path.join(root, c!);
    if (existsSync(path.join(p, 'HEAD')) || existsSync(path.join(p, '.git', 'HEAD'))) return p;
  }
  return null;
}

async function workTree(gitDir: string, commit: string, cacheDir: string): Promise<string> {
  const out = path.join(cacheDir, 'trees', `${path.basename(path.dirname(gitDir))}-${path.basename(gitDir)}@${commit.slice(0, 12)}`);
  if (existsSync(path.join(out, '.askcode-complete'))) return out;
  await fs.rm(out, { recursive: true, force: true });
  await fs.mkdir(out, { recursive: true });
  // `git archive | tar -x` writes nothing into the git dir (as ../shared/eval/README.md says).
  try {
    const tar = execFileSync('git', [`--git-dir=${gitDir}`, 'archive', '--format=tar', commit], { maxBuffer: 4 * 1024 ** 3, stdio: ['ignore', 'pipe', 'ignore'] });
    execFileSync('tar', ['-x', '-C', out], { input: tar, maxBuffer: 4 * 1024 ** 3, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    // A partial mirror may lack its largest blobs (data files); write every blob it has.
    await extractAvailable(gitDir, commit, out);
  }
  await fs.writeFile(path.join(out, '.askcode-complete'), commit);
  return out;
}

async function extractAvailable(gitDir: string, commit: string, out: string): Promise<void> {
  const list = execFileSync('git', [`--git-dir=${gitDir}`, 'ls-tree', '-r', '-z', commit], { maxBuffer: 1024 ** 3 }).toString('utf8');
  const entries = list.split('\0').filter(Boolean).map((l) => {
    const [meta, file] = l.split('\t') as [string, string];
    const [mode, type, sha] = meta.split(' ') as [string, string, string];
    return { mode, type, sha, file };
  }).filter((e) => e.type === 'blob' && e.mode !== '120000');
  const batch = execFileSync('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { input: entries.map((e) => e.sha).join('\n') + '\n', maxBuffer: 4 * 1024 ** 3 });
  let at = 0;
  for (const e of entries) {
    const nl = batch.indexOf(10, at);
    const header = batch.subarray(at, nl).toString('utf8');
    at = nl + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    const body = batch.subarray(at, at + size);
    at += size + 1;
    const dest = path.join(out, e.file);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    await fs.writeFile(dest, body);
  }
}

/**
 * LanceDB's own full-text index over the same code-aware terms (chunks, path and symbol terms,
 * whitespace tokenizer), files ranked by their best chunk: the measurement behind keeping BM25
 * postings in the worker instead (askcode's engine adds field weights, file-level BM25, path
 * scoring and test demotion in one pass).
 */
async function lanceFtsScorer(dir: string, dataDir: string, rows: Row[], into: Scorer): Promise<void> {
  const lance = await import('@lancedb/lancedb');
  const data: { path: string; terms: string }[] = [];
  for (const f of await walk(dir, { maxFileSize: DEFAULT_MAX_FILE_SIZE })) {
    const buf = await fs.readFile(f.abs);
    if (!looksIndexable(buf, f.rel)) continue;
    const lang = languageOf(f.rel);
    const p = pathTerms(f.rel);
    for (const c of await chunkText(buf.toString('utf8'), lang)) {
      data.push({ path: f.rel, terms: [...terms(c.text), ...(c.symbol ? terms(c.symbol) : []), ...p].join(' ') });
    }
  }
  const db = await lance.connect(path.join(dataDir, 'lancedb-fts-compare'));
  const t = await db.createTable('chunks', data, { mode: 'overwrite' });
  await t.createIndex('terms', { config: lance.Index.fts({ baseTokenizer: 'whitespace', lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false, maxTokenLength: 64 }) });
  for (const r of rows) {
    const parsed = parseQuery(r.query.slice(0, MAX_QUERY_CHARS));
    const qtext = parsed.terms.sort((a, b) => b.weight - a.weight).slice(0, MAX_QUERY_TERMS).map((x) => x.term).join(' ');
    const tq = process.hrtime.bigint();
    const hits = qtext ? ((await t.search(qtext, 'fts').select(['path']).limit(200).toArray()) as { path: string }[]) : [];
    const ms = Number(process.hrtime.bigint() - tq) / 1e6;
    const files: string[] = [];
    for (const h of hits) if (!files.includes(h.path)) files.push(h.path);
    into.add(files, r.relevant_files, ms);
  }
  db.close();
}

/** A hybrid variant: the ranking overrides it runs with. */
interface Variant {
  name: string;
  params: Partial<RankParams>;
}

/** `rrf:1,score:0.3,rerank:0.5:40` → variants (method:denseW[:rrfK or rerankK]). */
function parseFusion(list: string | undefined): Variant[] {
  if (!list) return [{ name: 'hybrid', params: {} }];
  return list.split(',').map((spec) => {
    const [m, w, k] = spec.split(':');
    if (!['rrf', 'score', 'rerank'].includes(m!)) throw new Error(`--fusion: unknown method '${m}' (rrf, score, rerank)`);
    // The variant's weight holds for every text, questions in prose included.
    const weight = w ? Number(w) : 1;
    const params: Partial<RankParams> = { fusion: m as FusionMethod, denseW: weight, questionDenseW: weight };
    if (k) Object.assign(params, m === 'rerank' ? { rerankK: Number(k) } : { rrfK: Number(k) });
    return { name: `hybrid ${spec}`, params };
  });
}

interface TreeRun {
  dir: string;
  rows: Row[];
  dataDir: string;
  /** Embedding model (id, name or folder name) or null for lexical only. */
  embedder: string | null;
  variants: Variant[];
  lexical: Scorer;
  hybrid: Scorer[];
  base: Scorer;
  log: (s: string) => void;
  fts?: Scorer;
  /** Seconds spent embedding, chunks embedded (throughput across trees). */
  embed: { s: number; n: number };
  /** `--rank-params`: overrides under every run, lexical and hybrid. */
  rankParams: Partial<RankParams>;
  /** `--dump`: one JSON line per row (its relevant files, lexical and hybrid top 10) for reading misses. */
  dump?: (line: object) => void;
}

/** Indexes `dir` with the real core and asks every row through `qgpt/relevance`, lexical and hybrid. */
async function runOnTree(t: TreeRun): Promise<void> {
  const { dir, rows, dataDir, log } = t;
  if (t.fts) await lanceFtsScorer(dir, dataDir, rows, t.fts);
  const counter = new EmbedCounter(Infinity);
  const core = await openCore({ dataDir, folders: [dir], autoIndex: false, embedding: counter.options });
  try {
    if (t.embedder) (core.options.settings ??= {}).embeddingModel = t.embedder;
    core.index.setDense(false);
    const t0 = Date.now();
    await core.index.indexAll();
    await core.index.whenIdle();
    let dense = false;
    if (t.embedder) {
      core.index.setDense(true);
      const before = counter.count;
      const te = Date.now();
      await core.index.embedNow();
      const n = counter.count - before;
      t.embed.s += (Date.now() - te) / 1000;
      t.embed.n += n;
      dense = !(await core.index.currentStatus()).bm25Only;
      if (!dense) throw new Error(`the embedding model '${t.embedder}' did not load (see the warning above)`);
    }
    const st = await core.index.currentStatus();
    log(`  indexed ${dir} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${st.chunks} chunks, ${st.embedded} with vectors)`);
    const plain = await PlainBm25.build(dir);
    const ask = async (query: string): Promise<{ files: string[]; ms: number }> => {
      const tq = process.hrtime.bigint();
      const out = await core.service.request(QgptRelevance, { query, paths: [dir], options: {} });
      const ms = Number(process.hrtime.bigint() - tq) / 1e6;
      const files: string[] = [];
      for (const s of out.relevant.iterable) {
        const rel = path.relative(dir, s.path ?? '').split(path.sep).join('/');
        if (!files.includes(rel)) files.push(rel);
      }
      return { files, ms };
    };
    const base = { ...t.rankParams };
    core.index.engine.rankOverrides = base;
    for (const r of rows) {
      // Issue texts past the product's query limit are cut to it, as a client would have to.
      const query = r.query.slice(0, MAX_QUERY_CHARS);
      core.index.setDense(false);
      const lx = await ask(query);
      t.lexical.add(lx.files, r.relevant_files, lx.ms);
      const hybridTop: string[][] = [];
      if (dense) {
        core.index.setDense(true);
        for (let i = 0; i < t.variants.length; i++) {
          core.index.engine.rankOverrides = { ...base, ...t.variants[i]!.params };
          const hy = await ask(query);
          t.hybrid[i]!.add(hy.files, r.relevant_files, hy.ms);
          hybridTop.push(hy.files.slice(0, 10));
        }
        core.index.engine.rankOverrides = base;
      }
      t.dump?.({ id: r.id ?? r.instance_id, repo: r.repo, query: r.query, relevant: r.relevant_files, lexical: lx.files.slice(0, 10), hybrid: hybridTop });
      const tb = process.hrtime.bigint();
      const pr = plain.rank(r.query);
      t.base.add(pr, r.relevant_files, Number(process.hrtime.bigint() - tb) / 1e6);
    }
  } finally {
    await core.dispose();
  }
}

function fmt(name: string, m: Metrics): string {
  return `${name.padEnd(22)} ${String(m.n).padStart(4)}  ${m.recall_at_1.toFixed(3)}  ${m.recall_at_5.toFixed(3)}  ${m.recall_at_10.toFixed(3)}  ${m.acc_at_5.toFixed(3)}  ${m.mrr.toFixed(3)}  ${m.p50_ms.toFixed(1).padStart(6)}  ${m.p95_ms.toFixed(1).padStart(6)}`;
}

const ci = (i: Interval) => `[${i.lo.toFixed(3)}, ${i.hi.toFixed(3)}]`;
function fmtCI(s: Scorer): string {
  const i = s.intervals();
  const m = s.metrics();
  // Where answers name several files, a perfect ranking still misses some at 1 (SWE-QA dev: at most 0.580).
  const best = m.best_recall_at_1 < 1 ? `\n${'  best possible'.padEnd(22)}       R@1 ${m.best_recall_at_1.toFixed(3)}  R@5 ${m.best_recall_at_5.toFixed(3)}  (a row naming n files scores at most k/n at k)` : '';
  return `${'  95% CI'.padEnd(22)}       R@1 ${ci(i.r1)}  R@5 ${ci(i.r5)}  MRR ${ci(i.mrr)}${best}`;
}

registerBench({
  name: 'retrieval',
  summary: 'Recall@1/5/10, Acc@5, MRR (95% intervals) and latency on an eval .jsonl, lexical and hybrid, against plain BM25 over whole files',
  usage: USAGE,
  async run(args) {
    const { values } = parse(args, {
      cases: { type: 'string' }, 'repo-dir': { type: 'string' }, 'git-dir': { type: 'string' }, 'eval-repos': { type: 'string' },
      'data-dir': { type: 'string' }, json: { type: 'boolean' }, 'max-rows': { type: 'string' }, dense: { type: 'boolean' },
      repo: { type: 'string' }, 'compare-lancedb-fts': { type: 'boolean' }, embedder: { type: 'string' }, fusion: { type: 'string' },
      'rank-params': { type: 'string' }, dump: { type: 'string' },
    });
    const rankParams = values['rank-params'] ? (JSON.parse(values['rank-params']) as Partial<RankParams>) : {};
    const evalRepos = values['eval-repos'] ?? process.env.ASKCODE_EVAL_REPOS;
    if (!values.cases || !values['data-dir'] || (!values['repo-dir'] && !values['git-dir'] && !evalRepos)) {
      process.stderr.write(USAGE + '\n');
      if (values.cases && existsSync(values.cases)) {
        const repos = [...new Set(readFileSync(values.cases, 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as Row).repo))];
        process.stderr.write(`\nNo repositories: set ASKCODE_EVAL_REPOS (or --eval-repos) to a folder holding a full bare clone of each of\n  ${repos.join(', ')}\nas <owner>+<name>/repo (e.g. git clone --bare <url> DIR/honojs+hono/repo).\n`);
      }
      return 2;
    }
    const dataDir = path.resolve(values['data-dir']);
    const log = (s: string) => process.stderr.write(s + '\n');
    // qa rows carry `question` where the others carry `query`.
    let rows: Row[] = readFileSync(values.cases, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Row & { question?: string })
      .map((r) => ({ ...r, query: r.query ?? r.question ?? '' }));
    if (values.repo) rows = rows.filter((r) => r.repo === values.repo);
    const maxRows = values['max-rows'] ? Number(values['max-rows']) : Infinity;
    // A folder is served as a folder model: its parent becomes the models dir, its name the setting.
    let embedder: string | null = values.embedder && values.embedder !== 'none' ? values.embedder : null;
    if (!embedder && values.dense && values.embedder !== 'none') embedder = DEFAULT_EMBEDDING_MODEL_ID;
    if (embedder && existsSync(path.join(embedder, 'config.json'))) {
      process.env.ASKCODE_MODELS_DIR = path.dirname(path.resolve(embedder));
      embedder = path.basename(path.resolve(embedder));
    }
    const variants = parseFusion(values.fusion);
    // The default model by its folder's name (askcode-code-static), not its catalog id.
    const embedderName = embedder === DEFAULT_EMBEDDING_MODEL_ID ? ASKCODE_STATIC_FOLDER : embedder;
    log(`mode: ${embedder ? `lexical and hybrid (embedder ${embedderName}; ${variants.map((v) => v.name).join(', ')})` : 'lexical only (--embedder none)'}`);
    type Set3 = { lexical: Scorer; hybrid: Scorer[]; base: Scorer; fts?: Scorer };
    const perRepo = new Map<string, Set3>();
    const compareFts = !!values['compare-lancedb-fts'];
    const scorers = (repo: string) => {
      let s = perRepo.get(repo);
      if (!s) perRepo.set(repo, (s = { lexical: new Scorer(), hybrid: variants.map(() => new Scorer()), base: new Scorer(), fts: compareFts ? new Scorer() : undefined }));
      return s;
    };
    const embed = { s: 0, n: 0 };
    const dumpFile = values.dump ? path.resolve(values.dump) : null;
    if (dumpFile) writeFileSync(dumpFile, '');
    const dump = dumpFile ? (line: object) => appendFileSync(dumpFile, JSON.stringify(line) + '\n') : undefined;
    const tree = (dir: string, use: Row[], s: Set3): TreeRun => ({
      dir, rows: use, dataDir: path.join(dataDir, 'index-data'), embedder, variants, lexical: s.lexical, hybrid: s.hybrid, base: s.base, log, fts: s.fts, embed, rankParams, dump,
    });

    if (values['repo-dir']) {
      const dir = path.resolve(values['repo-dir']);
      const use = rows.filter((r) => r.exists_at_ref !== false).filter((r) => r.relevant_files.every((f) => existsSync(path.join(dir, f)))).slice(0, maxRows);
      log(`${use.length} rows whose files exist in ${dir}`);
      await runOnTree(tree(dir, use, scorers(use[0]?.repo ?? path.basename(dir))));
    } else {
      const gitFor = (repo: string): string | null => (values['git-dir'] ? path.resolve(values['git-dir']) : findGitDir(path.resolve(evalRepos!), repo));
      const missing = [...new Set(rows.map((r) => r.repo))].filter((r) => !gitFor(r));
      if (missing.length) {
        log(`missing git dirs for: ${missing.join(', ')}`);
        log(`fetch a full clone of each public repository (e.g. git clone --bare https://<host>/${missing[0]}) into ${evalRepos ?? 'the --git-dir'} as <owner>+<name>/repo; those rows are skipped`);
        rows = rows.filter((r) => !missing.includes(r.repo));
      }
      // Group rows by (repo, commit to index): cheap mode for commit-eval under --eval-repos.
      const groups = new Map<string, Row[]>();
      for (const r of rows) {
        const cheap = !values['git-dir'] && r.ref_commit && r.exists_at_ref !== undefined;
        if (cheap && r.exists_at_ref === false) continue;
        const commit = cheap ? r.ref_commit! : (r.parent ?? r.base_commit ?? r.commit);
        if (!commit) continue;
        const key = `${r.repo}@${commit}`;
        const g = groups.get(key) ?? [];
        g.push(r);
        groups.set(key, g);
      }
      let budget = maxRows;
      for (const [key, g] of groups) {
        if (budget <= 0) break;
        const take = g.slice(0, budget);
        budget -= take.length;
        const [repo, commit] = key.split('@') as [string, string];
        const dir = await workTree(gitFor(repo)!, commit, dataDir);
        await runOnTree(tree(dir, take, scorers(repo)));
      }
    }

    const all: Set3 = { lexical: new Scorer(), hybrid: variants.map(() => new Scorer()), base: new Scorer() };
    for (const s of perRepo.values()) {
      all.lexical.merge(s.lexical);
      s.hybrid.forEach((h, i) => all.hybrid[i]!.merge(h));
      all.base.merge(s.base);
    }
    const head = `${'repo'.padEnd(22)}    n    R@1    R@5   R@10   Acc@5    MRR   p50ms   p95ms`;
    const table = (title: string, pick: (s: Set3) => Scorer) => {
      process.stdout.write(`\n${title}\n${head}\n`);
      for (const [repo, s] of perRepo) process.stdout.write(fmt(repo, pick(s).metrics()) + '\n');
      process.stdout.write(fmt('ALL', pick(all).metrics()) + '\n' + fmtCI(pick(all)) + '\n');
    };
    table('askcode, lexical only (BM25)', (s) => s.lexical);
    if (embedder) variants.forEach((v, i) => table(`askcode, ${v.name} (BM25 + ${embedderName})`, (s) => s.hybrid[i]!));
    table('plain BM25 over whole files (same run)', (s) => s.base);
    if (compareFts) table('LanceDB full-text index over the same code-aware terms, files by best chunk (same run)', (s) => s.fts!);
    if (embedder && embed.n) process.stdout.write(`\nembedded ${embed.n} chunks in ${embed.s.toFixed(1)} s (${Math.round(embed.n / embed.s)} chunks/s)\n`);
    if (values.json) {
      process.stdout.write(JSON.stringify({
        ...all.lexical.metrics(), ci: all.lexical.intervals(), baseline: all.base.metrics(),
        hybrid: embedder ? variants.map((v, i) => ({ name: v.name, ...all.hybrid[i]!.metrics(), ci: all.hybrid[i]!.intervals() })) : [],
      }) + '\n');
    }
    return 0;
  },
});
