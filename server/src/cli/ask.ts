import { registerCommand } from './registry';
import { notYet } from './pending';

registerCommand({
  name: 'ask',
  summary: 'ask a question about a folder; streams a cited answer',
  usage: `Usage: askcode ask "question" [--path FOLDER] [--model ID] [--json] [--data-dir DIR]

Indexes FOLDER (default: the current folder) if needed, finds the relevant snippets and streams
the answer with the cited snippets and their scores.`,
  run: notYet('ask'),
});
