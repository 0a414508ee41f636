// STUB — replaced by the VS Code client.
import * as vscode from 'vscode';
export function activate(_context: vscode.ExtensionContext): void {}
export function deactivate(): void {}
