#!/usr/bin/env node
/** The CLI face: `askcode <command>`. Each command lives in cli/<command>.ts. */
import { runCli } from './cli/run';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`askcode: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
