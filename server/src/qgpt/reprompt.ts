import type { ChatMessage, Generator } from '../core/interfaces';
import type { QGPTConversationMessage } from '../protocol/wire';

const PATH_RE = /\/?(?:[\w.@-]+\/)*[\w.@-]+\.[A-Za-z][\w]{0,9}(?::\d+(?:-\d+)?)?/g;
const CODE_SPAN_RE = /`([^`\n]+)`/g;
const CALL_RE = /\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)/g;
const IDENT_RE = /\b[A-Za-z_$][\w$]*(?:[a-z][A-Z]|_)[\w$]*\b/g;

export interface Entities {
  paths: string[];
  symbols: string[];
}

function isPathLike(s: string): boolean {
  return /\//.test(s) || /\.[a-z]{1,5}(?::\d+(?:-\d+)?)?$/.test(s);
}

/** Paths and symbols a message names, in order of appearance. */
export function entitiesOf(text: string): Entities {
  const found: { at: number; kind: 'path' | 'symbol'; value: string }[] = [];
  for (const m of text.matchAll(CODE_SPAN_RE)) {
    const v = m[1].trim().replace(/\(\)$/, '');
    if (isPathLike(v) && !/\s/.test(v)) found.push({ at: m.index!, kind: 'path', value: v.replace(/:\d+(?:-\d+)?$/, '') });
    else if (/^[A-Za-z_$][\w$.]*$/.test(v)) found.push({ at: m.index!, kind: 'symbol', value: v });
  }
  const outside = text.replace(CODE_SPAN_RE, (s) => ' '.repeat(s.length));
  for (const m of outside.matchAll(CALL_RE)) found.push({ at: m.index!, kind: 'symbol', value: m[1] });
  for (const m of outside.matchAll(PATH_RE)) {
    if (m[0].includes('/') || /\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|c|cc|cpp|h|hpp|cs|swift|md|rst|json|ya?ml|toml)(?::|$)/.test(m[0])) {
      found.push({ at: m.index!, kind: 'path', value: m[0].replace(/:\d+(?:-\d+)?$/, '') });
    }
  }
  for (const m of outside.matchAll(IDENT_RE)) if (!m[0].includes('/')) found.push({ at: m.index!, kind: 'symbol', value: m[0] });
  found.sort((a, b) => a.at - b.at);
  const paths: string[] = [];
  const symbols: string[] = [];
  for (const f of found) {
    const list = f.kind === 'path' ? paths : symbols;
    if (!list.includes(f.value)) list.push(f.value);
  }
  return { paths, symbols };
}

const ORDINALS: Record<string, number> = { first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4 };
const FILE_NOUNS = /^(?:file|files|module|place|snippet|path|location)$/;

/**
 * Without a model: resolve "it", "that function", "the second file" and bare follow-ups from the
 * recent messages. Symbols come from what the user asked about first, then from the answer;
 * files from the answer first (that is where the cited places are).
 */
export function repromptRules(query: string, history: QGPTConversationMessage[]): string {
  const recent = history.slice(0, 6);
  const lastAnswer = recent.find((m) => m.role === 'ASSISTANT');
  const userMsgs = recent.filter((m) => m.role !== 'ASSISTANT');
  const fromUser = userMsgs.map((m) => entitiesOf(m.text));
  const fromAnswer = lastAnswer ? entitiesOf(lastAnswer.text) : { paths: [], symbols: [] };
  const symbols = [...new Set([...fromUser.flatMap((e) => e.symbols), ...fromAnswer.symbols])];
  const paths = [...new Set([...fromAnswer.paths, ...fromUser.flatMap((e) => e.paths)])];
  const code = (s: string) => `\`${s}\``;
  let q = query.trim();
  if (!symbols.length && !paths.length) return q;
  const own = entitiesOf(q);
  let resolved = false;

  q = q.replace(/\bthe\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(\w+)\b/gi, (whole, ord: string, noun: string) => {
    const wantsFile = FILE_NOUNS.test(noun.toLowerCase()) || (noun.toLowerCase() === 'one' && paths.length > 0);
    const list = wantsFile ? (fromAnswer.paths.length ? fromAnswer.paths : paths) : fromAnswer.symbols.length ? fromAnswer.symbols : symbols;
    const o = ord.toLowerCase();
    const i = o === 'last' ? list.length - 1 : ORDINALS[o];
    if (i === undefined || i < 0 || i >= list.length) return whole;
    resolved = true;
    return wantsFile ? `the file ${code(list[i])}` : `${code(list[i])}`;
  });
  q = q.replace(/\b(?:that|this|the same|the)\s+(function|method|class|type|interface|variable|symbol|hook|component|file|module|snippet)\b/gi, (whole, noun: string) => {
    const wantsFile = FILE_NOUNS.test(noun.toLowerCase());
    const target = wantsFile ? paths[0] : symbols[0];
    if (!target) return whole;
    resolved = true;
    return wantsFile ? `the file ${code(target)}` : `the ${noun.toLowerCase()} ${code(target)}`;
  });
  const subject = symbols[0] ?? paths[0];
  if (!resolved && !own.symbols.length && !own.paths.length) {
    q = q.replace(/\b(it|this|that|them|they)\b(?!\s*(?:is|was)\s+(?:not\s+)?(?:possible|necessary))/i, (w: string) => {
      resolved = true;
      return code(subject);
    });
    q = q.replace(/\bits\b/i, () => {
      resolved = true;
      return `${code(subject)}'s`;
    });
  }
  if (!resolved && !own.symbols.length && !own.paths.length) {
    // A bare follow-up ("And for three numbers?") keeps the subject of the conversation.
    q = `${q.replace(/^(?:and|but|so|also)\b[\s,]*/i, '').replace(/^./, (c) => c.toUpperCase())} (about ${code(subject)}${paths[0] && subject !== paths[0] ? ` in ${code(paths[0])}` : ''})`;
  }
  return q;
}

/** With a model: ask for the standalone question; a reply that is not one falls back to the rules. */
export async function repromptWithModel(generator: Generator, query: string, history: QGPTConversationMessage[], signal: AbortSignal): Promise<string | undefined> {
  const lines = history
    .slice(0, 8)
    .reverse()
    .map((m) => `${m.role === 'ASSISTANT' ? 'Assistant' : 'User'}: ${m.text.slice(0, 600)}`)
    .join('\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Rewrite the follow-up question as one standalone question that names what it refers to. Reply with the question only.' },
    { role: 'user', content: `Conversation:\n${lines}\n\nFollow-up: ${query.trim()}\nStandalone question:` },
  ];
  let out = '';
  for await (const d of generator.generate(messages, { signal, maxTokens: 64, temperature: 0 })) {
    out += d;
    if (out.includes('\n') && out.trim()) break;
  }
  const first = out.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  if (!first) return undefined;
  const clean = first.replace(/^(?:standalone question|question)\s*:\s*/i, '').replace(/^["'“]|["'”]$/g, '').trim();
  return clean.length >= 3 && clean.length <= 500 ? clean : undefined;
}
