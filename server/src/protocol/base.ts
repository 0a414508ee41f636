/**
 * A typed method or notification: the method string plus phantom param/result types.
 * Plain objects, so the webview (a browser frame) can import them without any JSON-RPC library.
 */
export interface RequestDef<P, R> {
  readonly method: string;
  readonly kind: 'request';
  /** Phantom members: never set, only carry the types. */
  readonly _params?: P;
  readonly _result?: R;
}

export interface NotificationDef<P> {
  readonly method: string;
  readonly kind: 'notification';
  readonly _params?: P;
}

export function request<P, R>(method: string): RequestDef<P, R> {
  return { method, kind: 'request' };
}

export function notification<P>(method: string): NotificationDef<P> {
  return { method, kind: 'notification' };
}
