/** Every command, each a function of the extension's parts. They exist before the worker is up and say so. */
import * as vscode from 'vscode';
import { AssetsSave, IndexRebuild, IndexPause, IndexResume } from '../../server/src/protocol';
import { WorkerNotReady, messageOf, type Worker } from './worker';
import { VIEW_ID, type ChatHost } from './chatView';
import type { IndexStatusBar } from './statusBar';
import { findRelatedPeople, findRelatedSnippets, seedOfSelection, toSeed } from './related';
import { createCustomModel, deleteModel, deleteModelCache, downloadModel, listModels, unloadModels } from './modelCommands';

export interface Parts {
  context: vscode.ExtensionContext;
  worker: Worker;
  chat: ChatHost;
  status: IndexStatusBar;
}

type Command = (...args: unknown[]) => unknown;

/** Shows a command's failure: "not ready" as a warning with a way forward, the worker's errors verbatim. */
function guarded(worker: Worker, id: string, fn: Command): Command {
  return async (...args: unknown[]) => {
    try {
      return await fn(...args);
    } catch (e) {
      if (e instanceof WorkerNotReady) {
        const pick = await vscode.window.showWarningMessage(e.message, ...(worker.state === 'stopped' ? ['Restart Worker', 'Show Log'] : ['Show Log']));
        if (pick === 'Restart Worker') await vscode.commands.executeCommand('askcode.restartWorker');
        else if (pick === 'Show Log') worker.output.show();
        return undefined;
      }
      worker.output.error(`${id}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      void vscode.window.showErrorMessage(`askcode: ${messageOf(e)}`);
      return undefined;
    }
  };
}

export function registerCommands(p: Parts): void {
  const { context, worker, chat, status } = p;
  const commands: Record<string, Command> = {
    'askcode.openChat': () => vscode.commands.executeCommand(`${VIEW_ID}.focus`),
    'askcode.openChatInEditor': () => chat.openInEditor(),
    'askcode.newConversation': () => chat.newConversation(),
    'askcode.showLog': () => worker.output.show(),
    'askcode.restartWorker': async () => {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'askcode: restarting the worker' }, () => worker.restart());
      void vscode.window.showInformationMessage('askcode: the worker was restarted.');
    },
    'askcode.askSelection': async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) {
        void vscode.window.showInformationMessage('Select some code first, then run "askcode: Ask About Selection".');
        return;
      }
      const query = await vscode.window.showInputBox({ title: 'askcode: Ask About Selection', prompt: 'Your question about the selected code', value: 'What does this code do?', valueSelection: [0, 23] });
      if (!query?.trim()) return;
      await chat.ask({ query: query.trim(), selection: seedOfSelection(editor.document, editor.selection) });
    },
    'askcode.findRelatedSnippets': (uri?: unknown) => findRelatedSnippets(worker, chat, uri instanceof vscode.Uri ? uri : undefined),
    'askcode.findRelatedPeople': (uri?: unknown) => findRelatedPeople(worker, chat, uri instanceof vscode.Uri ? uri : undefined),
    'askcode.saveSelectionAsAsset': async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage('Open a file and select code to save.');
        return;
      }
      const doc = editor.document;
      const range = editor.selection.isEmpty ? new vscode.Range(0, 0, doc.lineCount, 0) : editor.selection;
      const sel = seedOfSelection(doc, range);
      const name = await vscode.window.showInputBox({ title: 'askcode: Save Selection as Asset', prompt: 'A name for the snippet', value: `${vscode.workspace.asRelativePath(doc.uri)}:${sel.startLine}-${sel.endLine}` });
      if (name === undefined) return;
      // A saved file is read by the worker from disk; an unsaved one is sent as a fragment.
      const params = doc.uri.scheme === 'file' && !doc.isDirty
        ? { name: name || undefined, path: doc.uri.fsPath, startLine: sel.startLine, endLine: sel.endLine }
        : { name: name || undefined, seed: toSeed(sel) };
      const saved = await worker.request(AssetsSave, params);
      void vscode.window.showInformationMessage(`Saved "${saved.name}" as an asset: it is now searchable with your workspace.`);
    },
    'askcode.listModels': () => listModels(worker),
    'askcode.createCustomModel': () => createCustomModel(worker, context.secrets),
    'askcode.deleteModel': () => deleteModel(worker),
    'askcode.deleteModelCache': () => deleteModelCache(worker),
    'askcode.unloadModels': () => unloadModels(worker),
    'askcode.downloadModel': () => downloadModel(worker),
    'askcode.rebuildIndex': async () => {
      const ok = await vscode.window.showWarningMessage('Rebuild the askcode index from scratch? Search keeps working on keywords while it rebuilds.', { modal: true }, 'Rebuild');
      if (ok !== 'Rebuild') return;
      await worker.request(IndexRebuild, undefined);
      await status.refresh();
    },
    'askcode.pauseIndexing': async () => status.show(await worker.request(IndexPause, undefined)),
    'askcode.resumeIndexing': async () => status.show(await worker.request(IndexResume, undefined)),
    'askcode.showIndexStatus': async () => {
      if (worker.state === 'running') await status.refresh();
      const s = status.current;
      const items: (vscode.QuickPickItem & { command?: string })[] = [];
      if (worker.state !== 'running') {
        items.push({ label: `$(info) Worker: ${worker.state}`, detail: worker.stateMessage }, { label: '$(debug-restart) Restart Worker', command: 'askcode.restartWorker' });
      } else if (s) {
        items.push({
          label: `$(info) Index ${s.state}: ${s.files}/${s.filesTotal} files, ${s.chunks} chunks, ${s.embedded} embedded`,
          detail: [s.bm25Only ? 'Keyword search only: no embedding model could be loaded.' : '', s.message ?? ''].filter(Boolean).join(' ') || undefined,
        });
        if (s.state === 'indexing') items.push({ label: '$(debug-pause) Pause Indexing', command: 'askcode.pauseIndexing' });
        if (s.state === 'paused') items.push({ label: '$(debug-continue) Resume Indexing', command: 'askcode.resumeIndexing' });
        items.push({ label: '$(refresh) Rebuild Index', command: 'askcode.rebuildIndex' });
      }
      items.push(
        { label: '$(comment-discussion) Open Chat', command: 'askcode.openChat' },
        { label: '$(output) Show Log', command: 'askcode.showLog' },
        { label: '$(gear) Settings', command: 'workbench.action.openSettings?askcode' },
      );
      const pick = await vscode.window.showQuickPick(items, { title: 'askcode' });
      if (!pick?.command) return;
      if (pick.command.startsWith('workbench.action.openSettings')) await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:askcode.askcode');
      else await vscode.commands.executeCommand(pick.command);
    },
  };
  for (const [id, fn] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, guarded(worker, id, fn)));
  }
}
