/**
 * The far side of the chat UI for tests of the UI alone: serves the built page over HTTP and answers
 * JSON-RPC on `/askcode/rpc` (the bridge's WebSocket endpoint) or through the page's postMessage
 * channel (the VS Code host), replaying RECORDED worker frames. It records every message the UI
 * sends, so tests assert on what the UI asked for as well as on what it shows.
 */
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { QGPTStreamInput, QGPTStreamOutput } from '../../server/src/protocol';
import { ROOT } from '../helpers/worker';
import { StaticFiles } from '../../server/src/bridge/staticFiles';

const DIST = path.join(ROOT, 'dist');
const FIXTURES = path.join(__dirname, 'fixtures');

export function fixture<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type Frame = Omit<QGPTStreamOutput, 'conversation'> & { conversation?: string };

export interface Script {
  frames: Frame[];
  /** Milliseconds between frames. */
  delayMs: number;
}

type Send = (msg: RpcMessage) => void;

interface Running {
  request: string;
  conversation: string;
  timer?: ReturnType<typeof setTimeout>;
  send: Send;
}

export class RecordedHost {
  /** Every message the UI sent, in order. */
  readonly received: RpcMessage[] = [];
  /** The next `qgpt/stream` requests replay these scripts, in order (the last one repeats). */
  scripts: Script[] = [];
  readonly conversations = new Map<string, { id: string; name: string; created: string; updated: string; messages: number }>();
  /** Per-method canned results; a function gets the params. */
  readonly results = new Map<string, unknown | ((params: unknown) => unknown)>();
  /** Requests to these methods are recorded and never answered (to test cancellation). */
  readonly held = new Set<string>();
  private readonly running = new Map<string, Running>();
  private convCounter = 0;

  constructor() {
    this.results.set('models/snapshot', fixture('models.json'));
    this.results.set('askcode/index/status', fixture('index-ready.json'));
    this.results.set('qgpt/hints', fixture('hints.json'));
    this.results.set('askcode/conversations/list', () => [...this.conversations.values()]);
    this.results.set('askcode/ui/ready', { folders: ['/ws/project'] });
    this.results.set('askcode/workspace/folders', { folders: ['/ws/project'] });
    this.results.set('askcode/ui/openLocation', null);
    this.results.set('askcode/ui/insert', null);
  }

  requests(method: string): RpcMessage[] {
    return this.received.filter((m) => m.method === method);
  }

  handle(msg: RpcMessage, send: Send): void {
    this.received.push(msg);
    if (msg.method === undefined || msg.id === undefined) return;
    const reply = (result: unknown) => send({ jsonrpc: '2.0', id: msg.id, result });
    const fail = (code: number, message: string, kind: string) => send({ jsonrpc: '2.0', id: msg.id, error: { code, message, data: { kind, operation: msg.method } } });
    if (msg.method === 'qgpt/stream') {
      this.stream(msg.params as QGPTStreamInput, reply, send);
      return;
    }
    if (this.held.has(msg.method)) return;
    if (!this.results.has(msg.method)) {
      fail(-32004, `unknown method ${msg.method}`, 'not_found');
      return;
    }
    const r = this.results.get(msg.method);
    reply(typeof r === 'function' ? (r as (p: unknown) => unknown)(msg.params) : r);
  }

  private stream(input: QGPTStreamInput, reply: (r: unknown) => void, send: Send): void {
    if (input.stop) {
      const run = input.request ? this.running.get(input.request) : undefined;
      reply({ conversation: run?.conversation ?? input.conversation ?? '', request: input.request ?? '' });
      if (run) {
        clearTimeout(run.timer);
        this.running.delete(run.request);
        this.emit(run, { status: 'STOPPED' });
      }
      return;
    }
    const script = this.scripts.length > 1 ? this.scripts.shift()! : this.scripts[0];
    if (!script) throw new Error('RecordedHost: no script for qgpt/stream');
    const conversation = input.conversation ?? `conv-${++this.convCounter}`;
    const request = input.request ?? `req-${Date.now()}`;
    const now = new Date().toISOString();
    this.conversations.set(conversation, { id: conversation, name: input.relevance?.query ?? input.question?.query ?? 'Untitled', created: now, updated: now, messages: 2 });
    const run: Running = { request, conversation, send };
    this.running.set(request, run);
    reply({ conversation, request });
    let i = 0;
    const next = () => {
      if (!this.running.has(request)) return;
      const frame = script.frames[i++];
      if (!frame) {
        this.running.delete(request);
        return;
      }
      this.emit(run, frame);
      run.timer = setTimeout(next, script.delayMs);
    };
    run.timer = setTimeout(next, script.delayMs);
  }

  private emit(run: Running, frame: Frame): void {
    run.send({ jsonrpc: '2.0', method: 'qgpt/stream/output', params: { ...frame, request: run.request, conversation: run.conversation } });
  }

  /** Pushes a notification to the UI over every open carrier. */
  notifyAll(method: string, params: unknown): void {
    for (const s of this.sinks) s({ jsonrpc: '2.0', method, params });
  }

  readonly sinks = new Set<Send>();

  stopAll(): void {
    for (const r of this.running.values()) clearTimeout(r.timer);
    this.running.clear();
  }
}

/**
 * The page's files as the bridge serves them (its own StaticFiles, with its Content-Security-Policy),
 * plus the recorded JSON-RPC endpoint, on a free loopback port.
 */
export async function serveWebview(host: RecordedHost): Promise<{ url: string; close(): Promise<void>; dropSockets(): void }> {
  if (!fs.existsSync(path.join(DIST, 'webview.js'))) throw new Error('dist/webview.js is missing: run `npm run build` first');
  const files = new StaticFiles(DIST);
  const server = http.createServer((req, res) => {
    const file = files.resolve(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    files.serve(file, req.headers.host ?? '127.0.0.1', res);
  });
  const wss = new WebSocketServer({ server, path: '/askcode/rpc' });
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    sockets.add(ws);
    const send: Send = (m) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    host.sinks.add(send);
    ws.on('message', (data) => host.handle(JSON.parse(String(data)) as RpcMessage, send));
    ws.on('close', () => {
      sockets.delete(ws);
      host.sinks.delete(send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    /** Cuts every open WebSocket, as a restarting bridge would; the server keeps listening. */
    dropSockets() {
      for (const s of sockets) s.terminate();
    },
    async close() {
      host.stopAll();
      for (const s of sockets) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
