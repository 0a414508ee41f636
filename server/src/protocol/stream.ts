import { request, notification } from './base';
import type { QGPTStreamInput, QGPTStreamOutput } from './wire';

export interface StreamAccepted {
  conversation: string;
  request: string;
}

/**
 * Start (or stop / reset) a streamed request. Returns at once with the ids; frames follow as
 * `qgpt/stream/output` notifications, many requests interleaved on one connection.
 */
export const QgptStream = request<QGPTStreamInput, StreamAccepted>('qgpt/stream');
/** One output frame: relevance first, then answer deltas, then COMPLETED / FAILED / STOPPED / RESET. */
export const QgptStreamOutputNotification = notification<QGPTStreamOutput>('qgpt/stream/output');
