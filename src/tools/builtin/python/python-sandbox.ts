import {
  type PythonCallEnd,
  PythonWorker,
  type PythonWorkerSettings,
  stopReason,
} from './python-worker.ts';
import type { PythonSandboxOptions } from './types.ts';

interface Job {
  code: string;
  signal: AbortSignal | undefined;
  settle: (end: PythonCallEnd) => void;
}

/**
 * A small pool of Pyodide workers behind one queue. Workers start on first use (a few
 * seconds: Pyodide and the standard library load), are reused for later calls (each in a
 * fresh namespace), replaced after `maxCallsPerWorker` calls or when one was stopped or
 * crashed, and stopped when idle. Calls never interleave inside one interpreter; a call's
 * time limit starts when it starts running, not while it waits. Idle workers do not keep
 * the process alive; `close` stops them all.
 * @example
 * const sandbox = new PythonSandbox({ timeoutMs: 5_000 });
 * const end = await sandbox.run('print(6 * 7)');
 * await sandbox.close();
 */
export class PythonSandbox {
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
  readonly maxOutputChars: number;
  #settings: PythonWorkerSettings;
  #maxWorkers: number;
  #maxCallsPerWorker: number;
  #idleTimeoutMs: number;
  #workers = new Set<PythonWorker>();
  #idleTimers = new Map<PythonWorker, NodeJS.Timeout>();
  #queue: Job[] = [];
  #closed = false;

  constructor(options: PythonSandboxOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    // Below about 64 MiB the interpreter cannot even load (its heap starts near 32 MiB).
    this.memoryLimitMb = Math.max(64, options.memoryLimitMb ?? 256);
    this.maxOutputChars = options.maxOutputChars ?? 10_000;
    this.#settings = {
      memoryLimitMb: this.memoryLimitMb,
      maxOutputChars: this.maxOutputChars,
      interruptGraceMs: options.interruptGraceMs ?? 500,
      cacheDir: options.cacheDir,
    };
    this.#maxWorkers = Math.max(1, options.maxWorkers ?? 2);
    this.#maxCallsPerWorker = Math.max(1, options.maxCallsPerWorker ?? 50);
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  }

  /** Runs `code` in a fresh namespace; every failure comes back as a `PythonCallEnd`. */
  run(code: string, signal?: AbortSignal): Promise<PythonCallEnd> {
    return new Promise((resolve) => {
      if (this.#closed)
        return resolve({ status: 'crashed', problem: 'the Python sandbox is closed' });
      const onAbort = () => {
        const index = this.#queue.indexOf(job);
        if (index === -1) return;
        this.#queue.splice(index, 1);
        job.settle({ status: stopReason(signal) });
        this.#pump();
      };
      const job: Job = {
        code,
        signal,
        settle: (end) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(end);
        },
      };
      if (signal?.aborted) return resolve({ status: stopReason(signal) });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Starts one interpreter now, so that the first call does not wait for it. */
  async warmUp(): Promise<void> {
    if (this.#closed) return;
    if (this.#workers.size === 0) this.#start();
    await Promise.any([...this.#workers].map((worker) => worker.ready));
  }

  /** Stops every worker; waiting and running calls end as crashed. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) {
      job.settle({ status: 'crashed', problem: 'the Python sandbox is closed' });
    }
    const workers = [...this.#workers];
    this.#workers.clear();
    for (const timer of this.#idleTimers.values()) clearTimeout(timer);
    this.#idleTimers.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #pump(): void {
    if (this.#closed) return;
    for (const worker of [...this.#workers]) {
      if (!worker.usable && !worker.busy) this.#drop(worker);
    }
    for (const worker of this.#workers) {
      if (this.#queue.length === 0) break;
      if (worker.isReady && !worker.busy) this.#dispatch(worker);
    }
    const starting = [...this.#workers].filter((worker) => !worker.isReady).length;
    if (this.#queue.length > starting && this.#workers.size < this.#maxWorkers) this.#start();
    for (const worker of this.#workers) {
      if (worker.busy) continue;
      // A worker still loading keeps the process alive only while calls wait for it.
      worker.holdProcess(!worker.isReady && this.#queue.length > 0);
      if (worker.isReady) this.#goIdle(worker);
    }
  }

  #dispatch(worker: PythonWorker): void {
    const job = this.#queue.shift() as Job;
    clearTimeout(this.#idleTimers.get(worker));
    this.#idleTimers.delete(worker);
    void worker.run(job.code, this.timeoutMs, job.signal).then((end) => {
      if (!worker.usable || worker.calls >= this.#maxCallsPerWorker) this.#replace(worker);
      job.settle(end);
      this.#pump();
    });
  }

  #start(): void {
    const worker = new PythonWorker(this.#settings);
    this.#workers.add(worker);
    worker.ready.then(
      () => this.#pump(),
      (error: Error) => {
        this.#workers.delete(worker);
        // A snapshot that would not load (a damaged kept file) is dropped: load from scratch.
        if (worker.fromSnapshot && !this.#closed) return this.#start();
        // Without any other worker to wait for, the waiting calls fail now.
        if (this.#workers.size > 0) return this.#pump();
        for (const job of this.#queue.splice(0)) {
          job.settle({ status: 'crashed', problem: `Python could not start: ${error.message}` });
        }
      },
    );
  }

  /** Drops a spent or broken worker and starts its successor at once: another call is likely. */
  #replace(worker: PythonWorker): void {
    this.#drop(worker);
    if (!this.#closed) this.#start();
  }

  #drop(worker: PythonWorker): void {
    this.#workers.delete(worker);
    clearTimeout(this.#idleTimers.get(worker));
    this.#idleTimers.delete(worker);
    void worker.terminate();
  }

  #goIdle(worker: PythonWorker): void {
    if (this.#idleTimers.has(worker)) return;
    const timer = setTimeout(() => this.#drop(worker), this.#idleTimeoutMs);
    timer.unref();
    this.#idleTimers.set(worker, timer);
  }
}
