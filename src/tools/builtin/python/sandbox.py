# The Python half of Yeoul's python_repl sandbox, run once when a worker's interpreter
# starts (see python-worker.ts). It blocks the modules that reach JavaScript or the
# network, records the interpreter's state as a baseline, and defines `run`: one call,
# one fresh namespace, capped output, and the baseline restored before and after, so a
# call cannot leave variables, imports or patched modules behind for the next one.
import asyncio
import builtins
import errno
import gc
import json
import os
import signal
import socket
import sys
import traceback
import types
import warnings

from pyodide.code import eval_code

USER_FILENAME = "<python>"
BLOCKED_ROOTS = frozenset({"js", "pyodide_js", "ctypes", "_ctypes", "micropip"})
BLOCKED_NAMES = frozenset({"pyodide.http", "pyodide._nodesock_transport", "pyodide.ffi.wrappers"})


def is_blocked(name):
    root = name.partition(".")[0]
    return root in BLOCKED_ROOTS or any(name == n or name.startswith(n + ".") for n in BLOCKED_NAMES)


class SandboxImportBlocker:
    """A meta path finder that refuses the modules that would reach JavaScript or the network."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if is_blocked(name):
            raise ModuleNotFoundError(
                f"module {name!r} is not available here (no network, no JavaScript, "
                "standard library only)",
                name=name,
            )
        return None


def refuse_network(*args, **kwargs):
    raise OSError(errno.ENETUNREACH, "network access is disabled in this Python sandbox")


class CappedWriter:
    """A text stream that keeps the first `limit` characters and only counts the rest."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, limit):
        self._parts = []
        self._kept = 0
        self._cut = 0
        self._limit = limit

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        size = len(text)
        if self._kept >= self._limit:  # the common case of a flood: count and return
            self._cut += size
            return size
        piece = text[: self._limit - self._kept]
        self._parts.append(piece)
        self._kept += len(piece)
        self._cut += size - len(piece)
        return size

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    def captured(self):
        return {"text": "".join(self._parts), "cut": self._cut}


def capped(text, limit):
    return {"text": text[:limit], "cut": max(0, len(text) - limit)}


def describe(error, code):
    kind = type(error)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    lines = code.splitlines()
    frames = []
    if isinstance(error, SyntaxError) and error.filename == USER_FILENAME and error.lineno:
        source = (error.text or "").strip()
        frames.append(f"line {error.lineno}: {source}" if source else f"line {error.lineno}")
        message = error.msg
    else:
        message = str(error)
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename != USER_FILENAME or not frame.lineno:
                continue
            source = lines[frame.lineno - 1].strip() if 0 < frame.lineno <= len(lines) else ""
            where = "" if frame.name == "<module>" else f", in {frame.name}"
            frames.append(f"line {frame.lineno}{where}: {source}")
    if isinstance(error, MemoryError) and not message:
        message = "the code needed more memory than this sandbox allows"
    return {"type": name, "message": message[:2000], "frames": frames[-3:]}


def exit_is_clean(error):
    return error.code is None or error.code == 0


def refuse_asyncio(*args, **kwargs):
    for argument in args:
        if asyncio.iscoroutine(argument):
            argument.close()
    raise RuntimeError("asyncio event loops are not available in this sandbox; write synchronous code")


def file_system():
    """Every path of the in-memory file system but /proc and /dev: (mode, size, mtime) of files."""
    entries = {}
    for root, directories, files in os.walk("/"):
        directories[:] = [d for d in directories if os.path.join(root, d) not in ("/proc", "/dev")]
        for name in directories:
            entries[os.path.join(root, name)] = None
        for name in files:
            path = os.path.join(root, name)
            status = os.lstat(path)
            entries[path] = (status.st_mode, status.st_size, status.st_mtime_ns)
    return entries


def restore_files():
    """Deletes what a call created; True when that failed or it changed files that were there before."""
    current = file_system()
    tainted = False
    for path in sorted(set(current) - set(baseline_files), key=len, reverse=True):
        try:
            if current[path] is None and not os.path.islink(path):
                os.rmdir(path)
            else:
                os.remove(path)
        except OSError:
            tainted = True
    os.chdir(baseline_directory)
    os.umask(baseline_umask)
    return tainted or any(current.get(path, restore) != entry for path, entry in baseline_files.items())


def free_monitoring_tools():
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return
    for tool in range(6):
        if tool not in baseline_monitoring_tools and monitoring.get_tool(tool) is not None:
            monitoring.clear_tool_id(tool)
            monitoring.free_tool_id(tool)


asyncio.run = refuse_asyncio
asyncio.Runner = refuse_asyncio
# Network: refused here with a clear message; the worker also disables the sockets underneath.
socket.socket.__init__ = refuse_network
socket.create_connection = refuse_network
socket.create_server = refuse_network
socket.socketpair = refuse_network

for name in [name for name in sys.modules if is_blocked(name)]:
    del sys.modules[name]
sys.meta_path.insert(0, SandboxImportBlocker)
# Hooks that would outlive a call and watch later ones: take them away.
for hook in ("addaudithook", "remote_exec"):
    if hasattr(sys, hook):
        delattr(sys, hook)

gc.collect()
baseline_modules = dict(sys.modules)
baseline_dicts = {
    name: dict(module.__dict__)
    for name, module in baseline_modules.items()
    if isinstance(module, types.ModuleType)
}
baseline_lists = {name: list(getattr(sys, name)) for name in ("meta_path", "path", "path_hooks")}
baseline_warning_filters = list(warnings.filters)
baseline_recursion_limit = sys.getrecursionlimit()
baseline_int_digits = sys.get_int_max_str_digits()
baseline_umask = os.umask(0o022)
os.umask(baseline_umask)
baseline_monitoring_tools = {
    tool for tool in range(6) if getattr(sys, "monitoring", None) and sys.monitoring.get_tool(tool)
}
baseline_environment = dict(os.environ)
baseline_directory = os.getcwd()
baseline_files = file_system()


def restore():
    """Puts the interpreter back as it was when the sandbox started; True if files were changed."""
    sys.settrace(None)
    sys.setprofile(None)
    for name, saved in baseline_lists.items():
        getattr(sys, name)[:] = saved
    sys.path_importer_cache.clear()
    for name in [name for name in sys.modules if name not in baseline_modules]:
        del sys.modules[name]
    sys.modules.update(baseline_modules)
    for name, saved in baseline_dicts.items():
        current = baseline_modules[name].__dict__
        for key in [key for key in current if key not in saved]:
            del current[key]
        for key, value in saved.items():
            if current.get(key, restore) is not value:
                current[key] = value
    warnings.filters[:] = baseline_warning_filters
    sys.setrecursionlimit(baseline_recursion_limit)
    sys.set_int_max_str_digits(baseline_int_digits)
    free_monitoring_tools()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    gc.callbacks.clear()
    gc.enable()
    if os.environ != baseline_environment:
        os.environ.clear()
        os.environ.update(baseline_environment)
    return restore_files()


def run(code, limit):
    """Runs `code` in a fresh `__main__` namespace; returns the outcome as JSON text.

    `tainted` in the outcome means the call changed files the interpreter depends on
    (the standard library's zip, say): its worker is then replaced.
    """
    tainted = restore()
    stdout, stderr = CappedWriter(limit), CappedWriter(limit)
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__doc__": None}
    outcome = {"interrupted": False}
    sys.stdout, sys.stderr = stdout, stderr
    try:
        value = eval_code(code, namespace, return_mode="last_expr", filename=USER_FILENAME)
        if value is not None:
            outcome["result"] = capped(repr(value), limit)
    except KeyboardInterrupt:
        outcome["interrupted"] = True
    except SystemExit as error:
        if not exit_is_clean(error):
            outcome["failure"] = {"type": "SystemExit", "message": str(error.code), "frames": []}
    except BaseException as error:  # noqa: BLE001 - every user error is reported, none escapes
        outcome["failure"] = describe(error, code)
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    outcome["stdout"] = stdout.captured()
    outcome["stderr"] = stderr.captured()
    outcome["tainted"] = restore_files() or tainted
    return json.dumps(outcome)


def clean_up():
    """After a call: the baseline back, and the call's objects freed."""
    restore()
    gc.collect()
