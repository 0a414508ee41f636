import type { ChatMessage, ModelHub } from '../core/interfaces';
import type { QGPTQuestionAnswer } from '../protocol/wire';
import type { Passage } from './seeds';
import { extractiveAnswer, rankPlaces, type PlaceMatch } from './extractive';
import { packPrompt, sourcesFooter } from './prompt';
import { textTerms } from './terms';

/**
 * One answer being produced: deltas to stream, then the final answers. The same object serves
 * `qgpt/question` (collect every delta) and `qgpt/stream` (forward each delta as a frame).
 *
 * Scores, all in [0, 1]:
 * - extractive: the score of the best place it cites (see extractive.ts `scorePlace`: query-term
 *   coverage, a bonus for defining a named symbol, averaged with the retrieval score);
 * - a model's answer: 0.5·evidence + 0.5·grounding, where evidence is the best place score of the
 *   snippets in the prompt and grounding the share of the answer's words and identifiers that
 *   occur in those snippets (an answer that talks about things not in the code scores low).
 *   Stream deltas carry the evidence part, the only part known before the answer is complete.
 */
export interface AnswerRun {
  modelId: string;
  /** Score carried by each delta. */
  score: number;
  deltas: AsyncIterable<string>;
  /** Valid once `deltas` is exhausted. */
  result(): { answers: QGPTQuestionAnswer[]; text: string; cited: Passage[] };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Splits a finished text into line-sized deltas, yielding to the event loop between them. */
async function* chunked(text: string, signal: AbortSignal): AsyncGenerator<string> {
  const parts = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  for (const p of parts) {
    if (signal.aborted) return;
    yield p;
    await tick();
  }
}

export function grounding(answer: string, passages: Passage[]): number {
  const a = [...textTerms(answer)].filter((t) => t.length >= 3);
  if (!a.length) return 0;
  const s = new Set<string>();
  for (const p of passages) for (const t of textTerms(p.text + ' ' + (p.path ?? ''))) s.add(t);
  return a.filter((t) => s.has(t)).length / a.length;
}

const round = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;

export async function startAnswer(
  hub: ModelHub,
  query: string,
  passages: Passage[],
  model: string | undefined,
  signal: AbortSignal,
  history: ChatMessage[] = [],
): Promise<AnswerRun> {
  const generator = await hub.getGenerator(model);
  if (!generator) {
    const r = extractiveAnswer(query, passages);
    return {
      modelId: hub.extractiveModelId,
      score: r.answers[0].score,
      deltas: chunked(r.answers[0].text, signal),
      result: () => ({ answers: r.answers, text: r.answers[0].text, cited: r.cited.map((m) => m.passage) }),
    };
  }
  const ranked: PlaceMatch[] = rankPlaces(query, passages);
  const packed = await packPrompt(generator, query, ranked.map((m) => m.passage), history);
  const evidence = ranked.find((m) => packed.included.some((p) => p.index === m.passage.index))?.score ?? 0;
  let body = '';
  let footer = '';
  async function* deltas(): AsyncGenerator<string> {
    for await (const d of generator!.generate(packed.messages, { signal, maxTokens: packed.maxTokens })) {
      if (signal.aborted) return;
      if (!d) continue;
      body += d;
      yield d;
    }
    if (signal.aborted) return;
    footer = sourcesFooter(packed.included);
    if (footer) yield footer;
  }
  return {
    modelId: generator.modelId,
    score: round(0.5 * evidence),
    deltas: deltas(),
    result: () => {
      const text = body + footer;
      const score = round(0.5 * evidence + 0.5 * grounding(body, packed.included));
      // The extractive answer follows as an alternative grounded in the same snippets.
      const alt = extractiveAnswer(query, passages).answers[0];
      return { answers: [{ score, text }, alt], text, cited: packed.included };
    },
  };
}

/** Runs an answer to the end and returns it (qgpt/question, relevance with options.question). */
export async function collectAnswer(run: AnswerRun): Promise<ReturnType<AnswerRun['result']>> {
  for await (const _ of run.deltas) {
    /* drained */
  }
  return run.result();
}
