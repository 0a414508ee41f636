import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { invalid } from '../core/errors';
import { AssetsSave, AssetsList, AssetsDelete } from '../protocol/workspace';
import { fragmentOf } from './passages';

export interface AssetsDeps {
  index: WorkspaceIndex;
}

/** Saved snippets: searched like files (the `assets` query space), kept across restarts. */
export function registerAssets(service: Service, { index }: AssetsDeps): void {
  service.register(AssetsSave, (p) => {
    if (!p || typeof p !== 'object') throw invalid('params must be an object with a seed or a path', 'params');
    const name = typeof p.name === 'string' ? p.name : undefined;
    if (p.seed !== undefined) return index.saveAsset({ name, fragment: fragmentOf(p.seed, 'seed') });
    if (typeof p.path === 'string' && p.path) return index.saveAsset({ name, path: p.path, startLine: p.startLine, endLine: p.endLine });
    throw invalid('give a seed (with a fragment) or a path to save', 'seed');
  });
  service.register(AssetsList, () => index.listAssets());
  service.register(AssetsDelete, async (p) => {
    const id: unknown = p?.id;
    if (typeof id !== 'string' || !id) throw invalid('id must be a non-empty string', 'id');
    await index.deleteAsset(id);
    return null;
  });
}
