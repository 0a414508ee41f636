import { request, notification } from './base';
import { z, Id, Seed as SeedSchema, None, nonEmpty } from './schema';
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
export type SkipReason = 'outside' | 'special' | 'unreadable' | 'too_large' | 'binary' | 'minified' | 'built' | 'encoding';

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
  /** The workspace folders the conversation was held in (absent on conversations from before). */
  folders?: string[];
}

export interface ConversationsListParams {
  /** Every conversation, whatever its folders (default: only those of the current workspace folders). */
  all?: boolean;
}

export interface ConversationMessageRecord {
  id: string;
  role: 'USER' | 'ASSISTANT' | 'SYSTEM';
  text: string;
  created: string;
  model?: string;
  score?: number;
  relevant?: { id?: string; path?: string; startLine?: number; endLine?: number; score?: number }[];
  /** A user's follow-up as it was searched, rewritten with its history. */
  rewrittenQuery?: string;
}

export interface ConversationRecord extends ConversationSummary {
  messages_: ConversationMessageRecord[];
}

export const FileEventSchema = z.union([
  z.looseObject({ type: z.enum(['created', 'changed', 'deleted']), path: z.string() }),
  z.looseObject({ type: z.literal('renamed'), path: z.string(), oldPath: z.string() }),
]);

export const SaveAssetSchema = z.looseObject({
  name: z.string().nullish(),
  seed: SeedSchema.optional(),
  path: z.string().nullish(),
  startLine: z.number().nullish(),
  endLine: z.number().nullish(),
});

const ConversationRef = z.looseObject({ id: Id });

export const SettingsSchema = z.looseObject({
  exclude: z.array(z.string()).optional(),
  maxFileSize: z.number().positive().optional(),
  defaultModel: z.string().optional(),
  embeddingModel: z.string().optional(),
  bridge: z.looseObject({
    enabled: z.boolean(),
    port: z.number().int().min(0).max(65535).optional(),
    allowedSecrets: z.array(z.string().min(1), { error: 'must be a list of environment variable or secret names' }).optional(),
  }).optional(),
}).nullable();

/** Set the workspace folders to index (the client sends them at start and on change). */
export const WorkspaceSetFolders = request<WorkspaceFoldersParams, null>('askcode/setFolders',
  z.looseObject({ folders: z.array(z.string().min(1, 'must be a folder path')) }));
/** The folders being indexed: the browser page shows paths relative to them (VS Code knows its own). */
export const WorkspaceFolders = request<void, WorkspaceFoldersParams>('askcode/workspace/folders', None);
/** File create / change / delete / rename events from the editor (a malformed event is skipped, not fatal). */
export const WorkspaceFileEvents = notification<{ events: FileEvent[] }>('askcode/fileEvents', z.looseObject({ events: z.array(z.unknown()) }));
/** Unsaved buffer contents (searched live, before any reindex). */
export const WorkspaceBuffer = notification<BufferParams>('askcode/buffer', z.looseObject({ path: z.string(), text: z.string().nullish() }));
/** Index progress, pushed while indexing. */
export const IndexProgressNotification = notification<IndexProgress>('askcode/indexProgress', None);
/** The index's state now: files, chunks, embeddings, paused or not. */
export const IndexStatus = request<void, IndexProgress>('askcode/index/status', None);
/**
 * Waits, at most `maxMs`, for the index to catch up with the folders (the first index of a folder
 * just opened, an edit being indexed): for tools called as the editor starts. `ready` is false
 * when it had not caught up by then; the answer then comes from what is indexed so far, and
 * `notice` says so in the words answers use.
 */
export const IndexWhenReady = request<{ maxMs: number }, { ready: boolean; status: IndexProgress; notice?: string }>('askcode/index/whenReady',
  z.looseObject({ maxMs: z.number({ error: 'must be a number of milliseconds' }).int().min(0).max(120_000) }));
/** Forget every stored chunk and index the folders again. */
export const IndexRebuild = request<void, null>('askcode/index/rebuild', None);
/** Pause indexing (searches still answer from what is indexed). */
export const IndexPause = request<void, IndexProgress>('askcode/index/pause', None);
/** Resume indexing where it stopped. */
export const IndexResume = request<void, IndexProgress>('askcode/index/resume', None);

/** Save a selection (a seed's fragment, or lines of a file) as an asset, searchable as the `assets` space. */
export const AssetsSave = request<SaveAssetParams, AssetSummary>('askcode/assets/save', SaveAssetSchema);
/** The saved assets, newest first. */
export const AssetsList = request<void, AssetSummary[]>('askcode/assets/list', None);
/** Delete a saved asset. */
export const AssetsDelete = request<{ id: string }, null>('askcode/assets/delete',
  z.looseObject({ id: z.string().min(1, 'must be a non-empty string') }), { field: 'id' });

/**
 * The kept conversations, most recently updated first: those of the current workspace folders,
 * or every one with `{ all: true }` (no params, or `[]` as vscode-jsonrpc sends none, is the default).
 */
export const ConversationsList = request<ConversationsListParams | void, ConversationSummary[]>('askcode/conversations/list', None);
/** One conversation with its messages. */
export const ConversationsGet = request<{ id: string }, ConversationRecord>('askcode/conversations/get', ConversationRef);
/** Rename a conversation. */
export const ConversationsRename = request<{ id: string; name: string }, ConversationSummary>('askcode/conversations/rename',
  ConversationRef.extend({
    name: z.string().refine(nonEmpty, 'must not be empty').refine((v) => v.trim().length <= 200, 'is longer than 200 characters'),
  }));
/** Delete a conversation. */
export const ConversationsDelete = request<{ id: string }, null>('askcode/conversations/delete', ConversationRef);

/** Worker → client: a secret (API key) from VS Code SecretStorage; never written to disk. */
export const SecretGet = request<{ key: string }, { value: string | null }>('askcode/secret', z.looseObject({ key: z.string() }));
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
/** The user's settings, applied without a restart (a changed exclude list or size limit re-walks the folders). */
export const SettingsChanged = notification<WorkerSettings>('askcode/settings', SettingsSchema, { field: 'settings', expected: 'an object' });
