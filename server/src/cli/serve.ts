import { registerCommand } from './registry';
import { notYet } from './pending';

registerCommand({
  name: 'serve',
  summary: 'index folders and serve the REST/WebSocket bridge and the chat page on loopback',
  usage: `Usage: askcode serve [folder…] [--port 39300] [--data-dir DIR] [--allow-remote HOST]

Indexes the folders, listens on 127.0.0.1 and prints the URL of the chat page. The REST and
WebSocket routes are wire-compatible with Pieces OS (the @pieces.app/pieces-os-client SDK works).
Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.`,
  run: notYet('serve'),
});
