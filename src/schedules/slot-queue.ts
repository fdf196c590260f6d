/** One schedule's next slot in the queue; `version` tells a stale item from the current one. */
export interface QueuedSlot {
  at: number;
  id: string;
  version: number;
}

/**
 * The runner's one sorted queue of next slots (a binary min-heap on `at`): the earliest is
 * read at once, and a schedule's slot moves in O(log n) however many schedules there are, so
 * one timer serves them all. Items are never removed from the middle: a newer version of a
 * schedule's slot makes the older one stale, and the reader skips it.
 */
export class SlotQueue {
  #items: QueuedSlot[] = [];

  /** How many items are queued (stale ones included). */
  get size(): number {
    return this.#items.length;
  }

  /** The earliest item, left in the queue. */
  peek(): QueuedSlot | undefined {
    return this.#items[0];
  }

  push(item: QueuedSlot): void {
    const items = this.#items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if ((items[parent] as QueuedSlot).at <= item.at) break;
      items[index] = items[parent] as QueuedSlot;
      index = parent;
    }
    items[index] = item;
  }

  /** Takes the earliest item out. */
  pop(): QueuedSlot | undefined {
    const items = this.#items;
    const first = items[0];
    const last = items.pop();
    if (first === undefined || last === undefined || items.length === 0) return first;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as QueuedSlot).at < (items[left] as QueuedSlot).at
          ? right
          : left;
      if ((items[child] as QueuedSlot).at >= last.at) break;
      items[index] = items[child] as QueuedSlot;
      index = child;
    }
    items[index] = last;
    return first;
  }

  /** Drops every item. */
  clear(): void {
    this.#items = [];
  }
}
