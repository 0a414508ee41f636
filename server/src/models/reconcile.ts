import * as path from 'node:path';
import { CATALOG, bytesOf, usageIsLlm, type CatalogEntry } from './catalog';
import type { Registry, ModelRecord } from './registry';
import type { ModelCache } from './cache';
import { scanModelsDir, stableId, type FolderFacts } from './folders';
import { bundledModelDir } from './bundled';
import { inspect } from './downloads';

const CODE_CAPABILITIES = { temporal: false, images: false, videos: false, documents: true, codebases: true, assets: true, websites: false };

function safeFolder(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.\.+/g, '_').replace(/^[^A-Za-z0-9]/, 'm');
}

/**
 * Brings the stored registry up to date at start: every catalog entry (with its shipped or
 * ASKCODE_MODELS_DIR folder when there is one), every model folder of ASKCODE_MODELS_DIR as a model,
 * and folder models that left the folder dropped unless a copy of them is cached.
 */
export async function reconcileRegistry(registry: Registry, cache: ModelCache, modelsDir: string | undefined): Promise<void> {
  const folders = modelsDir ? await scanModelsDir(modelsDir) : [];
  const claimed = new Set<string>();
  const now = new Date().toISOString();
  await registry.mutate(async (recs) => {
    for (const entry of CATALOG) {
      const old = recs.get(entry.id);
      const local = (modelsDir ? await findCatalogFolder(entry, modelsDir) : undefined) ?? (entry.bundled ? bundledModelDir(entry.bundled) : undefined);
      if (local) claimed.add(local);
      recs.set(entry.id, {
        model: { ...entry.model, id: entry.id, created: old?.model.created ?? { value: now } },
        origin: 'catalog',
        ...(entry.hubId ? { hubId: entry.hubId, folder: entry.folder } : {}),
        ...(entry.dtype ? { dtype: entry.dtype } : {}),
        ...(local ? { source: { kind: 'local' as const, path: local } } : {}),
        ...(old?.measuredRam ? { measuredRam: old.measuredRam } : {}),
      });
    }
    const seen = new Set<string>();
    for (const f of folders) {
      if (claimed.has(f.dir)) continue;
      const id = stableId('folder', f.name);
      seen.add(id);
      const old = recs.get(id);
      recs.set(id, folderRecord(f, id, old?.model.created.value ?? now, old?.measuredRam));
    }
    // Folder models come and go with ASKCODE_MODELS_DIR; one whose copy is cached stays usable.
    for (const [id, r] of recs) {
      if (r.origin === 'folder' && !seen.has(id) && !(r.folder && (await cache.has(r.folder)))) recs.delete(id);
    }
  });
}

async function findCatalogFolder(entry: CatalogEntry, modelsDir: string): Promise<string | undefined> {
  if (!entry.hubId) return undefined;
  const candidates = [entry.hubId, path.basename(entry.hubId), entry.folder!, entry.model.name];
  for (const c of candidates) {
    const dir = path.join(modelsDir, c);
    if (await inspect(dir, entry.dtype)) return dir;
  }
  return undefined;
}

function folderRecord(f: FolderFacts, id: string, created: string, measuredRam?: number): ModelRecord {
  const llm = usageIsLlm(f.usage);
  return {
    model: {
      id,
      version: typeof f.config.transformers_version === 'string' ? f.config.transformers_version : 'local',
      created: { value: created },
      name: f.name,
      description: `Local model folder '${f.name}' from ASKCODE_MODELS_DIR (${String(f.config.model_type ?? 'unknown')}, ${f.dtype}).`,
      cloud: false,
      type: 'SPEED',
      usage: f.usage,
      bytes: bytesOf(f.bytes),
      ram: bytesOf(f.bytes * 1.5),
      quantization: f.dtype,
      unique: f.name,
      provider: 'UNKNOWN',
      cpu: true,
      maxTokens: { total: f.maxPositions ?? null },
      custom: false,
      ...(llm ? { capabilities: CODE_CAPABILITIES } : {}),
    },
    origin: 'folder',
    source: { kind: 'local', path: f.dir },
    folder: `local--${safeFolder(f.name)}`,
    dtype: f.dtype,
    ...(measuredRam ? { measuredRam } : {}),
  };
}

