/**
 * askcode's MCP server for VS Code's own MCP client (agent mode, any MCP-aware chat): `dist/cli.js
 * mcp <workspace folders>` over stdio, under VS Code's Node as the worker is (ELECTRON_RUN_AS_NODE
 * makes desktop VS Code's Electron binary behave as plain Node). It keeps its index in its own data
 * folder inside the extension's storage: a second process must not write the worker's store.
 */
import * as vscode from 'vscode';
import { WORKER_ENV } from '../../../server/src/protocol';
import { folderPaths } from '../worker';

export const MCP_PROVIDER_ID = 'askcode.mcp';

export function mcpServerDefinition(context: vscode.ExtensionContext): vscode.McpStdioServerDefinition {
  const cli = context.asAbsolutePath('dist/cli.js');
  const version = String(context.extension.packageJSON.version ?? '');
  const env: Record<string, string> = {
    ...WORKER_ENV,
    ELECTRON_RUN_AS_NODE: '1',
    ASKCODE_DATA_DIR: vscode.Uri.joinPath(context.globalStorageUri, 'mcp').fsPath,
    ASKCODE_VERSION: version,
  };
  const folders = folderPaths();
  const def = new vscode.McpStdioServerDefinition('askcode', process.execPath, [cli, 'mcp', ...folders], env, `${version}+${folders.length}`);
  if (folders[0]) def.cwd = vscode.Uri.file(folders[0]);
  return def;
}

export function registerMcpServer(context: vscode.ExtensionContext): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  return vscode.Disposable.from(
    changed,
    // The served folders are the workspace's: a new folder means a new definition.
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => (folderPaths().length ? [mcpServerDefinition(context)] : []),
    }),
  );
}
