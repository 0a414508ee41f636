/**
 * The extension host side: thin. It starts the worker, hosts the chat view, forwards editor state,
 * and maps commands to worker requests. No model, index or git work runs here.
 */
import * as vscode from 'vscode';
import {
  IndexProgressNotification, QgptStreamOutputNotification, ModelsIdentifiersNotification, ModelDownloadProgressNotification,
  type NotificationDef,
} from '../../server/src/protocol';
import { Worker, messageOf } from './worker';
import { ChatHost, VIEW_ID } from './chatView';
import { IndexStatusBar } from './statusBar';
import { WorkspaceSync } from './workspaceSync';
import { registerCommands } from './commands';
import { registerChatFeatures } from './chat';

let worker: Worker | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('askcode', { log: true });
  const forwarded: NotificationDef<unknown>[] = [
    IndexProgressNotification, QgptStreamOutputNotification, ModelsIdentifiersNotification, ModelDownloadProgressNotification,
  ] as NotificationDef<unknown>[];
  worker = new Worker(context, output, forwarded);
  const chat = new ChatHost(context, worker);
  const status = new IndexStatusBar(worker);
  context.subscriptions.push(
    output,
    worker,
    chat,
    status,
    new WorkspaceSync(worker),
    vscode.window.registerWebviewViewProvider(VIEW_ID, chat, { webviewOptions: { retainContextWhenHidden: true } }),
  );
  // Commands first: they must exist (and explain themselves) while the worker starts.
  registerCommands({ context, worker, chat, status });
  registerChatFeatures(context, worker);
  worker.watchConfiguration();
  worker.start().catch((e) => {
    output.error(`askcode worker failed to start: ${messageOf(e)}`);
    void vscode.window.showErrorMessage(`askcode could not start its worker: ${messageOf(e)}`, 'Show Log').then((p) => p && output.show());
  });
}

export async function deactivate(): Promise<void> {
  await worker?.stop();
}
