/** Where a guardrail acts: the user's message, the model's answer, or a tool call. */
export type GuardrailStage = 'input' | 'output' | 'tools';

/** What a guardrail did: stopped the turn, answer or call; replaced what it found; only noted it. */
export type GuardrailAction = 'block' | 'redact' | 'warn';

/** A built-in detector's setting: an action, or `off`. */
export type DetectorAction = GuardrailAction | 'off';

/**
 * What one guardrail did (an entry of a run's `guardrails`, the data of a `guardrail`
 * event). `reason` names what was found, never the value.
 */
export interface GuardrailRecord {
  name: string;
  stage: GuardrailStage;
  action: GuardrailAction;
  reason: string;
  /** The tool whose call or result it acted on (tools stage only). */
  tool?: string;
}

/** What a custom guardrail's `check` is told besides its subject. */
export interface GuardrailCheckContext {
  sessionId: string;
  graph: string;
  stage: GuardrailStage;
  signal: AbortSignal;
}

/** A tool call as the tools stage sees it; `result` (the result text) only on the result. */
export interface ToolSubject {
  tool: string;
  args: Record<string, unknown>;
  result?: string;
}

/** What a custom guardrail's `check` returns (or nothing: allow). */
export interface GuardrailVerdict {
  action: 'allow' | 'block' | 'warn' | 'redact';
  reason?: string;
  /** With `redact`: the new text (input, output, tool result) or the new arguments object. */
  replacement?: string | Record<string, unknown>;
}

/** A guardrail of the config's own, made by `defineGuardrail`. */
export interface CustomGuardrail {
  kind: 'custom';
  name: string;
  stage: GuardrailStage;
  check: (
    subject: string | ToolSubject,
    context: GuardrailCheckContext,
  ) => GuardrailVerdict | undefined | Promise<GuardrailVerdict | undefined>;
  /** Default 5000; a check that takes longer fails. */
  timeoutMs?: number;
  /** `allow`: a failing check warns instead of blocking (the default `block`). */
  onError?: 'block' | 'allow';
}

/** The built-in guardrails, by function name. */
export type BuiltinGuardrailName =
  | 'pii'
  | 'promptInjection'
  | 'deny'
  | 'maxInputChars'
  | 'toolArgs';

/** A built-in as its factory recorded it: the options are checked when the config loads. */
export interface BuiltinGuardrail {
  kind: 'builtin';
  builtin: BuiltinGuardrailName;
  options: unknown;
}

/** One entry of a stage's list: a built-in (or its bare name, for its defaults) or a custom one. */
export type GuardrailEntry = BuiltinGuardrail | CustomGuardrail | BuiltinGuardrailName;

/** A stage's lists. */
export interface GuardrailLists {
  input?: GuardrailEntry[];
  output?: GuardrailEntry[];
  tools?: GuardrailEntry[];
}

/**
 * The config file's `guardrails`: the global lists, and per chat graph lists that replace
 * the stages they name (`false`: none for that graph).
 */
export interface GuardrailsConfig extends GuardrailLists {
  graphs?: Record<string, GuardrailLists | false>;
}

/** One restorable value of a session's vault. */
export interface VaultEntry {
  /** `[EMAIL_1]`, `[PHONE_2]`, … */
  placeholder: string;
  /** The detector kind (`email`, `phone`, …). */
  kind: string;
  value: string;
}
