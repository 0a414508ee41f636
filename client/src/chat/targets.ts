/** What a chat request or a tool call points at: a file's lines, the active selection, or nothing. */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SelectionSeed } from '../../../server/src/protocol/ui';
import { seedOfSelection } from '../related';

/** A path relative to a workspace folder (or absolute inside one), resolved; undefined when it is not a workspace file. */
export function resolveWorkspacePath(p: string): string | undefined {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const candidates = path.isAbsolute(p) ? [path.resolve(p)] : roots.map((r) => path.resolve(r, p));
  return candidates.find((c) => roots.some((r) => c === r || c.startsWith(r + path.sep)) && fs.existsSync(c));
}

/** The lines of a workspace file as a selection seed (1-based, inclusive; the whole file by default). */
export async function seedOfFile(abs: string, startLine?: number, endLine?: number): Promise<SelectionSeed> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
  const start = Math.min(Math.max(1, startLine ?? 1), doc.lineCount);
  const end = Math.min(Math.max(start, endLine ?? (startLine ? start : doc.lineCount)), doc.lineCount);
  return seedOfSelection(doc, new vscode.Range(start - 1, 0, end - 1, doc.lineAt(end - 1).text.length));
}

/**
 * A Location or Uri the user attached to a chat request (#file, #selection, the paperclip), as a
 * seed. VS Code also attaches the active editor on its own (`vscode.implicit.*`): that one is not
 * the user's choice, so it never narrows a search.
 */
export async function seedOfReferences(refs: readonly vscode.ChatPromptReference[]): Promise<SelectionSeed | undefined> {
  for (const r of refs) {
    if (r.id.startsWith('vscode.implicit')) continue;
    const v = r.value;
    if (v instanceof vscode.Location && v.uri.scheme === 'file') return seedOfFile(v.uri.fsPath, v.range.start.line + 1, v.range.end.line + 1);
    if (v instanceof vscode.Uri && v.scheme === 'file' && fs.existsSync(v.fsPath) && fs.statSync(v.fsPath).isFile()) return seedOfFile(v.fsPath);
  }
  return undefined;
}

/** The active editor's selection (or, with `wholeFile`, its whole file when nothing is selected). */
export function seedOfActiveEditor(wholeFile: boolean): SelectionSeed | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty) return seedOfSelection(editor.document, sel);
  if (!wholeFile) return undefined;
  const doc = editor.document;
  return seedOfSelection(doc, new vscode.Range(0, 0, doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length));
}
