import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CallContext } from '../core/service';
import type { Logger } from '../core/logger';
import { conflict, invalid, toAskcodeError } from '../core/errors';
import { HTTP_STATUS } from '../protocol/errors';
import { QgptStreamOutputNotification, type StreamAccepted, type StreamInputSchema } from '../protocol/stream';
import type { AnswerExtras, QGPTStreamEnum, QGPTStreamOutput } from '../protocol/wire';

/** A stream input as its schema lets it through (the envelope checked; the body is the request's to check). */
export type StreamInput = z.output<typeof StreamInputSchema>;

/** What a running request does; it emits through `send`, which goes quiet once the request ended. */
export type RequestBody = (req: StreamRequest, input: StreamInput) => Promise<void>;

export class StreamRequest {
  ended = false;
  endStatus?: QGPTStreamEnum;
  readonly ac = new AbortController();
  /** What the terminal frame carries in `askcode` (the answer flow fills it in as it goes). */
  extras?: AnswerExtras;

  constructor(
    readonly connection: string,
    readonly request: string,
    public conversation: string,
    readonly conversationGiven: boolean,
    private readonly emitFrame: (f: QGPTStreamOutput) => void,
  ) {}

  get signal(): AbortSignal {
    return this.ac.signal;
  }

  /** An IN-PROGRESS frame (relevance or an answer delta); dropped once the request ended. */
  send(frame: Omit<QGPTStreamOutput, 'conversation' | 'request'>): boolean {
    if (this.ended) return false;
    this.emitFrame({ request: this.request, conversation: this.conversation, ...frame });
    return true;
  }

  /** Emits the one terminal frame (unless `silent`) and aborts the work behind it. */
  end(status: QGPTStreamEnum, extra: Partial<QGPTStreamOutput> = {}, silent = false): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.endStatus = status;
    const askcode = this.extras && Object.keys(this.extras).length ? { askcode: this.extras } : {};
    if (!silent) this.emitFrame({ request: this.request, conversation: this.conversation, status, ...askcode, ...extra });
    this.ac.abort(new Error(status));
    return true;
  }
}

/**
 * The multiplexed `qgpt/stream`: many requests and conversations on one connection, each frame
 * carrying its `conversation` and `request`. STOPPED and RESET frames are sent the moment the
 * stop / reset input is handled, and the work behind them is aborted; whatever that work still
 * produces is dropped, so the terminal frame is always the last frame of its request.
 */
export class StreamManager {
  private readonly running = new Map<string, Map<string, StreamRequest>>();

  constructor(private readonly log: Logger) {}

  private of(connection: string): Map<string, StreamRequest> {
    let m = this.running.get(connection);
    if (!m) this.running.set(connection, (m = new Map()));
    return m;
  }

  /** Accepts (or stops / resets) a request; `body` runs the accepted one after the reply. */
  handle(input: StreamInput, ctx: CallContext, body: RequestBody): StreamAccepted {
    const requestGiven = input.request ?? undefined;
    const conversationGiven = input.conversation ?? undefined;
    const { stop, reset } = input;
    const mine = this.of(ctx.connection);
    const request = requestGiven ?? randomUUID();

    if (reset) {
      for (const r of [...mine.values()]) r.end('RESET');
      mine.clear();
      return { conversation: conversationGiven ?? '', request };
    }
    if (stop) {
      if (!requestGiven && !conversationGiven) throw invalid('stop needs the request (or the conversation) to stop', 'request');
      const targets = requestGiven
        ? [mine.get(requestGiven)].filter((r): r is StreamRequest => !!r && (!conversationGiven || r.conversation === conversationGiven))
        : [...mine.values()].filter((r) => r.conversation === conversationGiven);
      // Stopping a request that already ended is not an error: the two race by nature.
      for (const r of targets) {
        r.end('STOPPED');
        mine.delete(r.request);
      }
      return { conversation: conversationGiven ?? targets[0]?.conversation ?? '', request };
    }
    if (mine.has(request)) throw conflict(`request '${request}' is still running on this connection; use a new request id`, 'request');
    const r = new StreamRequest(ctx.connection, request, conversationGiven ?? randomUUID(), conversationGiven !== undefined, (f) => {
      try {
        ctx.emit(QgptStreamOutputNotification, f);
      } catch (e) {
        this.log.warn(`qgpt/stream: could not send a frame: ${String(e)}`);
      }
    });
    mine.set(request, r);
    // Start after the accept reply is on its way, so the ids reach the caller before any frame.
    setImmediate(() => {
      body(r, input)
        .then(() => {
          if (!r.ended) r.end('COMPLETED', { statusCode: 200 });
        })
        .catch((e) => {
          const err = toAskcodeError(e);
          if (err.kind === 'internal') this.log.error(`qgpt/stream ${request}: ${err.stack ?? err.message}`);
          r.end('FAILED', { statusCode: HTTP_STATUS[err.kind], errorMessage: err.field && !err.message.includes(err.field) ? `${err.field}: ${err.message}` : err.message });
        })
        .finally(() => {
          if (mine.get(request) === r) mine.delete(request);
        });
    });
    return { conversation: r.conversation, request };
  }

  /** The connection is gone: abort its work without sending anything. */
  closeConnection(connection: string): void {
    const mine = this.running.get(connection);
    if (!mine) return;
    for (const r of mine.values()) r.end('RESET', {}, true);
    this.running.delete(connection);
  }

  dispose(): void {
    for (const c of [...this.running.keys()]) this.closeConnection(c);
  }
}
