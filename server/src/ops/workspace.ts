import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { invalid } from '../core/errors';
import {
  WorkspaceSetFolders, WorkspaceFolders, WorkspaceFileEvents, WorkspaceBuffer, IndexStatus, IndexRebuild, IndexPause, IndexResume,
  SettingsChanged, type FileEvent, type WorkerSettings,
} from '../protocol/workspace';
import { validateAllowedSecrets } from '../models/secretPolicy';

export interface WorkspaceDeps {
  options: CoreOptions;
  index: WorkspaceIndex;
}

/** The workspace as the editor sees it: folders, file events, unsaved buffers, the index's state, settings. */
export function registerWorkspace(service: Service, { options, index }: WorkspaceDeps): void {
  service.register(WorkspaceSetFolders, async (p) => {
    if (!p || !Array.isArray(p.folders) || p.folders.some((f) => typeof f !== 'string' || !f)) {
      throw invalid('folders must be an array of folder paths', 'folders');
    }
    await index.setFolders(p.folders);
    return null;
  });
  service.register(WorkspaceFolders, () => ({ folders: index.folders() }));
  service.register(WorkspaceFileEvents, async (p) => {
    if (!p || !Array.isArray(p.events)) throw invalid('events must be an array', 'events');
    // A malformed event is skipped, not fatal: the rest of the batch still applies.
    const events = p.events.filter((ev: FileEvent) =>
      ev && typeof ev.path === 'string' && ['created', 'changed', 'deleted', 'renamed'].includes(ev.type) &&
      (ev.type !== 'renamed' || typeof ev.oldPath === 'string'));
    await index.fileEvents(events);
  });
  service.register(WorkspaceBuffer, async (p) => {
    if (!p || typeof p.path !== 'string') throw invalid('path must be a string', 'path');
    if (p.text !== null && p.text !== undefined && typeof p.text !== 'string') throw invalid('text must be a string or null', 'text');
    await index.buffer(p.path, p.text ?? null);
  });
  service.register(IndexStatus, () => index.currentStatus());
  service.register(IndexRebuild, async () => {
    await index.rebuild();
    return null;
  });
  service.register(IndexPause, () => index.pause());
  service.register(IndexResume, () => index.resume());
  service.register(SettingsChanged, (settings) => applySettings(options, index, settings));
}

/**
 * New settings take effect without a restart: every area reads `options.settings` when it needs
 * it, and a changed exclude list or size limit re-walks the folders (files now excluded leave the
 * index, files now included enter it).
 */
async function applySettings(options: CoreOptions, index: WorkspaceIndex, next: WorkerSettings | null): Promise<null> {
  if (next !== null && (typeof next !== 'object' || Array.isArray(next))) throw invalid('settings must be an object', 'settings');
  const s = next ?? {};
  if (s.exclude !== undefined && (!Array.isArray(s.exclude) || s.exclude.some((g) => typeof g !== 'string'))) {
    throw invalid('exclude must be a list of glob strings', 'exclude');
  }
  if (s.maxFileSize !== undefined && !(typeof s.maxFileSize === 'number' && s.maxFileSize > 0)) {
    throw invalid('maxFileSize must be a positive number of bytes', 'maxFileSize');
  }
  validateAllowedSecrets(s.bridge?.allowedSecrets);
  for (const k of ['defaultModel', 'embeddingModel'] as const) {
    if (s[k] !== undefined && typeof s[k] !== 'string') throw invalid(`${k} must be a string`, k);
  }
  const before = options.settings ?? {};
  const after: WorkerSettings = { ...s };
  options.settings = after;
  const walkChanged =
    JSON.stringify(before.exclude ?? []) !== JSON.stringify(after.exclude ?? []) || before.maxFileSize !== after.maxFileSize;
  if (walkChanged && index.folders().length) {
    options.log.info('exclude / maxFileSize changed: re-walking the workspace');
    void index.indexAll().catch((e) => options.log.warn(`re-index after a settings change failed: ${String(e)}`));
  }
  return null;
}
