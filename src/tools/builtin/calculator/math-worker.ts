import { Worker } from 'node:worker_threads';
import { siblingModule, withCompileCache } from '../../../core/index.ts';
import type { MathRequest } from './math-worker-thread.ts';
import type { CalculationOutcome } from './restricted-math.ts';

/** Limits of the calculator's worker thread. */
export interface MathWorkerOptions {
  /** Longest one evaluation may run before the thread is stopped (default 2 000 ms). */
  evaluationTimeoutMs?: number;
  /** Heap of the thread in MiB, at least 4; more stops the thread (default 256). */
  memoryLimitMb?: number;
  /** The thread ends after this long without work (default 60 000 ms). */
  idleTimeoutMs?: number;
}

interface Job {
  expression: string;
  settled: boolean;
  settle: (outcome: CalculationOutcome) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
}

const entry = siblingModule(import.meta.url, 'math-worker-thread');

/** The smallest heap a thread can start with (with 2 MiB V8 aborts the process). */
const minMemoryLimitMb = 4;

/** Most expressions handed to the thread in one message. */
const maxBatch = 64;
/**
 * A cancelled calculation that has run this long is stopped with its thread; a younger one
 * is left to finish (its answer dropped): restarting the thread costs everyone ~0.2 s.
 */
const stopCancelledAfterMs = 100;

/**
 * Evaluates expressions in a worker thread, so a runaway calculation (exponential
 * recursion, a huge matrix) is stopped by terminating the thread instead of blocking the
 * server. Waiting expressions go to the thread together in one message and come back one
 * answer each, in order: a message round trip costs ~0.4 ms, an evaluation ~0.03 ms.
 * The expression being evaluated is always the oldest unanswered one, so a runaway one is
 * failed alone and the rest of its batch is sent again to a new thread. The thread starts
 * on first use (~0.2 s, loading mathjs), is reused, and ends when idle.
 */
export class MathWorker {
  #evaluationTimeoutMs: number;
  #memoryLimitMb: number;
  #idleTimeoutMs: number;
  #thread: Thread | undefined;
  #queue: Job[] = [];
  /** Sent to the thread, not answered yet; the first one is being evaluated. */
  #sent: Job[] = [];
  #deadline: NodeJS.Timeout | undefined;
  /** When the expression now being evaluated started. */
  #currentSince = 0;
  #threadStarts = 0;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: MathWorkerOptions = {}) {
    this.#evaluationTimeoutMs = options.evaluationTimeoutMs ?? 2_000;
    this.#memoryLimitMb = options.memoryLimitMb ?? 256;
    // Below this V8 cannot even set the thread's heap up, and ends the whole process.
    if (!(this.#memoryLimitMb >= minMemoryLimitMb)) {
      throw new RangeError(
        `the calculator's memory limit must be at least ${minMemoryLimitMb} MiB (got ${options.memoryLimitMb})`,
      );
    }
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /** Threads started so far (a restart after a stop counts again). */
  get threadStarts(): number {
    return this.#threadStarts;
  }

  /** Evaluates `expression`; failures, stops and cancellation come back as outcomes. */
  evaluate(expression: string, signal?: AbortSignal): Promise<CalculationOutcome> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve({ ok: false, problem: 'the calculation was cancelled' });
      const onAbort = () => this.#cancel(job);
      const job: Job = {
        expression,
        settled: false,
        settle: (outcome) => {
          if (job.settled) return;
          job.settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Stops the thread; waiting evaluations fail. */
  async close(): Promise<void> {
    const jobs = [...this.#sent, ...this.#queue];
    this.#queue = [];
    this.#sent = [];
    await this.#stopThread();
    for (const job of jobs) job.settle({ ok: false, problem: 'the calculator was shut down' });
  }

  #pump(): void {
    if (this.#sent.length > 0) return;
    const thread = this.#thread;
    if (this.#queue.length === 0) {
      if (thread !== undefined) this.#goIdle(thread);
      return;
    }
    if (thread === undefined) {
      this.#startThread();
      return;
    }
    if (!thread.ready) return;
    this.#sent = this.#queue.splice(0, maxBatch);
    clearTimeout(this.#idleTimer);
    thread.worker.ref();
    this.#armDeadline();
    const request: MathRequest = { expressions: this.#sent.map((job) => job.expression) };
    thread.worker.postMessage(request);
  }

  /** The time limit of the expression now being evaluated (the oldest unanswered). */
  #armDeadline(): void {
    this.#currentSince = performance.now();
    clearTimeout(this.#deadline);
    this.#deadline = setTimeout(() => {
      this.#abandonCurrent(
        `the calculation took longer than ${this.#evaluationTimeoutMs / 1000} s and was stopped; simplify the expression`,
      );
    }, this.#evaluationTimeoutMs);
  }

  #startThread(): void {
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: this.#memoryLimitMb },
      env: withCompileCache(),
    });
    const thread: Thread = { worker, ready: false };
    this.#thread = thread;
    this.#threadStarts += 1;
    worker.on('message', (message: CalculationOutcome | 'ready') => {
      if (message === 'ready') {
        thread.ready = true;
        this.#pump();
        return;
      }
      if (this.#thread !== thread) return;
      this.#sent.shift()?.settle(message);
      if (this.#sent.length > 0) {
        this.#armDeadline();
        return;
      }
      clearTimeout(this.#deadline);
      this.#pump();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      this.#threadFailed(
        thread,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the calculation needed more than ${this.#memoryLimitMb} MiB of memory and was stopped`
          : `the calculator failed: ${error.message}`,
      );
    });
    worker.on('exit', () => this.#threadFailed(thread, 'the calculator stopped unexpectedly'));
  }

  /**
   * A thread died by itself: the expression it was on fails, the rest of its batch is sent
   * again (or, if it never started, every waiting expression fails).
   */
  #threadFailed(thread: Thread, problem: string): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    clearTimeout(this.#deadline);
    clearTimeout(this.#idleTimer);
    if (!thread.ready) {
      for (const job of this.#queue.splice(0)) job.settle({ ok: false, problem });
    }
    this.#failCurrent(problem);
    this.#pump();
  }

  /** Stops the thread under the current expression (a runaway, or a cancelled one) and moves on. */
  #abandonCurrent(problem: string): void {
    void this.#stopThread();
    this.#failCurrent(problem);
    this.#pump();
  }

  /** Fails the expression being evaluated; the unanswered rest of its batch waits again. */
  #failCurrent(problem: string): void {
    const [current, ...rest] = this.#sent;
    this.#sent = [];
    this.#queue.unshift(...rest.filter((job) => !job.settled));
    current?.settle({ ok: false, problem });
  }

  #cancel(job: Job): void {
    const problem = 'the calculation was cancelled';
    if (this.#sent[0] === job && performance.now() - this.#currentSince >= stopCancelledAfterMs) {
      this.#abandonCurrent(problem);
      return;
    }
    // Waiting, just started, or later in the batch the thread is on: settled now, and its
    // answer, when it comes, is dropped (the time limit still stops a runaway).
    const index = this.#queue.indexOf(job);
    if (index !== -1) this.#queue.splice(index, 1);
    job.settle({ ok: false, problem });
  }

  #goIdle(thread: Thread): void {
    thread.worker.unref();
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.#stopThread(), this.#idleTimeoutMs);
    this.#idleTimer.unref();
  }

  async #stopThread(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    clearTimeout(this.#deadline);
    clearTimeout(this.#idleTimer);
    if (thread !== undefined) await thread.worker.terminate();
  }
}
