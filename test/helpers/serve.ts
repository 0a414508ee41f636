/** `askcode serve` as a user runs it: the built dist/cli.js as a child process (needs `npm run build`). */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { ROOT, SHARED_MODELS } from './worker';

export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface Served {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, ASKCODE_MODELS_DIR: SHARED_MODELS, ASKCODE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve printed no URL in time:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += String(d);
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (x: Buffer) => (out += String(x)));
        resolve({
          child, url: m[1]!, port: Number(new URL(m[1]!).port), output: () => out, exited,
          async stop() {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    void exited.then((code) => {
      clearTimeout(t);
      reject(new Error(`serve exited with ${code} before printing a URL:\n${out}`));
    });
  });
}
