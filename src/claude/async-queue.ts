/**
 * A single-consumer async queue. Used for the streaming input the query reads (it stays open for
 * the life of the session) and for each run's output.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((result: IteratorResult<T, undefined>) => void) | undefined;
  private ended = false;

  constructor(private readonly onReturn: () => void = () => undefined) {}

  get isEnded(): boolean {
    return this.ended;
  }

  push(item: T): boolean {
    if (this.ended) return false;
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.items.push(item);
    }
    return true;
  }

  /** Items already pushed are still delivered; then the iterator is done. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.items.length === 0 && this.waiter !== undefined) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        // The consumer walked away: tell the owner, drop what is left.
        const wasEnded = this.ended;
        this.items.length = 0;
        this.end();
        if (!wasEnded) this.onReturn();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
