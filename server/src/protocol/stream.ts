import { request, notification } from './base';
import { z, Id, None } from './schema';
import type { QGPTStreamInput, QGPTStreamOutput } from './wire';

export interface StreamAccepted {
  conversation: string;
  request: string;
}

/**
 * The envelope of a stream input. Its `question` / `relevance` are checked when the request runs
 * (against QgptQuestion's / QgptRelevance's schemas), so a bad body ends that request with a
 * FAILED frame naming the field while the accept reply still goes out.
 */
export const StreamInputSchema = z.looseObject({
  request: Id.nullish(),
  conversation: Id.nullish(),
  stop: z.boolean().nullish(),
  reset: z.boolean().nullish(),
  agent: z.boolean().nullish(),
  question: z.unknown().optional(),
  relevance: z.unknown().optional(),
});

/**
 * Start (or stop / reset) a streamed request. Returns at once with the ids; frames follow as
 * `qgpt/stream/output` notifications, many requests interleaved on one connection.
 */
export const QgptStream = request<QGPTStreamInput, StreamAccepted>('qgpt/stream', StreamInputSchema, { expected: 'a QGPTStreamInput object' });
/** One output frame: relevance first, then answer deltas, then COMPLETED / FAILED / STOPPED / RESET. */
export const QgptStreamOutputNotification = notification<QGPTStreamOutput>('qgpt/stream/output', None);
