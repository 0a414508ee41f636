import type { ChatMessage, Generator } from '../core/interfaces';
import type { QGPTQuestionAnswer } from '../protocol/wire';
import { isDocument, type Passage } from './seeds';
import { entitiesOf, isSubjectName } from './reprompt';
import { queryTerms } from './terms';

const MIN_HINTS = 3;
const MAX_HINTS = 5;

const DEF_RE = /(?:\bdef|\bfunction|\bclass|\binterface|\btype|\benum|\bstruct|\btrait|\bfn|\bfunc)\s+([A-Za-z_$][\w$]*)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/g;

/** Symbols a snippet defines, best known first (the index's enclosing symbol); only names worth asking about. */
export function definedSymbols(p: Passage): string[] {
  const out: string[] = [];
  // The index writes `Outer › Inner` for nesting and `a, b` for neighbours: ask about each name.
  for (const name of p.symbol ? symbolNames(p.symbol) : []) if (!out.includes(name)) out.push(name);
  for (const m of p.text.matchAll(DEF_RE)) {
    const s = m[1] ?? m[2];
    if (s && !out.includes(s)) out.push(s);
  }
  return out.filter(isHintName);
}

/** A name a hint may ask about: an identifier of three letters or more, no keyword, pronoun, `constructor`, string or path. */
export function isHintName(s: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(s) && isSubjectName(s) && !/^(?:__\w+__|init|main|index|default|module|exports|prototype)$/.test(s.split('.').at(-1)!);
}

const BUILTINS = new Set(
  ('print len str int float bool list dict set tuple range isinstance getattr setattr hasattr super type open repr sorted enumerate zip map filter ' +
    'require console log push pop shift slice splice join split replace includes indexOf parseInt parseFloat setTimeout clearTimeout Promise resolve reject ' +
    'then catch finally assert expect describe append extend update get keys values items format startswith endswith strip lower upper encode decode ' +
    'toString valueOf call apply bind has add delete forEach some every find reduce concat trim Error TypeError ValueError KeyError RuntimeError Array Object String Number Boolean Map Set JSON Math Date').split(' '),
);

/** Functions a snippet calls that it does not define: the next steps of the flow it is part of. */
export function calledNames(p: Passage, defined: string[]): string[] {
  const out: string[] = [];
  for (const m of p.text.matchAll(/(?<![\w$'"`])(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\s*\(/g)) {
    const name = m[1]!;
    if (out.includes(name) || defined.includes(name) || BUILTINS.has(name) || !isHintName(name)) continue;
    if (/\b(?:def|function|class|fn|func)\s+$/.test(p.text.slice(Math.max(0, m.index! - 12), m.index!))) continue;
    out.push(name);
  }
  return out;
}

/** The innermost name of each definition in an index symbol (`A › b, c` → `b`, `c`). */
export function symbolNames(symbol: string): string[] {
  const parts = symbol.split(/\s*›\s*/);
  return (parts.at(-1) ?? '').split(/\s*,\s*/).filter((n) => n.length > 1);
}

/** Functions are called; constants (`MAX_SIZE`) and types (`Session`) are used. */
function usedOrCalled(symbol: string): string {
  return /^[A-Z][A-Z0-9_]*$/.test(symbol) || /^[A-Z][a-z]/.test(symbol) ? 'used' : 'called';
}

function norm(q: string): string {
  return q.toLowerCase().replace(/[`"'?!.,:;()]/g, ' ').replace(/\s+/g, ' ').trim();
}

function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

/**
 * Without a model: questions about the symbols and files of the snippets. A hint's score is its
 * template's prior (how often such a follow-up is useful: callers 0.9, purpose 0.8, tests 0.75,
 * file tour 0.6, history 0.5, generic 0.3) times the weight of the snippet it came from (its
 * retrieval score, else 1/(1 + rank)), so hints about the best snippet come first.
 */
export function hintsRules(passages: Passage[], previousQuery?: string, answer?: string): QGPTQuestionAnswer[] {
  const prev = previousQuery ? norm(previousQuery) : '';
  const prevSymbols = new Set(previousQuery ? entitiesOf(previousQuery).symbols.map((s) => s.toLowerCase()) : []);
  const cands = new Map<string, QGPTQuestionAnswer>();
  const add = (text: string, score: number) => {
    const n = norm(text);
    if (!n || n === prev) return;
    const s = Math.round(Math.max(0, Math.min(1, score)) * 1000) / 1000;
    if ((cands.get(n)?.score ?? -1) < s) cands.set(n, { text, score: s });
  };
  passages.forEach((p, rank) => {
    const weight = p.retrieval ?? 1 / (1 + rank);
    // A heading of a document is no symbol to ask about: documents get the file-level hints only.
    const defined = isDocument(p) ? [] : definedSymbols(p);
    const syms = defined.slice(0, 2);
    syms.forEach((s, j) => {
      const w = weight * (j === 0 ? 1 : 0.85);
      add(`Where is \`${s}\` ${usedOrCalled(s)}?`, 0.9 * w);
      if (!prevSymbols.has(s.toLowerCase())) add(`What does \`${s}\` do?`, 0.8 * w);
      else add(`What are the edge cases of \`${s}\`?`, 0.7 * w);
      add(`How is \`${s}\` tested?`, 0.75 * w);
    });
    // The next step of the flow: what the best place calls.
    if (rank === 0 && !isDocument(p)) {
      for (const c of calledNames(p, defined).slice(0, 2)) if (!prevSymbols.has(c.toLowerCase())) add(`What does \`${c}\` do?`, 0.7 * weight);
    }
    if (p.path) {
      add(`What else is in \`${basename(p.path)}\`?`, 0.6 * weight);
      add(`Who changed \`${basename(p.path)}\` most recently?`, 0.5 * weight);
    }
  });
  if (answer) {
    for (const s of entitiesOf(answer).symbols.filter(isHintName).slice(0, 2)) add(`Where is \`${s}\` defined?`, 0.55);
  }
  if (cands.size < MIN_HINTS && previousQuery) {
    for (const t of queryTerms(previousQuery).symbols.filter(isHintName).slice(0, 2)) add(`Where else is \`${t}\` used?`, 0.35);
  }
  // No generic filler ("how could this be tested?"): a hint names what it is about, or is not given.
  return [...cands.values()].sort((a, b) => b.score - a.score).slice(0, MAX_HINTS);
}

/** With a model: its questions (lines ending in '?'), ranked as written, topped up by the rules. */
export async function hintsWithModel(
  generator: Generator,
  passages: Passage[],
  previousQuery: string | undefined,
  answer: string | undefined,
  signal: AbortSignal,
): Promise<QGPTQuestionAnswer[]> {
  const context = passages
    .slice(0, 4)
    .map((p) => `${p.path ?? 'snippet'}${p.symbol ? ` (${p.symbol})` : ''}:\n${p.text.slice(0, 800)}`)
    .join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Suggest 3 to 5 short follow-up questions a developer could ask next about this code. One question per line.' },
    { role: 'user', content: `${previousQuery ? `Previous question: ${previousQuery}\n` : ''}${answer ? `Answer: ${answer.slice(0, 800)}\n` : ''}\nCode:\n${context}` },
  ];
  const budget = Math.max(16, Math.floor(generator.contextTokens / 4));
  let text = '';
  for await (const d of generator.generate(messages, { signal, maxTokens: Math.min(200, budget), temperature: 0.3 })) text += d;
  const prev = previousQuery ? norm(previousQuery) : '';
  const seen = new Set<string>([prev]);
  const fromModel: QGPTQuestionAnswer[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim();
    if (line.length < 8 || line.length > 200 || !line.endsWith('?')) continue;
    const n = norm(line);
    if (seen.has(n)) continue;
    seen.add(n);
    fromModel.push({ text: line, score: Math.round((0.85 - 0.1 * fromModel.length) * 1000) / 1000 });
    if (fromModel.length >= MAX_HINTS) break;
  }
  if (fromModel.length >= MIN_HINTS) return fromModel;
  const rules = hintsRules(passages, previousQuery, answer).filter((h) => !seen.has(norm(h.text)));
  return [...fromModel, ...rules].slice(0, MAX_HINTS);
}
