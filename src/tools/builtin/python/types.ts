/** Limits of the Python sandbox; every field has a default. */
export interface PythonSandboxOptions {
  /** Longest one call may run before Python is interrupted (default 10 000 ms). */
  timeoutMs?: number;
  /** Size the WebAssembly heap of one interpreter may grow to, in MiB (default 256). */
  memoryLimitMb?: number;
  /** Characters kept of stdout, of stderr and of the result each; the rest is counted, not kept (default 10 000). */
  maxOutputChars?: number;
  /** Interpreters that may run at once; later calls wait in a queue (default 2). */
  maxWorkers?: number;
  /** An interpreter is replaced by a fresh one after this many calls (default 50). */
  maxCallsPerWorker?: number;
  /** An idle interpreter is stopped after this long (default 300 000 ms). */
  idleTimeoutMs?: number;
  /** After an interrupt, how long Python gets to stop before its thread is terminated (default 500 ms). */
  interruptGraceMs?: number;
  /**
   * A private folder (Yeoul's data folder, never a shared temporary one) where the freshly
   * loaded interpreter's memory snapshot (about 30 MB, one file per Pyodide version) is kept
   * between runs, so that the first call of a later process starts in a few hundred ms
   * instead of seconds. Without it each process makes its snapshot in memory only.
   */
  cacheDir?: string;
}

/** What the host thread gives a Python worker thread when it starts it. */
export interface PythonWorkerData {
  /** Absolute path of the pyodide package folder (with pyodide.asm.wasm and python_stdlib.zip). */
  indexPath: string;
  /** One Int32 shared with the host: writing 2 raises KeyboardInterrupt in Python. */
  interruptBuffer: SharedArrayBuffer;
  memoryLimitMb: number;
  maxOutputChars: number;
  /**
   * A memory snapshot of a freshly loaded interpreter (a copy per thread): loading from it
   * takes a few hundred ms instead of seconds. Without one, the thread makes one and sends it.
   */
  snapshot?: Uint8Array;
}

/** A request from the host thread: run `code` in a fresh namespace. */
export interface PythonRunRequest {
  id: number;
  code: string;
}

/** Text the code wrote to one stream: the kept part and how many characters were dropped. */
export interface CapturedText {
  text: string;
  cut: number;
}

/** A Python exception, described for a person: type, message and the user-code frames. */
export interface PythonFailure {
  /** `ZeroDivisionError`, `json.decoder.JSONDecodeError`, … */
  type: string;
  message: string;
  /** The last frames from the user's code, e.g. `line 3, in f: return 1 / 0`. */
  frames: string[];
}

/** What one run produced, as the worker reports it. */
export interface PythonRunOutcome {
  stdout: CapturedText;
  stderr: CapturedText;
  /** `repr` of the last expression's value, absent when it was None or there was none. */
  result?: CapturedText;
  /** Present when the code raised. */
  failure?: PythonFailure;
  /** True when the code was stopped by the interrupt (the time limit). */
  interrupted: boolean;
}

/** Messages a Python worker thread sends to the host. */
export type PythonWorkerMessage =
  | { type: 'ready' }
  | { type: 'snapshot'; snapshot: Uint8Array }
  | { type: 'result'; id: number; outcome: PythonRunOutcome; recycle: boolean }
  | { type: 'fatal'; id?: number; message: string };
