import type { Service } from '../core/service';
import type { ChatMessage } from '../core/interfaces';
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

async function history(deps: StreamDeps, conversation: string): Promise<ChatMessage[]> {
  try {
    const rec = await deps.conversations.get(conversation, 'conversation');
    return rec.messages_
      .filter((m) => m.role === 'USER' || m.role === 'ASSISTANT')
      .slice(-8)
      .reverse()
      .map((m) => ({ role: m.role === 'USER' ? 'user' : 'assistant', content: m.text }));
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
  let query: string;
  let model: string | undefined;
  let passages: Passage[];
  // The body is checked here, not at the door: a bad one fails this request with a FAILED frame.
  if (hasRel) {
    const rel = parseParams(QgptRelevance.params, input.relevance, QgptRelevance.shape, 'relevance') as RelevanceInput;
    query = rel.query;
    model = rel.model ?? undefined;
    const found = await findRelevant(deps.index, rel, r.signal);
    if (!r.send({ status: 'IN-PROGRESS', relevance: { relevant: { iterable: found.seeds } } })) return;
    if (!rel.options?.question) return;
    passages = answers.relativize(found.passages);
  } else {
    const q = parseParams(QgptQuestion.params, input.question, QgptQuestion.shape, 'question') as In<typeof QuestionInputSchema>;
    query = q.query;
    model = q.model ?? undefined;
    passages = await passagesOf(deps, q.relevant, 'question.relevant');
  }
  if (r.ended) return;
  const past = r.conversationGiven ? await history(deps, r.conversation) : [];
  const run = await answers.start(query, passages, model, r.signal, past);
  await conversations.append(r.conversation, [{ role: 'USER', text: query }], query);
  let text = '';
  for await (const delta of run.deltas) {
    if (!r.send({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: delta, score: run.score }] } } })) break;
    text += delta;
  }
  // A stopped answer is kept as far as it went; a reset one is dropped with the rest.
  if (!r.ended || r.endStatus === 'STOPPED') {
    await saveAnswer(conversations, r, run, passages, text).catch((e) => deps.answers.options.log.warn(`conversation ${r.conversation}: ${String(e)}`));
  }
}

async function saveAnswer(conversations: Conversations, r: StreamRequest, run: AnswerRun, passages: Passage[], text: string): Promise<void> {
  const complete = !r.ended;
  let score = run.score;
  let cited = passages;
  if (complete) {
    const res = run.result();
    score = res.answers[0]?.score ?? score;
    cited = res.cited;
    text = res.text;
  }
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
