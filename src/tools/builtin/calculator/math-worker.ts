import { Worker } from 'node:worker_threads';
import type { MathRequest } from './math-worker-thread.ts';
import type { CalculationOutcome } from './restricted-math.ts';

/** Limits of the calculator's worker thread. */
export interface MathWorkerOptions {
  /** Longest one evaluation may run before the thread is stopped (default 2 000 ms). */
  evaluationTimeoutMs?: number;
  /** Heap of the thread in MiB; more stops the thread (default 256). */
  memoryLimitMb?: number;
  /** The thread ends after this long without work (default 60 000 ms). */
  idleTimeoutMs?: number;
}

interface Job {
  expression: string;
  settle: (outcome: CalculationOutcome) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
}

const entry = new URL('./math-worker-thread.ts', import.meta.url);

/**
 * Evaluates expressions one at a time in a worker thread, so a runaway calculation
 * (exponential recursion, a huge matrix) is stopped by terminating the thread instead of
 * blocking the server. The thread starts on first use (about a second, loading mathjs),
 * is reused, restarted after a stop, and ends when idle.
 */
export class MathWorker {
  #evaluationTimeoutMs: number;
  #memoryLimitMb: number;
  #idleTimeoutMs: number;
  #thread: Thread | undefined;
  #queue: Job[] = [];
  #current: Job | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: MathWorkerOptions = {}) {
    this.#evaluationTimeoutMs = options.evaluationTimeoutMs ?? 2_000;
    this.#memoryLimitMb = options.memoryLimitMb ?? 256;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /** Evaluates `expression`; failures, stops and cancellation come back as outcomes. */
  evaluate(expression: string, signal?: AbortSignal): Promise<CalculationOutcome> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve({ ok: false, problem: 'the calculation was cancelled' });
      const onAbort = () => this.#cancel(job);
      const job: Job = {
        expression,
        settle: (outcome) => {
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
    const jobs = [...this.#queue, ...(this.#current ? [this.#current] : [])];
    this.#queue = [];
    this.#current = undefined;
    await this.#stopThread();
    for (const job of jobs) job.settle({ ok: false, problem: 'the calculator was shut down' });
  }

  #pump(): void {
    if (this.#current !== undefined) return;
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
    const job = this.#queue.shift() as Job;
    clearTimeout(this.#idleTimer);
    thread.worker.ref();
    this.#current = job;
    this.#deadline = setTimeout(() => {
      this.#abandonCurrent(
        `the calculation took longer than ${this.#evaluationTimeoutMs / 1000} s and was stopped; simplify the expression`,
      );
    }, this.#evaluationTimeoutMs);
    const request: MathRequest = { expression: job.expression };
    thread.worker.postMessage(request);
  }

  #startThread(): void {
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: this.#memoryLimitMb },
    });
    const thread: Thread = { worker, ready: false };
    this.#thread = thread;
    worker.on('message', (message: CalculationOutcome | 'ready') => {
      if (message === 'ready') {
        thread.ready = true;
        this.#pump();
        return;
      }
      const job = this.#current;
      clearTimeout(this.#deadline);
      this.#current = undefined;
      job?.settle(message);
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

  /** A thread died by itself: fail its job (or, if it never started, every waiting job). */
  #threadFailed(thread: Thread, problem: string): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    clearTimeout(this.#deadline);
    clearTimeout(this.#idleTimer);
    const failed = thread.ready ? [] : this.#queue.splice(0);
    if (this.#current !== undefined) failed.push(this.#current);
    this.#current = undefined;
    for (const job of failed) job.settle({ ok: false, problem });
    this.#pump();
  }

  /** Stops the thread under the current job (a runaway, or a cancelled one) and moves on. */
  #abandonCurrent(problem: string): void {
    const job = this.#current;
    this.#current = undefined;
    void this.#stopThread();
    job?.settle({ ok: false, problem });
    this.#pump();
  }

  #cancel(job: Job): void {
    const problem = 'the calculation was cancelled';
    if (this.#current === job) {
      this.#abandonCurrent(problem);
      return;
    }
    const index = this.#queue.indexOf(job);
    if (index === -1) return;
    this.#queue.splice(index, 1);
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
