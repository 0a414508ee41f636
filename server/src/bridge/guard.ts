/** Checks the bridge makes on params before any call reaches the core, whichever route carried them. */
import { forbidden } from '../core/errors';
import { QgptRelevance } from '../protocol/qgpt';
import { QgptStream } from '../protocol/stream';
import { AssetsSave, SettingsChanged, WorkspaceSetFolders } from '../protocol/workspace';
import { checkPathInside, checkPathsInside } from './security';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Relevance over `paths` reads files from disk, so over the bridge it is held to the folders being
 * served; and the served folders are fixed when the bridge starts, or that limit would mean nothing.
 */
export function guardParams(method: string, params: unknown, folders: string[]): void {
  if (method === QgptRelevance.method && isObject(params)) checkPathsInside(params.paths, folders, 'paths');
  if (method === QgptStream.method && isObject(params) && isObject(params.relevance)) {
    checkPathsInside(params.relevance.paths, folders, 'relevance.paths');
  }
  if (method === AssetsSave.method && isObject(params) && params.path !== undefined) {
    checkPathInside(params.path, folders, 'path');
  }
  // The settings hold what the user allows (askcode.bridge.allowedSecrets among them): never a client's to change.
  if (method === SettingsChanged.method) throw forbidden('settings are the user\'s: a bridge client cannot change them');
  if (method === WorkspaceSetFolders.method) {
    throw forbidden('the folders a bridge serves are the ones it was started with; restart it to change them');
  }
}
