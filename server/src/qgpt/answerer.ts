import type { ChatMessage, Generator, ModelHub } from '../core/interfaces';
import type { AnswerNotice, QGPTQuestionAnswer } from '../protocol/wire';
import { toAskcodeError } from '../core/errors';
import type { Passage } from './seeds';
import { extractiveAnswer, rankPlaces, citedPlaces } from './extractive';
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

/**
 * Why the chosen model cannot answer, in plain words, with what the reader can do about it. The
 * models area says "not downloaded" for weights that are missing; anything else (an endpoint
 * that is down, a folder that does not load) offers to pick another model.
 */
export function modelUnavailableNotice(model: string | undefined, error: unknown, modelName?: string): AnswerNotice {
  const e = toAskcodeError(error);
  const name = modelName ?? model ?? 'The chosen model';
  if (/not downloaded|no local weights/i.test(e.message)) {
    return {
      kind: 'model-unavailable',
      message: `${name} is not downloaded yet, so this answer quotes the code instead. Download it to get written answers, or pick another model.`,
      action: { label: 'Download model', command: 'download-model', ...(model ? { model } : {}) },
    };
  }
  return {
    kind: 'model-unavailable',
    message: `${name} could not answer (${e.message.replace(/\.$/, '')}), so this answer quotes the code instead. Pick another model, or try again once it is reachable.`,
    action: { label: 'Pick a model', command: 'pick-model', ...(model ? { model } : {}) },
  };
}

function extractiveRun(hub: ModelHub, query: string, passages: Passage[], signal: AbortSignal): AnswerRun {
  const r = extractiveAnswer(query, passages);
  return {
    modelId: hub.extractiveModelId,
    score: r.answers[0].score,
    deltas: chunked(r.answers[0].text, signal),
    result: () => ({ answers: r.answers, text: r.answers[0].text, cited: r.cited.map((m) => m.passage) }),
  };
}

/** The passages a model reads, in the order the answer cites: the cited places first, then the rest by rank. */
function promptOrder(query: string, passages: Passage[]): Passage[] {
  const ranked = rankPlaces(query, passages);
  const cited = citedPlaces(query, ranked).map((m) => m.passage);
  const rest = passages.filter((p) => !cited.includes(p));
  return [...cited, ...rest];
}

/**
 * Starts an answer. When the model cannot be had (not downloaded, endpoint down before the first
 * word) the answer is the extractive one and `notices` gets a model-unavailable notice; an
 * unknown model id or a model of the wrong kind is still an error.
 */
export async function startAnswer(
  hub: ModelHub,
  query: string,
  passages: Passage[],
  model: string | undefined,
  signal: AbortSignal,
  history: ChatMessage[] = [],
  notices: AnswerNotice[] = [],
): Promise<AnswerRun> {
  let generator: Generator | null;
  try {
    generator = await hub.getGenerator(model);
  } catch (e) {
    if (toAskcodeError(e).kind !== 'unavailable') throw e;
    const id = model ?? hub.defaultConversationModelId();
    notices.push(modelUnavailableNotice(id, e, hub.modelName?.(id)));
    return extractiveRun(hub, query, passages, signal);
  }
  if (!generator) return extractiveRun(hub, query, passages, signal);
  const gen = generator;
  const ordered = promptOrder(query, passages);
  const ranked = rankPlaces(query, ordered);
  const packed = await packPrompt(gen, query, ordered, history);
  const evidence = ranked.find((m) => packed.included.some((p) => p.index === m.passage.index))?.score ?? 0;
  let body = '';
  let footer = '';
  let fallback: AnswerRun | undefined;
  async function* deltas(): AsyncGenerator<string> {
    try {
      for await (const d of gen.generate(packed.messages, { signal, maxTokens: packed.maxTokens })) {
        if (signal.aborted) return;
        if (!d) continue;
        body += d;
        yield d;
      }
    } catch (e) {
      // A model that fails before its first word leaves the reader nothing: answer from the code.
      if (body || signal.aborted || toAskcodeError(e).kind !== 'unavailable') throw e;
      notices.push(modelUnavailableNotice(gen.modelId, e, hub.modelName?.(gen.modelId)));
      fallback = extractiveRun(hub, query, passages, signal);
      yield* fallback.deltas;
      return;
    }
    if (signal.aborted) return;
    footer = sourcesFooter(packed.included);
    if (footer) yield footer;
  }
  const run: AnswerRun = {
    get modelId() {
      return fallback ? hub.extractiveModelId : gen.modelId;
    },
    score: round(0.5 * evidence),
    deltas: deltas(),
    result: () => {
      if (fallback) return fallback.result();
      const text = body + footer;
      const score = round(0.5 * evidence + 0.5 * grounding(body, packed.included));
      // The extractive answer follows as an alternative grounded in the same snippets.
      const alt = extractiveAnswer(query, passages).answers[0];
      return { answers: [{ score, text }, alt], text, cited: packed.included };
    },
  };
  return run;
}

/** Runs an answer to the end and returns it (qgpt/question, relevance with options.question). */
export async function collectAnswer(run: AnswerRun): Promise<ReturnType<AnswerRun['result']>> {
  for await (const _ of run.deltas) {
    /* drained */
  }
  return run.result();
}
