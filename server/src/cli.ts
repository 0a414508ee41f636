#!/usr/bin/env node
/** The CLI face: `askcode <command>`. Each command lives in cli/<command>.ts. */
import { runCli } from './cli/run';

// A reader that stops early (`askcode ask … | head`, an MCP client that went away) closes the
// pipe: stop quietly, as Unix tools do, instead of dying on an unhandled EPIPE with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`askcode: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
