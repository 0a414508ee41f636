/**
 * The chat UI's one JSON-RPC 2.0 channel: a `vscode-jsonrpc` message connection over either of two
 * carriers that speak the SAME method names — `postMessage` inside VS Code (the extension relays to
 * the worker) and a WebSocket to `/askcode/rpc` on the page's own host in a browser (the bridge).
 * Both carriers already frame whole messages, so the readers and writers pass objects through; the
 * library brings ids, pending requests, notification dispatch and `$/cancelRequest`. Browser code only.
 */
import {
  AbstractMessageReader, AbstractMessageWriter, CancellationTokenSource, ResponseError, createMessageConnection,
  type DataCallback, type Disposable, type Message, type MessageConnection, type MessageReader, type MessageWriter,
} from 'vscode-jsonrpc/browser';
import type { RequestDef, NotificationDef } from '../../server/src/protocol/base';
import { RPC_ERROR_CODES, kindOfRpcCode, type ErrorData, type ErrorKind } from '../../server/src/protocol/errors';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** A failed request; `message` is the worker's message, meant for the user. */
export class RpcError extends Error {
  readonly kind: ErrorKind;
  constructor(readonly code: number, message: string, readonly data?: ErrorData) {
    super(message);
    this.kind = data?.kind ?? kindOfRpcCode(code);
  }
}

/** Small key-value persistence that survives the view being hidden or the page reloaded. */
export interface UiStore {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export interface Transport {
  /** `vscode`: a host that answers `askcode/ui/*`; `browser`: the bridge only. */
  readonly host: 'vscode' | 'browser';
  readonly store: UiStore;
  readonly state: ConnectionState;
  /** `signal` cancels the request: the far side gets `$/cancelRequest` and stops the work. */
  request<P, R>(def: RequestDef<P, R>, params: P, signal?: AbortSignal): Promise<R>;
  notify<P>(def: NotificationDef<P>, params: P): void;
  onNotification<P>(def: NotificationDef<P>, fn: (params: P) => void): () => void;
  onState(fn: (s: ConnectionState) => void): () => void;
}

const LOST = 'the connection to askcode was lost';

/** Connections come and go (a WebSocket reconnects); listeners and state stay with the transport. */
abstract class ConnectionTransport implements Transport {
  abstract readonly host: 'vscode' | 'browser';
  abstract readonly store: UiStore;
  state: ConnectionState = 'connecting';
  private connection?: MessageConnection;
  private waiting: ((c: MessageConnection) => void)[] = [];
  private readonly listeners = new Map<string, Set<(p: unknown) => void>>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();

  /** Starts a message connection over a carrier; its requests wait until {@link open}. */
  protected attach(reader: MessageReader, writer: MessageWriter): MessageConnection {
    const c = createMessageConnection(reader, writer);
    c.onNotification((method: string, params: unknown) => this.dispatch(method, params));
    c.listen();
    return c;
  }

  protected open(c: MessageConnection): void {
    this.connection = c;
    this.setState('open');
    for (const w of this.waiting.splice(0)) w(c);
  }

  /** Disposing rejects the requests in flight: their answers can no longer arrive. */
  protected lost(c: MessageConnection): void {
    if (this.connection === c) this.connection = undefined;
    c.dispose();
    this.setState('closed');
  }

  private current(): Promise<MessageConnection> {
    if (this.connection) return Promise.resolve(this.connection);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async request<P, R>(def: RequestDef<P, R>, params: P, signal?: AbortSignal): Promise<R> {
    if (signal?.aborted) throw new RpcError(RPC_ERROR_CODES.cancelled, 'cancelled', { kind: 'cancelled' });
    const c = await this.current();
    const cts = new CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal?.addEventListener('abort', onAbort);
    try {
      // No params at all for a void request: vscode-jsonrpc would send `undefined` as `[null]`.
      const args: unknown[] = params === undefined || params === null ? [] : [params];
      return (await c.sendRequest(def.method, ...args, cts.token)) as R;
    } catch (e) {
      throw toRpcError(e);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  notify<P>(def: NotificationDef<P>, params: P): void {
    // Notifications while disconnected are dropped: they describe a state the server will resend.
    const args: unknown[] = params === undefined || params === null ? [] : [params];
    void this.connection?.sendNotification(def.method, ...args).catch(() => {});
  }

  onNotification<P>(def: NotificationDef<P>, fn: (params: P) => void): () => void {
    let set = this.listeners.get(def.method);
    if (!set) this.listeners.set(def.method, (set = new Set()));
    const f = fn as (p: unknown) => void;
    set.add(f);
    return () => set.delete(f);
  }

  onState(fn: (s: ConnectionState) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  protected setState(s: ConnectionState): void {
    if (s === this.state) return;
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  private dispatch(method: string, params: unknown): void {
    const set = this.listeners.get(method);
    if (set) for (const l of [...set]) {
      try {
        l(params);
      } catch (e) {
        console.error(`askcode: ${method} handler failed`, e);
      }
    }
  }
}

function toRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  if (e instanceof ResponseError) {
    // -32097: the library's "pending response rejected" when the connection is disposed.
    if (e.code === -32097) return new RpcError(RPC_ERROR_CODES.unavailable, LOST, { kind: 'unavailable' });
    return new RpcError(e.code, e.message, e.data as ErrorData | undefined);
  }
  return new RpcError(RPC_ERROR_CODES.unavailable, e instanceof Error ? e.message : String(e), { kind: 'unavailable' });
}

function isMessage(m: unknown): m is Message {
  return !!m && typeof m === 'object' && (m as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

// ---- postMessage (VS Code webview) ----------------------------------------------------------

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

class WindowMessageReader extends AbstractMessageReader {
  constructor(private readonly target: Window) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onMessage = (e: MessageEvent) => {
      if (isMessage(e.data)) callback(e.data);
    };
    this.target.addEventListener('message', onMessage);
    return { dispose: () => this.target.removeEventListener('message', onMessage) };
  }
}

class VsCodeMessageWriter extends AbstractMessageWriter {
  constructor(private readonly api: VsCodeApi) {
    super();
  }

  async write(msg: Message): Promise<void> {
    try {
      this.api.postMessage(msg);
    } catch (e) {
      this.fireError(e, msg);
      throw e;
    }
  }

  end(): void {}
}

/** Inside a VS Code webview: messages go to the extension, which relays them to the worker. */
export class PostMessageTransport extends ConnectionTransport {
  readonly host = 'vscode' as const;
  readonly store: UiStore;

  constructor(api: VsCodeApi, target: Window = window) {
    super();
    this.store = {
      get: <T>(key: string) => ((api.getState() as Record<string, unknown> | undefined) ?? {})[key] as T | undefined,
      set: (key, value) => api.setState({ ...((api.getState() as Record<string, unknown> | undefined) ?? {}), [key]: value }),
    };
    this.open(this.attach(new WindowMessageReader(target), new VsCodeMessageWriter(api)));
  }
}

// ---- WebSocket (browser page) ---------------------------------------------------------------

/** One socket's messages; text frames that are not JSON-RPC are ignored. */
class SocketMessageReader extends AbstractMessageReader {
  constructor(private readonly ws: WebSocket) {
    super();
    ws.addEventListener('close', () => this.fireClose());
  }

  listen(callback: DataCallback): Disposable {
    const onMessage = (e: MessageEvent) => {
      if (typeof e.data !== 'string') return;
      let msg: unknown;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // The bridge answers a batch with an array; the UI sends none, but take them apart anyway.
      for (const m of Array.isArray(msg) ? msg : [msg]) if (isMessage(m)) callback(m);
    };
    this.ws.addEventListener('message', onMessage);
    return { dispose: () => this.ws.removeEventListener('message', onMessage) };
  }
}

/** Writes once the socket is open: requests made while it connects go out when it opens. */
class SocketMessageWriter extends AbstractMessageWriter {
  private readonly queue: string[] = [];

  constructor(private readonly ws: WebSocket) {
    super();
    ws.addEventListener('open', () => {
      for (const m of this.queue.splice(0)) ws.send(m);
    });
    ws.addEventListener('close', () => {
      this.queue.length = 0;
      this.fireClose();
    });
  }

  async write(msg: Message): Promise<void> {
    const text = JSON.stringify(msg);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.queue.push(text);
    else throw new Error(LOST);
  }

  end(): void {}
}

/** In a browser page served by the bridge: JSON-RPC text frames on `ws://<page host>/askcode/rpc`. */
export class WebSocketTransport extends ConnectionTransport {
  readonly host = 'browser' as const;
  readonly store: UiStore = {
    get: <T>(key: string) => {
      try {
        const v = localStorage.getItem(`askcode.${key}`);
        return v === null ? undefined : (JSON.parse(v) as T);
      } catch {
        return undefined;
      }
    },
    set: (key, value) => {
      try {
        localStorage.setItem(`askcode.${key}`, JSON.stringify(value));
      } catch {
        /* storage disabled: the UI works without it */
      }
    },
  };
  private retryMs = 500;

  constructor(private readonly url: string) {
    super();
    this.connect();
  }

  static forPage(loc: Location = location): WebSocketTransport {
    const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
    return new WebSocketTransport(`${scheme}://${loc.host}/askcode/rpc`);
  }

  private connect(): void {
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    const c = this.attach(new SocketMessageReader(ws), new SocketMessageWriter(ws));
    ws.addEventListener('open', () => {
      this.retryMs = 500;
      this.open(c);
    });
    ws.addEventListener('close', () => {
      this.lost(c);
      // Reconnect with backoff: the bridge may be restarting with the worker.
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }
}

/** The carrier for where this page runs. */
export function createTransport(): Transport {
  if (typeof acquireVsCodeApi === 'function') return new PostMessageTransport(acquireVsCodeApi());
  return WebSocketTransport.forPage();
}
