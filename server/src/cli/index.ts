import { registerCommand } from './registry';
import { parse, openCore, requireFolder, progressLine as line } from './common';
import { IndexProgressNotification, type IndexProgress } from '../protocol/workspace';

registerCommand({
  name: 'index',
  summary: 'index folders (or show the index status) without serving',
  usage: `Usage: askcode index [folder…] [--data-dir DIR] [--status] [--no-embed]

Builds or updates the index of the folders, printing progress, and exits.
  --status     print what the index holds for the folders, without indexing
  --no-embed   BM25 only (skip the embedding model)`,
  async run(args) {
    const { values, positionals } = parse(args, { 'data-dir': { type: 'string' }, status: { type: 'boolean' }, 'no-embed': { type: 'boolean' } }, true);
    const folders = (positionals.length ? positionals : [process.cwd()]).map((f) => requireFolder(f));
    const core = await openCore({ dataDir: values['data-dir'], folders, autoIndex: false });
    try {
      if (values['no-embed']) core.index.setDense(false);
      if (values.status) {
        process.stdout.write(line(await core.index.currentStatus()) + '\n');
        return 0;
      }
      const tty = process.stderr.isTTY;
      const off = core.service.onBroadcast((method, p) => {
        if (method !== IndexProgressNotification.method) return;
        process.stderr.write(tty ? `\r${line(p as IndexProgress)}\x1b[K` : line(p as IndexProgress) + '\n');
      });
      const t0 = Date.now();
      await core.index.indexAll();
      await core.index.whenIdle();
      off();
      if (tty) process.stderr.write('\n');
      process.stdout.write(`${line(core.index.status())} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      return 0;
    } finally {
      await core.dispose();
    }
  },
});
