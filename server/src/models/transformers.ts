/**
 * The one place that imports @huggingface/transformers (lazily: it pulls in onnxruntime, which
 * costs ~80 MB and a second of start-up that a worker answering `models/snapshot` never needs).
 */
type TransformersModule = typeof import('@huggingface/transformers');

let loaded: Promise<TransformersModule> | undefined;

/**
 * Remote loading is always off: weights reach the cache only through `model/download`, whose
 * progress and cancel askcode controls. Models are loaded by absolute folder path, which
 * transformers.js reads as a local path, so `localModelPath` only matters for bare names.
 */
export function transformers(cacheRoot?: string): Promise<TransformersModule> {
  loaded ??= import('@huggingface/transformers').then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.useFSCache = false;
    t.env.useBrowserCache = false;
    if (cacheRoot) t.env.localModelPath = cacheRoot;
    // transformers.js logs every missing optional file at warning level; askcode reports its own errors.
    t.env.logLevel = t.LogLevel.ERROR;
    return t;
  });
  return loaded;
}

/** Serialises model loads: two sessions created at once on a 2-core machine only slow each other. */
let loadQueue: Promise<unknown> = Promise.resolve();
export function serialLoad<T>(fn: () => Promise<T>): Promise<T> {
  const next = loadQueue.then(fn, fn);
  loadQueue = next.catch(() => {});
  return next;
}
