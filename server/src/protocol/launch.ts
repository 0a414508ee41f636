/**
 * How the worker process is started (the extension and the benchmarks start it the same way).
 *
 * glibc keeps memory that onnxruntime frees in per-thread arenas, so after `models/unload` the
 * worker's RSS barely fell. Two arenas and low trim / mmap thresholds let it go back to the system:
 * measured in-process over three load/unload cycles, RSS after unload stayed near 148 MB against
 * 156 → 221 MB without them (`askcode bench models --plain-malloc` compares). These variables only
 * take effect when a process starts, hence here rather than in the worker.
 */
export const WORKER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};
