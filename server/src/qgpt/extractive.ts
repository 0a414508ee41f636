import type { QGPTQuestionAnswer } from '../protocol/wire';
import { type Passage, placeOf } from './seeds';
import { queryTerms, textTerms, termCredit, leafName, type QueryTerms } from './terms';

/**
 * The built-in extractive answerer: no weights, answers from the snippets themselves — which
 * places answer the question, the quoted lines, why they match — ordered by score.
 */

export const NO_MODEL_LINE = '_No language model was used: this answer quotes the snippets above (askcode built-in extractive answerer)._';

/** Lines quoted per place: enough for a signature plus its doc comment or a short FAQ answer. */
const QUOTE_LINES = 8;
const MAX_CITED = 3;

export interface PlaceMatch {
  passage: Passage;
  /** Place score in [0, 1] (see {@link scorePlace}). */
  score: number;
  /** Weighted share of the query's terms found in the passage, in [0, 1]. */
  coverage: number;
  matched: string[];
  /** Query symbols that this passage defines. */
  defines: string[];
  /** 0-based offset of the first quoted line within the passage, and the lines. */
  quoteStart: number;
  quote: string[];
}

const DEF_WORDS = '(?:def|function|class|interface|type|enum|struct|trait|const|let|var|fn|func|async\\s+def|async\\s+function|export\\s+(?:default\\s+)?(?:async\\s+)?(?:function|class|const|interface|type))';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function definitionRes(symbols: string[]): RegExp[] {
  return symbols.map((s) => {
    const leaf = escapeRe(leafName(s));
    // `def name(`, `function name`, `class Name`, `name(...) {` / `name = (` as a method or arrow function,
    // or a doc heading that is the name.
    return new RegExp(`(?:\\b${DEF_WORDS}\\s+${leaf}\\b)|(?:^\\s*(?:public |private |protected |static |async |export )*${leaf}\\s*(?:<[^>]*>)?\\s*[(=:])|(?:^#+\\s*\`?${leaf}\\b)`, 'm');
  });
}

/**
 * Place score: lexical = min(1, coverage + 0.25 if the passage defines a symbol the question names);
 * with a retrieval score r (the retriever's fused score in [0, 1]) the place scores
 * 0.5·lexical + 0.5·r, else lexical alone. Coverage weighs identifiers (3) over plain words (1)
 * and generic words like "function" (0.3), so naming the right symbol counts most.
 */
export function scorePlace(coverage: number, definesSymbol: boolean, retrieval: number | undefined): number {
  const lexical = Math.min(1, coverage + (definesSymbol ? 0.25 : 0));
  const s = retrieval === undefined ? lexical : 0.5 * lexical + 0.5 * retrieval;
  return Math.round(Math.max(0, Math.min(1, s)) * 1000) / 1000;
}

export function rankPlaces(query: string | QueryTerms, passages: Passage[]): PlaceMatch[] {
  const q = typeof query === 'string' ? queryTerms(query) : query;
  const total = [...q.weights.values()].reduce((a, b) => a + b, 0);
  const defs = definitionRes(q.symbols);
  const out: PlaceMatch[] = [];
  for (const p of passages) {
    const lines = p.text.split(/\r?\n/);
    const lineScores = lines.map((line) => {
      const terms = textTerms(line);
      let s = 0;
      for (const [t, w] of q.weights) s += w * termCredit(t, terms);
      if (defs.some((re) => re.test(line))) s += 4;
      return s;
    });
    const all = textTerms(p.text);
    if (p.path) for (const t of textTerms(p.path)) all.add(t);
    if (p.symbol) for (const t of textTerms(p.symbol)) all.add(t);
    const matchedKeys = [...q.weights.keys()].filter((t) => termCredit(t, all) > 0);
    const got = matchedKeys.reduce((a, t) => a + (all.has(t) ? (q.weights.get(t) ?? 0) : 0), 0);
    const matched = matchedKeys.map((t) => q.display.get(t) ?? t);
    const coverage = total > 0 ? got / total : 0;
    const defines = q.symbols.filter((s, i) => defs[i].test(p.text) || (p.symbol !== undefined && p.symbol.split(/\s*[›,]\s*|\./).includes(leafName(s))));
    // Best window: earlier lines of the window count more, so the quote starts at the match.
    let best = 0;
    let bestScore = -1;
    for (let s = 0; s < lines.length; s++) {
      let w = 0;
      for (let j = 0; j < QUOTE_LINES && s + j < lines.length; j++) w += lineScores[s + j] * (1 - j * 0.08);
      if (w > bestScore) {
        bestScore = w;
        best = s;
      }
    }
    if (bestScore <= 0) best = 0;
    let quote = lines.slice(best, best + QUOTE_LINES);
    while (quote.length > 1 && !quote[quote.length - 1].trim()) quote = quote.slice(0, -1);
    out.push({
      passage: p,
      score: scorePlace(coverage, defines.length > 0, p.retrieval),
      coverage,
      matched,
      defines,
      quoteStart: best,
      quote,
    });
  }
  out.sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  return out;
}

/** Which places an answer cites: the best, and the others within reach of it. */
export function citedPlaces(ranked: PlaceMatch[]): PlaceMatch[] {
  if (!ranked.length) return [];
  const top = ranked[0].score;
  return ranked.filter((m, i) => i === 0 || (m.score > 0 && m.score >= 0.5 * top)).slice(0, MAX_CITED);
}

function fence(lang: string | undefined, body: string): string {
  const ticks = body.includes('```') ? '````' : '```';
  return `${ticks}${lang ?? ''}\n${body}\n${ticks}`;
}

function quoteBlock(m: PlaceMatch): string {
  const start = m.passage.startLine !== undefined ? m.passage.startLine + m.quoteStart : undefined;
  const width = start !== undefined ? String(start + m.quote.length).length : 0;
  const body = m.quote.map((l, i) => (start !== undefined ? `${String(start + i).padStart(width)} | ${l}` : l)).join('\n');
  return fence(m.passage.language, body);
}

function why(m: PlaceMatch): string {
  const parts: string[] = [];
  if (m.defines.length) parts.push(`defines ${m.defines.map((s) => `\`${s}\``).join(', ')}`);
  if (m.matched.length) parts.push(`matches ${m.matched.slice(0, 8).map((t) => `\`${t}\``).join(', ')}`);
  else parts.push('no question term appears in it literally');
  if (m.passage.retrieval !== undefined) parts.push(`retrieval score ${m.passage.retrieval.toFixed(2)}`);
  return parts.join('; ');
}

export function placeHeading(m: PlaceMatch): string {
  const sym = m.passage.symbol ? ` (\`${m.passage.symbol}\`)` : '';
  return `**\`${placeOf(m.passage)}\`**${sym} — score ${m.score.toFixed(2)}`;
}

export interface ExtractiveResult {
  answers: QGPTQuestionAnswer[];
  cited: PlaceMatch[];
}

/**
 * answers[0] is the whole answer (every cited place, best first); then one short answer per cited
 * place, so a client that lists alternatives can show each place on its own. Each answer's score
 * is the score of the best place it cites; with no snippets the score is 0.
 */
export function extractiveAnswer(query: string, passages: Passage[]): ExtractiveResult {
  if (!passages.length) {
    return {
      answers: [{ score: 0, text: `I found no snippets to answer from, so I cannot answer “${query.trim()}”. Ask about a folder or a file, or add a snippet.\n\n${NO_MODEL_LINE}` }],
      cited: [],
    };
  }
  const ranked = rankPlaces(query, passages);
  const cited = citedPlaces(ranked);
  const anyMatch = cited.some((m) => m.matched.length > 0);
  const intro = anyMatch
    ? cited.length === 1
      ? 'This place answers the question best:'
      : `These ${cited.length} places answer the question, most relevant first:`
    : 'None of the snippets contains the words of the question; the closest places are:';
  const blocks = cited.map((m) => `${placeHeading(m)}\n${why(m)}\n\n${quoteBlock(m)}`);
  const others = ranked.length - cited.length;
  const tail = others > 0 ? `\n\n${others} other snippet${others === 1 ? '' : 's'} scored lower and ${others === 1 ? 'is' : 'are'} not quoted.` : '';
  const full = `${intro}\n\n${blocks.join('\n\n')}${tail}\n\n${NO_MODEL_LINE}`;
  const answers: QGPTQuestionAnswer[] = [{ score: cited[0].score, text: full }];
  if (cited.length > 1) {
    for (const m of cited) answers.push({ score: m.score, text: `${placeHeading(m)}\n${why(m)}\n\n${quoteBlock(m)}\n\n${NO_MODEL_LINE}` });
  }
  return { answers, cited };
}
