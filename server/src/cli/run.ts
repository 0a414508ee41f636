import { AskcodeError } from '../core/errors';
import { VERSION } from '../protocol/seeds';

import { commands } from './registry';

// Each command registers itself on import.
import './models';
import './serve';
import './ask';
import './index';
import './bench';
import './mcp';


export function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `askcode ${VERSION} — local-first answers about your code`,
    '',
    'Usage: askcode <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `askcode <command> --help` for the options of one command.',
    '',
    'Environment:',
    '  ASKCODE_DATA_DIR    where askcode keeps its data (default ~/.askcode)',
    '  ASKCODE_MODELS_DIR  a folder of local model folders; models load from it and never download',
    '',
  ].join('\n');
}

/** Exit codes: 0 ok, 1 failure, 2 bad usage or input, 3 not found, 4 refused. */
export function exitCodeOf(e: unknown): number {
  if (e instanceof AskcodeError) {
    if (e.kind === 'invalid') return 2;
    if (e.kind === 'not_found') return 3;
    if (e.kind === 'forbidden' || e.kind === 'conflict') return 4;
  }
  return 1;
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(helpText());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(VERSION + '\n');
    return 0;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    process.stderr.write(`askcode: unknown command '${name}'\n\n${helpText()}`);
    return 2;
  }
  if (rest[0] === '--help' || rest[0] === '-h') {
    process.stdout.write(cmd.usage.trimEnd() + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    process.stderr.write(`askcode ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return exitCodeOf(e);
  }
}
