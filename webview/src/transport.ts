/**
 * The chat UI's one JSON-RPC 2.0 channel, over either of two carriers that speak the SAME method
 * names: `postMessage` inside VS Code (the extension relays to the worker) and a WebSocket to
 * `/askcode/rpc` on the page's own host in a browser (the bridge). Browser code only.
 */
import type { RequestDef, NotificationDef } from '../../server/src/protocol/base';
import { RPC_ERROR_CODES, kindOfRpcCode, type ErrorData, type ErrorKind } from '../../server/src/protocol/errors';

export type ConnectionState = 'connecting' | 'open' | 'closed';

interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

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
  request<P, R>(def: RequestDef<P, R>, params: P): Promise<R>;
  notify<P>(def: NotificationDef<P>, params: P): void;
  onNotification<P>(def: NotificationDef<P>, fn: (params: P) => void): () => void;
  onState(fn: (s: ConnectionState) => void): () => void;
}

/** Ids, pending requests and notification dispatch; subclasses only move messages. */
abstract class JsonRpcPeer implements Transport {
  abstract readonly host: 'vscode' | 'browser';
  abstract readonly store: UiStore;
  state: ConnectionState = 'connecting';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<(p: unknown) => void>>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();

  protected abstract send(msg: RpcMessage): void;

  request<P, R>(def: RequestDef<P, R>, params: P): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.send({ jsonrpc: '2.0', id, method: def.method, params: params ?? null });
      } catch (e) {
        this.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  notify<P>(def: NotificationDef<P>, params: P): void {
    this.send({ jsonrpc: '2.0', method: def.method, params: params ?? null });
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

  /** Fails every request in flight: their answers can no longer arrive. */
  protected failPending(message: string): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new RpcError(RPC_ERROR_CODES.unavailable, message, { kind: 'unavailable' }));
    }
  }

  protected receive(raw: unknown): void {
    const msg = raw as RpcMessage;
    if (!msg || typeof msg !== 'object' || msg.jsonrpc !== '2.0') return;
    if (msg.method !== undefined) {
      // The host or the bridge never asks the UI anything; a request would be a stray.
      if (msg.id !== undefined && msg.id !== null) return;
      const set = this.listeners.get(msg.method);
      if (set) for (const l of [...set]) {
        try {
          l(msg.params);
        } catch (e) {
          console.error(`askcode: ${msg.method} handler failed`, e);
        }
      }
      return;
    }
    if (typeof msg.id !== 'number') return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new RpcError(msg.error.code, msg.error.message, msg.error.data as ErrorData | undefined));
    else p.resolve(msg.result ?? null);
  }
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Inside a VS Code webview: messages go to the extension, which relays them to the worker. */
export class PostMessageTransport extends JsonRpcPeer {
  readonly host = 'vscode' as const;
  readonly store: UiStore;

  constructor(private readonly api: VsCodeApi, target: Window = window) {
    super();
    this.store = {
      get: <T>(key: string) => ((api.getState() as Record<string, unknown> | undefined) ?? {})[key] as T | undefined,
      set: (key, value) => api.setState({ ...((api.getState() as Record<string, unknown> | undefined) ?? {}), [key]: value }),
    };
    target.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    this.setState('open');
  }

  protected send(msg: RpcMessage): void {
    this.api.postMessage(msg);
  }
}

/** In a browser page served by the bridge: JSON-RPC text frames on `ws://<page host>/askcode/rpc`. */
export class WebSocketTransport extends JsonRpcPeer {
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
  private socket?: WebSocket;
  private readonly queue: string[] = [];
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
    this.socket = ws;
    ws.addEventListener('open', () => {
      this.retryMs = 500;
      this.setState('open');
      for (const m of this.queue.splice(0)) ws.send(m);
    });
    ws.addEventListener('message', (e: MessageEvent) => {
      if (typeof e.data !== 'string') return;
      try {
        this.receive(JSON.parse(e.data));
      } catch {
        /* not JSON: ignore the frame */
      }
    });
    ws.addEventListener('close', () => {
      if (this.socket !== ws) return;
      this.queue.length = 0;
      this.failPending('the connection to askcode was lost');
      this.setState('closed');
      // Reconnect with backoff: the bridge may be restarting with the worker.
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }

  protected send(msg: RpcMessage): void {
    const text = JSON.stringify(msg);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
    else if (msg.id !== undefined) this.queue.push(text);
    // Notifications while disconnected are dropped: they describe a state the server will resend.
  }
}

/** The carrier for where this page runs. */
export function createTransport(): Transport {
  if (typeof acquireVsCodeApi === 'function') return new PostMessageTransport(acquireVsCodeApi());
  return WebSocketTransport.forPage();
}
