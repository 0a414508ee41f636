import { z } from 'zod';

/**
 * A typed method or notification: the method string, the schema its params must pass (checked by
 * `Service` before any handler runs) and phantom param/result types. Plain objects and zod
 * schemas, so the webview (a browser frame) can import them.
 */
export interface RequestDef<P, R> {
  readonly method: string;
  readonly kind: 'request';
  readonly params: z.ZodType;
  /** How the error for params that are not even the right kind of value reads. */
  readonly shape: ParamsShape;
  /** Phantom members: never set, only carry the types. */
  readonly _params?: P;
  readonly _result?: R;
}

export interface NotificationDef<P> {
  readonly method: string;
  readonly kind: 'notification';
  readonly params: z.ZodType;
  readonly shape: ParamsShape;
  readonly _params?: P;
}

/** The field named when the params are not an object at all, and what they should have been. */
export interface ParamsShape {
  field: string;
  /** `a QGPTRelevanceInput object`. */
  expected: string;
}

const PARAMS: ParamsShape = { field: 'params', expected: 'an object' };
/** Entries outside the worker's protocol (the webview's host messages) may leave params unchecked. */
export const UNCHECKED = z.unknown();

export function request<P, R>(method: string, params: z.ZodType = UNCHECKED, shape: Partial<ParamsShape> = {}): RequestDef<P, R> {
  return { method, kind: 'request', params, shape: { ...PARAMS, ...shape } };
}

export function notification<P>(method: string, params: z.ZodType = UNCHECKED, shape: Partial<ParamsShape> = {}): NotificationDef<P> {
  return { method, kind: 'notification', params, shape: { ...PARAMS, ...shape } };
}
