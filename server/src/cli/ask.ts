import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { registerCommand } from './registry';
import { parse, openCore } from './common';
import { invalid, notFound, AskcodeError } from '../core/errors';
import { QgptStream, QgptStreamOutputNotification } from '../protocol/stream';
import type { NotificationDef } from '../protocol/base';
import type { QGPTStreamOutput, RelevantQGPTSeed } from '../protocol/wire';

const USAGE = `Usage: askcode ask "question" [--path FOLDER] [--model ID] [--json] [--data-dir DIR]

Indexes FOLDER (default: the current folder) if needed, finds the relevant snippets and streams
the answer with the cited snippets and their scores. Without --model the default answerer is used
(the built-in extractive answerer unless a language model is set as the default).

  --json   print one JSON object at the end instead of streaming text`;

function where(s: RelevantQGPTSeed, base: string): string {
  const p = s.path ? (path.isAbsolute(s.path) ? path.relative(base, s.path) || s.path : s.path) : 'snippet';
  return s.askcode ? `${p}:${s.askcode.startLine}-${s.askcode.endLine}` : p;
}

registerCommand({
  name: 'ask',
  summary: 'ask a question about a folder; streams a cited answer',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parse(
      args,
      { path: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
      true,
    );
    const query = positionals.join(' ').trim();
    if (!query) throw invalid('give a question: askcode ask "question" [--path FOLDER]');
    const target = path.resolve(values.path ?? process.cwd());
    const st = await fs.stat(target).catch(() => null);
    if (!st) throw notFound(`no such file or folder: ${target}`, 'path');
    const folder = st.isDirectory() ? target : path.dirname(target);
    const json = values.json ?? false;
    const core = await openCore({ dataDir: values['data-dir'], folders: [folder] });
    // The lexical pass makes the folder searchable; unchanged files are skipped on the next run.
    await core.index.indexAll();
    let relevant: RelevantQGPTSeed[] = [];
    let text = '';
    let score: number | undefined;
    const t0 = performance.now();
    let firstDelta: number | undefined;
    try {
      const end = await new Promise<QGPTStreamOutput>((resolve, reject) => {
        const emit = <P>(def: NotificationDef<P>, p: P) => {
          if (def.method !== QgptStreamOutputNotification.method) return;
          const f = p as QGPTStreamOutput;
          if (f.relevance) relevant = f.relevance.relevant.iterable;
          const a = f.question?.answers.iterable[0];
          if (a) {
            firstDelta ??= performance.now();
            text += a.text;
            score = a.score;
            if (!json) process.stdout.write(a.text);
          }
          if (f.status && f.status !== 'IN-PROGRESS') resolve(f);
        };
        const started = core.service.request(
          QgptStream,
          { relevance: { query, paths: [target], options: { question: true }, ...(values.model ? { model: values.model } : {}) } },
          { emit, connection: 'cli' },
        );
        started.then((acc) => {
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
              status: end.status,
              ...(end.errorMessage ? { error: end.errorMessage } : {}),
              answer: text,
              score,
              relevant: relevant.map((s) => ({ place: where(s, folder), symbol: s.askcode?.symbol, score: s.askcode?.score })),
            },
            null,
            2,
          ) + '\n',
        );
      } else {
        if (!text.endsWith('\n')) process.stdout.write('\n');
        if (relevant.length) {
          process.stdout.write('\nRelevant snippets:\n');
          for (const s of relevant.slice(0, 10)) {
            process.stdout.write(`  ${(s.askcode?.score ?? 0).toFixed(2)}  ${where(s, folder)}${s.askcode?.symbol ? `  (${s.askcode.symbol})` : ''}\n`);
          }
        }
        if (score !== undefined) process.stdout.write(`\nanswer score ${score.toFixed(2)} · first words after ${took.toFixed(2)} s\n`);
      }
      if (end.status === 'FAILED') throw new AskcodeError(end.statusCode === 404 ? 'not_found' : end.statusCode === 400 ? 'invalid' : 'internal', end.errorMessage ?? 'the answer failed');
      return end.status === 'COMPLETED' ? 0 : 130;
    } finally {
      await core.dispose();
    }
  },
});
