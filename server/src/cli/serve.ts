import { registerCommand } from './registry';
import { openCore, parse, progressLine, requireFolder, withProgress } from './common';
import { invalid } from '../core/errors';
import { stderrLogger, type LogLevel } from '../core/logger';
import { startBridge } from '../bridge/bridge';

registerCommand({
  name: 'serve',
  summary: 'index folders and serve the REST/WebSocket bridge and the chat page on loopback',
  usage: `Usage: askcode serve [folder…] [--port 39301] [--data-dir DIR] [--allow-secret NAME]… [--host HOST --allow-remote]

Indexes the folders, listens on 127.0.0.1 and prints the URL of the chat page. The REST and
WebSocket routes are wire-compatible with Pieces OS (the @pieces.app/pieces-os-client SDK works);
MCP clients connect over Streamable HTTP at /mcp (also PiecesOS's /model_context_protocol/2025-03-26/mcp).
Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.

Options:
  --port N         port to listen on (default 39301: in the 39300–39333 range Pieces clients scan,
                   next to PiecesOS's own 39300; 0 picks a free one)
  --data-dir DIR   askcode's data folder (default: ASKCODE_DATA_DIR or ~/.askcode)
  --host HOST      address to listen on (default 127.0.0.1)
  --allow-secret NAME
                   let models created by bridge clients send the environment variable NAME as
                   their API key (repeatable). Without it a client can name no secret (403).
  --allow-remote   allow a --host that is not loopback. The bridge has no credentials: anyone who
                   can reach that address can read the served folders.`,
  async run(args) {
    const { values, positionals } = parse(
      args,
      {
        port: { type: 'string', default: '39301' },
        'data-dir': { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'allow-remote': { type: 'boolean', default: false },
        'allow-secret': { type: 'string', multiple: true, default: [] },
      },
      true,
    );
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`--port must be a port number, not '${values.port}'`, 'port');
    const logLevel = (process.env.ASKCODE_LOG_LEVEL as LogLevel) || 'info';
    const folders0 = positionals.map((f) => requireFolder(f));
    const core = await openCore({ dataDir: values['data-dir'], folders: folders0, autoIndex: false, logLevel });
    const allowedSecrets = values['allow-secret'].filter((s) => s.trim());
    core.options.settings = { ...core.options.settings, bridge: { enabled: true, port, allowedSecrets } };
    let bridge;
    try {
      bridge = await startBridge(core, {
        port,
        host: values.host,
        allowRemote: values['allow-remote'],
        log: stderrLogger(logLevel),
      });
    } catch (e) {
      await core.dispose();
      throw e;
    }
    const folders = core.index.folders();
    process.stdout.write(`askcode: serving ${bridge.url}${folders.length ? ` (${folders.join(', ')})` : ' (no folders)'}\n`);
    if (folders.length) {
      // Progress on stderr while the folders are indexed; the page answers from what is indexed so far.
      const t0 = Date.now();
      void withProgress(core, async () => {
        await core.index.indexAll();
        await core.index.whenIdle();
      })
        .then(() => process.stderr.write(`askcode: indexed — ${progressLine(core.index.status())} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`))
        .catch((e) => process.stderr.write(`askcode: indexing failed: ${e instanceof Error ? e.message : String(e)}\n`));
    }
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    process.stderr.write(`askcode: ${signal}: stopping\n`);
    // A second signal while stopping means "now".
    const force = () => process.exit(130);
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    await bridge.close();
    await core.dispose();
    process.stdout.write('askcode: stopped\n');
    // Everything is flushed; a native handle some library leaves open must not keep the process alive.
    setTimeout(() => process.exit(0), 2000).unref();
    return 0;
  },
});
