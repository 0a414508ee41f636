import type { ErrorKind } from '../protocol/errors';

/** The one error type of the core: every face maps `kind` to its own code (JSON-RPC, HTTP, exit). */
export class AskcodeError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AskcodeError';
  }
}

export const invalid = (message: string, field?: string) => new AskcodeError('invalid', message, field);
export const notFound = (message: string, field?: string) => new AskcodeError('not_found', message, field);
export const conflict = (message: string, field?: string) => new AskcodeError('conflict', message, field);
export const forbidden = (message: string, field?: string) => new AskcodeError('forbidden', message, field);
export const tooLarge = (message: string, field?: string) => new AskcodeError('too_large', message, field);
export const offline = (message: string) => new AskcodeError('offline', message);
export const unavailable = (message: string) => new AskcodeError('unavailable', message);
export const cancelled = (message = 'cancelled') => new AskcodeError('cancelled', message);

/** Any thrown value as an AskcodeError; unknown faults become `internal`. */
export function toAskcodeError(e: unknown): AskcodeError {
  if (e instanceof AskcodeError) return e;
  if (e instanceof Error && e.name === 'AbortError') return cancelled(e.message || 'cancelled');
  const msg = e instanceof Error ? e.message : String(e);
  const err = new AskcodeError('internal', msg);
  if (e instanceof Error && e.stack) err.stack = e.stack;
  return err;
}
