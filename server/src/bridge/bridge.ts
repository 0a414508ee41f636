/**
 * The HTTP/WebSocket bridge: the core behind the REST/WS surface of Pieces OS (SPEC.md), on
 * loopback, plus the chat page at `/`, JSON-RPC at `/askcode/rpc` and MCP at `/mcp`. A face only: it decodes,
 * calls `service.call`, encodes.
 */
import * as http from 'node:http';
import * as os from 'node:os';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Core } from '../core/core';
import type { Logger } from '../core/logger';
import { AskcodeError, invalid, toAskcodeError } from '../core/errors';
import { HTTP_STATUS } from '../protocol/errors';
import { ModelGet } from '../protocol/models';
import { VERSION } from '../protocol/seeds';
import { matchRest, matchSocket, type RouteMatch, type SocketRoute } from './routes';
import { Authority, DEFAULT_LIMITS, isLoopbackAddress, parseJson, type BridgeLimits } from './security';
import { guardParams } from './guard';
import { StaticFiles, defaultWebRoot } from './staticFiles';
import { serveDownloadProgress, serveIdentifiers, serveQgptStream, serveRpc, type SocketDeps } from './sockets';
import { McpHttp, MCP_PATHS, SCHEMA_VERSIONS_PATH, schemaVersions } from '../mcp/http';
import { createMcpServer } from '../mcp/tools';

export interface BridgeOptions {
  /** 0 picks a free port. */
  port: number;
  /** Defaults to 127.0.0.1; anything not loopback needs `allowRemote`. */
  host?: string;
  allowRemote?: boolean;
  log: Logger;
  /** Where `webview.js` and `webview/index.html` live (default: next to the bundle). */
  webRoot?: string;
  limits?: Partial<BridgeLimits>;
  version?: string;
}

export interface Bridge {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every socket; the core stays open (its owner disposes it). */
  close(): Promise<void>;
}

/** One JSON error body for every failure (SPEC leaves it open; this is what our clients read). */
interface ErrorBody {
  message: string;
  operation: string;
  requestId: string;
  field?: string;
}

export async function startBridge(core: Core, opts: BridgeOptions): Promise<Bridge> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log;
  if (!isLoopbackAddress(host)) {
    if (!opts.allowRemote) throw invalid(`refusing to listen on ${host}: the bridge has no credentials; pass --allow-remote to expose it anyway`, 'host');
    log.warn(`the bridge listens on ${host}: anyone who can reach this address can read the served folders and use the models`);
  }
  const limits: BridgeLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const version = opts.version ?? VERSION;
  const files = new StaticFiles(opts.webRoot ?? defaultWebRoot());
  const deps: SocketDeps = { core, limits, log };
  let authority = new Authority(opts.port);
  const mcp = new McpHttp({ factory: () => createMcpServer(core, { version }), log, bodyBytes: limits.bodyBytes, jsonDepth: limits.jsonDepth });

  const server = http.createServer({ maxHeaderSize: 16 * 1024 });
  server.keepAliveTimeout = 5_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.wsFrameBytes, perMessageDeflate: false });

  server.on('request', (req, res) => {
    void handleRequest(req, res).catch((e) => {
      log.error(`bridge: unhandled ${req.method} ${req.url?.slice(0, 200)}: ${String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // An answer given before the body was read (404, 405, 413…) must not read the rest, nor reset it away.
    res.once('finish', () => {
      if (!req.complete) lingerThenClose(req);
    });
    const requestId = randomUUID();
    const target = req.url ?? '/';
    const verb = req.method ?? 'GET';
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const [pathname, query = ''] = splitTarget(target);
    const operation = `${verb} ${pathname.slice(0, 200)}`;
    const fail = (status: number, message: string, field?: string, headers: http.OutgoingHttpHeaders = {}) =>
      sendError(res, status, { message, operation, requestId, ...(field ? { field } : {}) }, headers);

    if (target.length > limits.urlLength) return fail(414, `request target longer than ${limits.urlLength} characters`, 'url');
    const page = verb === 'GET' && (pathname === '/' || pathname === '/index.html');
    const refusal = authority.check(req.headers, page && req.headers['sec-fetch-mode'] === 'navigate');
    if (refusal) return fail(refusal.status, refusal.message);
    // No CORS allowance at all: the only origin let in is our own page, which needs none.
    if (verb === 'OPTIONS') {
      res.writeHead(204, { Allow: 'GET, POST, OPTIONS' }).end();
      return;
    }

    if (safeMatchSocket(pathname)) {
      return fail(426, `${pathname} is a WebSocket route: open it with a WebSocket upgrade`, undefined, { Upgrade: 'websocket', Connection: 'Upgrade' });
    }
    if (MCP_PATHS.includes(pathname)) return mcp.handle(req, res, target);
    if (pathname === SCHEMA_VERSIONS_PATH && (verb === 'GET' || verb === 'HEAD')) return sendJson(res, schemaVersions(req.headers.host ?? `127.0.0.1:${authority.port}`));
    if (pathname === '/.well-known/health' && (verb === 'GET' || verb === 'HEAD')) return sendText(res, 'ok');
    if (pathname === '/.well-known/version' && (verb === 'GET' || verb === 'HEAD')) return sendText(res, version);

    let match: ReturnType<typeof matchRest>;
    try {
      match = matchRest(verb, pathname);
    } catch (e) {
      const err = toAskcodeError(e);
      return fail(HTTP_STATUS[err.kind], err.message, err.field);
    }
    if (match && 'wrongVerb' in match) {
      return fail(405, `${verb} is not allowed on ${pathname}; use ${match.wrongVerb.join(' or ')}`, undefined, { Allow: match.wrongVerb.join(', ') });
    }
    if (match) return handleRoute(req, res, match.found, new URLSearchParams(query), { operation, requestId });

    if (verb === 'GET' || verb === 'HEAD') {
      const file = files.resolve(pathname);
      if (file) return files.serve(file, req.headers.host ?? '', res);
      if (pathname === '/') return fail(404, 'the chat page is not built: run `npm run build`');
    }
    return fail(404, `no route ${verb} ${pathname.slice(0, 200)}`);
  }

  async function handleRoute(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: RouteMatch,
    query: URLSearchParams,
    ids: { operation: string; requestId: string },
  ): Promise<void> {
    const operation = route.method;
    const fail = (err: AskcodeError, status = HTTP_STATUS[err.kind]) => {
      if (status === 500) log.error(`bridge ${ids.operation} [${ids.requestId}] ${status}: ${err.stack ?? err.message}`);
      sendError(res, status, { message: err.message, operation, requestId: ids.requestId, ...(err.field ? { field: err.field } : {}) });
    };
    const ac = new AbortController();
    // The client went away before we answered: stop the work it asked for.
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    let params: unknown;
    try {
      const body = await readBody(req, limits, route);
      params = route.params(body, query);
      guardParams(route.method, params, core.index.folders());
    } catch (e) {
      const err = toAskcodeError(e);
      return fail(err, err.kind === 'internal' ? 400 : undefined);
    }
    if (!core.service.has(route.method)) {
      return fail(new AskcodeError('unavailable', `${route.method} is not implemented in this build yet`), 501);
    }
    let result: unknown;
    try {
      result = await core.service.call(route.method, params, { signal: ac.signal, connection: `http-${ids.requestId}`, origin: 'bridge' });
    } catch (e) {
      return fail(toAskcodeError(e));
    }
    if (res.destroyed) return;
    if (route.encoding === 'void') {
      res.writeHead(204).end();
      return;
    }
    const json = JSON.stringify(result ?? null);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
    res.end(json);
  }

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const reject = (status: number, message: string) => {
      const body = JSON.stringify({ message, operation: `WS ${splitTarget(req.url ?? '/')[0].slice(0, 200)}`, requestId: randomUUID() });
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    const target = req.url ?? '/';
    if (target.length > limits.urlLength) return reject(414, `request target longer than ${limits.urlLength} characters`);
    const refusal = authority.check(req.headers);
    if (refusal) return reject(refusal.status, refusal.message);
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return reject(400, 'only WebSocket upgrades are served');
    let route: SocketRoute | null;
    try {
      route = matchSocket(splitTarget(target)[0]);
    } catch (e) {
      return reject(400, toAskcodeError(e).message);
    }
    if (!route) return reject(404, `no WebSocket route ${splitTarget(target)[0].slice(0, 200)}`);
    if (wss.clients.size >= limits.sockets) return reject(503, `too many open WebSockets (at most ${limits.sockets})`);
    const r = route;
    void checkSocketRoute(r).then(
      (problem) => {
        if (problem) return reject(problem.status, problem.message);
        wss.handleUpgrade(req, socket, head, (ws) => {
          wss.emit('connection', ws, req);
          openSocket(ws, r);
        });
      },
      (e) => reject(500, String(e)),
    );
  });

  /** An unknown model's progress feed is refused before the upgrade, as a 404 a client can see. */
  async function checkSocketRoute(r: SocketRoute): Promise<{ status: number; message: string } | null> {
    if (r.kind !== 'download-progress' || !core.service.has(ModelGet.method)) return null;
    try {
      await core.service.request(ModelGet, { model: r.model }, { origin: 'bridge' });
      return null;
    } catch (e) {
      const err = toAskcodeError(e);
      return { status: HTTP_STATUS[err.kind], message: err.message };
    }
  }

  function openSocket(ws: WebSocket, r: SocketRoute): void {
    ws.on('error', (e) => log.debug(`bridge socket: ${String(e)}`));
    if (r.kind === 'qgpt-stream') serveQgptStream(ws, deps);
    else if (r.kind === 'identifiers') serveIdentifiers(ws, deps);
    else if (r.kind === 'download-progress') serveDownloadProgress(ws, r.model, deps);
    else serveRpc(ws, deps);
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (e.code === 'EADDRINUSE') reject(new AskcodeError('unavailable', `port ${opts.port} on ${host} is in use; choose another with --port`, 'port'));
      else reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(opts.port, host);
  });
  server.on('error', (e) => log.error(`bridge: ${String(e)}`));
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  // A Host that is an address of this machine cannot be a rebinding attack (rebinding needs a DNS name).
  const wildcard = host === '0.0.0.0' || host === '::';
  const extraHosts = !opts.allowRemote || isLoopbackAddress(host) ? [] : wildcard ? interfaceAddresses() : [host];
  authority = new Authority(port, extraHosts);
  const shownHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        void mcp.close();
        for (const ws of wss.clients) ws.close(1001, 'bridge shutting down');
        server.close(() => resolve());
        server.closeIdleConnections();
        // Sockets that do not finish their close handshake promptly are cut.
        const t = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
          server.closeAllConnections();
        }, 1000);
        t.unref();
        wss.close();
      });
      return closing;
    },
  };
}

/** What is read and discarded after an early answer before the connection is closed. */
const LINGER_BYTES = 32 * 1024 * 1024;
const LINGER_MS = 2000;

/**
 * A lingering close: the client may still be sending a body we answered without reading. Closing
 * at once makes its TCP stack answer our close with a reset, which can swallow our answer before it
 * is read (3 of 8 oversized uploads got a reset instead of the 413); reading on without a bound
 * takes a whole 1 GB upload to a route that does not exist. So: read and discard for a moment
 * (at most LINGER_BYTES or LINGER_MS), then close.
 */
function lingerThenClose(req: http.IncomingMessage): void {
  const socket = req.socket;
  const start = socket.bytesRead;
  const t0 = Date.now();
  req.resume();
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    if (socket.bytesRead - start > LINGER_BYTES || Date.now() - t0 > LINGER_MS) {
      clearInterval(timer);
      socket.destroy();
    }
  }, 20);
  timer.unref();
}

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.replace(/%.*$/, '')));
}

function safeMatchSocket(pathname: string): SocketRoute | null {
  try {
    return matchSocket(pathname);
  } catch {
    return null;
  }
}

/** `path?query` without URL parsing, which would read `//host/…` as an authority. */
function splitTarget(target: string): [string, string | undefined] {
  const q = target.indexOf('?');
  return q < 0 ? [target, undefined] : [target.slice(0, q), target.slice(q + 1)];
}

function sendError(res: http.ServerResponse, status: number, body: ErrorBody, headers: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

function sendJson(res: http.ServerResponse, value: unknown): void {
  const json = JSON.stringify(value);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

function sendText(res: http.ServerResponse, text: string): void {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** The request body as JSON under the caps: an object, `{}` for an empty optional body, undefined when none is wanted. */
async function readBody(req: http.IncomingMessage, limits: BridgeLimits, route: RouteMatch): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.bodyBytes) {
    throw new AskcodeError('too_large', `request body of ${declared} bytes is over the ${limits.bodyBytes}-byte limit`, 'body');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Without destroyOnReturn the socket survives an early stop, so the 413 still reaches the client.
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > limits.bodyBytes) {
      throw new AskcodeError('too_large', `request body is over the ${limits.bodyBytes}-byte limit`, 'body');
    }
    chunks.push(chunk as Buffer);
  }
  if (route.body === 'none') return undefined;
  const what = route.bodyType ?? 'JSON object';
  if (size === 0) {
    if (route.body === 'optional') return {};
    throw invalid(`${route.method} needs a ${what} body`, 'body');
  }
  const type = req.headers['content-type'];
  if (type !== undefined && !JSON_TYPE.test(type)) {
    throw invalid(`Content-Type must be application/json, not '${type.slice(0, 60)}'`, 'Content-Type');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalid('request body is not valid UTF-8', 'body');
  }
  if (text.trim() === '') {
    if (route.body === 'optional') return {};
    throw invalid(`${route.method} needs a ${what} body`, 'body');
  }
  const value = parseJson(text, limits.jsonDepth, 'body');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`body must be a ${what} JSON object`, 'body');
  }
  return value;
}
