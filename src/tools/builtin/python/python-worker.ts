import { readFileSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { siblingModule } from '../../../core/index.ts';
import type {
  PythonRunOutcome,
  PythonRunRequest,
  PythonWorkerData,
  PythonWorkerMessage,
} from './types.ts';

/** How a call on one worker ended; calls never reject. */
export type PythonCallEnd =
  | { status: 'finished'; outcome: PythonRunOutcome }
  /** Stopped by the time limit or the caller; `outcome` when Python stopped by itself in time. */
  | { status: 'timed-out' | 'cancelled'; outcome?: PythonRunOutcome }
  | { status: 'crashed'; problem: string };

/** The settings one worker thread is started with. */
export interface PythonWorkerSettings {
  memoryLimitMb: number;
  maxOutputChars: number;
  interruptGraceMs: number;
  /** See PythonSandboxOptions.cacheDir. */
  cacheDir?: string | undefined;
}

const entry = siblingModule(import.meta.url, 'python-worker-thread');
const pyodideFolder = `${dirname(fileURLToPath(import.meta.resolve('pyodide')))}/`;
const sigint = 2;
const pyodideVersion = (
  JSON.parse(readFileSync(`${pyodideFolder}package.json`, 'utf8')) as { version: string }
).version;
/** The first interpreter's memory snapshot, shared by every later worker of the process. */
let pristineSnapshot: Uint8Array | undefined;
/** Set once a kept snapshot would not load: this process no longer reads one. */
let keptSnapshotRefused = false;

/** Where a cache folder keeps the snapshot of this Pyodide version. */
export function snapshotFile(cacheDir: string): string {
  return join(cacheDir, `pyodide-${pyodideVersion}.snapshot`);
}

/** The snapshot in memory, else the one a cache folder kept (read once per process). */
function findSnapshot(cacheDir: string | undefined): Uint8Array | undefined {
  if (pristineSnapshot === undefined && cacheDir !== undefined && !keptSnapshotRefused) {
    try {
      pristineSnapshot = readFileSync(snapshotFile(cacheDir));
    } catch {
      // None kept yet: this worker loads from scratch and makes one.
    }
  }
  return pristineSnapshot;
}

/** Keeps a snapshot for later runs: written aside, then renamed, so no reader sees half. */
async function keepSnapshot(cacheDir: string, snapshot: Uint8Array): Promise<void> {
  const file = snapshotFile(cacheDir);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(partial, snapshot);
    await rename(partial, file);
  } catch {
    // A cache: without it the next process loads Python from scratch.
    await rm(partial, { force: true });
  }
}

/**
 * One worker thread with one Pyodide interpreter, running one call at a time. A call past
 * its time limit is interrupted (KeyboardInterrupt through a shared buffer); if Python has
 * not answered `interruptGraceMs` later, the thread is terminated. A terminated, crashed
 * or broken worker is not `usable` again: its owner starts a fresh one.
 */
export class PythonWorker {
  /** Resolves when the interpreter has loaded; rejects when it could not. */
  readonly ready: Promise<void>;
  /** Whether the interpreter starts from a snapshot (one that fails is not used again). */
  readonly fromSnapshot: boolean;
  #worker: Worker;
  #interrupt: Int32Array;
  #settings: PythonWorkerSettings;
  #calls = 0;
  #usable = true;
  #isReady = false;
  #current: ((end: PythonCallEnd) => void) | undefined;
  #onStartMessage: ((message: PythonWorkerMessage) => void) | undefined;

  constructor(settings: PythonWorkerSettings) {
    this.#settings = settings;
    const interruptBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.#interrupt = new Int32Array(interruptBuffer);
    const workerData: PythonWorkerData = {
      indexPath: pyodideFolder,
      interruptBuffer,
      memoryLimitMb: settings.memoryLimitMb,
      maxOutputChars: settings.maxOutputChars,
      snapshot: findSnapshot(settings.cacheDir),
    };
    this.fromSnapshot = workerData.snapshot !== undefined;
    this.#worker = new Worker(entry, {
      workerData,
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
    });
    this.#worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#onStartMessage = (message) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'fatal') reject(message.message);
      };
      this.#worker.once('exit', () => reject('the Python worker stopped while starting'));
    }).then(
      () => {
        this.#isReady = true;
      },
      (problem) => {
        // A snapshot that does not load is dropped: the next worker loads from scratch.
        if (this.fromSnapshot) {
          pristineSnapshot = undefined;
          if (settings.cacheDir !== undefined && !keptSnapshotRefused) {
            keptSnapshotRefused = true;
            rmSync(snapshotFile(settings.cacheDir), { force: true });
          }
        }
        this.#usable = false;
        void this.#worker.terminate();
        throw new Error(String(problem));
      },
    );
    this.ready.catch(() => {});
    this.#worker.on('message', (message: PythonWorkerMessage) => this.#receive(message));
    this.#worker.on('error', (error: Error & { code?: string }) => {
      const problem =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'the Python worker ran out of memory and was restarted'
          : `the Python worker failed: ${error.message}`;
      this.#lose(problem);
    });
    this.#worker.on('exit', () => this.#lose('the Python worker stopped unexpectedly'));
  }

  /** False once the worker was terminated, crashed, or asked to be replaced. */
  get usable(): boolean {
    return this.#usable;
  }

  /** Calls started on this worker. */
  get calls(): number {
    return this.#calls;
  }

  /** True once the interpreter has loaded. */
  get isReady(): boolean {
    return this.#isReady;
  }

  /** Whether this thread keeps the process alive while it is not running a call. */
  holdProcess(hold: boolean): void {
    if (this.#current !== undefined) return;
    if (hold) this.#worker.ref();
    else this.#worker.unref();
  }

  /** True while a call runs. */
  get busy(): boolean {
    return this.#current !== undefined;
  }

  /** Runs `code` (the worker must be ready and idle); stops it after `timeoutMs` or on `signal`. */
  run(code: string, timeoutMs: number, signal?: AbortSignal): Promise<PythonCallEnd> {
    if (this.#current !== undefined || !this.#usable) {
      return Promise.resolve({ status: 'crashed', problem: 'the Python worker is not available' });
    }
    this.#calls += 1;
    const id = this.#calls;
    return new Promise((resolve) => {
      let stopping: 'timed-out' | 'cancelled' | undefined;
      let graceTimer: NodeJS.Timeout | undefined;
      const stop = (reason: 'timed-out' | 'cancelled') => {
        if (stopping !== undefined) return;
        stopping = reason;
        Atomics.store(this.#interrupt, 0, sigint);
        graceTimer = setTimeout(() => {
          this.#lose(undefined);
          finish({ status: reason });
        }, this.#settings.interruptGraceMs);
      };
      const deadline = setTimeout(() => stop('timed-out'), timeoutMs);
      const onAbort = () => stop(stopReason(signal));
      const finish = (end: PythonCallEnd) => {
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        this.#current = undefined;
        this.#worker.unref();
        resolve(end);
      };
      this.#current = (end) => {
        if (end.status === 'finished' && stopping !== undefined) {
          return finish({ status: stopping, outcome: end.outcome });
        }
        finish(end);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#worker.ref();
      // Cleared here, while the thread is idle, so a stop that came too late for the last
      // call cannot hit this one.
      Atomics.store(this.#interrupt, 0, 0);
      const request: PythonRunRequest = { id, code };
      this.#worker.postMessage(request);
      if (signal?.aborted) onAbort();
    });
  }

  /** Stops the thread; a running call ends as crashed. */
  async terminate(): Promise<void> {
    this.#lose('the Python sandbox was shut down');
    await this.#worker.terminate();
  }

  #receive(message: PythonWorkerMessage): void {
    if (message.type === 'snapshot') {
      pristineSnapshot ??= message.snapshot;
      if (this.#settings.cacheDir !== undefined)
        void keepSnapshot(this.#settings.cacheDir, message.snapshot);
    } else if (!this.#isReady) {
      this.#onStartMessage?.(message);
    } else if (message.type === 'fatal') {
      this.#lose(`Python crashed and was restarted: ${message.message}`);
    } else if (message.type === 'result') {
      if (message.recycle) this.#retire();
      this.#current?.({ status: 'finished', outcome: message.outcome });
    }
  }

  /** No more calls after this one; the thread is stopped once it is idle. */
  #retire(): void {
    this.#usable = false;
    setImmediate(() => void this.#worker.terminate());
  }

  /** The thread is gone (or is being killed): fail the call under way, if any. */
  #lose(problem: string | undefined): void {
    this.#usable = false;
    void this.#worker.terminate();
    const current = this.#current;
    this.#current = undefined;
    if (problem !== undefined) current?.({ status: 'crashed', problem });
  }
}

/** Why an aborted signal stopped a call: its own timeout (AbortSignal.timeout) or a cancel. */
export function stopReason(signal: AbortSignal | undefined): 'timed-out' | 'cancelled' {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name === 'TimeoutError' ? 'timed-out' : 'cancelled';
}
