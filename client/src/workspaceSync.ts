/**
 * Forwards what the editor knows and the worker cannot see: file events (batched) and unsaved
 * buffers (debounced), so answers reflect the code as it is on screen. No indexing happens here.
 */
import * as vscode from 'vscode';
import { WorkspaceFileEvents, WorkspaceBuffer, type FileEvent } from '../../server/src/protocol';
import { readSettings } from './config';
import type { Worker } from './worker';

const FILE_EVENT_BATCH_MS = 300;
const BUFFER_DEBOUNCE_MS = 500;

export class WorkspaceSync implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  private pending: FileEvent[] = [];
  private flushTimer?: ReturnType<typeof setTimeout>;
  private readonly bufferTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Buffers the worker holds as dirty, so a save or close tells it to read the disk again. */
  private readonly dirty = new Set<string>();

  constructor(private readonly worker: Worker) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subs.push(
      watcher,
      watcher.onDidCreate((u) => this.fileEvent({ type: 'created', path: u.fsPath }), undefined),
      watcher.onDidChange((u) => this.fileEvent({ type: 'changed', path: u.fsPath }), undefined),
      watcher.onDidDelete((u) => this.fileEvent({ type: 'deleted', path: u.fsPath }), undefined),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const f of e.files) if (f.newUri.scheme === 'file') this.fileEvent({ type: 'renamed', path: f.newUri.fsPath, oldPath: f.oldUri.fsPath });
      }),
      vscode.workspace.onDidChangeTextDocument((e) => this.bufferChanged(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.bufferClean(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.bufferClean(d)),
      worker.onState(({ state }) => {
        // A restarted worker has forgotten the dirty buffers: send them again.
        if (state === 'running') for (const d of vscode.workspace.textDocuments) if (d.isDirty) this.bufferChanged(d);
      }),
    );
  }

  private fileEvent(e: FileEvent): void {
    // Git's own churn (index, objects, logs) is never content to search.
    if (/[\\/]\.git([\\/]|$)/.test(e.path)) return;
    this.pending.push(e);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      const events = this.pending.splice(0);
      if (events.length) this.worker.notify(WorkspaceFileEvents, { events });
    }, FILE_EVENT_BATCH_MS);
  }

  private bufferChanged(d: vscode.TextDocument): void {
    if (d.uri.scheme !== 'file' || !d.isDirty) return;
    const path = d.uri.fsPath;
    clearTimeout(this.bufferTimers.get(path));
    this.bufferTimers.set(path, setTimeout(() => {
      this.bufferTimers.delete(path);
      if (!d.isDirty || d.isClosed) return;
      const text = d.getText();
      // The same cap as files on disk: a huge buffer is not worth shipping on every keystroke pause.
      if (text.length > (readSettings().maxFileSize ?? Infinity)) return;
      this.dirty.add(path);
      this.worker.notify(WorkspaceBuffer, { path, text });
    }, BUFFER_DEBOUNCE_MS));
  }

  private bufferClean(d: vscode.TextDocument): void {
    const path = d.uri.fsPath;
    clearTimeout(this.bufferTimers.get(path));
    this.bufferTimers.delete(path);
    if (this.dirty.delete(path)) this.worker.notify(WorkspaceBuffer, { path, text: null });
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    clearTimeout(this.flushTimer);
    for (const t of this.bufferTimers.values()) clearTimeout(t);
  }
}
