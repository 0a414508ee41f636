/**
 * Error kinds every face maps the same way: JSON-RPC code for the worker, HTTP status for the
 * bridge, exit code for the CLI. The `data` of a JSON-RPC error is an {@link ErrorData}.
 */
export type ErrorKind =
  | 'invalid'      // malformed or invalid input (400)
  | 'not_found'    // unknown model, asset, conversation, path (404)
  | 'conflict'     // duplicate model (409)
  | 'forbidden'    // refused: deleting a built-in model, cache of a non-LLM (403)
  | 'too_large'    // body, file or query over a cap (413)
  | 'offline'      // a download that needs the network, which is not there (503)
  | 'unavailable'  // the model or service cannot serve now (503)
  | 'cancelled'    // stopped by the caller
  | 'internal';    // a real fault (500)

export interface ErrorData {
  kind: ErrorKind;
  /** The input field at fault, as a dotted path (`relevant.iterable[2].id`). */
  field?: string;
  /** The operation name (`models/create`). */
  operation?: string;
}

export const RPC_ERROR_CODES: Record<ErrorKind, number> = {
  invalid: -32602,
  not_found: -32004,
  conflict: -32009,
  forbidden: -32003,
  too_large: -32013,
  offline: -32010,
  unavailable: -32011,
  cancelled: -32800,
  internal: -32603,
};

export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  too_large: 413,
  offline: 503,
  unavailable: 503,
  cancelled: 499,
  internal: 500,
};

export function kindOfRpcCode(code: number): ErrorKind {
  for (const [kind, c] of Object.entries(RPC_ERROR_CODES)) if (c === code) return kind as ErrorKind;
  return 'internal';
}
