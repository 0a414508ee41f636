import type { Service } from '../core/service';
import type { Conversations } from '../qgpt/conversations';
import type { StreamManager, StreamRequest } from '../qgpt/stream';
import type { AnswerRun } from '../qgpt/answerer';
import type { Passage } from '../qgpt/seeds';
import { AskcodeError, invalid } from '../core/errors';
import { QgptStream } from '../protocol/stream';
import type { ConversationMessageRecord } from '../protocol/workspace';
import { QgptQuestion, QgptRelevance, type QuestionInputSchema } from '../protocol/qgpt';
import type { StreamInput } from '../qgpt/stream';
import { parseParams } from '../core/validation';
import { findRelevant, passagesOf, type In, type QgptDeps } from './qgpt';
import type { RelevanceInput } from './passages';
import { cleanExtras } from '../qgpt/answers';
import type { FlowInput } from '../qgpt/answerFlow';
import type { QGPTConversationMessage, RelevantQGPTSeed } from '../protocol/wire';
import * as path from 'node:path';
import { asksAboutTests, callSiteSymbol } from '../qgpt/intent';
import { bestFitting } from '../index/symbols';

export interface StreamDeps extends QgptDeps {
  streams: StreamManager;
  conversations: Conversations;
}

/**
 * `qgpt/stream`: relevance (the snippets, as one frame) then the answer's deltas, kept in the
 * conversation. The hits of the relevance step are the passages of the answer: nothing is looked
 * up again by id.
 */
export function registerStream(service: Service, deps: StreamDeps): void {
  service.register(QgptStream, (p, ctx) => deps.streams.handle(p as StreamInput, ctx, (r, input) => streamBody(deps, r, input)));
}

/**
 * "Where is X called?": the chunks that call X, from the symbol index (SymbolsReferences), searched
 * within the files that hold the calls. None when the question asks something else.
 */
async function callSitesOf(deps: StreamDeps, query: string, rel: Record<string, unknown>, signal: AbortSignal): Promise<{ seeds: RelevantQGPTSeed[]; passages: Passage[] }> {
  const sym = callSiteSymbol(query);
  if (!sym) return { seeds: [], passages: [] };
  try {
    // Of a class's method, the calls on that class's objects when there are any (`app.Listen`, not `net.Listen`).
    // Asked where it is tested, the tests' calls first, so the limit keeps them.
    const refs = bestFitting(await deps.index.findReferences(sym, { callsOnly: true, limit: 50, testsFirst: asksAboutTests(query) }), sym);
    const scope = Array.isArray(rel.paths) ? (rel.paths as string[]).map((p) => path.resolve(p)) : undefined;
    const files = [...new Set(refs.map((x) => x.path))].filter((f) => !scope || scope.some((s) => f === s || f.startsWith(s + path.sep))).slice(0, 8);
    if (!files.length) return { seeds: [], passages: [] };
    const found = await findRelevant(deps.index, { query, paths: files }, signal);
    const calls = found.passages.map((p, i) => ({ p, i })).filter(({ p }) => refs.some((x) => x.path === p.path && x.startLine >= (p.startLine ?? 0) && x.startLine <= (p.endLine ?? Infinity)));
    return { seeds: calls.map(({ i }) => found.seeds[i]!), passages: calls.map(({ p }) => p) };
  } catch (e) {
    deps.answers.options.log.debug(`call sites of ${sym}: ${String(e)}`);
    return { seeds: [], passages: [] };
  }
}

/** A stored conversation as QGPTConversation messages, most recent first (a follow-up as it was searched). */
async function history(deps: StreamDeps, conversation: string): Promise<QGPTConversationMessage[]> {
  try {
    const rec = await deps.conversations.get(conversation, 'conversation');
    return rec.messages_
      .filter((m) => m.role === 'USER' || m.role === 'ASSISTANT')
      .slice(-8)
      .reverse()
      .map((m) => ({ role: m.role, text: m.role === 'USER' ? (m.rewrittenQuery ?? m.text) : m.text }) as QGPTConversationMessage);
  } catch (e) {
    // A damaged conversation is said so; only an unknown id starts a new one (clients may name theirs).
    if (e instanceof AskcodeError && e.kind === 'conflict') throw e;
    return [];
  }
}

async function streamBody(deps: StreamDeps, r: StreamRequest, input: StreamInput): Promise<void> {
  const { answers, conversations } = deps;
  const hasRel = input.relevance != null;
  const hasQ = input.question != null;
  if (hasRel && hasQ) throw invalid("send either 'relevance' or 'question' in one input, not both (use relevance.options.question for both steps)", 'question');
  if (!hasRel && !hasQ) throw invalid("nothing to do: send 'question', 'relevance', 'stop' or 'reset'", 'question');
  const past = r.conversationGiven ? await history(deps, r.conversation) : [];
  let flowInput: FlowInput;
  // The body is checked here, not at the door: a bad one fails this request with a FAILED frame.
  if (hasRel) {
    const rel = parseParams(QgptRelevance.params, input.relevance, QgptRelevance.shape, 'relevance') as RelevanceInput;
    // Searched with the query the flow settles on (a follow-up rewritten with its history).
    const search = async (q: string) => {
      const found = await findRelevant(deps.index, { ...rel, query: q } as RelevanceInput, r.signal);
      const callSites = await callSitesOf(deps, q, rel as unknown as Record<string, unknown>, r.signal);
      // The symbol index's call sites come first (the flow orders callers before the definition).
      const seen = new Set(callSites.seeds.map((s) => s.id));
      const keep = found.seeds.map((s, i) => (seen.has(s.id) ? -1 : i)).filter((i) => i >= 0);
      const seeds = [...callSites.seeds, ...keep.map((i) => found.seeds[i]!)];
      const passages = [...callSites.passages, ...keep.map((i) => found.passages[i]!)].map((p, k) => ({ ...p, index: k }));
      return { seeds, passages };
    };
    flowInput = { query: rel.query, model: rel.model ?? undefined, history: past, search, wantAnswer: !!rel.options?.question, signal: r.signal };
  } else {
    const q = parseParams(QgptQuestion.params, input.question, QgptQuestion.shape, 'question') as In<typeof QuestionInputSchema>;
    flowInput = { query: q.query, model: q.model ?? undefined, history: past, passages: await passagesOf(deps, q.relevant, 'question.relevant'), wantAnswer: true, signal: r.signal };
  }
  const prepared = await answers.flow.start(flowInput, (seeds, extras) => {
    const shown = cleanExtras(extras);
    return r.send({ status: 'IN-PROGRESS', relevance: { relevant: { iterable: seeds } }, ...(shown ? { askcode: shown } : {}) });
  });
  if (!prepared) return;
  r.extras = prepared.extras;
  if (!prepared.run || r.ended) return;
  const run = prepared.run;
  const rewritten = prepared.extras.rewrittenQuery;
  await conversations.append(r.conversation, [{ role: 'USER', text: flowInput.query, ...(rewritten ? { rewrittenQuery: rewritten } : {}) }], flowInput.query, deps.index.folders());
  let text = '';
  for await (const delta of run.deltas) {
    if (!r.send({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: delta, score: run.score }] } } })) break;
    text += delta;
  }
  // Notices found while the answer streamed (a model that failed) ride on the terminal frame.
  r.extras = cleanExtras(prepared.extras);
  // A stopped answer is kept as far as it went; a reset one is dropped with the rest.
  if (!r.ended || r.endStatus === 'STOPPED') {
    await saveAnswer(conversations, r, run, prepared.passages, text).catch((e) => deps.answers.options.log.warn(`conversation ${r.conversation}: ${String(e)}`));
  }
}

async function saveAnswer(conversations: Conversations, r: StreamRequest, run: AnswerRun, passages: Passage[], text: string): Promise<void> {
  const complete = !r.ended;
  let score = run.score;
  if (complete) {
    const res = run.result();
    score = res.answers[0]?.score ?? score;
    text = res.text;
  }
  // Every reference the reader was shown, in the order shown: a reopened conversation reads the same.
  const cited = passages;
  // Stored as the caller's entry named it (relevance gives absolute paths, which the chat opens);
  // `p.path` was made relative to the workspace for the prompt and the answer's text.
  const relevant: NonNullable<ConversationMessageRecord['relevant']> = cited.map((p) => ({
    ...(p.id ? { id: p.id } : {}),
    ...(typeof p.entry?.path === 'string' && p.entry.path ? { path: p.entry.path } : p.path ? { path: p.path } : {}),
    ...(p.startLine !== undefined ? { startLine: p.startLine, endLine: p.endLine } : {}),
    ...(p.retrieval !== undefined ? { score: p.retrieval } : {}),
  }));
  await conversations.append(r.conversation, [{ role: 'ASSISTANT', text: complete ? text : `${text}\n\n(stopped)`, model: run.modelId, score, relevant }]);
}
