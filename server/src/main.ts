/**
 * The worker: the core behind JSON-RPC (vscode-languageserver over IPC). Started by the extension
 * with VS Code's own Node; also started by the tests as a child process.
 */
import {
  createConnection, ProposedFeatures, ResponseError, TextDocumentSyncKind, CancellationTokenSource,
  type InitializeParams, type InitializeResult,
} from 'vscode-languageserver/node';
import { createCore, type Core } from './core/core';
import { createLogger, type LogLevel } from './core/logger';
import { resolveDataDir, resolveModelsDir } from './core/options';
import { RPC_ERROR_CODES, type ErrorData } from './protocol/errors';
import { SecretGet, SettingsChanged, type WorkerSettings } from './protocol/workspace';
import type { NotificationDef } from './protocol/base';
import { toAskcodeError } from './core/errors';
import { VERSION } from './protocol/seeds';
import { startBridge, type Bridge } from './bridge/bridge';
import { strictStdio } from './stdioTransport';
import { LmChat, LmDelta, LmModelsChanged, type ClientCapabilities, type LmChatResult } from './protocol/lm';
import { ClientLm } from './models/vscodeLmGenerator';

export interface WorkerInitOptions {
  dataDir?: string;
  folders?: string[];
  settings?: WorkerSettings;
  logLevel?: LogLevel;
  autoIndex?: boolean;
  /** What the client offers back (VS Code's language models). */
  client?: ClientCapabilities;
}

const connection = process.argv.includes('--stdio') ? stdioConnection() : createConnection(ProposedFeatures.all);

/** Over stdio the reader is strict (server/src/stdioTransport.ts); a framing error ends the process. */
function stdioConnection() {
  const { reader, writer } = strictStdio((why) => {
    process.stderr.write(`askcode worker: framing error on stdin (${why}); exiting so the client restarts it\n`);
    // The error reply is flushed before exiting.
    process.stdout.write('', () => process.exit(2));
  });
  return createConnection(ProposedFeatures.all, reader, writer);
}
let core: Core | undefined;
let ready: Promise<Core> | undefined;
let folders: string[] = [];

const log = createLogger((level, line) => {
  if (level === 'error') connection.console.error(line);
  else if (level === 'warn') connection.console.warn(line);
  else connection.console.log(line);
}, (process.env.ASKCODE_LOG_LEVEL as LogLevel | undefined) ?? 'info');

connection.onInitialize(async (params: InitializeParams): Promise<InitializeResult> => {
  const init = (params.initializationOptions ?? {}) as WorkerInitOptions;
  folders = init.folders ?? (params.workspaceFolders ?? []).map((f) => decodeURIComponent(new URL(f.uri).pathname));
  const dataDir = init.dataDir ? init.dataDir : resolveDataDir();
  const clientLm = init.client?.lm ? lmThroughClient() : undefined;
  ready = createCore({
    clientLm,
    dataDir,
    modelsDir: resolveModelsDir(),
    folders,
    log: init.logLevel ? createLogger((_l, line) => connection.console.log(line), init.logLevel) : log,
    settings: init.settings,
    autoIndex: init.autoIndex ?? true,
    secrets: async (key) => {
      try {
        const r = await connection.sendRequest(SecretGet.method, { key });
        return (r as { value: string | null }).value;
      } catch {
        return null;
      }
    },
  });
  core = await ready;
  core.service.onBroadcast((method, p) => void connection.sendNotification(method, p));
  log.info(`askcode worker ${process.pid} ready: data ${dataDir}, ${folders.length} folder(s)`);
  return {
    capabilities: { textDocumentSync: TextDocumentSyncKind.None },
    serverInfo: { name: 'askcode', version: VERSION },
  };
});

/** `askcode/lm/chat` to the client, cancelled with `$/cancelRequest` when the answer stops. */
function lmThroughClient(): ClientLm {
  const lm = new ClientLm(async (params, signal) => {
    const cts = new CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return (await connection.sendRequest(LmChat.method, params, cts.token)) as LmChatResult;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  });
  connection.onNotification(LmDelta.method, (p) => lm.delta(p));
  connection.onNotification(LmModelsChanged.method, (p) => lm.setModels(p));
  return lm;
}

const emit = <P>(def: NotificationDef<P>, p: P) => void connection.sendNotification(def.method, p);

connection.onRequest(async (method, params, token) => {
  const c = core ?? (ready ? await ready : undefined);
  if (!c) throw new ResponseError(RPC_ERROR_CODES.unavailable, 'the worker is not initialized yet');
  const ac = new AbortController();
  const sub = token.onCancellationRequested(() => ac.abort());
  try {
    const result = await c.service.call(method, params, { signal: ac.signal, emit, connection: 'rpc', origin: 'rpc' });
    return result === undefined ? null : result;
  } catch (e) {
    const err = toAskcodeError(e);
    const data: ErrorData = { kind: err.kind, field: err.field, operation: method };
    throw new ResponseError(RPC_ERROR_CODES[err.kind], err.message, data);
  } finally {
    sub.dispose();
  }
});

connection.onNotification(async (method, params) => {
  const c = core ?? (ready ? await ready : undefined);
  if (!c) return;
  if (method === SettingsChanged.method) {
    log.info('settings changed');
    applyBridge(c, (params as WorkerSettings | null)?.bridge);
  }
  if (c.service.has(method)) {
    c.service.call(method, params, { emit, connection: 'rpc', origin: 'rpc' }).catch((e) => log.warn(`${method}: ${String(e)}`));
  }
});

/**
 * The extension's `askcode.bridge.*` settings arrive with `askcode/settings`: the worker, never the
 * extension host, serves the HTTP/WS bridge (loopback only) from its own core.
 */
type BridgeSettings = NonNullable<WorkerSettings['bridge']>;
let bridge: Promise<Bridge | undefined> = Promise.resolve(undefined);
let bridgePort: number | undefined;

function applyBridge(c: Core, want: BridgeSettings | undefined): void {
  if (!want) return;
  bridge = bridge.then(async (running) => {
    if (running && (!want.enabled || want.port !== bridgePort)) {
      await running.close();
      log.info('bridge stopped');
      running = undefined;
    }
    if (!want.enabled || running) return running;
    try {
      const b = await startBridge(c, { port: want.port ?? 0, log });
      bridgePort = want.port;
      log.info(`bridge listening on ${b.url}`);
      return b;
    } catch (e) {
      log.error(`bridge failed to start on port ${want.port ?? 0}: ${String(e)}`);
      return undefined;
    }
  });
}

connection.onShutdown(async () => {
  await (await bridge)?.close();
  await core?.dispose();
});

// Crash-test hook: the tests kill the worker mid-work this way as well as with SIGKILL.
if (process.env.ASKCODE_TEST_HOOKS === '1') {
  connection.onRequest('askcode/test/crash', () => process.exit(3));
}

for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    void (core?.dispose() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}

connection.listen();
