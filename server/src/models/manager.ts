import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { Notify } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { CreateModelParams } from '../protocol/models';
import type { ModelHub, Embedder, Generator } from '../core/interfaces';
import { SaidOnce } from '../core/saidOnce';
import { conflict, forbidden, invalid, notFound, unavailable } from '../core/errors';
import type { Model, Models, ModelDeleteCacheOutput } from '../protocol/wire';
import { ModelsIdentifiersNotification } from '../protocol/models';
import { EXTRACTIVE_MODEL_ID, DEFAULT_EMBEDDING_MODEL_ID, bytesOf, usageIsLlm } from './catalog';
import { Registry, type ModelRecord } from './registry';
import { ModelCache } from './cache';
import { inspectFolder, inspectStaticFolder, type FolderFacts } from './folders';
import { OnnxEmbedder } from './embedder';
import { StaticEmbedder } from './staticEmbedder';
import { OnnxGenerator } from './onnxGenerator';
import { DEFAULT_OLLAMA_URL, OllamaGenerator, OpenAIGenerator } from './endpointGenerators';
import { normalizeSource, seededOnly, sourceFromUnique } from './source';
import { freeMemory } from './memory';
import { apiKeyLookup, checkCreateSecrets, type CreatedVia } from './secretPolicy';
import { isVscodeLmId, vscodeLmGenerator, vscodeLmRecord, vscodeLmRecords } from './vscodeLmGenerator';
import { VSCODE_LM_MODEL_ID } from '../protocol/lm';
import { applyUpdate, bumpScore, incrementOf } from './update';
import { Downloads, inspect, noSource } from './downloads';
import { reconcileRegistry } from './reconcile';
import { ManagedEmbedder, ManagedGenerator } from './managed';

type Loaded = OnnxEmbedder | StaticEmbedder | OnnxGenerator;

/**
 * The Models API and the model providers behind {@link ModelHub}.
 *
 * Weights reach `<dataDir>/models/<folder>` only through `model/download` (from the model hub
 * over HTTPS, or copied from a local folder). Loading reads that cache folder, or the model's own
 * local folder (ASKCODE_MODELS_DIR, a custom folder) when no copy is cached; it never downloads,
 * with one exception: the embedding model from the catalog is fetched on first use when no
 * models dir is set, because it is small (23 MB) and search quality depends on it.
 */
export class ModelManager implements ModelHub {
  readonly extractiveModelId = EXTRACTIVE_MODEL_ID;
  private readonly registry: Registry;
  private readonly cache: ModelCache;
  private readonly loaded = new Map<string, Promise<Loaded>>();
  private readonly downloads: Downloads;
  private embedder: { key: string; promise: Promise<Embedder | null>; failedAt?: number } | undefined;
  private readonly warned = new Set<string>();
  private readonly said: SaidOnce;
  private disposed = false;

  private constructor(readonly options: CoreOptions, private readonly notify: Notify) {
    this.said = new SaidOnce(options.dataDir, options.log);
    this.registry = new Registry(options.dataDir, options.log);
    this.cache = new ModelCache(path.join(options.dataDir, 'models'));
    this.downloads = new Downloads({
      options, cache: this.cache, notify,
      changed: (id) => this.changed(id),
      settled: (r) => {
        if (r.model.usage === 'TEXT_EMBEDDING') this.embedder = undefined;
        this.changed(r.model.id);
      },
    });
    if (options.clientLm) options.clientLm.onModels = () => this.changed(VSCODE_LM_MODEL_ID);
  }

  /** The `created` of the virtual VS Code language-model records. */
  private readonly startedAt = new Date().toISOString();

  static async create(options: CoreOptions, notify: Notify): Promise<ModelManager> {
    const m = new ModelManager(options, notify);
    await m.said.load();
    await m.init();
    return m;
  }

  // ---- registry --------------------------------------------------------------------------

  private async init(): Promise<void> {
    await this.registry.load();
    await this.cache.sweepTemp();
    await reconcileRegistry(this.registry, this.cache, this.options.modelsDir);
  }

  private record(id: string): ModelRecord {
    if (this.options.clientLm && isVscodeLmId(id)) return vscodeLmRecord(this.options.clientLm, id, this.startedAt);
    const r = this.registry.get(id);
    if (!r) throw notFound(`no model with id ${id}`, 'model');
    return r;
  }

  /** A model named by id, `unique` or name (settings may hold any of them). */
  private resolve(ref: string | undefined): ModelRecord | undefined {
    if (!ref) return undefined;
    if (this.options.clientLm && isVscodeLmId(ref)) return vscodeLmRecord(this.options.clientLm, ref, this.startedAt);
    const all = this.registry.all();
    return this.registry.get(ref) ?? all.find((r) => r.model.unique === ref) ?? all.find((r) => r.model.name === ref)
      // A shipped model by its folder name (what a benchmark passes as a path).
      ?? all.find((r) => r.origin === 'catalog' && r.source?.kind === 'local' && path.basename(r.source.path) === ref);
  }

  /** The wire record with today's facts. */
  private async toWire(r: ModelRecord): Promise<Model> {
    const m: Model = { ...r.model };
    delete m.downloaded;
    if (r.model.id === EXTRACTIVE_MODEL_ID) m.downloaded = true;
    else if (r.folder) {
      m.downloaded = await this.cache.has(r.folder);
      if (m.downloaded) m.bytes = bytesOf(await this.cache.bytes(r.folder));
    } else if (r.source?.kind === 'local') {
      // Weights already on this machine (shipped with askcode, or a model folder): nothing to download.
      m.downloaded = true;
    }
    m.loaded = r.model.id === EXTRACTIVE_MODEL_ID || this.isLoaded(r.model.id);
    m.downloading = this.downloads.has(r.model.id);
    if (r.measuredRam) m.ram = bytesOf(r.measuredRam);
    return m;
  }

  private readonly settled = new Set<string>();
  private isLoaded(id: string): boolean {
    return this.loaded.has(id) && this.settled.has(id);
  }

  private changed(id: string, deleted = false): void {
    if (this.disposed) return;
    this.notify(ModelsIdentifiersNotification, { iterable: [{ model: { id }, ...(deleted ? { deleted: true } : {}) }] });
  }

  private warnOnce(key: string, msg: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.options.log.warn(msg);
  }

  // ---- loading ---------------------------------------------------------------------------

  /** Where the weights are read from: the cached copy, else the model's own local folder. */
  private async weightsDir(r: ModelRecord): Promise<string | null> {
    if (r.folder && (await this.cache.has(r.folder))) return this.cache.dir(r.folder);
    if (r.source?.kind === 'local' && (await inspect(r.source.path, r.dtype))) return r.source.path;
    return null;
  }

  private ensureLoaded(r: ModelRecord): Promise<Loaded> {
    const id = r.model.id;
    let p = this.loaded.get(id);
    if (!p) {
      p = this.doLoad(r);
      this.loaded.set(id, p);
      p.then(
        () => {
          this.settled.add(id);
          this.changed(id);
        },
        () => {
          if (this.loaded.get(id) === p) this.loaded.delete(id);
        },
      );
    }
    return p;
  }

  private async doLoad(r: ModelRecord): Promise<Loaded> {
    const usage = r.model.usage;
    if (usage !== 'TEXT_EMBEDDING' && !usageIsLlm(usage)) throw invalid(`${r.model.name} has usage ${usage}, which askcode cannot run`, 'model');
    let dir = await this.weightsDir(r);
    // The catalog's embedding models are small and search depends on them: fetched on first use.
    if (!dir && r.origin === 'catalog' && r.hubId && usage === 'TEXT_EMBEDDING' && !this.options.modelsDir) {
      this.said.say(`fetch:${r.model.id}`, 'info', `fetching ${r.model.name} (${r.model.bytes?.readable}) for semantic search, once`);
      await this.downloads.start(r);
      dir = await this.weightsDir(r);
      if (dir) this.said.forget(`fetch:${r.model.id}`);
    }
    if (!dir) {
      if (r.origin === 'custom' && !r.folder) throw unavailable(`${r.model.name} has no local weights to load`);
      throw unavailable(`${r.model.name} is not downloaded yet: download it first${this.options.modelsDir ? ` (or put its folder in ASKCODE_MODELS_DIR)` : ''}`);
    }
    const before = process.memoryUsage().rss;
    if (r.dtype === 'static') {
      if (usage !== 'TEXT_EMBEDDING') throw invalid(`${r.model.name} is a static embedding model; it cannot answer`, 'model');
      return StaticEmbedder.load(r.model.id, dir);
    }
    const facts = await inspectFolder(dir, r.dtype);
    if (!facts) throw unavailable(`${dir} is not a transformers.js model folder (config.json and onnx/ expected)`);
    const loaded = usage === 'TEXT_EMBEDDING'
      ? await OnnxEmbedder.load(r.model.id, dir, facts.dtype, r.model.maxTokens?.total ?? facts.maxPositions)
      : await OnnxGenerator.load(r.model.id, dir, facts.dtype, r.model.maxTokens?.total ?? facts.maxPositions ?? 2048);
    const grown = process.memoryUsage().rss - before;
    if (grown > 0) {
      await this.registry.mutate((recs) => {
        const cur = recs.get(r.model.id);
        if (cur) cur.measuredRam = grown;
      });
    }
    return loaded;
  }

  private async unloadOne(id: string): Promise<boolean> {
    const p = this.loaded.get(id);
    if (!p) return false;
    this.loaded.delete(id);
    this.settled.delete(id);
    try {
      await (await p).dispose();
    } catch (e) {
      this.options.log.debug(`unload ${id}: ${String(e)}`);
    }
    this.changed(id);
    return true;
  }

  async unloadAll(): Promise<void> {
    for (const id of [...this.loaded.keys()]) await this.unloadOne(id);
    freeMemory();
  }

  // ---- ModelHub --------------------------------------------------------------------------

  private embeddingRecord(): ModelRecord | undefined {
    const wanted = this.options.settings?.embeddingModel;
    if (wanted) {
      const r = this.resolve(wanted);
      if (r && r.model.usage === 'TEXT_EMBEDDING') return r;
      this.warnOnce(`embedding-setting:${wanted}`, `askcode.embeddingModel '${wanted}' is not an embedding model askcode knows; using ${this.registry.get(DEFAULT_EMBEDDING_MODEL_ID)?.model.name}`);
    }
    return this.registry.get(DEFAULT_EMBEDDING_MODEL_ID);
  }

  getEmbedder(): Promise<Embedder | null> {
    const r = this.embeddingRecord();
    const key = r?.model.id ?? '';
    // A failure is remembered for a minute so callers asking per batch do not retry a download each time.
    if (this.embedder?.key === key && (this.embedder.failedAt === undefined || Date.now() - this.embedder.failedAt < 60_000)) return this.embedder.promise;
    const entry: { key: string; promise: Promise<Embedder | null>; failedAt?: number } = { key, promise: Promise.resolve(null) };
    entry.promise = (async (): Promise<Embedder | null> => {
      if (!r) return null;
      try {
        const first = (await this.ensureLoaded(r)) as OnnxEmbedder | StaticEmbedder;
        this.said.forget(`embedder:${key}`);
        return new ManagedEmbedder(r.model.id, first.dims, first, async () => (await this.ensureLoaded(this.record(r.model.id))) as OnnxEmbedder | StaticEmbedder);
      } catch (e) {
        if (!this.warned.has(`embedder:${key}`)) {
          this.warned.add(`embedder:${key}`);
          this.said.say(`embedder:${key}`, 'warn', `embedding model unavailable, search is keyword-only (BM25): ${(e as Error).message}`);
        }
        entry.failedAt = Date.now();
        return null;
      }
    })();
    this.embedder = entry;
    return entry.promise;
  }

  async getGenerator(modelId?: string): Promise<Generator | null> {
    const id = modelId ?? this.defaultConversationModelId();
    const r = this.resolve(id);
    if (!r) throw notFound(`no model with id ${id}`, 'model');
    if (r.model.id === EXTRACTIVE_MODEL_ID) return null;
    if (this.options.clientLm && isVscodeLmId(r.model.id)) return vscodeLmGenerator(this.options.clientLm, r.model.id);
    if (!usageIsLlm(r.model.usage)) throw invalid(`${r.model.name} is a ${r.model.usage} model, not a conversation model`, 'model');
    const context = r.model.maxTokens?.total ?? 8192;
    const src = r.source;
    if (src?.kind === 'ollama') return new OllamaGenerator(r.model.id, src.name, src.baseUrl ?? DEFAULT_OLLAMA_URL, context);
    if (src?.kind === 'openai') {
      const apiKey = apiKeyLookup(src, r.createdVia ?? 'user', this.options);
      return new OpenAIGenerator(r.model.id, src.model, src.baseUrl, context, apiKey);
    }
    if (!r.folder && src?.kind !== 'local') {
      throw unavailable(`${r.model.name} has no source to run it (a local folder, ollama:<name> or openai:<model>@<url>)`);
    }
    const first = (await this.ensureLoaded(r)) as OnnxGenerator;
    return new ManagedGenerator(r.model.id, first.contextTokens, first, async () => (await this.ensureLoaded(this.record(r.model.id))) as OnnxGenerator);
  }

  /** The name a person knows a model by (for notices), or undefined for an unknown id. */
  modelName(id: string): string | undefined {
    return this.resolve(id)?.model.name;
  }

  defaultConversationModelId(): string {
    const r = this.resolve(this.options.settings?.defaultModel);
    return r && usageIsLlm(r.model.usage) ? r.model.id : EXTRACTIVE_MODEL_ID;
  }

  // ---- operations ------------------------------------------------------------------------

  /** Every model with true `downloaded`/`loaded` facts: catalog, then folders, then custom, oldest first. */
  async snapshot(): Promise<Models> {
    const order = { catalog: 0, folder: 1, custom: 2 } as const;
    const recs = this.registry.all().sort((a, b) => order[a.origin] - order[b.origin] || a.model.created.value.localeCompare(b.model.created.value));
    if (this.options.clientLm) recs.push(...vscodeLmRecords(this.options.clientLm, this.startedAt));
    return { iterable: await Promise.all(recs.map((r) => this.toWire(r))) };
  }

  async get(id: string): Promise<Model> {
    return this.toWire(this.record(id));
  }

  async deleteModel(id: string): Promise<void> {
    const r = this.record(id);
    if (r.origin !== 'custom') {
      const why = r.origin === 'folder'
        ? `it comes from the folder ${r.source?.kind === 'local' ? r.source.path : ''} in ASKCODE_MODELS_DIR; remove the folder instead`
        : 'it is built in; only custom models (created with models/create) can be deleted';
      throw forbidden(`cannot delete ${r.model.name}: ${why}`, 'model');
    }
    await this.downloads.cancel(id);
    await this.unloadOne(id);
    if (r.folder) await this.cache.remove(r.folder);
    await this.registry.mutate((recs) => void recs.delete(id));
    this.changed(id, true);
  }

  async deleteCache(id: string): Promise<ModelDeleteCacheOutput> {
    const r = this.record(id);
    if (id === EXTRACTIVE_MODEL_ID) throw forbidden('the built-in extractive answerer has no weights, so there is no cache to delete', 'model');
    if (!usageIsLlm(r.model.usage)) {
      throw forbidden(`only the weights of LLMs (CODE_CONVERSATION) can be deleted; ${r.model.name} is a ${r.model.usage} model`, 'model');
    }
    // A label without a source never had a cache: deleting it succeeds and deletes nothing.
    if (!r.folder && r.origin === 'custom' && !r.source) return { model: { id } };
    if (!r.folder) throw forbidden(`${r.model.name} has no downloadable weights (it is served by ${r.source?.kind ?? 'nothing local'})`, 'model');
    await this.downloads.cancel(id);
    await this.unloadOne(id);
    await this.cache.remove(r.folder);
    this.changed(id);
    return { model: { id } };
  }

  async load(id: string): Promise<Model> {
    const r = this.record(id);
    if (r.model.id !== EXTRACTIVE_MODEL_ID && (r.folder || r.source?.kind === 'local')) await this.ensureLoaded(r);
    else if (r.model.id !== EXTRACTIVE_MODEL_ID && !r.source && !isVscodeLmId(r.model.id)) throw noSource(r.model.name, 'load');
    return this.toWire(r);
  }

  async unload(id: string): Promise<Model> {
    const r = this.record(id);
    await this.unloadOne(r.model.id);
    freeMemory();
    return this.toWire(r);
  }

  async downloadModel(id: string, signal: AbortSignal): Promise<Model> {
    const r = this.record(id);
    await this.downloads.start(r, signal);
    return this.toWire(r);
  }

  async cancel(id: string): Promise<Model> {
    const r = this.record(id);
    await this.downloads.cancel(r.model.id);
    return this.toWire(r);
  }

  /** `model/update`: a Model sent back whole; see models/update.ts for what may change. */
  async update(input: Model): Promise<Model> {
    const id = input.id;
    const next = await this.registry.mutate((recs) => {
      const rec = recs.get(id);
      if (!rec) throw notFound(`no model with id ${id}`, 'id');
      const updated = applyUpdate(rec, input as Model, [...recs.values()]);
      recs.set(id, updated);
      return updated;
    });
    this.changed(id);
    return this.toWire(next);
  }

  /** `model/scores/increment`: bumps the model's usage counters. */
  async incrementScore(params: { model: string; input?: unknown }): Promise<null> {
    const id = params.model;
    const inc = incrementOf(params.input);
    await this.registry.mutate((recs) => {
      const rec = recs.get(id);
      if (!rec) throw notFound(`no model with id ${id}`, 'model');
      rec.model = { ...rec.model, score: bumpScore(rec.model.score, inc) };
    });
    this.changed(id);
    return null;
  }

  /** Registers a custom model; `p` passed the protocol's SeededModel schema. */
  async createModel(p: CreateModelParams, via: CreatedVia): Promise<Model> {
    const seeded = seededOnly(p);
    const source = p.askcode?.source ? normalizeSource(p.askcode.source) : sourceFromUnique(seeded.unique);
    const field = p.askcode?.source ? 'askcode.source.path' : 'unique';
    checkCreateSecrets(source, via, this.options, p.askcode?.source ? 'askcode.source' : 'unique');
    let facts: FolderFacts | null = null;
    if (source?.kind === 'local') {
      facts = (await inspectFolder(source.path)) ?? (await inspectStaticFolder(source.path));
      if (!facts) throw invalid(`${field}: ${source.path} is not a transformers.js model folder (config.json and onnx/ with an ONNX graph expected)`, field);
    }
    const id = randomUUID();
    const created = new Date(seeded.created.value).toISOString();
    const model: Model = {
      ...seeded,
      id,
      created: { value: created, ...(seeded.created.readable ? { readable: seeded.created.readable } : {}) },
      custom: true,
      ...(facts && !seeded.bytes ? { bytes: bytesOf(facts.bytes) } : {}),
      ...(facts && !seeded.maxTokens && facts.maxPositions ? { maxTokens: { total: facts.maxPositions } } : {}),
    };
    delete model.downloaded;
    const record: ModelRecord = {
      model,
      origin: 'custom',
      ...(via === 'bridge' ? { createdVia: 'bridge' as const } : {}),
      ...(source ? { source } : {}),
      ...(facts ? { folder: `custom--${id}`, dtype: facts.dtype } : {}),
    };
    await this.registry.mutate((recs) => {
      for (const o of recs.values()) {
        if (seeded.unique && o.model.unique === seeded.unique && (o.model.provider ?? 'UNKNOWN') === (seeded.provider ?? 'UNKNOWN')) {
          throw conflict(`a model with provider ${seeded.provider ?? 'UNKNOWN'} and unique '${seeded.unique}' already exists (${o.model.id})`, 'unique');
        }
        if (o.model.name === seeded.name && o.model.version === seeded.version) {
          throw conflict(`a model named '${seeded.name}' version '${seeded.version}' already exists (${o.model.id})`, 'name');
        }
      }
      recs.set(id, record);
    });
    this.changed(id);
    return this.toWire(record);
  }

  async dispose(): Promise<void> {
    for (const id of this.downloads.ids()) await this.downloads.cancel(id);
    await this.unloadAll();
    await this.said.flush();
    this.disposed = true;
  }
}
