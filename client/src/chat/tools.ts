/**
 * askcode's index as language-model tools (`#askcodeSearch`, `#askcodeSymbol`, `#askcodePeople` in
 * a prompt; agent mode calls them by itself). Each result is plain text citing `path:lines`, so
 * the calling model can quote places back to the user. Schemas are in package.json
 * (`contributes.languageModelTools`); inputs are checked again here because any extension can
 * call `vscode.lm.invokeTool`.
 */
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import {
  IndexWhenReady, QgptRelevance, QgptPersonsRelated, SymbolsFind, SymbolsReferences,
  type SymbolKind, type QGPTRelevanceInput,
} from '../../../server/src/protocol';
import { toSeed } from '../related';
import { type Worker } from '../worker';
import { fence, hitPlace, hitText, hitWhy, lines, noPeopleReason, personName, personWhy, relPath } from './format';
import { resolveWorkspacePath, seedOfActiveEditor, seedOfFile } from './targets';

export const SEARCH_TOOL = 'askcode_search';
export const SYMBOL_TOOL = 'askcode_symbol';
export const PEOPLE_TOOL = 'askcode_people';

const SYMBOL_KINDS: readonly SymbolKind[] = ['class', 'interface', 'type', 'enum', 'function', 'method', 'constant', 'variable', 'module'];
/** Lines of each snippet quoted in a search result: enough to judge it, small enough for 10 hits. */
const QUOTED_LINES = 30;

export interface SearchInput { query: string; paths?: string[]; limit?: number }
export interface SymbolInput { name: string; kind?: SymbolKind; references?: boolean; limit?: number }
export interface PeopleInput { path?: string; startLine?: number; endLine?: number }

function bad(message: string): Error {
  return new Error(`askcode: ${message}`);
}

function text(s: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);
}

function intIn(v: unknown, field: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(`${field} must be a whole number from ${min} to ${max}`);
  return v;
}

/** How long a tool waits for the index to catch up (a window just opened is still being indexed). */
const INDEX_WAIT_MS = 20_000;

/**
 * Waits, at most INDEX_WAIT_MS, for the index to catch up with the workspace, so that a tool
 * called as the window opens does not answer "no definition" from a half-built index. Returns the
 * worker's notice when it had to answer from part of the index ('' otherwise, and with a worker
 * that does not know the method).
 */
export async function caughtUp(worker: Worker, token?: vscode.CancellationToken): Promise<string> {
  try {
    return (await worker.request(IndexWhenReady, { maxMs: INDEX_WAIT_MS }, token)).notice ?? '';
  } catch (e) {
    if (token?.isCancellationRequested) throw e;
    return '';
  }
}

function withNote(s: string, note: string): string {
  return note ? `${s}\n\nNote: ${note}` : s;
}

/** The worker's "unknown method" means this build has no symbol index yet: say that, not "not found". */
function explain(e: unknown): never {
  if (e instanceof ResponseError && /^unknown method /.test(e.message)) throw bad(`this askcode build does not offer ${e.message.slice('unknown method '.length)} yet`);
  throw e;
}

export async function search(worker: Worker, input: SearchInput, token?: vscode.CancellationToken): Promise<string> {
  if (!input || typeof input.query !== 'string' || !input.query.trim()) throw bad('query must be a non-empty string');
  const limit = intIn(input.limit, 'limit', 1, 50) ?? 8;
  const req: QGPTRelevanceInput = { query: input.query.trim() };
  if (input.paths !== undefined) {
    if (!Array.isArray(input.paths) || input.paths.some((p) => typeof p !== 'string')) throw bad('paths must be a list of workspace paths');
    const abs = input.paths.map((p) => resolveWorkspacePath(p));
    const outside = input.paths.filter((_p, i) => !abs[i]);
    if (outside.length) throw bad(`not in the workspace: ${outside.join(', ')}`);
    if (abs.length) req.paths = abs as string[];
  }
  if (!req.paths) req.options = { database: true };
  const note = await caughtUp(worker, token);
  const out = await worker.request(QgptRelevance, req, token);
  const hits = out.relevant.iterable.slice(0, limit);
  if (!hits.length) return withNote(`No code in the workspace matches "${req.query}".`, note);
  const parts = [`${hits.length} snippet${hits.length === 1 ? '' : 's'} for "${req.query}", most relevant first (path:lines relative to the workspace):`];
  hits.forEach((h, i) => {
    const body = hitText(h).split('\n');
    const shown = body.slice(0, QUOTED_LINES).join('\n');
    const more = body.length > QUOTED_LINES ? `\n(${body.length - QUOTED_LINES} more lines)` : '';
    parts.push(`${i + 1}. ${hitPlace(h)}${h.askcode?.symbol ? ` (${h.askcode.symbol})` : ''} — ${hitWhy(h)}\n${fence(shown, h.askcode?.language ?? '')}${more}`);
  });
  return withNote(parts.join('\n\n'), note);
}

export async function symbol(worker: Worker, input: SymbolInput, token?: vscode.CancellationToken): Promise<string> {
  if (!input || typeof input.name !== 'string' || !input.name.trim()) throw bad('name must be a non-empty string');
  if (input.kind !== undefined && !SYMBOL_KINDS.includes(input.kind)) throw bad(`kind must be one of ${SYMBOL_KINDS.join(', ')}`);
  const limit = intIn(input.limit, 'limit', 1, 100) ?? 20;
  const name = input.name.trim();
  const note = await caughtUp(worker, token);
  const { definitions } = await worker.request(SymbolsFind, { name, ...(input.kind ? { kind: input.kind } : {}), limit }, token).catch(explain);
  const parts: string[] = [];
  parts.push(definitions.length
    ? `Definitions of ${name}:\n${definitions.map((d) => `- ${d.relativePath || relPath(d.path)}${lines(d.startLine, d.endLine)} ${d.kind} ${d.qualifiedName}${d.signature ? `: ${d.signature}` : ''}`).join('\n')}`
    : `No definition named ${name}${input.kind ? ` (${input.kind})` : ''} in the workspace index.`);
  if (input.references !== false) {
    const { references } = await worker.request(SymbolsReferences, { name, limit }, token).catch(explain);
    parts.push(references.length
      ? `References to ${name} (call sites first):\n${references.map((r) => `- ${r.relativePath || relPath(r.path)}${lines(r.startLine)} ${r.kind}${r.enclosing ? ` in ${r.enclosing}` : ''}: ${r.text}`).join('\n')}`
      : `No references to ${name} outside its definitions.`);
  }
  return withNote(parts.join('\n\n'), note);
}

export async function people(worker: Worker, input: PeopleInput, token?: vscode.CancellationToken): Promise<string> {
  const startLine = intIn(input?.startLine, 'startLine', 1, 10_000_000);
  const endLine = intIn(input?.endLine, 'endLine', 1, 10_000_000);
  if (startLine && endLine && endLine < startLine) throw bad('endLine must not be before startLine');
  let seed;
  if (input?.path !== undefined) {
    if (typeof input.path !== 'string' || !input.path.trim()) throw bad('path must be a workspace file path');
    const abs = resolveWorkspacePath(input.path.trim());
    if (!abs) throw bad(`${input.path} is not a file in the workspace`);
    seed = await seedOfFile(abs, startLine, endLine);
  } else {
    seed = seedOfActiveEditor(true);
    if (!seed) throw bad('give a path (no editor is open to take the code from)');
  }
  const out = await worker.request(QgptPersonsRelated, { input: { seed: toSeed(seed) }, transferables: false }, token);
  const where = `${seed.path ? relPath(seed.path) : 'the code'}${lines(seed.startLine, seed.endLine)}`;
  const list = out.persons.iterable;
  if (!list.length) return `Nobody found for ${where}: ${noPeopleReason(out)}.`;
  return [`People who know ${where}, most relevant first (from git blame and history${list.some((p) => p.askcode?.codeowner) ? ', CODEOWNERS' : ''}):`,
    ...list.map((p, i) => `${i + 1}. ${personName(p)}${p.type?.basic?.email ? ` <${p.type.basic.email}>` : ''} — ${personWhy(p, out)}`)].join('\n');
}

export function registerTools(worker: Worker): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool<SearchInput>(SEARCH_TOOL, {
      prepareInvocation: (o) => ({ invocationMessage: `Searching the workspace for "${String(o.input?.query ?? '').slice(0, 80)}"` }),
      invoke: async (o, token) => text(await search(worker, o.input, token)),
    }),
    vscode.lm.registerTool<SymbolInput>(SYMBOL_TOOL, {
      prepareInvocation: (o) => ({ invocationMessage: `Looking up the symbol ${String(o.input?.name ?? '').slice(0, 80)} and its references` }),
      invoke: async (o, token) => text(await symbol(worker, o.input, token)),
    }),
    vscode.lm.registerTool<PeopleInput>(PEOPLE_TOOL, {
      prepareInvocation: (o) => ({ invocationMessage: o.input?.path ? `Finding who knows ${o.input.path}${lines(o.input.startLine, o.input.endLine)}` : 'Finding who knows the code in the editor' }),
      invoke: async (o, token) => text(await people(worker, o.input, token)),
    }),
  );
}
