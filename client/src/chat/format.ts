/** Shared by the chat participant and the tools: workspace paths, locations, snippet and people text. */
import * as vscode from 'vscode';
import type { RelevantQGPTSeed, Person, QGPTPersonsRelatedOutput } from '../../../server/src/protocol';

/** `src/auth/session.ts` for a file in the workspace (with the folder's name in a multi-root workspace). */
export function relPath(abs: string): string {
  return vscode.workspace.asRelativePath(abs);
}

export function lines(start?: number, end?: number): string {
  if (!start) return '';
  return end && end !== start ? `:${start}-${end}` : `:${start}`;
}

/** A 1-based inclusive line range as a Location (the whole last line). */
export function locationOf(abs: string, startLine = 1, endLine = startLine): vscode.Location {
  return new vscode.Location(vscode.Uri.file(abs), new vscode.Range(Math.max(0, startLine - 1), 0, Math.max(0, endLine - 1), Number.MAX_SAFE_INTEGER));
}

export function hitText(hit: RelevantQGPTSeed): string {
  return hit.seed?.asset?.format?.fragment?.string?.raw ?? '';
}

/** `src/a.ts:3-9`, the citation form every face uses. */
export function hitPlace(hit: RelevantQGPTSeed): string {
  return `${hit.path ? relPath(hit.path) : 'snippet'}${lines(hit.askcode?.startLine, hit.askcode?.endLine)}`;
}

export function hitWhy(hit: RelevantQGPTSeed): string {
  const a = hit.askcode;
  if (!a) return '';
  return [
    `score ${a.score.toFixed(2)}`,
    a.matched?.length ? `matched ${a.matched.slice(0, 6).join(', ')}` : '',
  ].filter(Boolean).join(', ');
}

/** A fence longer than any backtick run inside, so quoted code never closes it early. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n+$/, '')}\n${f}`;
}

export function personName(p: Person): string {
  const b = p.type?.basic ?? {};
  return b.name ?? b.username ?? b.email ?? p.id;
}

/** One line of why a person is related: lines, commits, last change, files. */
export function personWhy(p: Person, out: QGPTPersonsRelatedOutput): string {
  const explained = out.explanations?.[p.id];
  const info = p.askcode;
  if (!info) return explained ?? '';
  return [
    `${info.lines} line${info.lines === 1 ? '' : 's'}`,
    `${info.commits} commit${info.commits === 1 ? '' : 's'}`,
    info.lastChange ? `last change ${info.lastChange.slice(0, 10)}` : '',
    info.codeowner ? 'CODEOWNER' : '',
    info.files.length ? `in ${info.files.slice(0, 4).map((f) => relPath(f.path)).join(', ')}` : '',
  ].filter(Boolean).join(' · ');
}

/** Why a persons answer is empty, in the worker's words when it gave some. */
export function noPeopleReason(out: QGPTPersonsRelatedOutput): string {
  return out.askcode?.reason ?? Object.values(out.explanations ?? {})[0] ?? 'no git history for this code';
}
