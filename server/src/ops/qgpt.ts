import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import type { Answers } from '../qgpt/answers';
import { resolveRelevant, seedFragment, type Passage } from '../qgpt/seeds';
import { conversationMessages } from '../qgpt/reprompt';
import { invalid } from '../core/errors';
import { QgptRelevance, QgptQuestion, QgptReprompt, QgptHints, QgptPersonsRelated } from '../protocol/qgpt';
import type { QGPTRelevanceOutput, RelevantQGPTSeed } from '../protocol/wire';
import { isObject, optionalBoolean, optionalModel, optionalString, requireObject, requireQuery, describe } from '../qgpt/validate';
import { hitToPassage, hitToSeed, validateRelevance } from './passages';

export interface QgptDeps {
  index: WorkspaceIndex;
  answers: Answers;
}

/** Relevance over one query space: the seeds for the reply and the same hits as passages. */
export async function findRelevant(index: WorkspaceIndex, input: unknown, signal?: AbortSignal): Promise<{ query: string; question: boolean; seeds: RelevantQGPTSeed[]; passages: Passage[] }> {
  const { query, space, question } = validateRelevance(input);
  const hits = await index.search(query, space, signal);
  const seeds = hits.map((h) => hitToSeed(h));
  return { query, question, seeds, passages: hits.map((h, i) => hitToPassage(h, i, seeds[i]!)) };
}

/** A request's `relevant` list as passages: ids the index still holds, else each entry's own fragment. */
export async function passagesOf(deps: QgptDeps, relevant: unknown, field: string): Promise<Passage[]> {
  return deps.answers.relativize(await resolveRelevant(relevant, deps.index, field));
}

/** QGPT phase 1 and 2 over the index and the answerer: relevance, question, reprompt, hints, persons. */
export function registerQgpt(service: Service, deps: QgptDeps): void {
  const { index, answers } = deps;

  service.register(QgptRelevance, async (input, ctx): Promise<QGPTRelevanceOutput> => {
    const found = await findRelevant(index, input, ctx.signal);
    const out: QGPTRelevanceOutput = { relevant: { iterable: found.seeds } };
    if (found.question) out.answer = await answers.answer(found.query, answers.relativize(found.passages), optionalModel(input.model), ctx.signal);
    return out;
  });

  service.register(QgptQuestion, async (input, ctx) => {
    const o = requireObject(input, 'params');
    const query = requireQuery(o.query);
    const model = optionalModel(o.model);
    return answers.answer(query, await passagesOf(deps, o.relevant, 'relevant'), model, ctx.signal);
  });

  service.register(QgptReprompt, async (input, ctx) => {
    const o = requireObject(input, 'params');
    const query = requireQuery(o.query);
    if (o.conversation === undefined || o.conversation === null) throw invalid('conversation is required (send {} for no history)', 'conversation');
    const history = conversationMessages(o.conversation);
    return answers.reprompt(query, history, optionalModel(o.model), ctx.signal);
  });

  service.register(QgptHints, async (input, ctx) => {
    const o = requireObject(input, 'params');
    const previous = optionalString(o.query, 'query');
    let answer: string | undefined;
    if (o.answer !== undefined && o.answer !== null) {
      if (!isObject(o.answer)) throw invalid(`answer must be an object with a 'text', got ${describe(o.answer)}`, 'answer');
      if (typeof o.answer.text !== 'string') throw invalid(`answer.text must be a string, got ${describe(o.answer.text)}`, 'answer.text');
      answer = o.answer.text;
    }
    const model = optionalModel(o.model);
    const passages = await passagesOf(deps, o.relevant, 'relevant');
    return answers.hints(passages, previous, answer, model, ctx.signal);
  });

  service.register(QgptPersonsRelated, async (params, ctx) => {
    const p = requireObject(params, 'params');
    const transferables = optionalBoolean(p.transferables, 'transferables') ?? true;
    const input = p.input === undefined ? {} : requireObject(p.input, 'input');
    optionalModel(input.model, 'input.model');
    const seedGiven = input.seed !== undefined && input.seed !== null;
    const conversationGiven = input.conversation !== undefined && input.conversation !== null;
    const frag = seedGiven ? seedFragment(input.seed, 'input.seed') : undefined;
    const conversation = conversationGiven ? conversationMessages(input.conversation, 'input.conversation') : undefined;
    if (seedGiven && !frag) throw invalid('input.seed needs a fragment string (seed.asset.format.fragment.string.raw)', 'input.seed');
    if (frag && !frag.text.trim()) throw invalid('input.seed fragment string is empty', 'input.seed.asset.format.fragment.string.raw');
    return answers.personsRelated({ fragment: frag?.text, conversation, transferables }, ctx.signal);
  });
}
