/** Fixtures for the qgpt tests: real git repositories with two authors, seeds, frame collectors. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Seed, RelevantQGPTSeed, QGPTStreamOutput } from '../../server/src/protocol/wire';
import { QgptStreamOutputNotification } from '../../server/src/protocol/stream';
import type { WorkerHandle } from '../helpers/worker';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
export const BOB = { name: 'Bob Byte', email: 'bob@example.com' };

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `askcode-${prefix}-`));
}

export class Repo {
  constructor(readonly dir: string) {}

  git(args: string[], env: NodeJS.ProcessEnv = {}): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.dir, ...env },
      encoding: 'utf8',
    });
  }

  write(rel: string, text: string): void {
    const f = path.join(this.dir, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }

  /** Commits everything as `who` at `date` (ISO), both author and committer dates. */
  commit(who: { name: string; email: string }, date: string, message: string): void {
    this.git(['add', '-A']);
    this.git(['commit', '-q', '-m', message], {
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
  }

  static init(prefix = 'repo'): Repo {
    const r = new Repo(tempDir(prefix));
    r.git(['init', '-q', '-b', 'main']);
    return r;
  }
}

export const MATH_V1 = [
  '/** Adds two numbers. */',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  '/** Multiplies two numbers. */',
  'export function multiply(a: number, b: number): number {',
  '  return a * b;',
  '}',
  '',
].join('\n');

export const MATH_V2 = MATH_V1.replace('  return a * b;', '  // Repeated addition keeps the integer path exact.\n  let r = 0;\n  for (let i = 0; i < b; i++) r = add(r, a);\n  return r;');

export const PARSER = [
  'import { readFileSync } from "node:fs";',
  '',
  '/** Parses the configuration file into key/value pairs, ignoring comments. */',
  'export function parseConfig(file: string): Map<string, string> {',
  '  const out = new Map<string, string>();',
  '  for (const line of readFileSync(file, "utf8").split("\\n")) {',
  '    if (line.startsWith("#") || !line.includes("=")) continue;',
  '    const [k, v] = line.split("=", 2);',
  '    out.set(k.trim(), v.trim());',
  '  }',
  '  return out;',
  '}',
  '',
].join('\n');

/**
 * A repository whose history is known: Ada wrote math.ts and the parser in 2023; Bob rewrote
 * `multiply` in 2024 and owns src/parser/ in CODEOWNERS.
 */
export function makeProjectRepo(): Repo {
  const r = Repo.init('proj');
  r.write('src/math.ts', MATH_V1);
  r.write('src/parser/config.ts', PARSER);
  r.write('README.md', '# demo\n\nA small project.\n');
  r.commit(ADA, '2023-01-10T10:00:00Z', 'math and parser');
  r.write('src/math.ts', MATH_V2);
  r.commit(BOB, '2024-06-01T10:00:00Z', 'multiply by repeated addition');
  r.write('.github/CODEOWNERS', '# owners\n*.ts @ada\n/src/parser/ @bob\n');
  r.commit(BOB, '2024-06-02T10:00:00Z', 'codeowners');
  return r;
}

export const APP = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

export function seed(text: string, ext?: string): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: { application: APP, format: { fragment: { string: { raw: text }, ...(ext ? { metadata: { ext } } : {}) } } },
  };
}

/** An inline relevant seed with our `askcode` extension telling where it lives. */
export function relevantSeed(text: string, where?: { path: string; startLine: number }, ext = 'ts'): RelevantQGPTSeed {
  const lines = text.split('\n').length;
  return {
    seed: seed(text, ext),
    ...(where
      ? {
          path: where.path,
          askcode: { startLine: where.startLine, endLine: where.startLine + lines - 1, score: 0.5, scores: { fused: 0.5 } },
        }
      : {}),
  };
}

export interface TimedFrame {
  at: number;
  frame: QGPTStreamOutput;
}

/** Collects every `qgpt/stream/output` frame of a worker, with its arrival time. */
export class Frames {
  readonly all: TimedFrame[] = [];
  private waiters: { pred: (f: QGPTStreamOutput) => boolean; resolve: (f: TimedFrame) => void }[] = [];

  constructor(w: WorkerHandle) {
    w.onNotification(QgptStreamOutputNotification, (f) => {
      const tf = { at: performance.now(), frame: f };
      this.all.push(tf);
      this.waiters = this.waiters.filter((x) => {
        if (!x.pred(f)) return true;
        x.resolve(tf);
        return false;
      });
    });
  }

  of(request: string): QGPTStreamOutput[] {
    return this.all.filter((f) => f.frame.request === request).map((f) => f.frame);
  }

  /** The next (or an already received) frame that matches. */
  wait(pred: (f: QGPTStreamOutput) => boolean, timeoutMs = 30_000): Promise<TimedFrame> {
    const got = this.all.find((f) => pred(f.frame));
    if (got) return Promise.resolve(got);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${this.all.length} frames`)), timeoutMs);
      this.waiters.push({ pred, resolve: (f) => (clearTimeout(t), resolve(f)) });
    });
  }

  terminal(request: string, timeoutMs?: number): Promise<TimedFrame> {
    return this.wait((f) => f.request === request && TERMINAL.has(f.status ?? ''), timeoutMs);
  }
}

export const TERMINAL = new Set(['COMPLETED', 'FAILED', 'STOPPED', 'RESET', 'CANCELED']);

/** The answer text of a request: its deltas concatenated. */
export function textOf(frames: QGPTStreamOutput[]): string {
  return frames.map((f) => f.question?.answers.iterable[0]?.text ?? '').join('');
}
