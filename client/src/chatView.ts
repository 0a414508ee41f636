/**
 * Hosts the chat UI (dist/webview.js) in the sidebar view and in editor tabs, and relays its
 * JSON-RPC: `askcode/ui/*` is answered here, every other method goes to the worker unchanged, and
 * the worker's notifications come back to every open chat.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { ResponseError } from 'vscode-languageclient/node';
import {
  UI_PREFIX, UiReady, UiOpenLocation, UiInsert, UiOpenExternal, UiAsk, UiConfigChanged, UiWorkerState, UiNewConversation,
  type AskParams, type UiConfig,
} from '../../server/src/protocol/ui';
import { RPC_ERROR_CODES, type NotificationDef } from '../../server/src/protocol';
import { folderPaths, toRpcError, type Worker } from './worker';
import { readSettings } from './config';

export const VIEW_ID = 'askcode.chat';

interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: unknown;
}

/** Methods the page may not reach: the LSP lifecycle, the worker's own request to us, test hooks. */
function relayable(method: string): boolean {
  if (method === 'initialize' || method === 'shutdown' || method === 'exit' || method.startsWith('$/')) return false;
  if (method === 'askcode/secret' || method.startsWith('askcode/test/')) return false;
  return /^(models?|qgpt|askcode)\//.test(method);
}

/** One chat page (sidebar or editor tab) and its message channel. */
class ChatPage implements vscode.Disposable {
  private ready = false;
  private readonly queue: RpcMessage[] = [];
  private readonly subs: vscode.Disposable[] = [];
  /** Relayed requests by the page's id, so its `$/cancelRequest` reaches the worker. */
  private readonly inFlight = new Map<number | string, vscode.CancellationTokenSource>();

  constructor(readonly webview: vscode.Webview, private readonly host: ChatHost) {
    this.subs.push(webview.onDidReceiveMessage((m: RpcMessage) => void this.onMessage(m)));
  }

  private async onMessage(msg: RpcMessage): Promise<void> {
    if (!msg || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') return;
    const isRequest = msg.id !== undefined && msg.id !== null;
    if (!isRequest) {
      // The page's vscode-jsonrpc cancels with `$/cancelRequest`; the relayed worker request follows.
      if (msg.method === '$/cancelRequest') {
        const id = (msg.params as { id?: number | string } | undefined)?.id;
        if (id !== undefined) this.inFlight.get(id)?.cancel();
      } else if (relayable(msg.method)) this.host.worker.notifyRaw(msg.method, msg.params);
      return;
    }
    const id = msg.id as number | string;
    const cts = new vscode.CancellationTokenSource();
    this.inFlight.set(id, cts);
    try {
      const result = msg.method.startsWith(UI_PREFIX) ? await this.host.handleUi(this, msg.method, msg.params) : await this.relay(msg.method, msg.params, cts.token);
      void this.webview.postMessage({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (e) {
      void this.webview.postMessage({ jsonrpc: '2.0', id, error: toRpcError(e) });
    } finally {
      this.inFlight.delete(id);
      cts.dispose();
    }
  }

  private relay(method: string, params: unknown, token: vscode.CancellationToken): Promise<unknown> {
    if (!relayable(method)) return Promise.reject(new ResponseError(RPC_ERROR_CODES.forbidden, `${method} is not available to the chat view`, { kind: 'forbidden' }));
    return this.host.worker.requestRaw(method, params, token);
  }

  markReady(): void {
    this.ready = true;
    for (const m of this.queue.splice(0)) void this.webview.postMessage(m);
  }

  /** Messages before the page is listening wait for its `askcode/ui/ready`. */
  send(method: string, params: unknown): void {
    const msg: RpcMessage = { jsonrpc: '2.0', method, params };
    if (this.ready) void this.webview.postMessage(msg);
    else this.queue.push(msg);
  }

  notify<P>(def: NotificationDef<P>, params: P): void {
    this.send(def.method, params);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const c of this.inFlight.values()) c.cancel();
  }
}

export class ChatHost implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly pages = new Set<ChatPage>();
  private view?: vscode.WebviewView;
  private viewPage?: ChatPage;
  private readonly subs: vscode.Disposable[] = [];
  /** An ask made while the view was not yet resolved. */
  private pendingAsk?: AskParams;

  constructor(private readonly context: vscode.ExtensionContext, readonly worker: Worker) {
    this.subs.push(
      worker.onNotification(({ method, params }) => {
        for (const p of this.pages) p.send(method, params);
      }),
      worker.onState((s) => {
        for (const p of this.pages) p.notify(UiWorkerState, s);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('askcode.defaultModel')) for (const p of this.pages) p.notify(UiConfigChanged, this.uiConfig());
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        for (const p of this.pages) p.notify(UiConfigChanged, this.uiConfig());
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const page = this.attach(view.webview);
    this.viewPage = page;
    view.onDidDispose(() => {
      this.detach(page);
      if (this.view === view) {
        this.view = undefined;
        this.viewPage = undefined;
      }
    });
    if (this.pendingAsk) {
      page.notify(UiAsk, this.pendingAsk);
      this.pendingAsk = undefined;
    }
  }

  /** The chat as an editor tab ("askcode: Open Chat in Editor"). */
  openInEditor(): void {
    const panel = vscode.window.createWebviewPanel('askcode.chatPanel', 'askcode', vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist')],
    });
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'askcode.svg');
    const page = this.attach(panel.webview);
    panel.onDidDispose(() => this.detach(page));
  }

  /** Shows the sidebar chat and asks there. */
  async ask(p: AskParams): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (this.viewPage) this.viewPage.notify(UiAsk, p);
    else this.pendingAsk = p;
  }

  newConversation(): void {
    this.viewPage?.notify(UiNewConversation, {});
  }

  private attach(webview: vscode.Webview): ChatPage {
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist')] };
    webview.html = this.html(webview);
    const page = new ChatPage(webview, this);
    this.pages.add(page);
    return page;
  }

  private detach(page: ChatPage): void {
    this.pages.delete(page);
    page.dispose();
  }

  private uiConfig(): UiConfig {
    return { folders: folderPaths(), defaultModel: readSettings().defaultModel };
  }

  async handleUi(page: ChatPage, method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case UiReady.method: {
        // Answer first, then flush what waited: the page reads its config before any ask.
        setTimeout(() => {
          page.markReady();
          page.notify(UiWorkerState, { state: this.worker.state, message: this.worker.stateMessage });
        }, 0);
        return this.uiConfig();
      }
      case UiOpenLocation.method: {
        const p = params as { path: string; startLine?: number; endLine?: number };
        await openLocation(p.path, p.startLine, p.endLine);
        return null;
      }
      case UiInsert.method: {
        const { text } = params as { text: string };
        const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
        if (!editor) throw new Error('Open an editor to insert the code into.');
        await editor.edit((b) => {
          for (const sel of editor.selections) b.replace(sel, text);
        });
        return null;
      }
      case UiOpenExternal.method: {
        const { url } = params as { url: string };
        if (!/^https?:\/\//i.test(url)) throw new Error('Only http(s) links open outside.');
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return null;
      }
      default:
        throw new ResponseError(RPC_ERROR_CODES.not_found, `unknown method ${method}`, { kind: 'not_found' });
    }
  }

  private html(webview: vscode.Webview): string {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css'));
    const nonce = makeNonce();
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${style.toString()}">
  <title>askcode</title>
</head>
<body>
  <div id="app"></div>
  <script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const p of this.pages) p.dispose();
    this.pages.clear();
  }
}

/** Opens a file and selects a 1-based inclusive line range. */
export async function openLocation(path: string, startLine?: number, endLine?: number, preview = false): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const start = Math.max(0, (startLine ?? 1) - 1);
  const end = Math.max(start, (endLine ?? startLine ?? 1) - 1);
  const range = new vscode.Range(start, 0, end, doc.lineAt(Math.min(end, doc.lineCount - 1)).text.length);
  const editor = await vscode.window.showTextDocument(doc, { preview, selection: range, viewColumn: vscode.ViewColumn.One });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

function makeNonce(): string {
  return randomBytes(18).toString('base64');
}
