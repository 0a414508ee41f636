/**
 * askcode inside VS Code's AI features: the `@askcode` chat participant, the `#askcode…`
 * language-model tools, the MCP server definition, and "VS Code language model" answers.
 * Each part is skipped (with a log line) where the VS Code running us lacks its API.
 */
import * as vscode from 'vscode';
import type { Worker } from '../worker';
import { registerParticipant } from './participant';
import { registerTools } from './tools';
import { registerMcpServer } from './mcp';
import { registerLmHandler } from './lmHandler';

export function registerChatFeatures(context: vscode.ExtensionContext, worker: Worker): void {
  const parts: [string, () => vscode.Disposable, boolean][] = [
    ['VS Code language models', () => registerLmHandler(worker), typeof vscode.lm?.selectChatModels === 'function'],
    ['@askcode chat participant', () => registerParticipant(context, worker), typeof vscode.chat?.createChatParticipant === 'function'],
    ['#askcode tools', () => registerTools(worker), typeof vscode.lm?.registerTool === 'function'],
    ['MCP server definition', () => registerMcpServer(context), typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function'],
  ];
  for (const [what, register, available] of parts) {
    if (!available) {
      worker.output.info(`${what}: not offered by this VS Code (${vscode.version})`);
      continue;
    }
    try {
      context.subscriptions.push(register());
    } catch (e) {
      worker.output.warn(`${what} not registered: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
