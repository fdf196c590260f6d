// JavaScript-side walls of a python_repl worker thread. Python in Pyodide can reach
// JavaScript objects (through `js`, `pyodide.ffi.to_js`, even ctypes), so the walls that
// matter are here, in the thread: no network globals, no string-to-code (which would give
// back `require` and `import()`), no host file system, no sockets, a capped wasm heap.
import type { PyodideAPI } from 'pyodide';

const wasmPageBytes = 65_536;

/** Globals that reach the network or hand out modules; Pyodide needs none after it loads. */
const removedGlobals = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'navigator',
  'eval',
  'require',
] as const;

/** The part of WebAssembly.Memory used here (the project's lib settings omit WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface SocketOperations {
  [operation: string]: unknown;
}

/** The Emscripten internals this file touches; Pyodide exposes them untyped. */
interface PyodideInternals {
  _module: {
    SOCKFS: { websocket_sock_ops: SocketOperations };
    FS: { filesystems: Record<string, unknown>; ErrnoError: new (errno: number) => Error };
    ERRNO_CODES: Record<string, number>;
  };
}

/**
 * Before Pyodide loads: drops the network globals and caps how far any wasm memory in the
 * thread may grow, so an allocation bomb ends in Python's MemoryError instead of eating
 * the host's memory (wasm memory is not counted by the worker's `resourceLimits`).
 */
export function hardenBeforeLoad(memoryLimitMb: number): void {
  for (const name of removedGlobals) {
    if (name !== 'eval' && name !== 'require') Reflect.deleteProperty(globalThis, name);
  }
  const limitBytes = memoryLimitMb * 1024 * 1024;
  const memoryPrototype = (
    globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }
  ).WebAssembly.Memory.prototype;
  const grow = memoryPrototype.grow;
  Object.defineProperty(memoryPrototype, 'grow', {
    value: function limitedGrow(this: WasmMemory, pages: number): number {
      if (this.buffer.byteLength + pages * wasmPageBytes > limitBytes) {
        throw new RangeError(`the Python heap may not grow past ${memoryLimitMb} MiB`);
      }
      return grow.call(this, pages);
    },
    writable: false,
    configurable: false,
  });
}

/**
 * After Pyodide loads: unregisters the `js` and `pyodide_js` modules, removes `eval` and
 * `require` (Pyodide puts one on globalThis with `child_process` in it), makes every
 * function constructor throw, takes away NODEFS and turns socket connects into ENETUNREACH.
 */
export function hardenAfterLoad(pyodide: PyodideAPI): void {
  for (const name of removedGlobals) Reflect.deleteProperty(globalThis, name);
  refuseCodeFromStrings();
  Object.defineProperty(Error, 'prepareStackTrace', {
    value: undefined,
    writable: false,
    configurable: false,
  });

  // `import js` and `import pyodide_js` (Pyodide's whole API: FS, mountNodeFS, …) are
  // gone for good, not only hidden by sandbox.py's import blocker, which Python can remove.
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');

  const internals = (pyodide as unknown as PyodideInternals)._module;
  delete internals.FS.filesystems.NODEFS;
  delete internals.FS.filesystems.NODERAWFS;
  Object.defineProperty(pyodide, 'mountNodeFS', { value: refuseHostFiles });

  const unreachable = internals.ERRNO_CODES.ENETUNREACH ?? 40;
  const refuse = () => {
    throw new internals.FS.ErrnoError(unreachable);
  };
  const operations = internals.SOCKFS.websocket_sock_ops;
  for (const operation of ['createPeer', 'connect', 'listen', 'accept', 'sendmsg']) {
    operations[operation] = refuse;
  }
  Object.freeze(operations);
}

/**
 * `fn.constructor` is how code without `eval` turns strings into code (`Function`, and
 * the async and generator variants). Each is replaced on its prototype by a function of
 * the same name that throws, so `constructor.name` checks in Pyodide keep working.
 */
function refuseCodeFromStrings(): void {
  const constructors = [
    Function,
    (async () => {}).constructor,
    function* generator() {}.constructor,
    async function* asyncGenerator() {}.constructor,
  ];
  for (const codeConstructor of constructors) {
    const name = codeConstructor.name;
    const refused = {
      [name]: () => {
        throw new EvalError('code generation from strings is disabled in the Python sandbox');
      },
    }[name];
    Object.defineProperty(codeConstructor.prototype, 'constructor', {
      value: refused,
      writable: false,
      configurable: false,
    });
  }
}

function refuseHostFiles(): never {
  throw new Error('the host file system is not available in the Python sandbox');
}
