import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { indexNotice } from '../qgpt/answerFlow';
import {
  WorkspaceSetFolders, WorkspaceFolders, WorkspaceFileEvents, WorkspaceBuffer, IndexStatus, IndexWhenReady, IndexRebuild, IndexPause, IndexResume,
  SettingsChanged, FileEventSchema, type FileEvent, type WorkerSettings,
} from '../protocol/workspace';

export interface WorkspaceDeps {
  options: CoreOptions;
  index: WorkspaceIndex;
}

/** The workspace as the editor sees it: folders, file events, unsaved buffers, the index's state, settings. */
export function registerWorkspace(service: Service, { options, index }: WorkspaceDeps): void {
  service.register(WorkspaceSetFolders, async (p) => {
    await index.setFolders(p.folders);
    return null;
  });
  service.register(WorkspaceFolders, () => ({ folders: index.folders() }));
  service.register(WorkspaceFileEvents, async (p) => {
    // A malformed event is skipped, not fatal: the rest of the batch still applies.
    const events = (p.events as unknown[]).filter((ev): ev is FileEvent => FileEventSchema.safeParse(ev).success);
    await index.fileEvents(events);
  });
  service.register(WorkspaceBuffer, (p) => index.buffer(p.path, p.text ?? null));
  service.register(IndexStatus, () => index.currentStatus());
  service.register(IndexWhenReady, async (p, ctx) => {
    const ready = await index.whenReady(p.maxMs, ctx.signal);
    const status = await index.currentStatus();
    const notice = indexNotice(status)?.message;
    return { ready, status, ...(notice ? { notice } : {}) };
  });
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
function applySettings(options: CoreOptions, index: WorkspaceIndex, next: WorkerSettings | null): null {
  const before = options.settings ?? {};
  const after: WorkerSettings = { ...(next ?? {}) };
  options.settings = after;
  const walkChanged =
    JSON.stringify(before.exclude ?? []) !== JSON.stringify(after.exclude ?? []) || before.maxFileSize !== after.maxFileSize;
  if (walkChanged && index.folders().length) {
    options.log.info('exclude / maxFileSize changed: re-walking the workspace');
    void index.indexAll().catch((e) => options.log.warn(`re-index after a settings change failed: ${String(e)}`));
  }
  return null;
}
