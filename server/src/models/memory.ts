import * as v8 from 'node:v8';
import * as vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Runs a full garbage collection after models are unloaded. ONNX sessions hold native memory
 * that is released when `release()` runs, but the JS tensors and tokenizer tables that pointed
 * into it linger until a major GC; without one the worker's RSS stays high for minutes.
 */
export function freeMemory(): void {
  if (!gc) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (g) gc = g;
    else {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    }
  }
  gc();
}
