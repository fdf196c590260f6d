import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { newInstanceId } from './host-identity.ts';
import type {
  CheckpointEntry,
  Checkpointer,
  ListThreadsOptions,
  ThreadInfo,
  ThreadLog,
  ThreadSnapshot,
} from './types.ts';

interface StoredThread {
  base: string | null;
  baseSeq: number;
  /** Serialized entries; entries[i] has seq baseSeq + i + 1. */
  entries: string[];
  last: ThreadInfo;
}

/**
 * A checkpointer that keeps threads in this process, serialized as JSON so that
 * readers never share objects with writers. For tests, benchmarks and one-off runs.
 */
export class MemoryCheckpointer implements Checkpointer {
  readonly instanceId = newInstanceId();
  #threads = new Map<string, StoredThread>();
  #open = true;

  /** In memory there is no other instance: only this one, while it is open, is alive. */
  async isAlive(instanceId: string): Promise<boolean> {
    return this.#open && instanceId === this.instanceId;
  }

  async append(entry: CheckpointEntry): Promise<void> {
    const thread = this.#threads.get(entry.threadId);
    const expected = thread ? thread.baseSeq + thread.entries.length + 1 : 1;
    if (entry.seq !== expected) {
      throw new CheckpointConflictError({ threadId: entry.threadId, seq: entry.seq });
    }
    const serialized = JSON.stringify(entry);
    const last: ThreadInfo = {
      threadId: entry.threadId,
      lastSeq: entry.seq,
      status: entry.status,
      runId: entry.runId,
      updatedAt: entry.createdAt,
    };
    if (thread) {
      thread.entries.push(serialized);
      thread.last = last;
    } else {
      this.#threads.set(entry.threadId, { base: null, baseSeq: 0, entries: [serialized], last });
    }
  }

  async read(threadId: string, afterSeq = 0): Promise<ThreadLog> {
    const thread = this.#threads.get(threadId);
    if (!thread) return { base: null, entries: [] };
    const base =
      thread.base !== null && thread.baseSeq > afterSeq
        ? (JSON.parse(thread.base) as ThreadSnapshot)
        : null;
    const from = Math.max(0, afterSeq - thread.baseSeq);
    const entries = thread.entries.slice(from).map((text) => JSON.parse(text) as CheckpointEntry);
    return { base, entries };
  }

  async compact(threadId: string, snapshot: ThreadSnapshot): Promise<void> {
    const thread = this.#threads.get(threadId);
    const lastSeq = thread ? thread.baseSeq + thread.entries.length : 0;
    if (thread && snapshot.seq <= thread.baseSeq) return;
    if (!thread || snapshot.seq >= lastSeq) {
      throw new RangeError(
        `Cannot compact thread "${threadId}" up to step ${snapshot.seq}: its last step is ${lastSeq} and must stay`,
      );
    }
    thread.entries = thread.entries.slice(snapshot.seq - thread.baseSeq);
    thread.base = JSON.stringify(snapshot);
    thread.baseSeq = snapshot.seq;
  }

  async truncate(threadId: string, fromSeq: number): Promise<boolean> {
    const thread = this.#threads.get(threadId);
    const lastSeq = thread ? thread.baseSeq + thread.entries.length : 0;
    if (!thread || fromSeq <= thread.baseSeq || fromSeq > lastSeq) return false;
    thread.entries = thread.entries.slice(0, fromSeq - thread.baseSeq - 1);
    const last = thread.entries.at(-1);
    if (last === undefined) {
      // Nothing left but (maybe) the base: a thread without entries reads as unknown.
      if (thread.base === null) this.#threads.delete(threadId);
      else thread.last = { ...thread.last, lastSeq: thread.baseSeq };
      return true;
    }
    const entry = JSON.parse(last) as CheckpointEntry;
    thread.last = {
      threadId,
      lastSeq: entry.seq,
      status: entry.status,
      runId: entry.runId,
      updatedAt: entry.createdAt,
    };
    return true;
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadInfo[]> {
    const infos: ThreadInfo[] = [];
    for (const [threadId, thread] of this.#threads) {
      if (options.prefix !== undefined && !threadId.startsWith(options.prefix)) continue;
      if (options.status === undefined || thread.last.status === options.status) {
        infos.push({ ...thread.last });
      }
    }
    return infos.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async close(): Promise<void> {
    this.#open = false;
    this.#threads.clear();
  }
}
