/** A push-to-pull bridge: a producer pushes items, one consumer reads them as an async iterator. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((e: Error) => void) | undefined;
  private ended = false;
  private error: Error | undefined;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.failWaiting = undefined;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.failWaiting = undefined;
      w({ value: undefined, done: true });
    }
  }

  fail(e: Error): void {
    if (this.ended) return;
    this.error = e;
    this.ended = true;
    if (this.failWaiting) {
      const f = this.failWaiting;
      this.waiting = this.failWaiting = undefined;
      f(e);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.error) return Promise.reject(this.error);
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
    };
  }
}
