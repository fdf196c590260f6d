import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import type { ToolDefinition } from '../types.ts';
import { formatPythonEnd } from './python/format-python-outcome.ts';
import { PythonSandbox } from './python/python-sandbox.ts';
import type { PythonSandboxOptions } from './python/types.ts';

const maxCodeLength = 20_000;

const inputSchema = z.object({
  code: z
    .string()
    .min(1, 'the code is empty')
    .max(maxCodeLength, `code is limited to ${maxCodeLength} characters`)
    .describe('Python source; the value of the last line, if an expression, is returned too'),
});

/** The input of `python_repl`. */
export type PythonReplInput = z.infer<typeof inputSchema>;

/** The `python_repl` tool with the sandbox behind it: `close` stops its worker threads. */
export type PythonReplTool = ToolDefinition<PythonReplInput> & {
  /** Loads an interpreter now, so that the first call does not wait for it (a few seconds). */
  warmUp(): Promise<void>;
  /** Stops every interpreter; later calls fail. */
  close(): Promise<void>;
};

/**
 * A python_repl tool with its own sandbox and these limits. State lives per call: each
 * call gets a fresh namespace (and the interpreter's modules put back as they were), while
 * the interpreter itself is reused, so only the first call pays for loading Pyodide.
 * @example
 * const python = createPythonTool({ timeoutMs: 5_000, memoryLimitMb: 128 });
 * registry.register(python);
 * // on shutdown
 * await python.close();
 */
export function createPythonTool(options: PythonSandboxOptions = {}): PythonReplTool {
  const sandbox = new PythonSandbox(options);
  const limits = {
    timeoutMs: sandbox.timeoutMs,
    memoryLimitMb: sandbox.memoryLimitMb,
    maxOutputChars: sandbox.maxOutputChars,
  };
  const tool = defineTool({
    name: 'python_repl',
    description:
      'Runs Python 3.14 code in a sandbox (Pyodide) and returns what it printed (stdout, stderr) ' +
      'and the value of the last expression. Standard library only (math, statistics, ' +
      'datetime, json, re, itertools, fractions, decimal, collections, …): no pip packages, ' +
      'no numpy, no network, no host files (an empty in-memory file system), no input(), no ' +
      'threads. Every call starts with a fresh namespace: nothing (variables, functions, ' +
      'imports) carries over from an earlier call, so put the whole computation in one call. ' +
      `Limits: ${limits.timeoutMs / 1000} s, ${limits.memoryLimitMb} MiB, ` +
      `${limits.maxOutputChars} characters of output. Errors come back with the exception ` +
      'type, message and line.',
    inputSchema,
    timeoutMs: limits.timeoutMs,
    // The output limit is enforced here; the room above it is for labels and cut notes.
    maxResultChars: limits.maxOutputChars + 300,
    async execute({ code }, { signal }) {
      if (code.length > maxCodeLength) {
        throw new Error(`code is limited to ${maxCodeLength} characters`);
      }
      return formatPythonEnd(await sandbox.run(code, signal), limits);
    },
  });
  return Object.assign(tool, {
    warmUp: () => sandbox.warmUp(),
    close: () => sandbox.close(),
  });
}

/** The `python_repl` tool: Python in Pyodide, in worker threads, with hard limits. */
export const pythonReplTool: PythonReplTool = createPythonTool();
