/**
 * The WebSocket routes: `/qgpt/stream` (SPEC §3.1), the two feeds of §3.2, and `/askcode/rpc`
 * (JSON-RPC 2.0, one message per text frame, for the chat page in a browser).
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import WebSocket from 'ws';
import type { Core } from '../core/core';
import type { CallContext } from '../core/service';
import type { Logger } from '../core/logger';
import { toAskcodeError, unavailable, type AskcodeError } from '../core/errors';
import { HTTP_STATUS, RPC_ERROR_CODES, type ErrorData } from '../protocol/errors';
import type { NotificationDef } from '../protocol/base';
import { QgptStream, QgptStreamOutputNotification, type StreamAccepted } from '../protocol/stream';
import { ModelsSnapshot, ModelsIdentifiersNotification, ModelDownloadProgressNotification } from '../protocol/models';
import type { QGPTStreamOutput, QGPTStreamEnum, StreamedIdentifiers } from '../protocol/wire';
import { guardParams } from './guard';
import { parseJson, type BridgeLimits } from './security';

export interface SocketDeps {
  core: Core;
  limits: BridgeLimits;
  log: Logger;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sends one JSON text frame; a reader that lets too much pile up is dropped rather than buffered without end. */
export function sendJson(ws: WebSocket, value: unknown, limits: BridgeLimits): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.bufferedAmount > limits.wsBacklogBytes) {
    ws.close(1013, 'reader too slow');
    return;
  }
  ws.send(JSON.stringify(value));
}

/** A closed socket's streamed requests end without frames. */
function closeConnection(core: Core, connection: string, log: Logger): void {
  try {
    core.streams.closeConnection(connection);
  } catch (e) {
    log.warn(`closeConnection: ${String(e)}`);
  }
}

const TERMINAL: ReadonlySet<QGPTStreamEnum | undefined> = new Set(['COMPLETED', 'FAILED', 'STOPPED', 'RESET', 'CANCELED']);

/**
 * `/qgpt/stream`: one QGPTStreamInput per frame, QGPTStreamOutput frames back, many requests
 * interleaved. A bad frame gets a FAILED frame for that request; the socket stays open.
 */
export function serveQgptStream(ws: WebSocket, { core, limits, log }: SocketDeps): void {
  const connection = `ws-stream-${randomUUID()}`;
  const closed = new AbortController();
  // Every running stream listens on the socket's signal; the cap on streams bounds them.
  setMaxListeners(limits.streamsPerSocket * 4 + 16, closed.signal);
  // Requests whose stream is running, from their first accepted call to their terminal frame.
  const active = new Set<string>();
  // Terminal frames that came before their call returned (the handler may finish fast).
  const endedEarly = new Set<string>();
  let calling = 0;

  const emit = <P>(def: NotificationDef<P>, p: P) => {
    if (def.method !== QgptStreamOutputNotification.method) return;
    const frame = p as unknown as QGPTStreamOutput;
    if (frame.request && TERMINAL.has(frame.status)) {
      if (!active.delete(frame.request) && calling > 0) endedEarly.add(frame.request);
    }
    sendJson(ws, frame, limits);
  };

  const fail = (input: Record<string, unknown> | undefined, status: number, message: string) => {
    const frame: QGPTStreamOutput = {
      conversation: typeof input?.conversation === 'string' ? input.conversation : '',
      request: typeof input?.request === 'string' ? input.request : randomUUID(),
      status: 'FAILED',
      statusCode: status,
      errorMessage: message,
    };
    sendJson(ws, frame, limits);
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) return fail(undefined, 400, 'binary frames are not accepted: send one QGPTStreamInput JSON object per text frame');
    let input: unknown;
    try {
      input = parseJson(rawText(data), limits.jsonDepth, 'frame');
    } catch (e) {
      const err = toAskcodeError(e);
      return fail(undefined, HTTP_STATUS[err.kind], err.message);
    }
    if (!isObject(input)) return fail(undefined, 400, 'a frame must be a JSON object (QGPTStreamInput)');
    const starts = input.stop !== true && input.reset !== true;
    if (starts && active.size + calling >= limits.streamsPerSocket) {
      return fail(input, 429, `too many streams running on this socket (at most ${limits.streamsPerSocket}); wait for one to finish or stop one`);
    }
    if (!core.service.has(QgptStream.method)) return fail(input, 501, 'qgpt/stream is not available in this build yet');
    try {
      guardParams(QgptStream.method, input, core.index.folders());
    } catch (e) {
      const err = toAskcodeError(e);
      return fail(input, HTTP_STATUS[err.kind], err.message);
    }
    calling++;
    const ctx: Partial<CallContext> = { signal: closed.signal, connection, emit, origin: 'bridge' };
    core.service.call(QgptStream.method, input, ctx).then(
      (accepted) => {
        const id = (accepted as StreamAccepted | undefined)?.request;
        if (input.reset === true) active.clear();
        else if (starts && typeof id === 'string' && !endedEarly.delete(id)) active.add(id);
      },
      (e) => {
        const err = toAskcodeError(e);
        if (err.kind === 'internal') log.error(`qgpt/stream on ${connection}: ${err.message}`);
        fail(input as Record<string, unknown>, HTTP_STATUS[err.kind], err.message);
      },
    ).finally(() => {
      if (--calling === 0) endedEarly.clear();
    });
  });

  ws.on('close', () => {
    closed.abort();
    closeConnection(core, connection, log);
  });
}

/** `/models/stream/identifiers`: all current model ids first, then every change. */
export function serveIdentifiers(ws: WebSocket, { core, limits, log }: SocketDeps): void {
  const early: unknown[] = [];
  let primed = false;
  // Subscribe before the snapshot so no change falls between the two.
  const off = core.service.onBroadcast((method, p) => {
    if (method !== ModelsIdentifiersNotification.method) return;
    if (primed) sendJson(ws, p, limits);
    else early.push(p);
  });
  ws.on('close', off);
  ws.on('message', () => {}); // a feed: anything the client sends is ignored
  core.service.request(ModelsSnapshot, undefined).then(
    (models) => {
      const first: StreamedIdentifiers = { iterable: models.iterable.map((m) => ({ model: { id: m.id } })) };
      sendJson(ws, first, limits);
      for (const p of early.splice(0)) sendJson(ws, p, limits);
      primed = true;
    },
    (e) => {
      const err = toAskcodeError(e);
      log.warn(`models/stream/identifiers: ${err.message}`);
      ws.close(1011, truncateReason(err.message));
    },
  );
}

/** `/model/{model}/download/progress`: that model's ModelDownloadProgress frames. */
export function serveDownloadProgress(ws: WebSocket, model: string, { core, limits }: SocketDeps): void {
  const off = core.service.onBroadcast((method, p) => {
    if (method !== ModelDownloadProgressNotification.method) return;
    const n = p as { model: string; progress: unknown };
    if (n.model === model) sendJson(ws, n.progress, limits);
  });
  ws.on('close', off);
  ws.on('message', () => {});
}

interface RpcRequest {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: unknown;
}

const rpcError = (id: RpcRequest['id'], code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0' as const,
  id: id ?? null,
  error: data === undefined ? { code, message } : { code, message, data },
});

/**
 * `/askcode/rpc`: every protocol method, as the worker serves it over IPC, for the chat page in a
 * browser. Hand-written rather than vscode-jsonrpc because that library frames a byte stream
 * (Content-Length headers); here the WebSocket already frames each message.
 */
export function serveRpc(ws: WebSocket, { core, limits, log }: SocketDeps): void {
  const connection = `ws-rpc-${randomUUID()}`;
  const inFlight = new Map<string | number, AbortController>();
  const closed = new AbortController();
  // One listener per request in flight, and those are capped below.
  setMaxListeners(limits.streamsPerSocket * 4 + 16, closed.signal);
  const emit = <P>(def: NotificationDef<P>, params: P) => sendJson(ws, { jsonrpc: '2.0', method: def.method, params }, limits);
  const off = core.service.onBroadcast((method, params) => sendJson(ws, { jsonrpc: '2.0', method, params }, limits));

  const handle = async (msg: unknown): Promise<unknown> => {
    if (!isObject(msg) || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
      // Responses from the page to requests we never make are simply dropped.
      if (isObject(msg) && ('result' in msg || 'error' in msg)) return undefined;
      const id = isObject(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : null;
      return rpcError(id, -32600, 'invalid request: expected {"jsonrpc":"2.0","method":…}');
    }
    const req = msg as unknown as RpcRequest;
    const isNotification = !('id' in msg);
    if (req.id !== undefined && req.id !== null && typeof req.id !== 'string' && typeof req.id !== 'number') {
      return rpcError(null, -32600, 'invalid request: id must be a string or a number');
    }
    if (isNotification) {
      if (req.method === '$/cancelRequest' && isObject(req.params)) {
        const id = req.params.id;
        if (typeof id === 'string' || typeof id === 'number') inFlight.get(id)?.abort();
        return undefined;
      }
      if (!core.service.has(req.method)) return undefined;
      try {
        guardParams(req.method, req.params, core.index.folders());
        await core.service.call(req.method, req.params, { signal: closed.signal, emit, connection, origin: 'bridge' });
      } catch (e) {
        log.warn(`${req.method} (notification on ${connection}): ${toAskcodeError(e).message}`);
      }
      return undefined;
    }
    const id = req.id as string | number | null;
    if (!core.service.has(req.method)) return rpcError(id, -32601, `unknown method ${req.method}`);
    if (inFlight.size >= limits.streamsPerSocket * 4) {
      return errorResponse(id, req.method, unavailable(`too many requests in flight on this socket (at most ${limits.streamsPerSocket * 4})`));
    }
    const ac = new AbortController();
    const key = id ?? randomUUID();
    inFlight.set(key, ac);
    const onClose = () => ac.abort();
    closed.signal.addEventListener('abort', onClose);
    try {
      guardParams(req.method, req.params, core.index.folders());
      const result = await core.service.call(req.method, req.params, { signal: ac.signal, emit, connection, origin: 'bridge' });
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (e) {
      return errorResponse(id, req.method, toAskcodeError(e));
    } finally {
      inFlight.delete(key);
      closed.signal.removeEventListener('abort', onClose);
    }
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) return sendJson(ws, rpcError(null, -32700, 'binary frames are not accepted: send JSON text frames'), limits);
    let msg: unknown;
    try {
      msg = parseJson(rawText(data), limits.jsonDepth, 'message');
    } catch (e) {
      return sendJson(ws, rpcError(null, -32700, `parse error: ${toAskcodeError(e).message}`), limits);
    }
    if (Array.isArray(msg)) {
      if (msg.length === 0) return sendJson(ws, rpcError(null, -32600, 'invalid request: empty batch'), limits);
      void Promise.all(msg.map(handle)).then((out) => {
        const replies = out.filter((r) => r !== undefined);
        if (replies.length > 0) sendJson(ws, replies, limits);
      });
      return;
    }
    void handle(msg).then((reply) => {
      if (reply !== undefined) sendJson(ws, reply, limits);
    });
  });

  ws.on('close', () => {
    off();
    closed.abort();
    closeConnection(core, connection, log);
  });
}

function errorResponse(id: string | number | null, method: string, err: AskcodeError) {
  const data: ErrorData = { kind: err.kind, operation: method, ...(err.field ? { field: err.field } : {}) };
  return rpcError(id, RPC_ERROR_CODES[err.kind], err.message, data);
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** Close reasons are capped at 123 bytes by the protocol. */
export function truncateReason(s: string): string {
  const b = Buffer.from(s, 'utf8');
  return b.length <= 120 ? s : b.subarray(0, 120).toString('utf8');
}
