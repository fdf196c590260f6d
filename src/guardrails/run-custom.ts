import type {
  CustomGuardrail,
  GuardrailCheckContext,
  GuardrailVerdict,
  ToolSubject,
} from './types.ts';

/** How long a custom check may take unless its `timeoutMs` says otherwise. */
export const defaultCustomTimeoutMs = 5000;

/** A custom check's outcome, failures turned into `block` (or `warn` with `onError: 'allow'`). */
export interface CustomOutcome {
  action: GuardrailVerdict['action'];
  reason: string;
  replacement?: string | Record<string, unknown>;
}

const actions = new Set(['allow', 'block', 'warn', 'redact']);
const defaultReasons = {
  allow: 'allowed',
  block: 'blocked',
  warn: 'warned',
  redact: 'redacted',
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What is wrong with a verdict (undefined: it is usable). */
function verdictProblem(verdict: unknown, replaces: 'text' | 'args'): string | undefined {
  if (!isPlainObject(verdict))
    return `returned ${verdict === null ? 'null' : typeof verdict}, not a verdict`;
  if (!actions.has(verdict.action as string))
    return 'returned a verdict whose action is not allow, block, warn or redact';
  if (verdict.reason !== undefined && typeof verdict.reason !== 'string')
    return 'returned a reason that is not a string';
  if (verdict.action !== 'redact') return undefined;
  const replacement = verdict.replacement;
  if (replaces === 'text' ? typeof replacement !== 'string' : !isPlainObject(replacement)) {
    return `returned redact without ${replaces === 'text' ? 'a replacement text' : 'a replacement arguments object'}`;
  }
  return undefined;
}

/** Why a check was stopped before it answered: its time was up, or the run was cancelled. */
class Stopped {
  readonly why: string;
  constructor(why: string) {
    this.why = why;
  }
}

/** Why a check failed, in a few words (a message cut short). */
function failureOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `threw ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

/**
 * Runs a custom check with its time limit. `context.signal` aborts when the run does or the time
 * is up. A throw, an unusable verdict or a time-out becomes `block` with the reason
 * `guardrail failed: …`, or `warn` with `onError: 'allow'`.
 */
export async function runCustom(
  guardrail: CustomGuardrail,
  subject: string | ToolSubject,
  context: Omit<GuardrailCheckContext, 'signal'> & { signal: AbortSignal },
  replaces: 'text' | 'args',
): Promise<CustomOutcome> {
  const timeoutMs = guardrail.timeoutMs ?? defaultCustomTimeoutMs;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      reject(new Stopped(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => {
      controller.abort(context.signal.reason);
      reject(new Stopped('the run was cancelled'));
    };
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener('abort', onAbort, { once: true });
    controller.signal.addEventListener(
      'abort',
      () => context.signal.removeEventListener('abort', onAbort),
      {
        once: true,
      },
    );
  });
  stopped.catch(() => undefined);
  let failure: string;
  try {
    const verdict = await Promise.race([
      Promise.resolve().then(() =>
        guardrail.check(subject, { ...context, signal: controller.signal }),
      ),
      stopped,
    ]);
    if (verdict === undefined || verdict === null)
      return { action: 'allow', reason: defaultReasons.allow };
    const problem = verdictProblem(verdict, replaces);
    if (problem === undefined) {
      const usable = verdict as GuardrailVerdict;
      return {
        action: usable.action,
        reason: usable.reason ?? defaultReasons[usable.action],
        ...(usable.action === 'redact' ? { replacement: usable.replacement } : {}),
      };
    }
    failure = problem;
  } catch (error) {
    failure = error instanceof Stopped ? error.why : failureOf(error);
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('the check is over'));
  }
  return {
    action: guardrail.onError === 'allow' ? 'warn' : 'block',
    reason: `guardrail failed: ${failure}`,
  };
}
