/**
 * A push-to-pull bridge: a producer pushes values, a consumer reads them with
 * `for await`. Unbounded (producers here push small events); `close` ends the
 * iteration, `fail` makes it throw, and `onCancel` runs when the consumer stops early.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  #buffer: T[] = [];
  #waiting: Array<{
    resolve: (result: IteratorResult<T>) => void;
    reject: (error: unknown) => void;
  }> = [];
  #done = false;
  #error: unknown = undefined;
  #hasError = false;
  #onCancel: (() => void) | undefined;

  constructor(onCancel?: () => void) {
    this.#onCancel = onCancel;
  }

  /** Adds a value; ignored once the queue is closed. */
  push(value: T): void {
    if (this.#done) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve({ value, done: false });
    else this.#buffer.push(value);
  }

  /** Ends the iteration after the buffered values. */
  close(): void {
    if (this.#done) return;
    this.#done = true;
    for (const waiter of this.#waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  /** Ends the iteration with an error, thrown after the buffered values. */
  fail(error: unknown): void {
    if (this.#done) return;
    this.#hasError = true;
    this.#error = error;
    this.#done = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#buffer.length > 0) {
      return Promise.resolve({ value: this.#buffer.shift() as T, done: false });
    }
    if (this.#done) {
      if (this.#hasError) {
        this.#hasError = false;
        return Promise.reject(this.#error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#done) {
      this.#done = true;
      this.#buffer.length = 0;
      this.#onCancel?.();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
