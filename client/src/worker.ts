/**
 * Owns the worker's life: starts dist/server.js with vscode-languageclient over IPC under VS Code's
 * own Node, restarts it after a crash, and is the one door every command and view uses to reach it.
 */
import * as vscode from 'vscode';
import {
  LanguageClient, TransportKind, State, CloseAction, ErrorAction, ResponseError,
  type LanguageClientOptions, type ServerOptions, type ErrorHandler, type Message, type CloseHandlerResult,
  type ErrorHandlerResult,
} from 'vscode-languageclient/node';
import {
  SecretGet, SettingsChanged, WorkspaceSetFolders, RPC_ERROR_CODES, WORKER_ENV,
  type RequestDef, type NotificationDef, type ErrorData,
} from '../../server/src/protocol';
import { readSettings, logLevel } from './config';

export type WorkerState = 'starting' | 'running' | 'stopped';

/** Raised when a command runs before the worker is up: the message tells the user what to do. */
export class WorkerNotReady extends Error {}

/** Crashes tolerated within {@link CRASH_WINDOW_MS} before we stop restarting and ask the user. */
const MAX_CRASHES = 4;
const CRASH_WINDOW_MS = 3 * 60_000;

export class Worker implements vscode.Disposable {
  private client?: LanguageClient;
  private starting?: Promise<void>;
  private crashes: number[] = [];
  private readonly stateEmitter = new vscode.EventEmitter<{ state: WorkerState; message?: string }>();
  /** Every worker notification, for the views (stream frames, index progress, model changes). */
  private readonly notificationEmitter = new vscode.EventEmitter<{ method: string; params: unknown }>();
  readonly onState = this.stateEmitter.event;
  readonly onNotification = this.notificationEmitter.event;
  private current: { state: WorkerState; message?: string } = { state: 'stopped' };
  /** Requests the worker sends to the extension, registered again on every (re)start. */
  private readonly clientRequests: [string, (params: never, token: vscode.CancellationToken) => unknown][] = [];
  private readonly startedEmitter = new vscode.EventEmitter<void>();
  /** Fires after each (re)start, once the worker runs. */
  readonly onStarted = this.startedEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
    /** Worker notifications the client listens to. */
    private readonly forwarded: readonly NotificationDef<unknown>[],
  ) {}

  get state(): WorkerState {
    return this.current.state;
  }

  get stateMessage(): string | undefined {
    return this.current.message;
  }

  private setState(state: WorkerState, message?: string): void {
    this.current = { state, message };
    this.stateEmitter.fire(this.current);
  }

  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.setState('starting');
    const module = this.context.asAbsolutePath('dist/server.js');
    // `runtime: process.execPath` runs the worker on VS Code's own Node, whatever `node` is on PATH.
    // ASKCODE_WORKER_INSPECT_PORT (set by the "Run Extension" launch) makes the worker attachable.
    const inspect = process.env.ASKCODE_WORKER_INSPECT_PORT;
    const execArgv = inspect ? ['--nolazy', `--inspect=${inspect}`] : [];
    // With an explicit runtime the client spawns rather than forks, so in desktop VS Code (Electron)
    // the child must be told to behave as plain Node.
    const env = { ...WORKER_ENV, ELECTRON_RUN_AS_NODE: '1' };
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc, runtime: process.execPath, options: { execArgv, env } },
      debug: { module, transport: TransportKind.ipc, runtime: process.execPath, options: { execArgv, env } },
    };
    const settings = readSettings();
    const clientOptions: LanguageClientOptions = {
      // No documents: the worker reads files itself and gets dirty buffers as askcode/buffer.
      documentSelector: [],
      outputChannel: this.output,
      traceOutputChannel: this.output,
      initializationOptions: {
        dataDir: this.context.globalStorageUri.fsPath,
        folders: folderPaths(),
        settings,
        logLevel: logLevel(),
        // The worker lists "VS Code language model" only when we can run it (protocol/lm.ts).
        client: { lm: typeof vscode.lm?.selectChatModels === 'function' },
      },
      errorHandler: this.errorHandler(),
      initializationFailedHandler: (e) => {
        this.output.error(`askcode worker failed to initialize: ${String(e)}`);
        return false;
      },
    };
    // The id `askcode` makes the client read `askcode.trace.server` by itself.
    const client = new LanguageClient('askcode', 'askcode', serverOptions, clientOptions);
    this.client = client;
    for (const [method, handler] of this.clientRequests) client.onRequest(method, handler);
    client.onRequest(SecretGet.method, async (p: { key: string }) => ({ value: (await this.context.secrets.get(p.key)) ?? null }));
    for (const def of this.forwarded) {
      client.onNotification(def.method, (params: unknown) => this.notificationEmitter.fire({ method: def.method, params }));
    }
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) this.setState('running');
      else if (e.newState === State.Starting) this.setState('starting');
      else if (this.client === client) this.setState('stopped', this.current.message);
    });
    try {
      await client.start();
      this.output.info(`askcode worker started (${process.execPath})`);
      // The bridge follows `askcode.bridge.*`: the worker starts it when told so.
      await client.sendNotification(SettingsChanged.method, settings);
      this.startedEmitter.fire();
    } catch (e) {
      this.setState('stopped', `The askcode worker did not start: ${messageOf(e)}`);
      throw e;
    }
  }

  private errorHandler(): ErrorHandler {
    return {
      error: (_error: Error, _message: Message | undefined, count: number | undefined): ErrorHandlerResult => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
      }),
      closed: (): CloseHandlerResult => {
        const now = Date.now();
        this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
        if (this.crashes.length <= MAX_CRASHES) {
          this.output.warn(`askcode worker stopped unexpectedly; restarting (${this.crashes.length}/${MAX_CRASHES})`);
          return { action: CloseAction.Restart, message: undefined };
        }
        const message = `The askcode worker crashed ${this.crashes.length} times in 3 minutes and was not restarted. See the "askcode" output, then run "askcode: Restart Worker".`;
        this.current = { state: 'stopped', message };
        void vscode.window.showErrorMessage(message, 'Restart Worker', 'Show Log').then((pick) => {
          if (pick === 'Restart Worker') void vscode.commands.executeCommand('askcode.restartWorker');
          else if (pick === 'Show Log') this.output.show();
        });
        return { action: CloseAction.DoNotRestart, message };
      },
    };
  }

  /** Stops and starts the worker (the "Restart Worker" command): a fresh process, same data. */
  async restart(): Promise<void> {
    this.crashes = [];
    const old = this.client;
    this.client = undefined;
    if (old) {
      this.setState('starting', 'Restarting the askcode worker…');
      try {
        await old.stop(5000);
      } catch (e) {
        this.output.warn(`stopping the old worker: ${messageOf(e)}`);
      }
      await old.dispose().catch(() => {});
    }
    await this.start();
  }

  private ready(): LanguageClient {
    const c = this.client;
    if (c && c.state === State.Running) return c;
    if (this.current.state === 'starting') throw new WorkerNotReady('askcode is still starting its worker — try again in a moment.');
    throw new WorkerNotReady(this.current.message ?? 'The askcode worker is not running. Run "askcode: Restart Worker".');
  }

  request<P, R>(def: RequestDef<P, R>, params: P, token?: vscode.CancellationToken): Promise<R> {
    const c = this.ready();
    // An `undefined` token would be sent as a second positional parameter, turning params into an array.
    return (token ? c.sendRequest(def.method, params ?? null, token) : c.sendRequest(def.method, params ?? null)) as Promise<R>;
  }

  /** Any method by name: the webview relay. */
  requestRaw(method: string, params: unknown, token?: vscode.CancellationToken): Promise<unknown> {
    // A void request goes without params (the library would send `undefined` as `[null]`).
    const c = this.ready();
    return params === undefined || params === null ? c.sendRequest(method, token) : c.sendRequest(method, params, token);
  }

  notify<P>(def: NotificationDef<P>, params: P): void {
    const c = this.client;
    if (c && c.state === State.Running) void c.sendNotification(def.method, params).catch((e) => this.output.warn(`${def.method}: ${messageOf(e)}`));
  }

  /** A notification whose sending can be awaited (to keep it ahead of a response that follows). */
  async notifyNow<P>(def: NotificationDef<P>, params: P): Promise<void> {
    const c = this.client;
    if (c && c.state === State.Running) await c.sendNotification(def.method, params);
  }

  /** Handles a request the worker sends to the extension (for this and every later worker). */
  onRequest<P, R>(def: RequestDef<P, R>, handler: (params: P, token: vscode.CancellationToken) => Promise<R>): void {
    const h = handler as (params: never, token: vscode.CancellationToken) => unknown;
    this.clientRequests.push([def.method, h]);
    this.client?.onRequest(def.method, h);
  }

  notifyRaw(method: string, params: unknown): void {
    const c = this.client;
    if (c && c.state === State.Running) void c.sendNotification(method, params).catch(() => {});
  }

  /** Applies changed settings live; folders changes go through setFolders. */
  watchConfiguration(): void {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('askcode')) this.notify(SettingsChanged, readSettings());
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.state === 'running') void this.request(WorkspaceSetFolders, { folders: folderPaths() }).catch((e) => this.output.warn(`setFolders: ${messageOf(e)}`));
      }),
    );
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) await c.stop(5000).catch(() => {});
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.stateEmitter.dispose();
    this.startedEmitter.dispose();
    this.notificationEmitter.dispose();
  }
}

export function folderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The user-facing text of a failure: the worker's message for its errors. */
export function messageOf(e: unknown): string {
  if (e instanceof ResponseError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/** The JSON-RPC error shape the relay hands the webview. */
export function toRpcError(e: unknown): { code: number; message: string; data?: ErrorData } {
  if (e instanceof ResponseError) return { code: e.code, message: e.message, data: e.data as ErrorData | undefined };
  if (e instanceof WorkerNotReady) return { code: RPC_ERROR_CODES.unavailable, message: e.message, data: { kind: 'unavailable' } };
  return { code: RPC_ERROR_CODES.internal, message: messageOf(e), data: { kind: 'internal' } };
}
