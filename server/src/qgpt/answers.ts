import * as path from 'node:path';
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ChatMessage, ModelHub, Retriever, QuestionAnswerer } from '../core/interfaces';
import { AskcodeError, invalid } from '../core/errors';
import { QgptQuestion, QgptReprompt, QgptHints, QgptPersonsRelated } from '../protocol/qgpt';
import { QgptStream } from '../protocol/stream';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete, type ConversationMessageRecord } from '../protocol/workspace';
import type {
  QGPTQuestionInput, QGPTQuestionOutput, QGPTRepromptOutput, QGPTPersonsRelatedOutput, QGPTRelevanceInput,
} from '../protocol/wire';
import { Conversations } from './conversations';
import { relativize, resolveRelevant, seedFragment, type Passage } from './seeds';
import { startAnswer, collectAnswer } from './answerer';
import { conversationMessages, repromptRules, repromptWithModel } from './reprompt';
import { hintsRules, hintsWithModel } from './hints';
import { gitRoot, locateFragment, personsFor, targetsFromConversation, type Target } from './persons';
import { StreamManager, type StreamRequest } from './stream';
import { isObject, optionalBoolean, optionalModel, optionalString, requireObject, requireQuery, describe } from './validate';

/**
 * QGPT phase 2 and around it: question, reprompt, hints, persons-related, conversations and the
 * multiplexed stream. Each works with no language model (the extractive answerer, rules, git)
 * and uses one when the input or the user's default names it.
 */
export class Answers implements QuestionAnswerer {
  readonly conversations: Conversations;
  private readonly streams: StreamManager;
  private readonly inflight = new Set<AbortController>();

  private constructor(readonly options: CoreOptions, readonly service: Service, readonly hub: ModelHub, readonly retriever: Retriever) {
    this.conversations = new Conversations(path.join(options.dataDir, 'conversations'), options.log);
    this.streams = new StreamManager((r, input) => this.streamBody(r, input), options.log);
  }

  static async create(options: CoreOptions, service: Service, hub: ModelHub, retriever: Retriever): Promise<Answers> {
    const a = new Answers(options, service, hub, retriever);
    a.registerHandlers();
    return a;
  }

  private registerHandlers(): void {
    const s = this.service;
    s.register(QgptQuestion, (p, ctx) => this.question(p, ctx.signal));
    s.register(QgptReprompt, (p, ctx) => this.reprompt(p, ctx.signal));
    s.register(QgptHints, (p, ctx) => this.hints(p, ctx.signal));
    s.register(QgptPersonsRelated, (p, ctx) => this.personsRelated(p, ctx.signal));
    s.register(QgptStream, (p, ctx) => this.streams.handle(p, ctx));
    s.register(ConversationsList, () => this.conversations.list());
    s.register(ConversationsGet, (p) => this.conversations.get(requireObject(p, 'params').id));
    s.register(ConversationsRename, (p) => {
      const o = requireObject(p, 'params');
      return this.conversations.rename(o.id, o.name);
    });
    s.register(ConversationsDelete, async (p) => {
      await this.conversations.delete(requireObject(p, 'params').id);
      return null;
    });
  }

  /** Ties a call's signal to dispose(), so shutting down never waits on a long generation. */
  private linked(signal?: AbortSignal): { signal: AbortSignal; done: () => void } {
    const ac = new AbortController();
    const onAbort = () => ac.abort(signal?.reason);
    if (signal?.aborted) ac.abort(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.inflight.add(ac);
    return {
      signal: ac.signal,
      done: () => {
        signal?.removeEventListener('abort', onAbort);
        this.inflight.delete(ac);
      },
    };
  }

  // ---- question ----------------------------------------------------------------------------

  private async passages(relevant: unknown, field: string): Promise<Passage[]> {
    return relativize(await resolveRelevant(relevant, this.retriever, field), this.retriever.folders());
  }

  /** Validates and answers a QGPTQuestionInput (also called by qgpt/relevance with options.question). */
  async question(input: QGPTQuestionInput | unknown, signal?: AbortSignal, field = ''): Promise<QGPTQuestionOutput> {
    const f = (k: string) => (field ? `${field}.${k}` : k);
    const o = requireObject(input, field || 'params');
    const query = requireQuery(o.query, f('query'));
    const model = optionalModel(o.model, f('model'));
    const passages = await this.passages(o.relevant, f('relevant'));
    const l = this.linked(signal);
    try {
      const run = await startAnswer(this.hub, query, passages, model, l.signal);
      const { answers } = await collectAnswer(run);
      return { answers: { iterable: answers } };
    } finally {
      l.done();
    }
  }

  // ---- reprompt ----------------------------------------------------------------------------

  async reprompt(input: unknown, signal?: AbortSignal): Promise<QGPTRepromptOutput> {
    const o = requireObject(input, 'params');
    const query = requireQuery(o.query);
    if (o.conversation === undefined || o.conversation === null) throw invalid("conversation is required (send {} for no history)", 'conversation');
    const history = conversationMessages(o.conversation);
    const model = optionalModel(o.model);
    const generator = await this.hub.getGenerator(model);
    if (generator && history.length) {
      const l = this.linked(signal);
      try {
        const rewritten = await repromptWithModel(generator, query, history, l.signal);
        if (rewritten) return { query: rewritten };
      } finally {
        l.done();
      }
    }
    return { query: repromptRules(query, history) };
  }

  // ---- hints -------------------------------------------------------------------------------

  async hints(input: unknown, signal?: AbortSignal): Promise<QGPTQuestionOutput> {
    const o = requireObject(input, 'params');
    const previous = optionalString(o.query, 'query');
    let answer: string | undefined;
    if (o.answer !== undefined && o.answer !== null) {
      if (!isObject(o.answer)) throw invalid(`answer must be an object with a 'text', got ${describe(o.answer)}`, 'answer');
      if (typeof o.answer.text !== 'string') throw invalid(`answer.text must be a string, got ${describe(o.answer.text)}`, 'answer.text');
      answer = o.answer.text;
    }
    const model = optionalModel(o.model);
    const passages = await this.passages(o.relevant, 'relevant');
    const generator = await this.hub.getGenerator(model);
    if (generator) {
      const l = this.linked(signal);
      try {
        return { answers: { iterable: await hintsWithModel(generator, passages, previous, answer, l.signal) } };
      } finally {
        l.done();
      }
    }
    return { answers: { iterable: hintsRules(passages, previous, answer) } };
  }

  // ---- persons -----------------------------------------------------------------------------

  async personsRelated(params: unknown, signal?: AbortSignal): Promise<QGPTPersonsRelatedOutput> {
    const p = requireObject(params, 'params');
    const transferables = optionalBoolean(p.transferables, 'transferables') ?? true;
    const input = p.input === undefined ? {} : requireObject(p.input, 'input');
    optionalModel(input.model, 'input.model');
    const targets: Target[] = [];
    const folders = this.retriever.folders().map((f) => path.resolve(f));
    let reason: string | undefined;
    const seedGiven = input.seed !== undefined && input.seed !== null;
    const conversationGiven = input.conversation !== undefined && input.conversation !== null;
    const frag = seedGiven ? seedFragment(input.seed, 'input.seed') : undefined;
    const messages = conversationGiven ? conversationMessages(input.conversation, 'input.conversation') : [];
    if (seedGiven && !frag) throw invalid('input.seed needs a fragment string (seed.asset.format.fragment.string.raw)', 'input.seed');
    if (frag && !frag.text.trim()) throw invalid('input.seed fragment string is empty', 'input.seed.asset.format.fragment.string.raw');
    if ((seedGiven || conversationGiven) && folders.length) {
      const roots = await Promise.all(folders.map((f) => gitRoot(f, signal)));
      if (roots.every((r) => r === null)) {
        const why = `${folders.length === 1 ? `the folder ${folders[0]} is` : 'none of the workspace folders is'} not a git repository, so there is no history to ask`;
        return { persons: { iterable: [] }, explanations: {}, askcode: { reason: why } };
      }
    }
    if (frag) {
      const found = await locateFragment(frag.text, this.retriever, signal);
      if (!found.length) reason = 'the snippet was not found in the workspace folders';
      targets.push(...found);
    }
    if (conversationGiven) {
      const found = await targetsFromConversation(messages, folders);
      if (!found.length && !targets.length) reason = 'the conversation cites no file in the workspace folders';
      targets.push(...found);
    }
    if (!seedGiven && !conversationGiven) reason = 'give a seed (a snippet) or a conversation to find people for';
    const files = targets.map((t) => ({ path: t.file, ...(t.startLine ? { startLine: t.startLine, endLine: t.endLine } : {}) }));
    if (!targets.length) return { persons: { iterable: [] }, explanations: {}, askcode: { reason, files } };
    const r = await personsFor(targets, transferables, this.options.log, signal);
    return {
      persons: r.persons,
      explanations: r.explanations ?? {},
      askcode: { ...(r.reason ? { reason: r.reason } : {}), ...(transferables ? { files } : {}) },
    };
  }

  // ---- stream ------------------------------------------------------------------------------

  private async history(conversation: string): Promise<ChatMessage[]> {
    try {
      const rec = await this.conversations.get(conversation, 'conversation');
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

  private async streamBody(r: StreamRequest, input: Record<string, unknown>): Promise<void> {
    const hasRel = input.relevance !== undefined && input.relevance !== null;
    const hasQ = input.question !== undefined && input.question !== null;
    if (hasRel && hasQ) throw invalid("send either 'relevance' or 'question' in one input, not both (use relevance.options.question for both steps)", 'question');
    if (!hasRel && !hasQ) throw invalid("nothing to do: send 'question', 'relevance', 'stop' or 'reset'", 'question');
    let query: string;
    let model: string | undefined;
    let passages: Passage[];
    if (hasRel) {
      const rel = requireObject(input.relevance, 'relevance');
      query = requireQuery(rel.query, 'relevance.query');
      model = optionalModel(rel.model, 'relevance.model');
      const options = rel.options === undefined || rel.options === null ? {} : requireObject(rel.options, 'relevance.options');
      const wantAnswer = optionalBoolean(options.question, 'relevance.options.question') ?? false;
      // The answer is ours to stream; the retriever only finds the snippets.
      const relInput = { ...rel, options: { ...options, question: false } } as QGPTRelevanceInput;
      const seeds = await this.retriever.relevance(relInput, r.signal);
      if (!r.send({ status: 'IN-PROGRESS', relevance: { relevant: { iterable: seeds } } })) return;
      if (!wantAnswer) return;
      passages = await this.passages({ iterable: seeds }, 'relevance.relevant');
    } else {
      const q = requireObject(input.question, 'question');
      query = requireQuery(q.query, 'question.query');
      model = optionalModel(q.model, 'question.model');
      passages = await this.passages(q.relevant, 'question.relevant');
    }
    if (r.ended) return;
    const history = r.conversationGiven ? await this.history(r.conversation) : [];
    const run = await startAnswer(this.hub, query, passages, model, r.signal, history);
    await this.conversations.append(r.conversation, [{ role: 'USER', text: query }], query);
    let text = '';
    for await (const delta of run.deltas) {
      if (!r.send({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: delta, score: run.score }] } } })) break;
      text += delta;
    }
    // A stopped answer is kept as far as it went; a reset one is dropped with the rest.
    if (!r.ended || r.endStatus === 'STOPPED') {
      await this.saveAnswer(r, run, passages, text).catch((e) => this.options.log.warn(`conversation ${r.conversation}: ${String(e)}`));
    }
  }

  private async saveAnswer(r: StreamRequest, run: Awaited<ReturnType<typeof startAnswer>>, passages: Passage[], text: string): Promise<void> {
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
    await this.conversations.append(r.conversation, [{ role: 'ASSISTANT', text: complete ? text : `${text}\n\n(stopped)`, model: run.modelId, score, relevant }]);
  }

  /** The bridge calls this when a WebSocket closes: its requests end without frames. */
  closeConnection(connection: string): void {
    this.streams.closeConnection(connection);
  }

  async dispose(): Promise<void> {
    this.streams.dispose();
    for (const ac of this.inflight) ac.abort(new Error('shutting down'));
    this.inflight.clear();
  }
}
