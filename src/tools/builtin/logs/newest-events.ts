import type { LogEvent } from './types.ts';

interface Entry {
  event: LogEvent;
  /** Missing times sort as oldest. */
  timeMs: number;
  /** Arrival order: of two events with the same time, the later one is newer. */
  sequence: number;
}

/**
 * Keeps the newest `limit` of any number of events in a min-heap of at most `limit` entries,
 * so memory stays bounded however many events match.
 * @example
 * const newest = new NewestEvents(20);
 * newest.offer(event, Date.parse(event.timestamp));
 * newest.toArray(); // newest first
 */
export class NewestEvents {
  readonly #limit: number;
  readonly #heap: Entry[] = [];
  #sequence = 0;

  constructor(limit: number) {
    this.#limit = Math.max(0, Math.floor(limit));
  }

  /**
   * Keeps `event` when it is among the newest so far; `prepare` (e.g. shortening long
   * fields) runs only for events that are kept.
   */
  offer(event: LogEvent, timeMs: number | undefined, prepare?: (event: LogEvent) => LogEvent) {
    const entry = { event, timeMs: timeMs ?? Number.NEGATIVE_INFINITY, sequence: this.#sequence };
    this.#sequence += 1;
    if (this.#limit === 0) return;
    const heap = this.#heap;
    if (heap.length === this.#limit) {
      if (!isNewer(entry, heap[0] as Entry)) return;
      if (prepare) entry.event = prepare(event);
      heap[0] = entry;
      this.#siftDown(0);
      return;
    }
    if (prepare) entry.event = prepare(event);
    heap.push(entry);
    this.#siftUp(heap.length - 1);
  }

  /** The kept events, newest first. */
  toArray(): LogEvent[] {
    return [...this.#heap]
      .sort((left, right) => (isNewer(left, right) ? -1 : 1))
      .map((entry) => entry.event);
  }

  #siftUp(index: number): void {
    const heap = this.#heap;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!isNewer(heap[parent] as Entry, heap[child] as Entry)) break;
      [heap[parent], heap[child]] = [heap[child] as Entry, heap[parent] as Entry];
      child = parent;
    }
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let oldest = parent;
      if (left < heap.length && isNewer(heap[oldest] as Entry, heap[left] as Entry)) oldest = left;
      if (right < heap.length && isNewer(heap[oldest] as Entry, heap[right] as Entry)) {
        oldest = right;
      }
      if (oldest === parent) return;
      [heap[parent], heap[oldest]] = [heap[oldest] as Entry, heap[parent] as Entry];
      parent = oldest;
    }
  }
}

function isNewer(left: Entry, right: Entry): boolean {
  if (left.timeMs !== right.timeMs) return left.timeMs > right.timeMs;
  return left.sequence > right.sequence;
}
