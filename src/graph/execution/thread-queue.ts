const settle = () => undefined;

/**
 * Runs tasks one at a time per key, in the order they were handed in; tasks under
 * different keys run concurrently. A failed task does not stop the ones behind it.
 */
export class ThreadQueue {
  #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task for `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const result = previous === undefined ? task() : previous.then(task);
    const tail = result.then(settle, settle);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** How many keys have work queued or running. */
  get activeKeys(): number {
    return this.#tails.size;
  }
}

const queues = new WeakMap<object, ThreadQueue>();

/**
 * The queue shared by every graph that stores threads in `owner` (a checkpointer), so
 * that two graphs working on one thread in this process also take turns.
 */
export function threadQueueFor(owner: object): ThreadQueue {
  let queue = queues.get(owner);
  if (queue === undefined) {
    queue = new ThreadQueue();
    queues.set(owner, queue);
  }
  return queue;
}
