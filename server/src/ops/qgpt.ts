import type { z } from 'zod';
import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import type { Answers } from '../qgpt/answers';
import { resolveRelevant, type Passage, type RelevantList } from '../qgpt/seeds';
import { invalid } from '../core/errors';
import {
  QgptRelevance, QgptQuestion, QgptReprompt, QgptHints, QgptPersonsRelated,
  type QuestionInputSchema, type RepromptInputSchema, type HintsInputSchema, type PersonsRelatedSchema,
} from '../protocol/qgpt';
import type { QGPTConversationMessage, QGPTRelevanceOutput, RelevantQGPTSeed } from '../protocol/wire';
import { seedFragment, FRAGMENT_FIELD } from '../protocol/seeds';
import { hitToPassage, hitToSeed, spaceOf, type RelevanceInput } from './passages';

export interface QgptDeps {
  index: WorkspaceIndex;
  answers: Answers;
}

/** Params as the entry's schema let them through (the service checked them before the handler). */
export type In<S extends z.ZodType> = z.output<S>;

/** Relevance over one query space: the seeds for the reply and the same hits as passages. */
export async function findRelevant(index: WorkspaceIndex, input: RelevanceInput, signal?: AbortSignal): Promise<{ seeds: RelevantQGPTSeed[]; passages: Passage[] }> {
  const hits = await index.search(input.query, spaceOf(input), signal);
  const seeds = hits.map((h) => hitToSeed(h));
  return { seeds, passages: hits.map((h, i) => hitToPassage(h, i, seeds[i]!)) };
}

/** A request's `relevant` list as passages: ids the index still holds, else each entry's own fragment. */
export async function passagesOf(deps: QgptDeps, relevant: RelevantList, field: string): Promise<Passage[]> {
  return deps.answers.relativize(await resolveRelevant(relevant, deps.index, field));
}

/** The schema lets `role` be any string; the rules read USER / ASSISTANT / SYSTEM. */
export function messagesOf(c: { iterable?: { text: string; role?: string | null }[] | null }): QGPTConversationMessage[] {
  return (c.iterable ?? []) as QGPTConversationMessage[];
}

/** QGPT phase 1 and 2 over the index and the answerer: relevance, question, reprompt, hints, persons. */
export function registerQgpt(service: Service, deps: QgptDeps): void {
  const { index, answers } = deps;

  service.register(QgptRelevance, async (p, ctx): Promise<QGPTRelevanceOutput> => {
    const input = p as RelevanceInput;
    const found = await findRelevant(index, input, ctx.signal);
    const out: QGPTRelevanceOutput = { relevant: { iterable: found.seeds } };
    if (input.options?.question) out.answer = await answers.answer(input.query, answers.relativize(found.passages), input.model ?? undefined, ctx.signal);
    return out;
  });

  service.register(QgptQuestion, async (p, ctx) => {
    const input = p as In<typeof QuestionInputSchema>;
    // Pieces sends the history as `messages` (a QGPTConversation); a follow-up is rewritten with it.
    const messages = (input as { messages?: { iterable?: unknown } | null }).messages;
    const history = Array.isArray(messages?.iterable)
      ? (messages.iterable as unknown[]).filter((m): m is QGPTConversationMessage => typeof (m as { text?: unknown })?.text === 'string')
      : [];
    return answers.answer(input.query, await passagesOf(deps, input.relevant, 'relevant'), input.model ?? undefined, ctx.signal, history);
  });

  service.register(QgptReprompt, async (p, ctx) => {
    const input = p as In<typeof RepromptInputSchema>;
    return answers.reprompt(input.query, messagesOf(input.conversation), input.model ?? undefined, ctx.signal);
  });

  service.register(QgptHints, async (p, ctx) => {
    const input = p as In<typeof HintsInputSchema>;
    const passages = await passagesOf(deps, input.relevant, 'relevant');
    return answers.hints(passages, input.query ?? undefined, input.answer?.text, input.model ?? undefined, ctx.signal);
  });

  service.register(QgptPersonsRelated, async (p, ctx) => {
    const params = p as In<typeof PersonsRelatedSchema>;
    const input = params.input ?? {};
    let fragment: string | undefined;
    if (input.seed != null) {
      const frag = seedFragment(input.seed);
      if (!frag) throw invalid(`input.seed needs a fragment string (seed.${FRAGMENT_FIELD})`, 'input.seed');
      if (!frag.text.trim()) throw invalid('input.seed fragment string is empty', `input.seed.${FRAGMENT_FIELD}`);
      fragment = frag.text;
    }
    const conversation = input.conversation != null ? messagesOf(input.conversation) : undefined;
    return answers.personsRelated({ fragment, conversation, transferables: params.transferables ?? true }, ctx.signal);
  });
}
