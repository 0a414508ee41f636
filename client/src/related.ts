/**
 * Find Related Snippets / People from the editor (selection or whole file) or the explorer (file or
 * folder). The worker does the searching and the git work; this file only asks and shows.
 */
import * as vscode from 'vscode';
import {
  QgptRelevance, QgptPersonsRelated, askcodeApplication, fragmentSeed, platformOf,
  type QGPTRelevanceInput, type RelevantQGPTSeed, type Seed, type Person, type QGPTConversationMessage,
} from '../../server/src/protocol';
import type { SelectionSeed } from '../../server/src/protocol/ui';
import { openLocation, type ChatHost } from './chatView';
import type { Worker } from './worker';

/** Enough of a file to stand for it as a query; relevance caps queries anyway. */
const QUERY_CHARS = 2000;

/** What the user pointed at: a selection, a whole file, or a folder. */
export type Target =
  | { kind: 'text'; seed: SelectionSeed; label: string }
  | { kind: 'folder'; path: string; label: string };

/** From the editor context menu (no URI) or the explorer (a URI). */
export async function resolveTarget(uri?: vscode.Uri): Promise<Target | undefined> {
  if (uri && uri.scheme === 'file') {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { kind: 'folder', path: uri.fsPath, label: vscode.workspace.asRelativePath(uri) };
    const doc = await vscode.workspace.openTextDocument(uri);
    return { kind: 'text', seed: seedOfDocument(doc), label: vscode.workspace.asRelativePath(uri) };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Open a file or select code first.');
    return undefined;
  }
  const sel = editor.selection;
  const doc = editor.document;
  if (sel.isEmpty) return { kind: 'text', seed: seedOfDocument(doc), label: vscode.workspace.asRelativePath(doc.uri) };
  return { kind: 'text', seed: seedOfSelection(doc, sel), label: `${vscode.workspace.asRelativePath(doc.uri)}:${sel.start.line + 1}-${sel.end.line + 1}` };
}

export function seedOfSelection(doc: vscode.TextDocument, sel: vscode.Range): SelectionSeed {
  return {
    text: doc.getText(sel),
    path: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined,
    startLine: sel.start.line + 1,
    endLine: sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1,
    ext: extOf(doc),
  };
}

function seedOfDocument(doc: vscode.TextDocument): SelectionSeed {
  return { text: doc.getText(), path: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined, startLine: 1, endLine: doc.lineCount, ext: extOf(doc) };
}

function extOf(doc: vscode.TextDocument): string | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(doc.uri.path);
  return m?.[1]?.toLowerCase();
}

const APPLICATION = askcodeApplication(platformOf(process.platform), 'askcode-vscode', 'VS_CODE');

/** The wire Seed for a fragment; `metadata.name` carries the path so the worker can find and blame it. */
export function toSeed(s: SelectionSeed): Seed {
  return fragmentSeed(s.text, s.ext || undefined, APPLICATION, s.path ? { name: s.path } : undefined);
}

interface SnippetItem extends vscode.QuickPickItem {
  hit: RelevantQGPTSeed;
}

export async function findRelatedSnippets(worker: Worker, chat: ChatHost, uri?: vscode.Uri): Promise<void> {
  const target = await resolveTarget(uri);
  if (!target) return;
  let input: QGPTRelevanceInput;
  let query: string;
  if (target.kind === 'folder') {
    const q = await vscode.window.showInputBox({ title: `Find related snippets in ${target.label}`, prompt: 'What are you looking for?', ignoreFocusOut: true });
    if (!q?.trim()) return;
    query = q.trim();
    input = { query, paths: [target.path] };
  } else {
    query = target.seed.text.slice(0, QUERY_CHARS);
    if (!query.trim()) {
      void vscode.window.showInformationMessage('Nothing to search with: the selection or file is empty.');
      return;
    }
    input = { query, options: { database: true } };
  }
  const out = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'askcode: finding related snippets' },
    (_p, token) => worker.request(QgptRelevance, input, token),
  );
  // The pointed-at code finds itself first; it is not "related".
  const self = target.kind === 'text' ? target.seed : undefined;
  const hits = out.relevant.iterable.filter((h) => !(self?.path && h.path === self.path && overlaps(h, self)));
  if (!hits.length) {
    void vscode.window.showInformationMessage(`No related snippets for ${target.label}. If indexing is still running, try again when it is ready.`);
    return;
  }
  const openInChat: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('comment-discussion'), tooltip: 'Ask about these in the chat' };
  const qp = vscode.window.createQuickPick<SnippetItem>();
  qp.title = `Related to ${target.label} (${hits.length})`;
  qp.placeholder = 'Arrow keys preview a snippet; Enter opens it';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.buttons = [openInChat];
  qp.items = hits.map((hit) => {
    const info = hit.askcode;
    const where = `${hit.path ? vscode.workspace.asRelativePath(hit.path) : 'snippet'}${info ? `:${info.startLine}-${info.endLine}` : ''}`;
    const why = [info ? `score ${info.score.toFixed(2)}` : '', info?.scores.bm25 !== undefined ? `keywords ${info.scores.bm25.toFixed(2)}` : '', info?.scores.dense !== undefined ? `meaning ${info.scores.dense.toFixed(2)}` : '', info?.matched?.length ? `matched ${info.matched.slice(0, 5).join(', ')}` : ''].filter(Boolean).join(' · ');
    const firstLine = (hit.seed?.asset?.format?.fragment?.string?.raw ?? '').split('\n').find((l) => l.trim())?.trim() ?? '';
    return { label: `$(file-code) ${where}`, description: info?.symbol ? `${info.symbol} — ${why}` : why, detail: firstLine, hit };
  });
  const preview = async (item: SnippetItem | undefined, keep: boolean) => {
    if (!item?.hit.path) return;
    await openLocation(item.hit.path, item.hit.askcode?.startLine, item.hit.askcode?.endLine, !keep).catch(() => {});
  };
  qp.onDidChangeActive((items) => void preview(items[0], false));
  qp.onDidAccept(() => {
    void preview(qp.selectedItems[0], true);
    qp.hide();
  });
  qp.onDidTriggerButton(() => {
    qp.hide();
    void chat.ask(target.kind === 'folder' ? { query, paths: [target.path] } : { query: `What code is related to ${target.label}, and how?`, selection: target.seed });
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
}

function overlaps(h: RelevantQGPTSeed, s: SelectionSeed): boolean {
  const a = h.askcode;
  if (!a || !s.startLine || !s.endLine) return false;
  return a.startLine <= s.endLine && a.endLine >= s.startLine;
}

interface PersonItem extends vscode.QuickPickItem {
  person: Person;
}

export async function findRelatedPeople(worker: Worker, chat: ChatHost, uri?: vscode.Uri): Promise<void> {
  const target = await resolveTarget(uri);
  if (!target) return;
  const input = target.kind === 'text'
    ? { seed: toSeed(target.seed) }
    // A folder has no fragment: ask about a conversation that cites it, which the worker resolves to its files.
    : { conversation: { iterable: [folderMessage(target.path)] } };
  const out = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'askcode: finding related people' },
    (_p, token) => worker.request(QgptPersonsRelated, { input, transferables: false }, token),
  );
  const people = out.persons.iterable;
  if (!people.length) {
    const reason = Object.values(out.explanations ?? {})[0];
    void vscode.window.showInformationMessage(`No related people for ${target.label}${reason ? `: ${reason}` : '.'}`);
    return;
  }
  const openInChat: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('comment-discussion'), tooltip: 'Show in the chat' };
  const qp = vscode.window.createQuickPick<PersonItem>();
  qp.title = `People related to ${target.label} (${people.length})`;
  qp.placeholder = 'Enter copies the email address';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.buttons = [openInChat];
  qp.items = people.map((person) => {
    const basic = person.type?.basic ?? {};
    const info = person.askcode;
    const why = out.explanations?.[person.id] ?? (info ? [
      `${info.lines} line${info.lines === 1 ? '' : 's'}`,
      `${info.commits} commit${info.commits === 1 ? '' : 's'}`,
      info.lastChange ? `last change ${info.lastChange.slice(0, 10)}` : '',
      info.codeowner ? 'CODEOWNER' : '',
      info.files.length ? `in ${info.files.slice(0, 3).map((f) => vscode.workspace.asRelativePath(f.path)).join(', ')}` : '',
    ].filter(Boolean).join(' · ') : '');
    return {
      label: `$(person) ${basic.name ?? basic.username ?? basic.email ?? person.id}`,
      description: [basic.email, info ? `score ${info.score.toFixed(2)}` : ''].filter(Boolean).join(' · '),
      detail: why,
      person,
    };
  });
  qp.onDidAccept(() => {
    const email = qp.selectedItems[0]?.person.type?.basic?.email;
    qp.hide();
    if (email) void vscode.env.clipboard.writeText(email).then(() => vscode.window.showInformationMessage(`Copied ${email}.`));
  });
  qp.onDidTriggerButton(() => {
    qp.hide();
    void chat.ask(target.kind === 'folder'
      ? { query: `Who knows ${target.label} best, and for which parts?`, paths: [target.path] }
      : { query: `Who knows this code best, and why?`, selection: target.seed });
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
}

function folderMessage(folder: string): QGPTConversationMessage {
  // In a code span, so the worker reads the whole path even without a file extension.
  return { role: 'USER', text: `Who works on \`${folder}\`?`, timestamp: { value: new Date().toISOString() } };
}
