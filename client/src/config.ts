/** The `askcode.*` settings, read in one place. */
import * as vscode from 'vscode';
import type { WorkerSettings } from '../../server/src/protocol';

export const SECTION = 'askcode';

/**
 * What the worker applies live, sent with `askcode/settings`. `bridge` is askcode's extension of
 * {@link WorkerSettings}: the worker (never the extension host) starts or stops the HTTP/WS bridge.
 */
export interface ClientWorkerSettings extends WorkerSettings {
  bridge: { enabled: boolean; port: number; allowedSecrets: string[] };
}

export function readSettings(): ClientWorkerSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const nonEmpty = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);
  return {
    exclude: c.get<string[]>('exclude', []),
    maxFileSize: c.get<number>('maxFileSize', 1024 * 1024),
    defaultModel: nonEmpty(c.get<string>('defaultModel')),
    embeddingModel: nonEmpty(c.get<string>('embeddingModel')),
    bridge: {
      enabled: c.get<boolean>('bridge.enabled', false),
      port: c.get<number>('bridge.port', 39301),
      allowedSecrets: c.get<string[]>('bridge.allowedSecrets', []),
    },
  };
}

/** The worker's log level follows the trace setting: verbose tracing wants debug logs too. */
export function logLevel(): 'debug' | 'info' {
  return vscode.workspace.getConfiguration(SECTION).get<string>('trace.server', 'off') === 'verbose' ? 'debug' : 'info';
}
