/** Entry of the chat UI bundle (dist/webview/webview.js): same code in VS Code and in a browser. */
import '@vscode/codicons/dist/codicon.css';
import './chat.css';
import { createTransport } from './transport';
import { ChatApp } from './chat';

const root = document.getElementById('app') ?? document.body;
const app = new ChatApp(createTransport(), root);
void app.start();
