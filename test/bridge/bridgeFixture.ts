/**
 * A real core (temp data dir, a small git repository made here) behind a real bridge on a free
 * loopback port, for the bridge tests. The core is the same code the worker and `serve` run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import WebSocket from 'ws';
import { createCore, type Core } from '../../server/src/core/core';
import { silentLogger } from '../../server/src/core/logger';
import { startBridge, type Bridge, type BridgeOptions } from '../../server/src/bridge/bridge';
import { ROOT, SHARED_MODELS } from '../helpers/worker';

export interface BridgeFixture {
  core: Core;
  bridge: Bridge;
  /** `http://127.0.0.1:<port>` without the trailing slash (the SDK's basePath form). */
  base: string;
  port: number;
  repo: string;
  dataDir: string;
  ws(pathname: string, headers?: Record<string, string>): WebSocket;
  close(): Promise<void>;
}

export const FILES: Record<string, string> = {
  'src/math.ts': 'export function addNumbers(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/greet.py': 'def greet(name):\n    """Say hello to someone."""\n    return f"hello {name}"\n',
  'README.md': '# fixture\n\nA tiny repository for the bridge tests.\n',
};

/** A git repository with two authors, so persons-related has someone to find. */
export function makeRepo(root: string): string {
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  const git = (args: string[], author = 'Ada Lovelace <ada@example.com>') => {
    const [name, email] = author.split(' <');
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email.slice(0, -1),
        GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email.slice(0, -1),
      },
    });
  };
  git(['init', '-q']);
  let i = 0;
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
    git(['add', rel]);
    git(['commit', '-q', '-m', `add ${rel}`], i++ % 2 ? 'Grace Hopper <grace@example.com>' : 'Ada Lovelace <ada@example.com>');
  }
  return repo;
}

export async function startFixture(opts: Partial<BridgeOptions> = {}, coreOpts: { autoIndex?: boolean } = {}): Promise<BridgeFixture> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-bridge-'));
  const repo = makeRepo(root);
  const dataDir = path.join(root, 'data');
  const core = await createCore({ dataDir, modelsDir: SHARED_MODELS, folders: [repo], log: silentLogger, autoIndex: coreOpts.autoIndex ?? false });
  const bridge = await startBridge(core, { port: 0, log: silentLogger, ...opts });
  const base = `http://127.0.0.1:${bridge.port}`;
  const sockets: WebSocket[] = [];
  return {
    core,
    bridge,
    base,
    port: bridge.port,
    repo,
    dataDir,
    ws(pathname, headers = {}) {
      const s = new WebSocket(`ws://127.0.0.1:${bridge.port}${pathname}`, { headers });
      s.on('error', () => {}); // tests observe 'unexpected-response' / 'close' instead
      sockets.push(s);
      return s;
    },
    async close() {
      for (const s of sockets) s.terminate();
      await bridge.close();
      await core.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The next `n` JSON frames of a socket (rejects on close or after `ms`). */
export function frames<T = unknown>(ws: WebSocket, n: number, ms = 20_000, until?: (f: T) => boolean): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const got: T[] = [];
    const done = (err?: Error) => {
      clearTimeout(t);
      ws.off('message', onMessage);
      ws.off('close', onClose);
      if (err) reject(err);
      else resolve(got);
    };
    const onMessage = (d: WebSocket.RawData) => {
      const f = JSON.parse(String(d)) as T;
      got.push(f);
      if (got.length >= n || (until && until(f))) done();
    };
    const onClose = (code: number, reason: Buffer) => done(new Error(`socket closed (${code} ${String(reason)}) after ${got.length} frame(s)`));
    const t = setTimeout(() => done(new Error(`timed out after ${got.length} of ${n} frame(s)`)), ms);
    ws.on('message', onMessage);
    ws.on('close', onClose);
  });
}

export function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ws.readyState === WebSocket.OPEN) return resolve();
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('close', (code) => reject(new Error(`closed before open: ${code}`)));
  });
}

/** The HTTP status with which an upgrade was refused. */
export function refusedWith(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
  });
}

export function readExample<T = Record<string, unknown>>(name: string): T {
  const dir = path.resolve(ROOT, '..', 'shared', 'api', 'examples');
  return JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as T;
}
