/**
 * Methods between the chat UI and its VS Code host (the extension), beside the worker's protocol.
 * The extension answers `askcode/ui/*` itself and relays every other method to the worker, so
 * the UI speaks one JSON-RPC channel. In a browser page there is no host: these are never sent.
 * Plain objects and types only: the extension and the webview both import this file.
 */
import { request, notification } from './base';

export const UI_PREFIX = 'askcode/ui/';

export interface SelectionSeed {
  text: string;
  path?: string;
  /** 1-based inclusive. */
  startLine?: number;
  endLine?: number;
  /** File extension, the wire's ClassificationSpecificEnum (`ts`, `py`). */
  ext?: string;
}

export interface UiConfig {
  /** Workspace folders, to show snippet paths relative to them. */
  folders: string[];
  defaultModel?: string;
}

export type WorkerState = 'starting' | 'running' | 'stopped';

export interface AskParams {
  query: string;
  /** Ask about this code rather than the whole workspace. */
  selection?: SelectionSeed;
  /** Search only these files or folders. */
  paths?: string[];
}

/** UI → host: the page is loaded; the host answers with its config and replays queued asks. */
export const UiReady = request<void, UiConfig>('askcode/ui/ready');
/** UI → host: open a file at a 1-based line range. */
export const UiOpenLocation = request<{ path: string; startLine?: number; endLine?: number }, null>('askcode/ui/openLocation');
/** UI → host: insert text at the cursor of the active editor. */
export const UiInsert = request<{ text: string }, null>('askcode/ui/insert');
/** UI → host: open an http(s) link outside the webview. */
export const UiOpenExternal = request<{ url: string }, null>('askcode/ui/openExternal');

/** Host → UI: ask a question (Ask About Selection, "open in chat" from a quick pick). */
export const UiAsk = notification<AskParams>('askcode/ui/ask');
/** Host → UI: settings changed. */
export const UiConfigChanged = notification<UiConfig>('askcode/ui/config');
/** Host → UI: the worker started, stopped or is restarting. */
export const UiWorkerState = notification<{ state: WorkerState; message?: string }>('askcode/ui/workerState');
/** Host → UI: start a new conversation (the view's title-bar button). */
export const UiNewConversation = notification<Record<string, never>>('askcode/ui/newConversation');
