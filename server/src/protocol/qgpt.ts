import { request } from './base';
import type {
  QGPTRelevanceInput, QGPTRelevanceOutput, QGPTQuestionInput, QGPTQuestionOutput, QGPTRepromptInput,
  QGPTRepromptOutput, QGPTHintsInput, QGPTPersonsRelatedInput, QGPTPersonsRelatedOutput,
} from './wire';

export interface PersonsRelatedParams {
  input: QGPTPersonsRelatedInput;
  /** The `transferables` query parameter; default true. */
  transferables?: boolean;
}

/** Find the snippets that matter (exactly one query space: paths, seeds, assets or options.database). */
export const QgptRelevance = request<QGPTRelevanceInput, QGPTRelevanceOutput>('qgpt/relevance');
/** Answer from the given snippets; every answer has a score in [0, 1]. */
export const QgptQuestion = request<QGPTQuestionInput, QGPTQuestionOutput>('qgpt/question');
/** Rewrite a follow-up plus history into a standalone query. */
export const QgptReprompt = request<QGPTRepromptInput, QGPTRepromptOutput>('qgpt/reprompt');
/** Suggest 3 to 5 next questions. */
export const QgptHints = request<QGPTHintsInput, QGPTQuestionOutput>('qgpt/hints');
/** The people who can help with a snippet or a conversation (git blame / log, CODEOWNERS). */
export const QgptPersonsRelated = request<PersonsRelatedParams, QGPTPersonsRelatedOutput>('qgpt/personsRelated');
