/**
 * `askcode mcp <folder>` (the built CLI) driven by the MCP SDK's own client over stdio, on a git
 * repository made here (two authors, TypeScript and Python), answering with stories260K.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { makeRepo } from '../bridge/bridgeFixture';
import { ROOT, SHARED_MODELS } from '../helpers/worker';
import { addCaller, linkOutside, checkBadArguments, checkCancelled, checkConcurrent, checkEachTool, checkToolList, indexed, textOf, call } from './mcpFixture';

describe('MCP over stdio: askcode mcp with the SDK client', function () {
  this.timeout(120_000);
  let root: string;
  let repo: string;
  let dataDir: string;
  let client: Client;
  let stderr = '';
  let stdoutNoise = '';

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-mcp-'));
    repo = makeRepo(root);
    linkOutside(root, repo);
    addCaller(repo);
    dataDir = path.join(root, 'data');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'dist', 'cli.js'), 'mcp', repo, '--data-dir', dataDir, '--model', 'stories260K'],
      env: { ...process.env, ASKCODE_MODELS_DIR: SHARED_MODELS, ASKCODE_LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += String(d)));
    client = new Client({ name: 'askcode-test', version: '1.0.0' });
    // Anything on stdout that is not a protocol message would make the client report an error.
    client.onerror = (e) => {
      // A progress frame already on the wire when the cancel went out is a valid MCP message.
      if (!/progress notification for an unknown token/.test(e.message)) stdoutNoise += `${e.message}\n`;
    };
    await client.connect(transport);
    await indexed(client);
  });

  after(async () => {
    await client?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('initializes as askcode and lists six tools with schemas and descriptions', async () => {
    assert.equal(client.getServerVersion()?.name, 'askcode');
    assert.match(client.getInstructions() ?? '', /search_code/);
    await checkToolList(client);
  });

  it('each tool answers on the fixture, citing path:lines', async () => {
    await checkEachTool(client);
  });

  it('bad arguments are MCP errors, never a crash', async () => {
    await checkBadArguments(client);
  });

  it('16 concurrent calls each get their own answer', async () => {
    await checkConcurrent(client);
  });

  it('a cancelled ask stops the generation (stories260K), and the server keeps serving', async () => {
    await checkCancelled(client, dataDir, 'mcp-stdio-cancel');
    const r = await call(client, 'search_code', { query: 'addNumbers' });
    assert.ok(!r.isError, textOf(r));
  });

  it('stdout carried nothing but MCP messages; logs went to stderr', () => {
    assert.equal(stdoutNoise, '');
    assert.match(stderr, /askcode mcp: serving/);
  });

  it('--model that names no conversation model is a usage error (exit 2)', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'mcp', repo, '--data-dir', path.join(root, 'data2'), '--model', 'nope'], {
      env: { ...process.env, ASKCODE_MODELS_DIR: SHARED_MODELS },
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--model: no conversation model 'nope'/);
    assert.equal(r.stdout, '');
  });
});

describe('MCP over stdio: a tool called while the folder is first indexed', function () {
  this.timeout(120_000);
  let root: string;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-mcp-early-'));
    const repo = path.join(root, 'repo');
    // Enough files that the first index takes a while: the client calls before it is done.
    for (let i = 0; i < FILLER_FILES; i++) {
      const dir = path.join(repo, 'pkg', `m${Math.floor(i / 100)}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `mod${i}.py`), `class Widget${i}:\n    """Widget ${i} draws part ${i} of the page."""\n\n    def draw_${i}(self, canvas):\n        return canvas.rect(${i}, ${i})\n`);
    }
    fs.writeFileSync(path.join(repo, 'pkg', 'needle.py'), 'class Needle:\n    def find_me(self):\n        """The one definition the agent asks for."""\n        return 42\n');
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('waits for the index (reporting progress) instead of answering "no definition" from a half-built one', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'dist', 'cli.js'), 'mcp', path.join(root, 'repo'), '--data-dir', path.join(root, 'data')],
      env: { ...process.env, ASKCODE_MODELS_DIR: SHARED_MODELS } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'askcode-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const progress: string[] = [];
      const r = (await client.callTool(
        { name: 'find_symbol', arguments: { name: 'Needle.find_me' } },
        { onprogress: (p) => progress.push(p.message ?? '') },
      )) as Awaited<ReturnType<typeof call>>;
      assert.ok(!r.isError, textOf(r));
      assert.match(textOf(r), /method Needle\.find_me — pkg\/needle\.py:2-4/);
      assert.ok(progress.length >= 1, 'the call came while the folder was being indexed, and said so');
      assert.match(progress[0]!, /^indexing the served folders/);
      assert.equal(r.structuredContent?.note, undefined, 'answered from the whole index');
      const s = await call(client, 'search_code', { query: 'the one definition the agent asks for', limit: 1 });
      assert.match(textOf(s), /pkg\/needle\.py/);
    } finally {
      await client.close();
    }
  });
});

const FILLER_FILES = 3000;
