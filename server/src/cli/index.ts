import { registerCommand } from './registry';
import { notYet } from './pending';

registerCommand({
  name: 'index',
  summary: 'index folders (or show the index status) without serving',
  usage: `Usage: askcode index [folder…] [--data-dir DIR] [--status]

Builds or updates the index of the folders, printing progress, and exits.`,
  run: notYet('index'),
});
