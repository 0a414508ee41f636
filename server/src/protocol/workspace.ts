import { request, notification } from './base';
import type { Seed } from './wire';

/** askcode's own methods (not in the Pieces API): the workspace index, assets, conversations. */

export type IndexState = 'idle' | 'indexing' | 'ready' | 'paused' | 'error';

export interface IndexProgress {
  state: IndexState;
  files: number;
  filesTotal: number;
  chunks: number;
  embedded: number;
  /** Seconds left, when known. */
  eta?: number;
  /** true when no embedding model is available: relevance runs on BM25 alone. */
  bm25Only: boolean;
  message?: string;
  /** Files not indexed, by reason (absent when none): counted apart from `files`. */
  skipped?: Partial<Record<SkipReason, number>>;
}

/** Why a file was not indexed: see `server/src/core/safePath.ts`. */
export type SkipReason = 'outside' | 'special' | 'unreadable' | 'too_large' | 'binary' | 'minified' | 'encoding';

export interface WorkspaceFoldersParams { folders: string[] }

export type FileEvent =
  | { type: 'created' | 'changed' | 'deleted'; path: string }
  | { type: 'renamed'; path: string; oldPath: string };

export interface BufferParams {
  path: string;
  /** Unsaved contents; `null` when the buffer was closed or saved (disk is the truth again). */
  text: string | null;
}

export interface AssetSummary {
  id: string;
  name: string;
  path?: string;
  language?: string;
  created: string;
  preview: string;
}

export interface SaveAssetParams {
  name?: string;
  /** Either a seed with a fragment, or a file (optionally a line range). */
  seed?: Seed;
  path?: string;
  startLine?: number;
  endLine?: number;
}

export interface ConversationSummary {
  id: string;
  name: string;
  created: string;
  updated: string;
  messages: number;
}

export interface ConversationMessageRecord {
  id: string;
  role: 'USER' | 'ASSISTANT' | 'SYSTEM';
  text: string;
  created: string;
  model?: string;
  score?: number;
  relevant?: { id?: string; path?: string; startLine?: number; endLine?: number; score?: number }[];
}

export interface ConversationRecord extends ConversationSummary {
  messages_: ConversationMessageRecord[];
}

/** Set the workspace folders to index (the client sends them at start and on change). */
export const WorkspaceSetFolders = request<WorkspaceFoldersParams, null>('askcode/setFolders');
/** The folders being indexed: the browser page shows paths relative to them (VS Code knows its own). */
export const WorkspaceFolders = request<void, WorkspaceFoldersParams>('askcode/workspace/folders');
/** File create / change / delete / rename events from the editor. */
export const WorkspaceFileEvents = notification<{ events: FileEvent[] }>('askcode/fileEvents');
/** Unsaved buffer contents (searched live, before any reindex). */
export const WorkspaceBuffer = notification<BufferParams>('askcode/buffer');
/** Index progress, pushed while indexing. */
export const IndexProgressNotification = notification<IndexProgress>('askcode/indexProgress');
export const IndexStatus = request<void, IndexProgress>('askcode/index/status');
export const IndexRebuild = request<void, null>('askcode/index/rebuild');
export const IndexPause = request<void, IndexProgress>('askcode/index/pause');
export const IndexResume = request<void, IndexProgress>('askcode/index/resume');

export const AssetsSave = request<SaveAssetParams, AssetSummary>('askcode/assets/save');
export const AssetsList = request<void, AssetSummary[]>('askcode/assets/list');
export const AssetsDelete = request<{ id: string }, null>('askcode/assets/delete');

export const ConversationsList = request<void, ConversationSummary[]>('askcode/conversations/list');
export const ConversationsGet = request<{ id: string }, ConversationRecord>('askcode/conversations/get');
export const ConversationsRename = request<{ id: string; name: string }, ConversationSummary>('askcode/conversations/rename');
export const ConversationsDelete = request<{ id: string }, null>('askcode/conversations/delete');

/** Worker → client: a secret (API key) from VS Code SecretStorage; never written to disk. */
export const SecretGet = request<{ key: string }, { value: string | null }>('askcode/secret');
/** The user's settings that the worker applies live. */
export interface WorkerSettings {
  exclude?: string[];
  maxFileSize?: number;
  defaultModel?: string;
  embeddingModel?: string;
  /** `askcode.bridge.*`: the worker (never the extension host) serves the loopback bridge. */
  /** `allowedSecrets`: the env variables / stored secrets a model created over the bridge may use. */
  bridge?: { enabled: boolean; port?: number; allowedSecrets?: string[] };
}
export const SettingsChanged = notification<WorkerSettings>('askcode/settings');
