import * as path from 'node:path';
import type { CoreOptions } from '../core/options';
import type { ChatMessage, ModelHub, Retriever } from '../core/interfaces';
import type {
  AnswerExtras, QGPTConversationMessage, QGPTQuestionAnswer, QGPTQuestionOutput, QGPTRepromptOutput, QGPTPersonsRelatedOutput,
} from '../protocol/wire';
import { relativize, type Passage } from './seeds';
import { startAnswer, collectAnswer, type AnswerRun } from './answerer';
import { AnswerFlow } from './answerFlow';
import { hintsRules, hintsWithModel } from './hints';
import { gitRoot, locateFragment, personsFor, targetsFromConversation, type Target } from './persons';

/** What persons-related looks at: a snippet, a conversation, or both (already validated). */
export interface PersonsQuery {
  fragment?: string;
  conversation?: QGPTConversationMessage[];
  transferables: boolean;
}

/**
 * QGPT as a library: answer, reprompt, hints and persons-related over passages the caller already
 * has. Each works with no language model (the extractive answerer, rules, git) and uses one when
 * the caller or the user's default names it. Handlers live in ops/; nothing here validates input.
 */
export class Answers {
  private readonly inflight = new Set<AbortController>();
  /** The one answer flow every face goes through (answerFlow.ts). */
  readonly flow: AnswerFlow;

  constructor(readonly options: CoreOptions, readonly hub: ModelHub, readonly retriever: Retriever) {
    this.flow = new AnswerFlow({ hub, retriever, log: options.log });
  }

  /** Ties a call's signal to dispose(), so shutting down never waits on a long generation. */
  private async linked<T>(signal: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ac = new AbortController();
    const onAbort = () => ac.abort(signal?.reason);
    if (signal?.aborted) ac.abort(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.inflight.add(ac);
    try {
      return await fn(ac.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.inflight.delete(ac);
    }
  }

  /** Paths inside a workspace folder, as the prompt and the answer's citations show them. */
  relativize(passages: Passage[]): Passage[] {
    return relativize(passages, this.retriever.folders());
  }

  /** Starts an answer whose deltas the caller forwards (the stream). */
  start(query: string, passages: Passage[], model: string | undefined, signal: AbortSignal, history: ChatMessage[] = []): Promise<AnswerRun> {
    return startAnswer(this.hub, query, passages, model, signal, history);
  }

  /**
   * The whole answer from `passages`, through the answer flow (a follow-up rewritten with
   * `history`, people for a people question, notices); the extras ride on `askcode`.
   */
  answer(query: string, passages: Passage[], model?: string, signal?: AbortSignal, history: QGPTConversationMessage[] = []): Promise<QGPTQuestionOutput> {
    return this.linked(signal, async (s) => {
      const prepared = await this.flow.start({ query, model, history, passages, wantAnswer: true, signal: s });
      const { answers } = await collectAnswer(prepared!.run!);
      const extras = cleanExtras(prepared!.extras);
      return { answers: { iterable: answers }, ...(extras ? { askcode: extras } : {}) };
    });
  }

  /** A follow-up plus its history as one standalone query: the answer flow's rewrite (a model's, else the rules'). */
  async reprompt(query: string, history: QGPTConversationMessage[], model?: string, signal?: AbortSignal): Promise<QGPTRepromptOutput> {
    await this.flow.generatorOrNull(model);
    return { query: (await this.linked(signal, (s) => this.flow.rewrite(query, history, model, s))) ?? query };
  }

  /** Next questions about `passages`: the model's, else the rules'. */
  async hints(passages: Passage[], previous?: string, answer?: string, model?: string, signal?: AbortSignal): Promise<QGPTQuestionOutput> {
    const generator = await this.hub.getGenerator(model);
    let iterable: QGPTQuestionAnswer[];
    if (generator) iterable = await this.linked(signal, (s) => hintsWithModel(generator, passages, previous, answer, s));
    else iterable = hintsRules(passages, previous, answer);
    return { answers: { iterable } };
  }

  /** The people who can help with a snippet or a conversation, from git history and CODEOWNERS. */
  async personsRelated(q: PersonsQuery, signal?: AbortSignal): Promise<QGPTPersonsRelatedOutput> {
    const targets: Target[] = [];
    const folders = this.retriever.folders().map((f) => path.resolve(f));
    let reason: string | undefined;
    const seedGiven = q.fragment !== undefined;
    const conversationGiven = q.conversation !== undefined;
    if ((seedGiven || conversationGiven) && folders.length) {
      const roots = await Promise.all(folders.map((f) => gitRoot(f, signal)));
      if (roots.every((r) => r === null)) {
        const why = `${folders.length === 1 ? `the folder ${folders[0]} is` : 'none of the workspace folders is'} not a git repository, so there is no history to ask`;
        return { persons: { iterable: [] }, explanations: {}, askcode: { reason: why } };
      }
    }
    if (q.fragment !== undefined) {
      const found = await locateFragment(q.fragment, this.retriever, signal);
      if (!found.length) reason = 'the snippet was not found in the workspace folders';
      targets.push(...found);
    }
    if (q.conversation !== undefined) {
      const found = await targetsFromConversation(q.conversation, folders);
      if (!found.length && !targets.length) reason = 'the conversation cites no file in the workspace folders';
      targets.push(...found);
    }
    if (!seedGiven && !conversationGiven) reason = 'give a seed (a snippet) or a conversation to find people for';
    const files = targets.map((t) => ({ path: t.file, ...(t.startLine ? { startLine: t.startLine, endLine: t.endLine } : {}) }));
    if (!targets.length) return { persons: { iterable: [] }, explanations: {}, askcode: { reason, files } };
    const r = await personsFor(targets, q.transferables, this.options.log, signal);
    return {
      persons: r.persons,
      explanations: r.explanations ?? {},
      askcode: { ...(r.reason ? { reason: r.reason } : {}), ...(q.transferables ? { files } : {}) },
    };
  }

  async dispose(): Promise<void> {
    for (const ac of this.inflight) ac.abort(new Error('shutting down'));
    this.inflight.clear();
  }
}

/** Extras worth sending: none when empty (the Pieces SDK and old clients see no new key). */
export function cleanExtras(e: AnswerExtras): AnswerExtras | undefined {
  const out: AnswerExtras = {};
  if (e.rewrittenQuery) out.rewrittenQuery = e.rewrittenQuery;
  if (e.notices?.length) out.notices = e.notices;
  if (e.persons) out.persons = e.persons;
  return Object.keys(out).length ? out : undefined;
}
