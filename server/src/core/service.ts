import type { RequestDef, NotificationDef } from '../protocol/base';
import { AskcodeError, toAskcodeError } from './errors';
import type { Logger } from './logger';
import { parseParams } from './validation';

/** The face a call came through: a bridge (or MCP over HTTP) client is not the user. */
export type CallOrigin = 'rpc' | 'bridge' | 'cli' | 'mcp';

/** What a face hands the core with each call. */
export interface CallContext {
  /** Aborted when the caller cancels (JSON-RPC $/cancelRequest, HTTP client gone, Ctrl-C). */
  signal: AbortSignal;
  /** Sends a notification to this caller only (stream frames go to the connection that asked). */
  emit<P>(def: NotificationDef<P>, params: P): void;
  /** Identifies the connection (one JSON-RPC client, one WebSocket) for per-connection state. */
  connection: string;
  /** The face the call came through (default 'cli': in-process callers). */
  origin: CallOrigin;
}

/** Sends a notification to every connection (what an area is handed instead of the service). */
export type Notify = <P>(def: NotificationDef<P>, params: P) => void;

export type Handler<P, R> = (params: P, ctx: CallContext) => Promise<R> | R;

/**
 * The transport-agnostic core: one handler per protocol method. The worker, the bridge and the
 * CLI decode a message, call `call()`, and encode the result or the AskcodeError.
 */
export class Service {
  private readonly handlers = new Map<string, { def: RequestDef<unknown, unknown> | NotificationDef<unknown>; handler: Handler<unknown, unknown> }>();
  private readonly broadcastListeners = new Set<(method: string, params: unknown) => void>();

  constructor(readonly log: Logger) {}

  register<P, R>(def: RequestDef<P, R> | NotificationDef<P>, handler: Handler<P, R>): void {
    if (this.handlers.has(def.method)) throw new Error(`handler for ${def.method} registered twice`);
    this.handlers.set(def.method, { def, handler: handler as Handler<unknown, unknown> });
  }

  has(method: string): boolean {
    return this.handlers.has(method);
  }

  /** Calls a method by its typed definition. */
  async request<P, R>(def: RequestDef<P, R>, params: P, ctx?: Partial<CallContext>): Promise<R> {
    return (await this.call(def.method, params, ctx)) as R;
  }

  /**
   * Calls a method by name: its params pass the entry's schema first, so a handler only ever sees
   * input of the declared shape. Every failure comes out as an AskcodeError.
   */
  async call(method: string, params: unknown, ctx: Partial<CallContext> = {}): Promise<unknown> {
    const entry = this.handlers.get(method);
    if (!entry) throw new AskcodeError('not_found', `unknown method ${method}`);
    const parsed = parseParams(entry.def.params, params, entry.def.shape);
    const full: CallContext = {
      signal: ctx.signal ?? new AbortController().signal,
      emit: ctx.emit ?? (() => {}),
      connection: ctx.connection ?? 'local',
      origin: ctx.origin ?? 'cli',
    };
    try {
      return await entry.handler(parsed, full);
    } catch (e) {
      const err = toAskcodeError(e);
      if (err.kind === 'internal') this.log.error(`${method} failed: ${err.stack ?? err.message}`);
      throw err;
    }
  }

  /** Notifications for every connection (index progress, model changes). */
  onBroadcast(listener: (method: string, params: unknown) => void): () => void {
    this.broadcastListeners.add(listener);
    return () => this.broadcastListeners.delete(listener);
  }

  broadcast<P>(def: NotificationDef<P>, params: P): void {
    for (const l of this.broadcastListeners) {
      try {
        l(def.method, params);
      } catch (e) {
        this.log.warn(`broadcast listener failed: ${String(e)}`);
      }
    }
  }
}
