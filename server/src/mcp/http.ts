/**
 * MCP over Streamable HTTP, mounted by the bridge at `/mcp` (and PiecesOS's path) behind the
 * bridge's own Host / Origin checks. Two legs, as the SDK's legacy-routing recipe does it:
 * 2025-era clients (VS Code, Claude Code, Pieces: `initialize` first) get a session each, so a
 * `notifications/cancelled` reaches the call it names and stops the answer; 2026-era clients go
 * to the SDK's stateless per-request handler, where closing a call's stream cancels it.
 * Node's request and response are bridged to the web-standard ones the SDK speaks here (no
 * framework adapter: that would pull in hono for what these few lines do).
 */
import type * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createMcpHandler, isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type McpServer,
} from '@modelcontextprotocol/server';
import { toAskcodeError, tooLarge } from '../core/errors';
import type { Logger } from '../core/logger';
import { parseJson } from '../bridge/security';

export interface McpHttpOptions {
  /** Builds a fresh server with the tools (one per session or per modern request). */
  factory: () => McpServer;
  log: Logger;
  bodyBytes: number;
  jsonDepth: number;
  /** Legacy sessions kept at once; the least recently used idle one makes room. */
  maxSessions?: number;
  /** A session unused this long is closed. */
  idleMs?: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
  /** POSTs being answered (a standalone GET stream does not keep a session from being idle). */
  busy: number;
}

export class McpHttp {
  private readonly sessions = new Map<string, Session>();
  private readonly modern;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly opts: McpHttpOptions) {
    this.modern = createMcpHandler(() => opts.factory(), { legacy: 'reject', onerror: (e) => opts.log.debug(`mcp http: ${e.message}`) });
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse, target: string): Promise<void> {
    const verb = (req.method ?? 'GET').toUpperCase();
    if (this.closed) return sendRpcError(res, 503, -32000, 'the server is shutting down');
    const sessionId = single(req.headers['mcp-session-id']);
    const accept = single(req.headers.accept) ?? '';
    // PiecesOS clients probe the endpoint with a plain GET before connecting; a browser-less GET
    // that asks for no event stream is told what this is instead of a protocol error.
    if (verb === 'GET' && !sessionId && !accept.includes('text/event-stream')) {
      const text = 'askcode MCP endpoint (Streamable HTTP): POST JSON-RPC messages here.\n';
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    if (verb !== 'POST' && verb !== 'GET' && verb !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return sendRpcError(res, 405, -32000, `${verb} is not allowed on the MCP endpoint`);
    }
    let bodyText: string | undefined;
    let parsed: unknown;
    if (verb === 'POST') {
      try {
        bodyText = await readText(req, this.opts.bodyBytes);
        parsed = parseJson(bodyText, this.opts.jsonDepth, 'body');
      } catch (e) {
        const err = toAskcodeError(e);
        if (err.kind === 'too_large') res.setHeader('Connection', 'close');
        return sendRpcError(res, err.kind === 'too_large' ? 413 : 400, err.kind === 'too_large' ? -32000 : -32700, err.message);
      }
    }
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    const request = toWebRequest(req, target, verb, bodyText, ac.signal);
    let response: Response;
    try {
      if (verb !== 'POST' || (await isLegacyRequest(request.clone(), parsed))) response = await this.legacy(request, verb, sessionId, parsed);
      else response = await this.modern.fetch(request, { parsedBody: parsed });
    } catch (e) {
      this.opts.log.error(`mcp http: ${String((e as Error)?.stack ?? e)}`);
      return sendRpcError(res, 500, -32603, 'internal error');
    }
    await pipeResponse(response, res);
  }

  private async legacy(request: Request, verb: string, sessionId: string | undefined, parsed: unknown): Promise<Response> {
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      if (!s) return rpcErrorResponse(404, -32001, 'Session not found: initialize a new session');
      s.lastUsed = Date.now();
      const counts = verb === 'POST';
      if (counts) s.busy++;
      try {
        return await s.transport.handleRequest(request, verb === 'POST' ? { parsedBody: parsed } : {});
      } finally {
        if (counts) s.busy--;
        s.lastUsed = Date.now();
      }
    }
    if (verb !== 'POST' || !isInitializeRequest(parsed)) {
      return rpcErrorResponse(400, -32000, 'Bad Request: no Mcp-Session-Id; start with an initialize request');
    }
    if (this.sessions.size >= (this.opts.maxSessions ?? 64) && !this.evictOne()) {
      return rpcErrorResponse(503, -32000, 'too many MCP sessions are open; close one and retry');
    }
    const session: Partial<Session> = { lastUsed: Date.now(), busy: 0 };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session as Session),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    const server = this.opts.factory();
    session.transport = transport;
    session.server = server;
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: parsed });
  }

  private evictOne(): boolean {
    const idle = [...this.sessions.entries()].filter(([, s]) => s.busy === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
    if (!idle) return false;
    this.closeSession(idle[0], idle[1]);
    return true;
  }

  private sweep(): void {
    const limit = this.opts.idleMs ?? 30 * 60_000;
    for (const [id, s] of this.sessions) if (s.busy === 0 && Date.now() - s.lastUsed > limit) this.closeSession(id, s);
  }

  private closeSession(id: string, s: Session): void {
    this.sessions.delete(id);
    void s.server.close().catch(() => {});
    void s.transport.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const all = [...this.sessions.entries()];
    for (const [id, s] of all) this.closeSession(id, s);
    await this.modern.close().catch(() => {});
  }
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

async function readText(req: http.IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) {
    req.resume();
    throw tooLarge(`request body of ${declared} bytes is over the ${max}-byte limit`, 'body');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > max) {
      req.resume();
      throw tooLarge(`request body is over the ${max}-byte limit`, 'body');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function toWebRequest(req: http.IncomingMessage, target: string, verb: string, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  headers.delete('content-length');
  // The Host was checked by the bridge; the URL only has to be well formed.
  const url = `http://${req.headers.host ?? '127.0.0.1'}${target}`;
  return new Request(url, { method: verb, headers, signal, ...(body !== undefined ? { body } : {}) });
}

async function pipeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  // Event streams must reach the client as they are written, not when a buffer fills.
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (res.destroyed) break;
    }
  } catch {
    // The client went away mid-stream: nothing left to answer.
  } finally {
    res.off('close', cancel);
    if (!res.destroyed) res.end();
  }
}

function rpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function sendRpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const json = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

/** Where the bridge serves MCP: its own path, and the one PiecesOS's MCP clients use. */
export const MCP_PATHS = ['/mcp', '/model_context_protocol/2025-03-26/mcp'];

export const SCHEMA_VERSIONS_PATH = '/model_context_protocol/schema_versions';

/**
 * PiecesOS's `ModelContextProtocolSchemaVersions`: the versions it serves, preferred first, each with
 * the full URL a client connects to (Pieces' CLI takes `iterable[0].entry_endpoint` as is). Only
 * Streamable HTTP is served here, so the 2024-11-05 SSE entry PiecesOS also lists is left out.
 */
export function schemaVersions(host: string): { iterable: { version: string; entry_endpoint: string }[] } {
  return { iterable: [{ version: '2025-03-26', entry_endpoint: `http://${host}${MCP_PATHS[1]}` }] };
}
