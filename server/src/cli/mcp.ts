import { Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { registerCommand } from './registry';
import { openCore, parse } from './common';
import type { LogLevel } from '../core/logger';
import { createMcpServer } from '../mcp/tools';
import { invalid } from '../core/errors';
import { ModelsSnapshot } from '../protocol/models';
import { VERSION } from '../protocol/seeds';
import { usageIsLlm } from '../models/catalog';

registerCommand({
  name: 'mcp',
  summary: 'serve the folders to an MCP client (Claude Code, VS Code, Cursor…) over stdio',
  usage: `Usage: askcode mcp [folder…] [--model ID] [--data-dir DIR]

Indexes the folders (default: the current folder) and speaks the Model Context Protocol on
stdin/stdout, for an MCP client that starts it as a command. Tools: search_code, ask,
find_symbol, find_references, related_people, read_code; every result cites path:start-end.
stdout carries nothing but MCP messages; logs go to stderr (ASKCODE_LOG_LEVEL, default warn).
The bridge (askcode serve) serves the same tools over Streamable HTTP at /mcp.

  --model ID       the model that answers \`ask\` (id or name from \`askcode models\`; default: the
                   built-in extractive answerer, which needs no model)
  --data-dir DIR   askcode's data folder (default: ASKCODE_DATA_DIR or ~/.askcode)`,
  async run(args) {
    const { values, positionals } = parse(args, { 'data-dir': { type: 'string' }, model: { type: 'string' } }, true);
    // stdout is the protocol channel: anything else a library prints goes to stderr instead.
    const protocolOut = protocolStdout();
    const logLevel = (process.env.ASKCODE_LOG_LEVEL as LogLevel) || 'warn';
    const core = await openCore({ dataDir: values['data-dir'], folders: positionals.length ? positionals : [process.cwd()], autoIndex: true, logLevel });
    if (values.model) {
      const models = await core.service.request(ModelsSnapshot, undefined);
      const m = models.iterable.find((x) => [x.id, x.name, x.unique].includes(values.model));
      if (!m || !usageIsLlm(m.usage)) {
        await core.dispose();
        throw invalid(`--model: no conversation model '${values.model}' (see askcode models)`, 'model');
      }
      core.options.settings = { ...core.options.settings, defaultModel: m.id };
    }
    const handle = serveStdio(() => createMcpServer(core, { version: VERSION }), {
      transport: new StdioServerTransport(process.stdin, protocolOut),
      onerror: (e) => core.options.log.warn(`mcp: ${e.message}`),
    });
    core.options.log.info(`askcode mcp: serving ${core.index.folders().join(', ')} on stdio`);
    const why = await new Promise<string>((resolve) => {
      // The client closing stdin is how an MCP stdio session ends.
      process.stdin.once('end', () => resolve('stdin closed'));
      process.stdin.once('close', () => resolve('stdin closed'));
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    core.options.log.info(`askcode mcp: ${why}: stopping`);
    setTimeout(() => process.exit(0), 3000).unref();
    await handle.close().catch(() => {});
    await core.dispose();
    // A native handle a library leaves open must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
    return 0;
  },
});

/** A stream onto the real stdout for the transport; `process.stdout.write` is pointed at stderr. */
function protocolStdout(): Writable {
  const real = process.stdout.write.bind(process.stdout) as (chunk: unknown, encoding?: BufferEncoding, cb?: (e?: Error | null) => void) => boolean;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  for (const k of ['log', 'info', 'debug'] as const) console[k] = console.error;
  return new Writable({
    write(chunk, encoding, cb) {
      real(chunk, encoding, (e) => cb(e ?? null));
    },
  });
}
