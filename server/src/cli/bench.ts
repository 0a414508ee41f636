import { registerCommand, benches } from './registry';

const SUMMARIES: Record<string, string> = {
  models: "worker RSS before a load, after loading the embedding model and stories260K, and after models/unload",
  retrieval: 'Recall@1/5/10, Acc@5, MRR and latency on an eval .jsonl, against plain BM25 over whole files',
  index: 'time to BM25-ready, embedding throughput, relevance p50/p95 at 10k and N chunks, peak RSS, disk',
  qa: 'cited-snippet overlap with reference spans; time to first relevance frame and first answer delta',
  bridge: 'requests/s and p50/p99 latency of the bridge at 1, 8 and 32 clients; 32 WebSocket conversations',
};

registerCommand({
  name: 'bench',
  summary: 'benchmarks that print figures (models, retrieval, index, qa, bridge)',
  get usage() {
    return `Usage: askcode bench <name> [options]   (askcode bench <name> --help for its options)

${Object.entries(SUMMARIES).map(([n, s]) => `  ${n.padEnd(10)} ${s}`).join('\n')}`;
  },
  async run(args) {
    const [name, ...rest] = args;
    const b = benches.find((x) => x.name === name);
    if (!b) {
      process.stderr.write(`askcode bench: ${name ? `'${name}' is not available in this build` : 'name a benchmark'}\n${this.usage}\n`);
      return 2;
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
