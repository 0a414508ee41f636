import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { invalid } from '../core/errors';
import { AssetsSave, AssetsList, AssetsDelete, type SaveAssetSchema } from '../protocol/workspace';
import { requireFragment } from './passages';
import type { In } from './qgpt';

export interface AssetsDeps {
  index: WorkspaceIndex;
}

/** Saved snippets: searched like files (the `assets` query space), kept across restarts. */
export function registerAssets(service: Service, { index }: AssetsDeps): void {
  service.register(AssetsSave, (params) => {
    const p = params as In<typeof SaveAssetSchema>;
    const name = p.name ?? undefined;
    if (p.seed !== undefined) return index.saveAsset({ name, fragment: requireFragment(p.seed, 'seed') });
    if (p.path) return index.saveAsset({ name, path: p.path, startLine: p.startLine ?? undefined, endLine: p.endLine ?? undefined });
    throw invalid('give a seed (with a fragment) or a path to save', 'seed');
  });
  service.register(AssetsList, () => index.listAssets());
  service.register(AssetsDelete, async (p) => {
    await index.deleteAsset(p.id);
    return null;
  });
}
