/**
 * The `ask` tool: one `qgpt/stream` request (relevance over the served folders, then the answer),
 * its frames gathered into one result, answer deltas forwarded as MCP progress when the client
 * asked for progress, and the request stopped when the MCP call is cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { Core } from '../core/core';
import { AskcodeError } from '../core/errors';
import type { NotificationDef } from '../protocol/base';
import { QgptStream, QgptStreamOutputNotification } from '../protocol/stream';
import type { AnswerNotice, QGPTStreamOutput, RelevantQGPTSeed } from '../protocol/wire';
import { cite, snippetOf, type Snippet } from './render';

export interface AskInput {
  question: string;
  conversation?: string;
}

export interface AskOutput {
  answer: string;
  /** Pass back as `conversation` to ask a follow-up in the same conversation. */
  conversation: string;
  status: 'COMPLETED' | 'STOPPED';
  score?: number;
  /** The snippets the answer was drawn from, best first. */
  sources: Omit<Snippet, 'text'>[];
  notices: string[];
  rewrittenQuery?: string;
}

/** What the tool reports while the answer streams (MCP progress, when the client asked for it). */
export type Progress = (message: string) => void;

const STATUS_KIND: Record<number, AskcodeError['kind']> = { 400: 'invalid', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'too_large', 503: 'unavailable' };

export async function askQuestion(core: Core, input: AskInput, signal: AbortSignal, progress?: Progress): Promise<AskOutput> {
  const folders = core.index.folders();
  // A connection of its own per call: a stop sent for this call can only ever reach this request.
  const connection = `mcp-${randomUUID()}`;
  let relevant: RelevantQGPTSeed[] = [];
  let answer = '';
  let score: number | undefined;
  const notices: AnswerNotice[] = [];
  let rewrittenQuery: string | undefined;
  let end!: (f: QGPTStreamOutput) => void;
  const ended = new Promise<QGPTStreamOutput>((resolve) => (end = resolve));
  // Nothing more is reported once the call is cancelled: the client has forgotten its token.
  const report = (m: string) => void (signal.aborted || progress?.(m));
  const emit = <P>(def: NotificationDef<P>, params: P) => {
    if (def.method !== QgptStreamOutputNotification.method) return;
    const f = params as QGPTStreamOutput;
    if (f.askcode?.notices) notices.push(...f.askcode.notices);
    if (f.askcode?.rewrittenQuery) rewrittenQuery = f.askcode.rewrittenQuery;
    if (f.relevance) {
      relevant = f.relevance.relevant.iterable;
      const top = relevant.slice(0, 5).map((s) => snippetOf(s, folders)).filter((s): s is Snippet => !!s);
      report(top.length ? `found ${relevant.length} snippets: ${top.map((s) => cite(s.path, s.startLine, s.endLine)).join(', ')}` : 'no matching snippets');
    }
    const delta = f.question?.answers.iterable[0];
    if (delta) {
      answer += delta.text;
      score = delta.score;
      if (delta.text) report(delta.text);
    }
    if (f.status && f.status !== 'IN-PROGRESS' && f.status !== 'INITIALIZED') end(f);
  };
  progress?.('searching the served folders');
  const accepted = await core.service.request(
    QgptStream,
    {
      relevance: { query: input.question, options: { database: true, question: true } },
      ...(input.conversation ? { conversation: input.conversation } : {}),
    },
    { emit, connection, signal, origin: 'mcp' },
  );
  const stop = () => void core.service.request(QgptStream, { stop: true, request: accepted.request }, { emit, connection, origin: 'mcp' }).catch(() => {});
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  let last: QGPTStreamOutput;
  try {
    last = await ended;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (last.status === 'FAILED') {
    throw new AskcodeError(STATUS_KIND[last.statusCode ?? 500] ?? 'internal', last.errorMessage ?? 'the answer failed');
  }
  if (last.status === 'RESET' || last.status === 'CANCELED') throw new AskcodeError('cancelled', 'the answer was cancelled');
  return {
    answer,
    conversation: accepted.conversation,
    status: last.status === 'STOPPED' ? 'STOPPED' : 'COMPLETED',
    ...(score !== undefined ? { score } : {}),
    sources: relevant
      .map((s) => snippetOf(s, folders))
      .filter((s): s is Snippet => !!s)
      .slice(0, 10)
      .map(({ text: _t, ...rest }) => rest),
    notices: notices.map((n) => n.message),
    ...(rewrittenQuery ? { rewrittenQuery } : {}),
  };
}

export function askText(out: AskOutput): string {
  const lines = [out.answer.trim() || '(no answer)'];
  if (out.status === 'STOPPED') lines.push('', '(stopped before the end)');
  if (out.sources.length) {
    lines.push('', 'Sources:');
    for (const s of out.sources) lines.push(`- ${cite(s.path, s.startLine, s.endLine)}${s.symbol ? ` · ${s.symbol}` : ''} (score ${s.score.toFixed(2)})`);
  }
  if (out.notices.length) lines.push('', ...out.notices.map((n) => `Note: ${n}`));
  if (out.rewrittenQuery) lines.push('', `Searched for: ${out.rewrittenQuery}`);
  lines.push('', `conversation: ${out.conversation} (pass it as \`conversation\` to ask a follow-up)`);
  return lines.join('\n');
}
