/**
 * The real worker (dist/server.js) as a child process over its real transport (Node IPC,
 * vscode-jsonrpc), as the extension starts it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import {
  createMessageConnection, IPCMessageReader, IPCMessageWriter, ResponseError, type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { RequestDef, NotificationDef } from '../../server/src/protocol/base';
import type { WorkerInitOptions } from '../../server/src/main';

export const ROOT = path.resolve(__dirname, '..', '..');
export const SHARED_MODELS = process.env.ASKCODE_MODELS_DIR
  ? path.resolve(process.env.ASKCODE_MODELS_DIR)
  : path.resolve(ROOT, '..', 'shared', 'models');

export interface WorkerHandle {
  child: ChildProcess;
  conn: MessageConnection;
  stderr: () => string;
  logs: string[];
  request<P, R>(def: RequestDef<P, R>, params: P): Promise<R>;
  raw(method: string, params?: unknown): Promise<unknown>;
  notify<P>(def: NotificationDef<P>, params: P): Promise<void>;
  onNotification<P>(def: NotificationDef<P>, fn: (p: P) => void): void;
  /** Graceful: shutdown + exit. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

export async function startWorker(init: WorkerInitOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<WorkerHandle> {
  const child = fork(path.join(ROOT, 'dist', 'server.js'), ['--node-ipc'], {
    env: { ...process.env, ASKCODE_MODELS_DIR: SHARED_MODELS, ASKCODE_TEST_HOOKS: '1', ...init.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let err = '';
  child.stderr?.on('data', (d) => (err += String(d)));
  child.stdout?.on('data', (d) => (err += String(d)));
  const conn = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  const logs: string[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
  conn.onRequest('askcode/secret', (p: { key: string }) => ({ value: process.env[p.key] ?? null }));
  conn.listen();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { env: _env, ...initOptions } = init;
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { autoIndex: false, ...initOptions },
  });
  await conn.sendNotification('initialized', {});
  const handle: WorkerHandle = {
    child,
    conn,
    logs,
    stderr: () => err,
    request: (def, params) => conn.sendRequest(def.method, params) as never,
    raw: (method, params) => conn.sendRequest(method, params),
    notify: (def, params) => conn.sendNotification(def.method, params),
    onNotification: (def, fn) => void conn.onNotification(def.method, fn as (p: unknown) => void),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        await conn.sendRequest('shutdown');
        await conn.sendNotification('exit');
      } catch {
        /* already gone */
      }
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
      conn.dispose();
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      conn.dispose();
    },
  };
  return handle;
}

/** The JSON-RPC error of a failed request, for assertions on `data.kind` and the message. */
export async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ kind: string; field?: string }>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ResponseError) return e as ResponseError<{ kind: string; field?: string }>;
    throw e;
  }
  throw new Error('expected the request to fail, but it succeeded');
}
