import { registerCommand } from './registry';
import { openCore, parse } from './common';
import { ModelsSnapshot } from '../protocol/models';
import type { Model } from '../protocol/wire';

function row(m: Model): string {
  const flags = [m.downloaded ? 'downloaded' : 'not downloaded', m.loaded ? 'loaded' : '', m.custom ? 'custom' : '']
    .filter(Boolean)
    .join(', ');
  return `${m.id.padEnd(38)} ${m.usage.padEnd(18)} ${(m.bytes?.readable ?? '-').padStart(9)}  ${m.name} (${flags})`;
}

registerCommand({
  name: 'models',
  summary: 'list the models askcode knows (--json: the Models wire JSON)',
  usage: `Usage: askcode models [--json] [--data-dir DIR]

Lists every model in the registry: the embedding model, the local LLMs, the built-in extractive
answerer and your custom models, with whether each is downloaded and loaded.

Options:
  --json           print the Models wire JSON (as GET /models returns it)
  --data-dir DIR   askcode's data folder (default: ASKCODE_DATA_DIR or ~/.askcode)`,
  async run(args) {
    const { values } = parse(args, { json: { type: 'boolean' }, 'data-dir': { type: 'string' } });
    const core = await openCore({ dataDir: values['data-dir'] });
    try {
      const models = await core.service.request(ModelsSnapshot, undefined);
      if (values.json) process.stdout.write(JSON.stringify(models, null, 2) + '\n');
      else {
        process.stdout.write(`${'ID'.padEnd(38)} ${'USAGE'.padEnd(18)} ${'SIZE'.padStart(9)}  NAME\n`);
        for (const m of models.iterable) process.stdout.write(row(m) + '\n');
      }
      return 0;
    } finally {
      await core.dispose();
    }
  },
});
