// The entry point of a python_repl worker thread (see python-worker.ts). It walls
// the thread off (harden-worker.ts), loads Pyodide from the installed npm package (never a
// CDN), runs sandbox.py once, says it is ready, then runs one piece of code per message.
import { readFileSync } from 'node:fs';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { hardenAfterLoad, hardenBeforeLoad } from './harden-worker.ts';
import type {
  PythonRunOutcome,
  PythonRunRequest,
  PythonWorkerData,
  PythonWorkerMessage,
} from './types.ts';

/** The two functions sandbox.py defines, as PyProxies. */
interface Sandbox {
  run: (code: string, limit: number) => string;
  cleanUp: () => void;
}

const port = parentPort;
if (port !== null) {
  start(port, workerData as PythonWorkerData).catch((error: unknown) => {
    send(port, { type: 'fatal', message: `Python could not start: ${describe(error)}` });
  });
}

async function start(port: MessagePort, data: PythonWorkerData): Promise<void> {
  // Pyodide reports its fatal errors on the console, which would land on the host's stderr;
  // the host learns of them as messages instead. (Piping the thread's stdio elsewhere
  // would keep the host process alive.)
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    console[method] = () => {};
  }
  hardenBeforeLoad(data.memoryLimitMb);
  const snapshotting = data.snapshot === undefined;
  const pyodide = await loadPyodide({
    indexURL: data.indexPath,
    // The `js` module is this empty object: Python sees no JavaScript globals.
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide', LANG: 'C.UTF-8' },
    args: [],
    // No input() (end of file); writes that bypass sys.stdout (os.write(1, …)) are dropped.
    stdin: () => null,
    stdout: () => {},
    stderr: () => {},
    // Without stack switching no JavaScript runs in the middle of a call.
    enableRunUntilComplete: false,
    // Pyodide's (underscored) memory snapshots: the pristine interpreter, before any code.
    ...(snapshotting ? { _makeSnapshot: true } : { _loadSnapshot: data.snapshot }),
  });
  if (snapshotting) {
    const snapshot = pyodide.makeMemorySnapshot();
    const transfer = [snapshot.buffer as ArrayBuffer];
    port.postMessage({ type: 'snapshot', snapshot } satisfies PythonWorkerMessage, transfer);
  }
  const interrupt = new Int32Array(data.interruptBuffer);
  pyodide.setInterruptBuffer(interrupt);
  const sandbox = loadSandbox(pyodide);
  hardenAfterLoad(pyodide);
  send(port, { type: 'ready' });

  // Taken now: after a fatal error every property of the API throws.
  const PythonError = pyodide.ffi.PythonError;
  let broken = false;
  let current: number | undefined;
  // After a fatal error Pyodide throws from its own callbacks too; the first cause is what
  // the host should hear, and the thread is doomed either way.
  process.on('uncaughtException', (error) => {
    if (broken) return;
    broken = true;
    send(port, { type: 'fatal', id: current, message: describe(error) });
  });
  port.on('message', (request: PythonRunRequest) => {
    if (broken) return send(port, { type: 'fatal', id: request.id, message: 'Python is broken' });
    current = request.id;
    try {
      const { tainted, ...outcome } = JSON.parse(
        sandbox.run(request.code, data.maxOutputChars),
      ) as PythonRunOutcome & { tainted: boolean };
      current = undefined;
      send(port, { type: 'result', id: request.id, outcome, recycle: tainted });
    } catch (error) {
      if (!(error instanceof PythonError)) {
        // A Pyodide fatal error (an escape attempt hit a removed global, the wasm heap
        // ran out in C code): this interpreter cannot be used again.
        broken = true;
        current = undefined;
        send(port, { type: 'fatal', id: request.id, message: describe(error) });
        return;
      }
      // The interrupt (or a MemoryError) hit sandbox.py itself, outside the user's code:
      // the interpreter's state is unknown, so this thread answers and is replaced.
      const interrupted = error.type === 'KeyboardInterrupt';
      const empty = { text: '', cut: 0 };
      const outcome: PythonRunOutcome = { stdout: empty, stderr: empty, interrupted };
      if (!interrupted) outcome.failure = { type: error.type, message: '', frames: [] };
      current = undefined;
      send(port, { type: 'result', id: request.id, outcome, recycle: true });
      return;
    }
    current = undefined;
    // Freeing the call's objects (a full collection, tens of ms) happens after the answer;
    // if it fails, `run` restores the baseline again before the next call anyway.
    try {
      sandbox.cleanUp();
    } catch {}
  });
}

/** Runs sandbox.py in a namespace of its own (not importable) and returns its functions. */
function loadSandbox(pyodide: PyodideAPI): Sandbox {
  const source = readFileSync(new URL('./sandbox.py', import.meta.url), 'utf8');
  const namespace = pyodide.globals.get('dict')();
  pyodide.runPython(source, { globals: namespace, filename: 'sandbox.py' });
  const sandbox: Sandbox = { run: namespace.get('run'), cleanUp: namespace.get('clean_up') };
  namespace.destroy();
  return sandbox;
}

function send(port: MessagePort, message: PythonWorkerMessage): void {
  port.postMessage(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
