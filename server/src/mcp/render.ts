/**
 * How MCP tool results read: every place is cited as `path:start-end` with the path relative to the
 * served folder that holds it (what an agent passes back to `read_code`), as text for the model and
 * as structured content for the client.
 */
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AskcodeError } from '../core/errors';
import type { RelevantQGPTSeed } from '../protocol/wire';

/** A path relative to the served folder that contains it (forward slashes); other paths stay as given. */
export function relativeTo(folders: string[], p: string): string {
  if (!path.isAbsolute(p)) return p.split(path.sep).join('/');
  // The deepest folder wins when folders nest.
  const owner = folders
    .map((f) => path.resolve(f))
    .filter((f) => p === f || p.startsWith(f.endsWith(path.sep) ? f : f + path.sep))
    .sort((a, b) => b.length - a.length)[0];
  if (!owner) return p;
  return (path.relative(owner, p) || path.basename(p)).split(path.sep).join('/');
}

export function cite(p: string, startLine?: number, endLine?: number): string {
  if (startLine === undefined) return p;
  return endLine !== undefined && endLine !== startLine ? `${p}:${startLine}-${endLine}` : `${p}:${startLine}`;
}

/** One snippet as the tools return it. */
export interface Snippet {
  path: string;
  startLine: number;
  endLine: number;
  symbol?: string;
  language?: string;
  score: number;
  /** Why it was chosen: the query terms it matched and the signals that found it. */
  why?: string;
  text: string;
}

export function snippetOf(seed: RelevantQGPTSeed, folders: string[]): Snippet | null {
  const info = seed.askcode;
  if (!seed.path || !info) return null;
  const text = seed.seed?.asset?.format?.fragment?.string?.raw ?? '';
  const signals = [info.scores.bm25 !== undefined ? 'keyword' : '', info.scores.dense !== undefined ? 'meaning' : ''].filter(Boolean).join(' + ');
  const why = [signals ? `${signals} match` : '', info.matched?.length ? `terms: ${info.matched.slice(0, 6).join(', ')}` : ''].filter(Boolean).join('; ');
  return {
    path: relativeTo(folders, seed.path),
    startLine: info.startLine,
    endLine: info.endLine,
    ...(info.symbol ? { symbol: info.symbol } : {}),
    ...(info.language ? { language: info.language } : {}),
    score: info.score,
    ...(why ? { why } : {}),
    text,
  };
}

/** Long snippets are cut for the model's context; the citation still names the whole range. */
const MAX_SNIPPET_LINES = 40;

export function fence(text: string, language?: string, maxLines = MAX_SNIPPET_LINES): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.length > maxLines ? [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines: read_code for all of them)`] : lines;
  // A fence longer than any backtick run inside, so code that contains ``` stays inside it.
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(longest + 1);
  return `${f}${language ?? ''}\n${shown.join('\n')}\n${f}`;
}

export function snippetLine(s: Snippet, i: number): string {
  return `${i + 1}. ${cite(s.path, s.startLine, s.endLine)}${s.symbol ? ` · ${s.symbol}` : ''} (score ${s.score.toFixed(2)}${s.why ? `; ${s.why}` : ''})`;
}

export function result(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure the agent can act on: an `isError` result whose text says what was wrong. */
export function toolError(err: AskcodeError): CallToolResult {
  const where = err.field && !err.message.includes(err.field) ? `${err.field}: ` : '';
  return { content: [{ type: 'text', text: `${where}${err.message}` }], isError: true };
}
