import { request } from './base';
import {
  z, Query, OptionalModel, AbsolutePath, Seeds, RelevantSeeds, Conversation, Seed, MAX_PATHS, MAX_SEEDS,
} from './schema';
import type {
  QGPTRelevanceInput, QGPTRelevanceOutput, QGPTQuestionInput, QGPTQuestionOutput, QGPTRepromptInput,
  QGPTRepromptOutput, QGPTHintsInput, QGPTPersonsRelatedInput, QGPTPersonsRelatedOutput,
} from './wire';

export interface PersonsRelatedParams {
  input: QGPTPersonsRelatedInput;
  /** The `transferables` query parameter; default true. */
  transferables?: boolean;
}

/** QGPTRelevanceInput's shape; "exactly one query space" is the operation's rule (it names the space at fault). */
export const RelevanceInputSchema = z.looseObject({
  query: Query,
  paths: z.array(AbsolutePath).min(1, 'must be a non-empty array of absolute paths').max(MAX_PATHS).nullish(),
  seeds: Seeds.extend({ iterable: z.array(Seed).min(1, 'must be a non-empty array of seeds').max(MAX_SEEDS) }).nullish(),
  assets: z.looseObject({
    iterable: z.array(z.looseObject({ id: z.string().min(1, 'must be an asset id') })).min(1, 'must be a non-empty array of {id}'),
  }).nullish(),
  options: z.looseObject({ database: z.boolean().nullish(), question: z.boolean().nullish() }).nullish(),
  application: z.string().nullish(),
  model: OptionalModel,
});

export const QuestionInputSchema = z.looseObject({
  query: Query,
  model: OptionalModel,
  relevant: RelevantSeeds,
  application: z.string().nullish(),
});

export const RepromptInputSchema = z.looseObject({
  query: Query,
  conversation: Conversation,
  model: OptionalModel,
  application: z.string().nullish(),
});

export const HintsInputSchema = z.looseObject({
  query: z.string().nullish(),
  answer: z.looseObject({ text: z.string() }).nullish(),
  model: OptionalModel,
  relevant: RelevantSeeds,
});

export const PersonsRelatedSchema = z.looseObject({
  transferables: z.boolean().nullish(),
  input: z.looseObject({
    seed: Seed.nullish(),
    conversation: Conversation.nullish(),
    model: OptionalModel,
    application: z.string().nullish(),
  }).optional(),
});

/** Find the snippets that matter (exactly one query space: paths, seeds, assets or options.database). */
export const QgptRelevance = request<QGPTRelevanceInput, QGPTRelevanceOutput>('qgpt/relevance', RelevanceInputSchema,
  { field: 'query', expected: 'a QGPTRelevanceInput object' });
/** Answer from the given snippets; every answer has a score in [0, 1]. */
export const QgptQuestion = request<QGPTQuestionInput, QGPTQuestionOutput>('qgpt/question', QuestionInputSchema,
  { expected: 'a QGPTQuestionInput object' });
/** Rewrite a follow-up plus history into a standalone query. */
export const QgptReprompt = request<QGPTRepromptInput, QGPTRepromptOutput>('qgpt/reprompt', RepromptInputSchema,
  { expected: 'a QGPTRepromptInput object' });
/** Suggest 3 to 5 next questions. */
export const QgptHints = request<QGPTHintsInput, QGPTQuestionOutput>('qgpt/hints', HintsInputSchema,
  { expected: 'a QGPTHintsInput object' });
/** The people who can help with a snippet or a conversation (git blame / log, CODEOWNERS). */
export const QgptPersonsRelated = request<PersonsRelatedParams, QGPTPersonsRelatedOutput>('qgpt/personsRelated', PersonsRelatedSchema);

