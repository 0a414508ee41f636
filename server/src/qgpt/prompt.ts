import type { ChatMessage, Generator } from '../core/interfaces';
import { tooLarge } from '../core/errors';
import type { Passage } from './seeds';
import { placeOf } from './seeds';
import { placeLink, displaySymbol } from './extractive';

/**
 * Packs the question and the snippets (best first) into the model's context window, counting with
 * the model's own tokenizer: system + history + snippets + question + the reserved answer length
 * never exceed `generator.contextTokens`.
 */

const SYSTEM = [
  'You answer questions about a code base using only the numbered snippets given.',
  'Cite every place you use as `path:start-end`. If the snippets do not answer the question, say so.',
].join(' ');
const SYSTEM_SHORT = 'Answer from the snippets; cite `path:start-end`.';

/** Chat templates add a few tokens per message (role markers). */
const PER_MESSAGE_OVERHEAD = 8;

export interface PackedPrompt {
  messages: ChatMessage[];
  /** The passages that made it into the prompt (text possibly cut), in prompt order. */
  included: Passage[];
  /** Passages left out for lack of room. */
  dropped: number;
  promptTokens: number;
  /** Tokens reserved for the answer. */
  maxTokens: number;
}

export function answerReserve(contextTokens: number): number {
  return Math.max(32, Math.min(1024, Math.floor(contextTokens / 4)));
}

function block(n: number, p: Passage, lines?: string[]): string {
  const text = lines ? lines.join('\n') : p.text;
  const sym = p.symbol ? ` (${p.symbol})` : '';
  return `[${n}] ${placeOf(p)}${sym}\n\`\`\`${p.language ?? ''}\n${text}\n\`\`\``;
}

export async function packPrompt(
  generator: Generator,
  query: string,
  passages: Passage[],
  history: ChatMessage[] = [],
): Promise<PackedPrompt> {
  const context = generator.contextTokens;
  const maxTokens = answerReserve(context);
  const question = `Question: ${query.trim()}`;
  let system = SYSTEM;
  let fixed = (await generator.countTokens(system)) + (await generator.countTokens(question)) + 2 * PER_MESSAGE_OVERHEAD;
  let budget = context - maxTokens - fixed;
  if (budget < 0) {
    system = SYSTEM_SHORT;
    fixed = (await generator.countTokens(system)) + (await generator.countTokens(question)) + 2 * PER_MESSAGE_OVERHEAD;
    budget = context - maxTokens - fixed;
  }
  if (budget < 0) {
    throw tooLarge(`query needs ${fixed} tokens but model ${generator.modelId} has a context of ${context} tokens (${maxTokens} kept for the answer)`, 'query');
  }
  // History is worth less than snippets: it gets at most a third of what is left, most recent first.
  const keptHistory: ChatMessage[] = [];
  let historyBudget = Math.floor(budget / 3);
  for (const m of history) {
    const t = (await generator.countTokens(m.content)) + PER_MESSAGE_OVERHEAD;
    if (t > historyBudget) break;
    historyBudget -= t;
    budget -= t;
    keptHistory.unshift(m);
  }
  const blocks: string[] = [];
  const included: Passage[] = [];
  let dropped = 0;
  for (const p of passages) {
    const n = included.length + 1;
    const full = block(n, p);
    const t = await generator.countTokens(full + '\n\n');
    if (t <= budget) {
      blocks.push(full);
      included.push(p);
      budget -= t;
      continue;
    }
    // Cut the snippet to the longest head that fits (binary search on lines), if a useful head does.
    const lines = p.text.split(/\r?\n/);
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((await generator.countTokens(block(n, p, lines.slice(0, mid)) + '\n\n')) <= budget) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= Math.min(3, lines.length)) {
      const head = lines.slice(0, lo);
      const cut: Passage = { ...p, text: head.join('\n'), endLine: p.startLine !== undefined ? p.startLine + lo - 1 : p.endLine };
      const text = block(n, cut);
      blocks.push(text);
      included.push(cut);
      budget -= await generator.countTokens(text + '\n\n');
    } else {
      dropped++;
    }
  }
  const user = blocks.length ? `Snippets:\n\n${blocks.join('\n\n')}\n\n${question}` : question;
  const messages: ChatMessage[] = [{ role: 'system', content: system }, ...keptHistory, { role: 'user', content: user }];
  let promptTokens = 0;
  for (const m of messages) promptTokens += (await generator.countTokens(m.content)) + PER_MESSAGE_OVERHEAD;
  return { messages, included, dropped, promptTokens, maxTokens };
}

/** The footer that makes every generated answer cite its snippets, whatever the model wrote (collapsed, as the extractive answer's). */
export function sourcesFooter(included: Passage[]): string {
  if (!included.length) return '';
  const rows = included.map((p, i) => `- [${i + 1}] ${placeLink(p)}${p.symbol ? ` · \`${displaySymbol(p.symbol) ?? p.symbol}\`` : ''}`);
  return `\n\n<details><summary>Sources (${included.length})</summary>\n\n${rows.join('\n')}\n\n</details>`;
}
