import * as path from 'node:path';
import type { ModelHub, Retriever } from '../core/interfaces';
import type { Logger } from '../core/logger';
import type { IndexProgress } from '../protocol/workspace';
import type { AnswerExtras, AnswerNotice, QGPTConversationMessage, RelevantQGPTSeed } from '../protocol/wire';
import { relativize, type Passage } from './seeds';
import { startAnswer, type AnswerRun } from './answerer';
import { acceptRewrite, isFollowUp, repromptRules, repromptWithModel } from './reprompt';
import { asksAboutTests, callSiteSymbol, isTestPassage, peopleTopic, testNamedAfter } from './intent';
import { gitRoot, personsFor, type PersonsResult, type Target } from './persons';
import { peopleAnswer } from './peopleAnswer';
import { leafName, queryTerms } from './terms';
import { isTestOfModule, ownerAndMember, receiverNamedAfter } from '../index/symbols';
import { answerOrder, callPattern, codeOf, COMMENT, definitionLine, escapeRe, signatureOpens, wholeNameRe } from './extractive';
import { asksAboutExamples, callableText, docstringLines, isDocumentPage, isExamplePath, languageOf } from '../index/languages';
import { toAskcodeError } from '../core/errors';

/**
 * The one answer flow behind every face (the stream that the chat panel and the browser page
 * use, `qgpt/question`, `askcode ask`, the MCP ask tool):
 *   1. a follow-up is rewritten with its history (reprompt: a model when one answers and its
 *      rewrite names something from the history, else the rules) — reported as `rewrittenQuery`;
 *   2. a question about people is answered with people (git blame of the top places);
 *   3. relevance on the rewritten query; "where is X called?" puts X's call sites first;
 *   4. the answer (the extractive one when no model, or when the chosen model is unavailable),
 *      with notices: the index is still building, the model could not be used.
 */

export interface FlowDeps {
  hub: ModelHub;
  retriever: Retriever;
  log: Logger;
}

export interface FlowInput {
  query: string;
  model?: string;
  /** Earlier messages, most recent first (the order of QGPTConversation). */
  history: QGPTConversationMessage[];
  /** Search for the snippets with the (rewritten) query: the seeds for the relevance frame and the same hits as passages. */
  search?: (query: string) => Promise<{ seeds: RelevantQGPTSeed[]; passages: Passage[] }>;
  /** Or answer from snippets already chosen (`qgpt/question`, stream question). */
  passages?: Passage[];
  wantAnswer: boolean;
  signal: AbortSignal;
}

export interface PreparedAnswer {
  /** The query that was searched and answered (the rewritten one, if any). */
  query: string;
  /** Mutable: notices found while the answer streams (a model failing) are added here. */
  extras: AnswerExtras;
  passages: Passage[];
  run?: AnswerRun;
}

/** Sends the relevance frame; false when the request ended (nothing more to do). */
export type RelevanceSink = (seeds: RelevantQGPTSeed[], extras: AnswerExtras) => boolean;

const PEOPLE_PLACES = 5;

/** A notice while the index is still being built or paused, in plain words. */
export function indexNotice(p: IndexProgress | undefined): AnswerNotice | undefined {
  if (!p) return undefined;
  const building = p.state === 'indexing' || p.state === 'paused';
  if (!building) return undefined;
  const paused = p.state === 'paused' ? ' (indexing is paused)' : '';
  if (p.filesTotal === 0 || p.files < p.filesTotal) {
    const sofar = p.filesTotal ? ` (${p.files} of ${p.filesTotal} files so far)` : '';
    return { kind: 'index-building', message: `The index is still being built${sofar}${paused}, so this answer may miss places.` };
  }
  if (!p.bm25Only && p.embedded < p.chunks) {
    return { kind: 'index-building', message: `Search by meaning is still being prepared (${p.embedded} of ${p.chunks} snippets)${paused}; this answer rests on keyword matches.` };
  }
  return undefined;
}

function withNotice(extras: AnswerExtras, n: AnswerNotice | undefined): void {
  if (n) (extras.notices ??= []).push(n);
}

/** A text answer made in one piece (people), streamed line by line like the extractive one. */
function textRun(modelId: string, text: string, score: number, passages: Passage[], signal: AbortSignal): AnswerRun {
  async function* deltas(): AsyncGenerator<string> {
    for (const part of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      if (signal.aborted) return;
      yield part;
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return { modelId, score, deltas: deltas(), result: () => ({ answers: [{ score, text }], text, cited: passages }) };
}

/** A JS/TS import or export list in braces, or a Python `from m import (…)`, over lines. */
const IMPORT_EXPORT_LIST = /\b(?:import|export)\s+(?:type\s+)?\{[^}]*\}|\bfrom\s+[\w.]+\s+import\s+\([^)]*\)/g;

/**
 * "Where is X called?": the places that call X come before the place that defines it (the
 * ranking finds the definition first, since it names X most).
 */
export function callSitesFirst(symbol: string, passages: Passage[], testsFirst = false, examples = false): number[] {
  const leaf = escapeRe(leafName(symbol));
  // Called, or else passed as a value (`[a, b]`, `f(a)`), not a type in an annotation (`Iterator[Rule]`,
  // `r: Rule)`): a call first (`getattr(self.response, …)` passes an attribute named like the method).
  // A generic call too: C#'s and Java's `new RetryStrategyOptions<int>()`, TypeScript's `f<T>(…)`.
  // A class's static member called (Vapor's `ErrorMiddleware.default(environment:)`) uses the class too.
  const statics = /^[A-Z]/.test(leaf) ? `|(?<![\\w.$])${leaf}\\.[A-Za-z_$][\\w$]*\\s*\\(` : '';
  const patterns = (path?: string) => {
    const direct = callPattern(symbol, path);
    return { direct, call: new RegExp(`${direct.source}|(?<![[:]\\s*)\\b${leaf}\\b(?=\\s*[,)\\]])|@${leaf}\\b${statics}`) };
  };
  const defines = definitionLine(symbol);
  const owner = ownerAndMember(symbol)?.owner;
  const order = passages.map((p, i) => {
    const inDoc = docstringLines(p.text, p.path);
    const lines = callableText(p.text, p.path ?? '').split('\n');
    const opens = signatureOpens(lines, symbol);
    // Neither a comment, its definition line nor an import or export list (`export { a, b, }`, `from m import (a, b)`) calls it.
    // Nor does an example in a Python docstring, nor the first line of its signature written over
    // several lines (yargs' `addCoerceMiddleware(`).
    const text = lines.filter((l, k) => !COMMENT.test(l) && !defines(l) && !inDoc[k] && !opens[k]).map((l) => codeOf(l, p)).join('\n').replace(IMPORT_EXPORT_LIST, '');
    const { direct, call } = patterns(p.path);
    return {
      i, direct: direct.test(text), calls: call.test(text), defines: lines.some((l, k) => !inDoc[k] && (defines(l) || opens[k])), own: isPieceOf(p, leafName(symbol)),
      test: testsFirst && isTestPassage(p), doc: !examples && !!p.path && isDocumentPage(p.path),
      example: !examples && !!p.path && isExamplePath(p.path),
      owned: !!owner && calledOnOwner(text, p, owner, leaf),
    };
  });
  // "How is X tested?" where no test calls it by name: the tests named after it come first
  // (echo's `TestBindQueryParams` binds through `c.Bind`).
  const named = testsFirst && !order.some((x) => x.test && x.calls) ? new Set(order.filter((x) => x.test && testNamedAfter(passages[x.i]!, symbol)).map((x) => x.i)) : undefined;
  // Nor any named after it, the first of these that finds any, before the code that calls it:
  type Place = (typeof order)[number];
  const testsThat = (keep: (x: Place) => boolean) => new Set(order.filter((x) => x.test && keep(x)).map((x) => x.i));
  const ownerRe = owner ? wholeNameRe(owner) : undefined;
  const fallbacks = [
    // the tests that use its class (okio's `CommonBufferTest` reads `SegmentPool.byteCount`; no test calls `SegmentPool.recycle`);
    () => testsThat((x) => !!ownerRe?.test(passages[x.i]!.text)),
    // the tests of the module that defines it (python-dotenv's `tests/test_variables.py`);
    () => {
      const modules = order.filter((x) => x.defines && !x.test).map((x) => passages[x.i]!.path ?? '');
      return testsThat((x) => modules.some((m) => isTestOfModule(passages[x.i]!.path ?? '', m)));
    },
    // the tests the search found for the question (minimatch's `test/patterns.js` reaches `parseClass`
    // through `minimatch()`; its caller in `src/ast.ts` had answered "how is it tested?").
    () => testsThat((x) => !x.doc),
  ];
  let found: Set<number> | undefined;
  if (named && !named.size) for (const pick of fallbacks) if ((found = pick()).size) break;
  // A document's example of a call comes after the code's calls (koa's `app.callback()` in docs/api).
  // A call on the class asked about (`c.Execute()` in a method of `Command` for `Command.Execute`)
  // is one, also beside the definition; a call on something else named so (`t.Execute(w, data)` on
  // a template) comes after it.
  // The function's own body calls it only to recurse (loguru's `_make_rotation_function` calls
  // itself four times; `FileSink.__init__` is the caller asked for): a definition that calls it.
  // A benchmark's or an example's call comes after the code's uses, before the definition
  // (p-queue's `bench.ts` creates a `PriorityQueue`; `PQueue` uses it as its default queue).
  // Asked how it is tested, a test that calls it, or passes it to be called (schedule's
  // `assertRaises(ScheduleValueError, job._schedule_next_run)`), before the code that calls it.
  const rank = (x: Place) =>
    named?.has(x.i) ? -1 : found?.has(x.i) ? -0.5 : x.test && x.calls ? -0.25 : x.calls && x.doc ? 2.5 : x.calls && x.example && !x.defines ? 1.5 : x.owned && !x.doc && !x.own ? 0 : x.calls && !x.defines && !x.own ? (x.direct ? (owner && order.some((o) => o.owned) ? 0.5 : 0) : 1) : x.calls ? 2 : 3;
  // "Where is X tested?": of the places that call X, the tests' first.
  return order.sort((a, b) => rank(a) - rank(b) || Number(b.test) - Number(a.test) || a.i - b.i).map((x) => x.i);
}

/** Whether a passage is a piece of the definition of `leaf` alone (its chunk is named `FileSink › _make_rotation_function`). */
function isPieceOf(p: Passage, leaf: string): boolean {
  const leaves = p.symbol?.split(/\s*›\s*/).pop()?.split(/\s*,\s*/);
  return leaves?.length === 1 && leaves[0]!.trim() === leaf;
}

/**
 * Whether a passage calls `leaf` on the class `owner`: on `self` or `this` inside it, on a receiver
 * named after it (`command.`, `cmd.`), or on the receiver a Go method of it declares
 * (`func (c *Command) ExecuteContext(…) { return c.Execute() }`).
 */
function calledOnOwner(text: string, p: Passage, owner: string, leaf: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/_/g, '');
  const inOwner = !!p.symbol?.split(/\s*[›,]\s*|\./).some((part) => norm(part) === norm(owner));
  const declared = new Set([...text.matchAll(new RegExp(`\\bfunc\\s*\\(\\s*(\\w+)\\s+\\*?${owner.replace(/[$]/g, '\\$')}\\b`, 'g'))].map((m) => m[1]!));
  for (const m of text.matchAll(new RegExp(`([A-Za-z_$][\\w$]*)\\s*(?:\\.|::|->)\\s*${leaf}\\s*\\(`, 'g'))) {
    const rec = m[1]!;
    if (declared.has(rec) || ((rec === 'self' || rec === 'this') && inOwner) || receiverNamedAfter(rec, owner)) return true;
  }
  return false;
}

/**
 * The list the reader sees and the answer's citations in one order: answerOrder (the question's
 * words, named symbols, retrieval score; tests last unless asked), then for "where is X called?"
 * the places that call X before the one that defines it. A seed's `askcode.score` becomes the
 * score it is ordered by (its retrieval score stays in `scores.fused`), so a list sorted by the
 * score it shows is in the order the answer cites.
 */
function reorder(query: string, seeds: RelevantQGPTSeed[] | undefined, passages: Passage[], callSym: string | null): { seeds: RelevantQGPTSeed[]; passages: Passage[] } {
  if (passages.length < 2) return { seeds: seeds ?? [], passages };
  const { order: byScore, scores } = answerOrder(query, passages);
  const scoreOf = new Map(byScore.map((i, k) => [i, scores[k]!]));
  let order = byScore;
  if (callSym) {
    const calls = callSitesFirst(callSym, byScore.map((i) => passages[i]!), asksAboutTests(query), asksAboutExamples(query));
    order = calls.map((k) => byScore[k]!);
  }
  // Scores shown must not contradict the order (a call site ordered above its definition).
  let cap = 1;
  const shown = order.map((i) => (cap = Math.min(cap, scoreOf.get(i) ?? 0)));
  return {
    seeds: seeds ? order.map((i, k) => (seeds[i]!.askcode ? { ...seeds[i]!, askcode: { ...seeds[i]!.askcode!, score: shown[k]! } } : seeds[i]!)) : [],
    passages: order.map((i, k) => ({ ...passages[i]!, index: k })),
  };
}

export class AnswerFlow {
  constructor(private readonly deps: FlowDeps) {}

  /** The model's generator; null for the extractive answerer or a model that is unavailable (unknown ids still throw). */
  async generatorOrNull(model: string | undefined): Promise<Awaited<ReturnType<ModelHub['getGenerator']>>> {
    try {
      return await this.deps.hub.getGenerator(model);
    } catch (e) {
      // An unknown model is the caller's mistake; an unavailable one leaves the rules to rewrite
      // (the answer then says why the model was not used).
      if (toAskcodeError(e).kind !== 'unavailable') throw e;
      return null;
    }
  }

  private relative(passages: Passage[]): Passage[] {
    return relativize(passages, this.deps.retriever.folders());
  }

  private indexProgress(): IndexProgress | undefined {
    const r = this.deps.retriever as Retriever & { status?: () => IndexProgress };
    return typeof r.status === 'function' ? r.status() : undefined;
  }

  /**
   * Marks the passages that define a qualified name of the question as the index resolves it (its
   * own definition, whose passage may not show its class; `StartupMixin.run`'s for `Sanic.run` when
   * `Sanic` inherits `run`), so that the answer knows them for the definition asked about.
   */
  private resolved(query: string, passages: Passage[]): Passage[] {
    const names = queryTerms(query).symbols.filter((s) => /[.#]|::/.test(s)).slice(0, 8);
    // Workspace-relative, as the passages are by now.
    const defs = relativize(names.flatMap((name) => this.deps.retriever.definitionsOf(name).map((d) => ({ name, ...d }))), this.deps.retriever.folders());
    if (!defs.length) return passages;
    return passages.map((p) => {
      const found = defs.filter((d) => d.path === p.path && p.startLine !== undefined && p.startLine <= d.endLine && d.startLine <= (p.endLine ?? p.startLine));
      return found.length ? { ...p, resolved: found.map((d) => ({ name: d.name, definition: d.qualifiedName, ...(d.via ? { via: d.via } : {}) })) } : p;
    });
  }

  /** The standalone question for a follow-up, or undefined when the query stands on its own. */
  async rewrite(query: string, history: QGPTConversationMessage[], model: string | undefined, signal: AbortSignal): Promise<string | undefined> {
    // Nothing to wait for without history: the answer's own steps keep their order (and the
    // conversation is named by the first question that reaches it).
    if (!history.length) return undefined;
    const generator = await this.generatorOrNull(model);
    const rules = repromptRules(query, history, (name) => this.deps.retriever.defines(name));
    if (rules.trim() === query.trim() && !isFollowUp(query)) return undefined;
    if (generator) {
      try {
        const r = await repromptWithModel(generator, query, history, signal);
        if (r && acceptRewrite(r, query, history)) return r;
      } catch (e) {
        this.deps.log.debug(`reprompt with ${generator.modelId}: ${String(e)}`);
      }
    }
    return rules.trim() !== query.trim() ? rules : undefined;
  }

  /**
   * Runs steps 1–3 and starts the answer. `onRelevance` gets the relevance frame (searched inputs
   * only); returns null when it reports the request ended.
   */
  async start(input: FlowInput, onRelevance?: RelevanceSink): Promise<PreparedAnswer | null> {
    const { signal } = input;
    const extras: AnswerExtras = {};
    const rewritten = await this.rewrite(input.query, input.history, input.model, signal);
    const query = rewritten ?? input.query;
    if (rewritten) extras.rewrittenQuery = rewritten;
    const topic = peopleTopic(query);
    let seeds: RelevantQGPTSeed[] | undefined;
    let passages: Passage[];
    if (input.search) {
      withNotice(extras, indexNotice(this.indexProgress()));
      const found = await input.search(topic || query);
      ({ seeds, passages } = reorder(topic || query, found.seeds, this.resolved(topic || query, this.relative(found.passages)), topic === null ? callSiteSymbol(query) : null));
      if (onRelevance && !onRelevance(seeds, { ...extras })) return null;
    } else {
      // The places a caller sent (relevance with `question`, a `relevant` list) in the same order as searched ones.
      passages = reorder(query, undefined, this.resolved(query, this.relative(input.passages ?? [])), topic === null ? callSiteSymbol(query) : null).passages;
    }
    if (!input.wantAnswer) return { query, extras, passages };
    if (topic !== null) return { query, extras, passages, run: await this.people(topic || query, passages, extras, signal) };
    extras.notices ??= [];
    const run = await startAnswer(this.deps.hub, query, passages, input.model, signal, chatHistory(input.history), extras.notices);
    return { query, extras, passages, run };
  }

  /** A people question: who wrote the top places (git blame), as AnswerExtras.persons and a short text. */
  private async people(topic: string, passages: Passage[], extras: AnswerExtras, signal: AbortSignal): Promise<AnswerRun> {
    const folders = this.deps.retriever.folders().map((f) => path.resolve(f));
    const top = passages.filter((p) => p.path).slice(0, PEOPLE_PLACES);
    const targets: Target[] = [];
    for (const p of top) {
      const abs = path.isAbsolute(p.path!) ? p.path! : folders.map((f) => path.join(f, p.path!))[0];
      if (abs) targets.push({ file: abs, ...(p.startLine !== undefined ? { startLine: p.startLine, endLine: p.endLine ?? p.startLine } : {}) });
    }
    let reason: string | undefined;
    if (folders.length && (await Promise.all(folders.map((f) => gitRoot(f, signal)))).every((r) => r === null)) {
      reason = `${folders.length === 1 ? `the folder ${folders[0]} is` : 'none of the workspace folders is'} not a git repository, so there is no history to ask`;
    } else if (!targets.length) {
      reason = 'no place in the indexed folders matches the question, so there are no lines to look up';
    }
    const r: PersonsResult = reason ? { persons: { iterable: [] }, explanations: {}, reason } : await personsFor(targets, true, this.deps.log, signal);
    const files = targets.map((t) => ({ path: t.file, ...(t.startLine ? { startLine: t.startLine, endLine: t.endLine } : {}) }));
    extras.persons = { persons: r.persons, explanations: r.explanations ?? {}, askcode: { ...(r.reason ? { reason: r.reason } : {}), files } };
    const text = peopleAnswer(topic, r.persons.iterable, r.reason, top, folders, r.totalLines);
    const score = r.persons.iterable[0]?.askcode?.score ?? 0;
    return textRun(this.deps.hub.extractiveModelId, text, score, top, signal);
  }
}

/** Conversation history as chat messages for a model's prompt, oldest first, at most 8. */
export function chatHistory(history: QGPTConversationMessage[]): { role: 'user' | 'assistant'; content: string }[] {
  return history
    .filter((m) => m.role === 'USER' || m.role === 'ASSISTANT')
    .slice(0, 8)
    .reverse()
    .map((m) => ({ role: m.role === 'USER' ? 'user' : 'assistant', content: m.text }));
}
