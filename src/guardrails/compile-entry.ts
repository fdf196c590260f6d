import { compilePii, isRecord } from './compile-pii.ts';
import type { CompiledGuardrail } from './compiled-guardrail.ts';
import { deniedWords } from './deny/find-denied.ts';
import type {
  BuiltinGuardrailName,
  CustomGuardrail,
  GuardrailAction,
  GuardrailStage,
} from './types.ts';

/** The built-ins, with the stages each works on. */
export const builtinStages: Record<BuiltinGuardrailName, readonly GuardrailStage[]> = {
  pii: ['input', 'output', 'tools'],
  promptInjection: ['input', 'tools'],
  deny: ['input', 'output'],
  maxInputChars: ['input'],
  toolArgs: ['tools'],
};

/** Built-ins that work with their defaults alone (as a bare name, or in `YEOUL_GUARDRAILS`). */
export const defaultableBuiltins = ['pii', 'promptInjection'] as const;

/** A guardrail's name: a letter, then up to 63 letters, digits, `_` or `-`; never `none`. */
export const guardrailNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const stages: readonly GuardrailStage[] = ['input', 'output', 'tools'];

/** What a stage mismatch says: `maxInputChars works on input only`. */
function worksOn(builtin: BuiltinGuardrailName): string {
  const list = builtinStages[builtin];
  return `${builtin} works on ${list.join(' and ')} only`;
}

function isBuiltinName(value: unknown): value is BuiltinGuardrailName {
  return typeof value === 'string' && Object.hasOwn(builtinStages, value);
}

/** A problem with a name option or a custom guardrail's name, or none. */
export function nameProblem(name: unknown, path: string): string | undefined {
  if (typeof name === 'string' && guardrailNamePattern.test(name) && name !== 'none')
    return undefined;
  return `${path}: a name matching ^[A-Za-z][A-Za-z0-9_-]{0,63}$, not "none"`;
}

/** Reads one entry of a stage's list into a guardrail, or says every problem with it (with paths). */
export function compileEntry(
  entry: unknown,
  stage: GuardrailStage,
  path: string,
  configTools: readonly string[],
): { guardrail?: CompiledGuardrail; problems: string[] } {
  if (typeof entry === 'string') {
    if (!isBuiltinName(entry)) return { problems: [`${path}: unknown guardrail "${entry}"`] };
    if (!(defaultableBuiltins as readonly string[]).includes(entry)) {
      return { problems: [`${path}: ${entry} needs its options (call ${entry}(…))`] };
    }
    return compileEntry({ kind: 'builtin', builtin: entry, options: {} }, stage, path, configTools);
  }
  if (!isRecord(entry) || (entry.kind !== 'builtin' && entry.kind !== 'custom')) {
    return {
      problems: [`${path}: a guardrail: a built-in (pii(), 'pii', …) or defineGuardrail({…})`],
    };
  }
  if (entry.kind === 'custom') return compileCustom(entry, stage, path);
  const builtin = entry.builtin;
  if (!isBuiltinName(builtin))
    return { problems: [`${path}: unknown guardrail "${String(builtin)}"`] };
  if (!builtinStages[builtin].includes(stage))
    return { problems: [`${path}: ${worksOn(builtin)}`] };
  const options = entry.options ?? {};
  if (!isRecord(options)) return { problems: [`${path}: ${builtin}'s options are an object`] };
  const problems: string[] = [];
  if (options.name !== undefined) {
    const problem = nameProblem(options.name, `${path}.name`);
    if (problem) problems.push(problem);
  }
  const name = typeof options.name === 'string' ? options.name : builtin;
  const unknown = (allowed: readonly string[]) => {
    for (const key of Object.keys(options)) {
      if (!allowed.includes(key)) problems.push(`${path}: unknown option "${key}"`);
    }
  };
  let guardrail: CompiledGuardrail | undefined;
  if (builtin === 'pii') {
    const compiled = compilePii(options, path, configTools);
    problems.push(...compiled.problems);
    if (compiled.settings) guardrail = { type: 'pii', name, settings: compiled.settings };
  } else if (builtin === 'promptInjection') {
    unknown(['name', 'action']);
    const action = options.action ?? 'block';
    if (action !== 'block' && action !== 'warn')
      problems.push(`${path}.action: one of "block", "warn"`);
    else guardrail = { type: 'promptInjection', name, action };
  } else if (builtin === 'deny') {
    unknown(['name', 'words', 'action']);
    const action = (options.action ?? 'block') as GuardrailAction;
    if (action !== 'block' && action !== 'redact' && action !== 'warn')
      problems.push(`${path}.action: one of "block", "redact", "warn"`);
    const words = options.words;
    if (!Array.isArray(words) || words.length === 0) {
      problems.push(`${path}.words: a list of at least one word`);
    } else {
      words.forEach((word, index) => {
        if (typeof word !== 'string' || word.trim() === '')
          problems.push(`${path}.words[${index}]: a word (a non-empty string)`);
      });
      if (problems.length === 0)
        guardrail = { type: 'deny', name, words: deniedWords(words as string[]), action };
    }
  } else if (builtin === 'maxInputChars') {
    unknown(['name', 'n']);
    const limit = options.n;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
      problems.push(`${path}: maxInputChars(n) needs n, a positive whole number of characters`);
    else guardrail = { type: 'maxInputChars', name, limit };
  } else {
    unknown(['name', 'spec']);
    const patterns = compileToolPatterns(options.spec, path, problems);
    if (patterns) guardrail = { type: 'toolArgs', name, patterns };
  }
  return problems.length === 0 ? { guardrail, problems } : { problems };
}

/** `toolArgs`'s spec: each pattern a RegExp, or a string compiled as one (without `g`/`y`, so tests keep no state). */
function compileToolPatterns(
  spec: unknown,
  path: string,
  problems: string[],
): Map<string, Map<string, RegExp>> | undefined {
  if (!isRecord(spec)) {
    problems.push(`${path}: toolArgs needs {TOOL: {ARG: pattern}}`);
    return undefined;
  }
  const patterns = new Map<string, Map<string, RegExp>>();
  for (const [tool, args] of Object.entries(spec)) {
    if (!isRecord(args)) {
      problems.push(`${path}.${tool}: {ARG: pattern}`);
      continue;
    }
    const byArg = new Map<string, RegExp>();
    for (const [arg, pattern] of Object.entries(args)) {
      if (pattern instanceof RegExp) {
        byArg.set(arg, new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')));
      } else if (typeof pattern === 'string') {
        try {
          byArg.set(arg, new RegExp(pattern));
        } catch {
          problems.push(`${path}.${tool}.${arg}: invalid regular expression`);
        }
      } else problems.push(`${path}.${tool}.${arg}: a RegExp or a string`);
    }
    patterns.set(tool, byArg);
  }
  return patterns;
}

function compileCustom(
  entry: Record<string, unknown>,
  stage: GuardrailStage,
  path: string,
): { guardrail?: CompiledGuardrail; problems: string[] } {
  const problems: string[] = [];
  const name = nameProblem(entry.name, `${path}.name`);
  if (name) problems.push(name);
  if (!stages.includes(entry.stage as GuardrailStage)) {
    problems.push(`${path}.stage: one of "input", "output", "tools"`);
  } else if (entry.stage !== stage) {
    problems.push(
      `${path}: "${String(entry.name)}" is a guardrail of the ${String(entry.stage)} stage; list it under ${String(entry.stage)}`,
    );
  }
  if (typeof entry.check !== 'function')
    problems.push(`${path}.check: a function (subject, context) => verdict`);
  const timeout = entry.timeoutMs;
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1)
  ) {
    problems.push(`${path}.timeoutMs: a positive whole number of milliseconds`);
  }
  if (entry.onError !== undefined && entry.onError !== 'block' && entry.onError !== 'allow') {
    problems.push(`${path}.onError: one of "block", "allow"`);
  }
  if (problems.length > 0) return { problems };
  const guardrail = entry as unknown as CustomGuardrail;
  return { guardrail: { type: 'custom', name: guardrail.name, guardrail }, problems };
}
