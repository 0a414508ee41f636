import { registerCommand, benches } from './registry';

registerCommand({
  name: 'bench',
  summary: 'benchmarks that print figures (models, retrieval, index, qa, answers, bridge, mcp)',
  get usage() {
    return `Usage: askcode bench <name> [options]   (askcode bench <name> --help for its options)

${benches.map((b) => `  ${b.name.padEnd(10)} ${b.summary}`).join('\n')}`;
  },
  async run(args) {
    const [name, ...rest] = args;
    const b = benches.find((x) => x.name === name);
    if (!b) {
      process.stderr.write(`askcode bench: ${name ? `'${name}' is not available in this build` : 'name a benchmark'}\n${this.usage}\n`);
      return 2;
    }
    if (rest[0] === '--help' || rest[0] === '-h') {
      process.stdout.write(b.usage.trimEnd() + '\n');
      return 0;
    }
    return b.run(rest);
  },
});

// Each benchmark registers itself on import.
import './bench/models';
import './bench/retrieval';
import './bench/index';
import './bench/qa';
import './bench/bridge';
import './bench/answers';
import './bench/mcp';
