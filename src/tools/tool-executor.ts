import type { z } from 'zod';
import {
  genAi,
  inSpan,
  recordsTraceContent,
  type Span,
  SpanKind,
  SpanStatusCode,
  scopedSignal,
} from '../core/index.ts';
import { formatToolError, formatToolOutput } from './format-result.ts';
import type { ToolRegistry } from './registry.ts';
import type { ToolCallRequest, ToolEnvironment, ToolResult } from './types.ts';

/** Limits and hooks of one request's tool executions. */
export interface ToolExecutorOptions {
  env: ToolEnvironment;
  /** Tool executions allowed in this request (default 5); later calls get an error result. */
  maxCalls?: number;
  /** Cancels running tools when the request is cancelled. */
  signal?: AbortSignal;
  /** Asked before a tool with permission `ask` runs; without it such calls are refused. */
  approve?: (call: ToolCallRequest) => Promise<boolean>;
  /** The session the calls belong to, handed to each tool's `execute`. */
  sessionId?: string;
  /**
   * Who the run serves: the tools get the environment whose workspace is that owner's
   * (`env.workspaceOf`); without one, the whole workspace.
   */
  owner?: string;
  /**
   * False: the calls' spans carry no arguments or result even with `YEOUL_TRACE_CONTENT=1`
   * (a guarded run's tools get restored values the trace must not hold).
   */
  traceContent?: boolean;
}

const defaultTimeoutMs = 10_000;
const defaultMaxResultChars = 4_000;

/**
 * Runs the tool calls of one request. Every failure — unknown tool, refused permission,
 * bad arguments, a throw, a timeout, the per-request limit — becomes an error result the
 * model sees; nothing thrown by a tool escapes.
 */
export class ToolExecutor {
  #registry: ToolRegistry;
  #options: ToolExecutorOptions;
  #calls = 0;

  constructor(registry: ToolRegistry, options: ToolExecutorOptions) {
    this.#registry = registry;
    this.#options = { ...options, env: environmentOf(options.env, options.owner) };
  }

  /** Calls made in this request so far, refused ones included. */
  get callCount(): number {
    return this.#calls;
  }

  /** Runs one call; traced as an `execute_tool <name>` span (GenAI semantic conventions). */
  execute(call: ToolCallRequest): Promise<ToolResult> {
    return inSpan(`execute_tool ${call.name}`, SpanKind.INTERNAL, async (span) => {
      const result = await this.#execute(call);
      describeToolCall(span, call, result, this.#options.traceContent !== false);
      return result;
    });
  }

  async #execute(call: ToolCallRequest): Promise<ToolResult> {
    const started = performance.now();
    const finish = (content: string, isError: boolean): ToolResult => ({
      callId: call.id,
      name: call.name,
      content,
      isError,
      durationMs: Math.round(performance.now() - started),
    });
    const fail = (message: string) => finish(formatToolError(message), true);

    const maxCalls = this.#options.maxCalls ?? 5;
    this.#calls += 1;
    if (this.#calls > maxCalls) {
      return fail(`tool call limit reached: at most ${maxCalls} tool executions per request`);
    }
    const tool = this.#registry.get(call.name);
    const env = this.#options.env;
    if (tool === undefined || !(tool.isAvailable?.(env) ?? true)) {
      const names = this.#registry.available(env).map((available) => available.name);
      return fail(`unknown tool "${call.name}"; available tools: ${names.join(', ') || 'none'}`);
    }
    const permission = this.#registry.permissionOf(call.name);
    if (permission === 'deny') return fail(`tool "${call.name}" is not permitted`);
    if (permission === 'ask') {
      const approved = this.#options.approve ? await this.#options.approve(call) : false;
      if (!approved) return fail(`tool "${call.name}" needs approval, and it was not given`);
    }

    const parsed = parseArguments(call.args, tool.inputSchema);
    if (!parsed.ok) return fail(`invalid arguments for ${call.name}: ${parsed.problem}`);

    const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
    const scope = scopedSignal(this.#options.signal, timeoutMs);
    const { signal } = scope;
    try {
      const output = await raceAbort(
        tool.execute(parsed.value, {
          signal,
          env,
          callId: call.id,
          ...(this.#options.sessionId === undefined ? {} : { sessionId: this.#options.sessionId }),
        }),
        signal,
      );
      return finish(formatToolOutput(output, tool.maxResultChars ?? defaultMaxResultChars), false);
    } catch (error) {
      if (scope.timedOut) return fail(`${call.name} timed out after ${timeoutMs / 1000} s`);
      if (signal.aborted) return fail(`${call.name} was cancelled`);
      return fail(error instanceof Error ? error.message : String(error));
    } finally {
      scope.release();
    }
  }
}

/** The environment of a run serving `owner`: its own workspace folder, when it has one. */
function environmentOf(env: ToolEnvironment, owner: string | undefined): ToolEnvironment {
  const workspaceDir = owner === undefined ? undefined : env.workspaceOf?.(owner);
  return workspaceDir === undefined || workspaceDir === env.workspaceDir
    ? env
    : { ...env, workspaceDir };
}

/**
 * A tool call's span attributes: the tool's name and call id, its duration, and when it
 * failed `error.type` with status ERROR (the model still gets the error as its result);
 * arguments and result only with `YEOUL_TRACE_CONTENT=1`.
 */
function describeToolCall(
  span: Span,
  call: ToolCallRequest,
  result: ToolResult,
  allowed: boolean,
): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    [genAi.operationName]: 'execute_tool',
    [genAi.toolName]: call.name,
    [genAi.toolCallId]: call.id,
    'yeoul.tool.duration_ms': result.durationMs,
    'yeoul.tool.error': result.isError,
  });
  const content = allowed && recordsTraceContent();
  if (result.isError) {
    span.setAttribute(genAi.errorType, 'tool_error');
    // The error text may repeat the arguments: message text, kept out unless allowed.
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: content ? result.content : 'the tool call failed',
    });
  }
  if (content) {
    span.setAttributes({
      [genAi.toolArguments]:
        typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
      [genAi.toolResult]: result.content,
    });
  }
}

function parseArguments<Input>(
  args: unknown,
  schema: z.ZodType<Input>,
): { ok: true; value: Input } | { ok: false; problem: string } {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return { ok: false, problem: 'the arguments are not valid JSON' };
    }
  }
  const result = schema.safeParse(value ?? {});
  if (result.success) return { ok: true, value: result.data };
  const problem = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
  return { ok: false, problem };
}

/** Settles with the promise, or rejects as soon as the signal fires (the tool may keep running). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
