import * as path from 'node:path';
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Retriever, QuestionAnswerer } from '../core/interfaces';
import { invalid } from '../core/errors';
import { QgptQuestion, QgptReprompt, QgptHints, QgptPersonsRelated } from '../protocol/qgpt';
import { QgptStream } from '../protocol/stream';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete, type ConversationMessageRecord } from '../protocol/workspace';
import type {
  AnswerExtras, QGPTConversationMessage, QGPTQuestionInput, QGPTQuestionOutput, QGPTRepromptOutput, QGPTPersonsRelatedOutput, QGPTRelevanceInput,
} from '../protocol/wire';
import { Conversations } from './conversations';
import { relativize, resolveRelevant, seedFragment, type Passage } from './seeds';
import { startAnswer, collectAnswer } from './answerer';
import { AnswerFlow, type FlowInput } from './answerFlow';
import { conversationMessages } from './reprompt';
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

  readonly flow: AnswerFlow;

  private constructor(readonly options: CoreOptions, readonly service: Service, readonly hub: ModelHub, readonly retriever: Retriever) {
    this.conversations = new Conversations(path.join(options.dataDir, 'conversations'), options.log);
    this.flow = new AnswerFlow({ hub, retriever, log: options.log });
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
    s.register(ConversationsList, (p) => {
      // vscode-jsonrpc sends no params as an empty array.
      const q = Array.isArray(p) ? p[0] : p;
      const o = q === undefined || q === null ? {} : requireObject(q, 'params');
      const all = optionalBoolean(o.all, 'all') ?? false;
      return this.conversations.list(all ? undefined : this.retriever.folders());
    });
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
    // Pieces sends the history as `messages` (a QGPTConversation); a follow-up is rewritten with it.
    const history = isObject(o.messages) ? conversationMessages(o.messages, f('messages')) : [];
    const l = this.linked(signal);
    try {
      const prepared = await this.flow.start({ query, model, history, relevant: { value: o.relevant, field: f('relevant') }, wantAnswer: true, signal: l.signal });
      const { answers } = await collectAnswer(prepared!.run!);
      const extras = cleanExtras(prepared!.extras);
      return { answers: { iterable: answers }, ...(extras ? { askcode: extras } : {}) };
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
    const l = this.linked(signal);
    try {
      return { query: (await this.flow.rewrite(query, history, model, l.signal)) ?? query };
    } finally {
      l.done();
    }
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

  /** A stored conversation as QGPTConversation messages, most recent first (a follow-up as it was searched). */
  private async history(conversation: string): Promise<QGPTConversationMessage[]> {
    try {
      const rec = await this.conversations.get(conversation, 'conversation');
      return rec.messages_
        .filter((m) => m.role === 'USER' || m.role === 'ASSISTANT')
        .slice(-8)
        .reverse()
        .map((m) => ({ role: m.role, text: m.role === 'USER' ? (m.rewrittenQuery ?? m.text) : m.text }) as QGPTConversationMessage);
    } catch {
      return [];
    }
  }

  private async streamBody(r: StreamRequest, input: Record<string, unknown>): Promise<void> {
    const hasRel = input.relevance !== undefined && input.relevance !== null;
    const hasQ = input.question !== undefined && input.question !== null;
    if (hasRel && hasQ) throw invalid("send either 'relevance' or 'question' in one input, not both (use relevance.options.question for both steps)", 'question');
    if (!hasRel && !hasQ) throw invalid("nothing to do: send 'question', 'relevance', 'stop' or 'reset'", 'question');
    const history = r.conversationGiven ? await this.history(r.conversation) : [];
    let flowInput: FlowInput;
    if (hasRel) {
      const rel = requireObject(input.relevance, 'relevance');
      const query = requireQuery(rel.query, 'relevance.query');
      const model = optionalModel(rel.model, 'relevance.model');
      const options = rel.options === undefined || rel.options === null ? {} : requireObject(rel.options, 'relevance.options');
      const wantAnswer = optionalBoolean(options.question, 'relevance.options.question') ?? false;
      flowInput = { query, model, history, relevance: rel as unknown as QGPTRelevanceInput, wantAnswer, signal: r.signal };
    } else {
      const q = requireObject(input.question, 'question');
      const query = requireQuery(q.query, 'question.query');
      const model = optionalModel(q.model, 'question.model');
      flowInput = { query, model, history, relevant: { value: q.relevant, field: 'question.relevant' }, wantAnswer: true, signal: r.signal };
    }
    const prepared = await this.flow.start(flowInput, (seeds, extras) =>
      r.send({ status: 'IN-PROGRESS', relevance: { relevant: { iterable: seeds } }, ...(cleanExtras(extras) ? { askcode: cleanExtras(extras) } : {}) }),
    );
    if (!prepared) return;
    r.extras = prepared.extras;
    if (!prepared.run || r.ended) return;
    const run = prepared.run;
    const rewritten = prepared.extras.rewrittenQuery;
    await this.conversations.append(r.conversation, [{ role: 'USER', text: flowInput.query, ...(rewritten ? { rewrittenQuery: rewritten } : {}) }], flowInput.query, this.retriever.folders());
    let text = '';
    for await (const delta of run.deltas) {
      if (!r.send({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: delta, score: run.score }] } } })) break;
      text += delta;
    }
    const extras = cleanExtras(prepared.extras);
    r.extras = extras;
    // A stopped answer is kept as far as it went; a reset one is dropped with the rest.
    if (!r.ended || r.endStatus === 'STOPPED') {
      await this.saveAnswer(r, run, prepared.passages, text).catch((e) => this.options.log.warn(`conversation ${r.conversation}: ${String(e)}`));
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

/** Extras worth sending: none when empty (the Pieces SDK and old clients see no new key). */
function cleanExtras(e: AnswerExtras): AnswerExtras | undefined {
  const out: AnswerExtras = {};
  if (e.rewrittenQuery) out.rewrittenQuery = e.rewrittenQuery;
  if (e.notices?.length) out.notices = e.notices;
  if (e.persons) out.persons = e.persons;
  return Object.keys(out).length ? out : undefined;
}
