import * as path from 'node:path';
import { registerCommand } from './registry';
import { parse, openCore, requireFolder, withProgress } from './common';
import { invalid, notFound, AskcodeError } from '../core/errors';
import { Id } from '../protocol/schema';
import { QgptStream, QgptStreamOutputNotification } from '../protocol/stream';
import type { NotificationDef } from '../protocol/base';
import type { QGPTStreamOutput, RelevantQGPTSeed } from '../protocol/wire';

const USAGE = `Usage: askcode ask "question" [--path FOLDER] [--conversation ID] [--model ID] [--json] [--data-dir DIR]

Indexes FOLDER (default: the current folder) if needed, finds the relevant snippets and streams
the answer to stdout; the relevant snippets, notices and the conversation id go to stderr.
Without --model the default answerer is used (the built-in extractive answerer unless a
language model is set as the default).

  --conversation ID  ask a follow-up in that conversation ("and where is that called?" is
                     rewritten with its history); the id is printed after every answer
  --json             print one JSON object at the end instead of streaming text`;

/** The answer's collapsed sources as a terminal shows them (no HTML). */
function forTerminal(text: string): string {
  return text.replace(/<details><summary>([^<]*)<\/summary>\n?/g, '$1:').replace(/\n?<\/details>/g, '');
}

function where(s: RelevantQGPTSeed, base: string): string {
  const p = s.path ? (path.isAbsolute(s.path) ? path.relative(base, s.path) || s.path : s.path) : 'snippet';
  return s.askcode ? `${p}:${s.askcode.startLine}-${s.askcode.endLine}` : p;
}

/** How long `ask` waits for the embeddings of a new or changed tree before answering. */
const EMBED_WAIT_MS = 20_000;

registerCommand({
  name: 'ask',
  summary: 'ask a question about a folder; streams a cited answer',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parse(
      args,
      { path: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' }, 'data-dir': { type: 'string' }, conversation: { type: 'string' } },
      true,
    );
    const query = positionals.join(' ').trim();
    if (!query) throw invalid('give a question: askcode ask "question" [--path FOLDER]');
    const folder = requireFolder(values.path ?? process.cwd());
    const target = folder;
    const json = values.json ?? false;
    const core = await openCore({ dataDir: values['data-dir'], folders: [folder] });
    // A mistyped id would start a new, empty conversation under it, and the follow-up would be
    // answered without its history. (A malformed id is the stream's to refuse, by its schema.)
    const asked = values.conversation;
    if (asked && Id.safeParse(asked).success && !(await core.conversations.exists(asked))) {
      await core.dispose();
      throw notFound(`conversation '${asked}' does not exist: leave out --conversation to start a new one (each answer prints its conversation's id)`);
    }
    // The lexical pass makes the folder searchable; unchanged files are skipped on the next run.
    // Then the embeddings, so the first answer is hybrid: the built-in model embeds a large tree in
    // seconds. A slower model is waited for at most EMBED_WAIT_MS; the answer then uses the vectors
    // written so far (kept by content, so the next run goes on from there).
    await withProgress(core, async () => {
      await core.index.indexAll();
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        core.index.whenIdle().then(() => true),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), EMBED_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!waited && !values.json) {
        const st = await core.index.currentStatus();
        process.stderr.write(`askcode: answering with ${st.embedded} of ${st.chunks} chunks embedded; the rest is embedded on the next run\n`);
      }
    });
    const err = (s: string) => process.stderr.write(s);
    let relevant: RelevantQGPTSeed[] = [];
    let extras: QGPTStreamOutput['askcode'];
    let text = '';
    let score: number | undefined;
    let conversation = values.conversation ?? '';
    const t0 = performance.now();
    let firstDelta: number | undefined;
    try {
      const end = await new Promise<QGPTStreamOutput>((resolve, reject) => {
        const emit = <P>(def: NotificationDef<P>, p: P) => {
          if (def.method !== QgptStreamOutputNotification.method) return;
          const f = p as QGPTStreamOutput;
          if (f.relevance) {
            relevant = f.relevance.relevant.iterable;
            if (!json && f.askcode?.rewrittenQuery) err(`askcode: searched as: ${f.askcode.rewrittenQuery}\n`);
            if (!json) for (const n of f.askcode?.notices ?? []) err(`askcode: ${n.message}\n`);
          }
          if (f.askcode) extras = { ...extras, ...f.askcode };
          const a = f.question?.answers.iterable[0];
          if (a) {
            firstDelta ??= performance.now();
            text += a.text;
            score = a.score;
            if (!json) process.stdout.write(forTerminal(a.text));
          }
          if (f.status && f.status !== 'IN-PROGRESS') resolve(f);
        };
        const started = core.service.request(
          QgptStream,
          {
            ...(values.conversation ? { conversation: values.conversation } : {}),
            relevance: { query, paths: [target], options: { question: true }, ...(values.model ? { model: values.model } : {}) },
          },
          { emit, connection: 'cli' },
        );
        started.then((acc) => {
          conversation = acc.conversation;
          // Ctrl-C stops the answer cleanly (a STOPPED frame), a second one exits.
          process.once('SIGINT', () => void core.service.request(QgptStream, { stop: true, request: acc.request }, { emit, connection: 'cli' }));
        }, reject);
      });
      const took = ((firstDelta ?? performance.now()) - t0) / 1000;
      if (json) {
        process.stdout.write(
          JSON.stringify(
            {
              query,
              conversation,
              ...(extras?.rewrittenQuery ? { rewrittenQuery: extras.rewrittenQuery } : {}),
              ...(extras?.notices?.length ? { notices: extras.notices } : {}),
              status: end.status,
              ...(end.errorMessage ? { error: end.errorMessage } : {}),
              answer: text,
              score,
              relevant: relevant.map((s) => ({ place: where(s, folder), symbol: s.askcode?.symbol, score: s.askcode?.score, signals: s.askcode?.scores })),
            },
            null,
            2,
          ) + '\n',
        );
      } else {
        if (!text.endsWith('\n')) process.stdout.write('\n');
        // Everything but the answer goes to stderr, so `askcode ask … > answer.md` keeps the answer alone.
        for (const n of (extras?.notices ?? []).filter((n) => n.kind === 'model-unavailable')) err(`askcode: ${n.message}\n`);
        if (relevant.length) {
          err('\nRelevant snippets:\n');
          for (const s of relevant.slice(0, 10)) {
            err(`  ${(s.askcode?.score ?? 0).toFixed(2)}  ${where(s, folder)}${s.askcode?.symbol ? `  (${s.askcode.symbol})` : ''}\n`);
          }
        }
        if (score !== undefined) err(`\nanswer score ${score.toFixed(2)} · first words after ${took.toFixed(2)} s\n`);
        if (conversation) err(`conversation ${conversation} (follow up with: askcode ask --conversation ${conversation} "…")\n`);
      }
      if (end.status === 'FAILED') throw new AskcodeError(end.statusCode === 404 ? 'not_found' : end.statusCode === 400 ? 'invalid' : 'internal', end.errorMessage ?? 'the answer failed');
      return end.status === 'COMPLETED' ? 0 : 130;
    } finally {
      await core.dispose();
    }
  },
});
