/**
 * The worker's JSON-RPC over stdio (`--stdio`), read strictly. vscode-jsonrpc's stream reader
 * answers nothing to a body that is not JSON, to a batch or to an object id (it only logs), and
 * after a bad Content-Length it stays alive but deaf. Here every malformed message gets a JSON-RPC
 * error (id null, as the spec asks when the id cannot be read), and a framing error ends the
 * connection so the client sees it close and restarts the worker.
 */
import {
  AbstractMessageReader, StreamMessageWriter, type DataCallback, type Disposable, type Message, type MessageReader, type ResponseMessage,
} from 'vscode-languageserver/node';

/** Largest message body accepted: far above any real request (seeds carry whole files). */
const MAX_BODY = 64 * 1024 * 1024;
const MAX_HEADER = 8 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

export class StrictStreamReader extends AbstractMessageReader implements MessageReader {
  private buf: Buffer = Buffer.alloc(0);
  private stopped = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly reply: (m: ResponseMessage) => Promise<void>,
    private readonly onFramingError: (why: string) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (d: Buffer) => {
      if (this.stopped) return;
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.drain(callback);
    };
    const onEnd = () => this.fireClose();
    const onError = (e: unknown) => this.fireError(e);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('error', onError);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('error', onError);
      },
    };
  }

  private drain(callback: DataCallback): void {
    for (;;) {
      const end = this.buf.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buf.length > MAX_HEADER) return this.framing(`no end of headers within ${MAX_HEADER} bytes`);
        return;
      }
      let length: number | undefined;
      for (const line of this.buf.subarray(0, end).toString('ascii').split('\r\n')) {
        const m = /^([^:]+):\s*(.*)$/.exec(line);
        if (!m) return this.framing(`malformed header line '${line.slice(0, 80)}'`);
        const name = m[1]!.trim().toLowerCase();
        const value = m[2]!.trim();
        if (name === 'content-length') {
          if (!/^\d{1,10}$/.test(value)) return this.framing(`bad Content-Length '${value.slice(0, 40)}'`);
          length = Number(value);
        } else if (name === 'content-type' && /charset=/i.test(value) && !/charset=["']?utf-?8/i.test(value)) {
          return this.framing(`unsupported charset in '${value.slice(0, 80)}': only utf-8`);
        }
      }
      if (length === undefined) return this.framing('a message without Content-Length');
      if (length > MAX_BODY) return this.framing(`Content-Length ${length} is over the ${MAX_BODY}-byte limit`);
      const start = end + HEADER_END.length;
      if (this.buf.length < start + length) return;
      const body = this.buf.subarray(start, start + length);
      this.buf = this.buf.subarray(start + length);
      const msg = this.decode(body);
      if (msg) callback(msg);
    }
  }

  /** The message, or null after answering why it cannot be one. */
  private decode(body: Buffer): Message | null {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch (e) {
      void this.error(-32700, `Parse error: ${(e as Error).message}`);
      return null;
    }
    if (Array.isArray(value)) {
      void this.error(-32600, 'Invalid Request: batches are not supported; send one message per frame');
      return null;
    }
    if (typeof value !== 'object' || value === null) {
      void this.error(-32600, 'Invalid Request: a message must be a JSON object');
      return null;
    }
    const m = value as Record<string, unknown>;
    const idOk = m.id === undefined || m.id === null || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id));
    if (m.jsonrpc !== '2.0' || !idOk) {
      void this.error(-32600, `Invalid Request: ${m.jsonrpc !== '2.0' ? 'jsonrpc must be "2.0"' : 'id must be a string, a number or null'}`,
        idOk && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : null);
      return null;
    }
    if (typeof m.method !== 'string' && !('result' in m) && !('error' in m)) {
      void this.error(-32600, 'Invalid Request: neither a request, a notification nor a response', typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null);
      return null;
    }
    return m as unknown as Message;
  }

  private error(code: number, message: string, id: string | number | null = null): Promise<void> {
    return this.reply({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private framing(why: string): void {
    this.stopped = true;
    this.buf = Buffer.alloc(0);
    void this.error(-32700, `framing error: ${why}; closing the connection`).finally(() => this.onFramingError(why));
  }
}

/** Reader and writer for `createConnection` on the process's own stdin/stdout. */
export function strictStdio(onFramingError: (why: string) => void): { reader: StrictStreamReader; writer: StreamMessageWriter } {
  const writer = new StreamMessageWriter(process.stdout);
  const reader = new StrictStreamReader(process.stdin, (m) => writer.write(m).catch(() => {}), onFramingError);
  return { reader, writer };
}
