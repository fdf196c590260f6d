import type { PiiKind } from './pii/find-pii.ts';
import type {
  BuiltinGuardrail,
  CustomGuardrail,
  DetectorAction,
  GuardrailCheckContext,
  GuardrailStage,
  GuardrailVerdict,
  ToolSubject,
} from './types.ts';

/** Every built-in's own option: the name its records carry (default: the function's name). */
export interface NamedOptions {
  name?: string;
}

/** One `pii` detector's setting: an action, or an object with the action and its own settings. */
export type PiiDetectorOption = DetectorAction | { action?: DetectorAction };

/** `pii`'s options: each detector's action, and what is restored for which tools. */
export interface PiiOptions extends NamedOptions {
  /** 주민등록번호 (default `redact`); `checksum: false` also takes numbers without a valid check digit. */
  rrn?: DetectorAction | { action?: DetectorAction; checksum?: boolean };
  /** Luhn-valid card numbers (default `block`). */
  card?: PiiDetectorOption;
  /** Korean phone numbers (default `redact`). */
  phone?: PiiDetectorOption;
  /** E-mail addresses (default `redact`). */
  email?: PiiDetectorOption;
  /** Bank accounts next to an account word (default `redact`). */
  account?: PiiDetectorOption;
  /** IPv4 addresses (default `off`). */
  ip?: PiiDetectorOption;
  /**
   * Kinds whose placeholders are numbered and restored, and the tools that get the real values
   * (default: e-mail and phone, for the config file's own tools); `false`: nothing restored.
   */
  restore?: false | { kinds?: PiiKind[]; tools?: string[] };
}

/** `promptInjection`'s options. */
export interface PromptInjectionOptions extends NamedOptions {
  /** Default `block`. */
  action?: 'block' | 'warn';
}

/** `deny`'s options: the words, and what to do when one is found (default `block`). */
export interface DenyOptions extends NamedOptions {
  words: string[];
  action?: 'block' | 'redact' | 'warn';
}

/** `toolArgs`'s patterns: per tool, per argument, a RegExp or a string compiled as one. */
export type ToolArgsSpec = Record<string, Record<string, RegExp | string>>;

/**
 * Finds personal data (주민등록번호, cards, phones, e-mail, accounts, IPv4) on NFKC text and
 * blocks, redacts or notes it per detector. Records its options only; they are checked at load.
 * @example
 * pii({ phone: 'block', rrn: { checksum: false }, restore: { kinds: ['email'] } });
 */
export function pii(options: PiiOptions = {}): BuiltinGuardrail {
  return { kind: 'builtin', builtin: 'pii', options };
}

/** Finds attempts to override the instructions, extract the system prompt or override the role (Korean and English). */
export function promptInjection(options: PromptInjectionOptions = {}): BuiltinGuardrail {
  return { kind: 'builtin', builtin: 'promptInjection', options };
}

/**
 * Finds words of a deny list (a Hangul word anywhere, another at word boundaries).
 * @example
 * deny({ words: ['기밀문서', 'project x'], action: 'redact' });
 */
export function deny(options: DenyOptions): BuiltinGuardrail {
  return { kind: 'builtin', builtin: 'deny', options };
}

/** Blocks a message of more than `n` characters (code points). */
export function maxInputChars(n: number, options: NamedOptions = {}): BuiltinGuardrail {
  return { kind: 'builtin', builtin: 'maxInputChars', options: { ...options, n } };
}

/**
 * Blocks a tool call whose argument (placeholders restored) does not match its pattern.
 * @example
 * toolArgs({ write_file: { path: '^notes/' } });
 */
export function toolArgs(spec: ToolArgsSpec, options: NamedOptions = {}): BuiltinGuardrail {
  return { kind: 'builtin', builtin: 'toolArgs', options: { ...options, spec } };
}

/** What a custom guardrail's `check` is given: the text, or the tool call on the tools stage. */
export type GuardrailSubject<Stage extends GuardrailStage> = Stage extends 'tools'
  ? ToolSubject
  : string;

/** A custom guardrail as `defineGuardrail` takes it. */
export interface GuardrailDefinition<Stage extends GuardrailStage> {
  /** `^[A-Za-z][A-Za-z0-9_-]{0,63}$`, unique within its list, not `none`. */
  name: string;
  stage: Stage;
  /** Allow by returning nothing; may be async. A throw, a bad verdict or a time-out blocks. */
  check: (
    subject: GuardrailSubject<Stage>,
    context: GuardrailCheckContext,
  ) => GuardrailVerdict | undefined | Promise<GuardrailVerdict | undefined>;
  /** Default 5000. */
  timeoutMs?: number;
  /** `allow`: a failing check warns instead of blocking. */
  onError?: 'block' | 'allow';
}

/**
 * Declares a guardrail of the config's own (a typed identity function).
 * @example
 * defineGuardrail({ name: 'noOrders', stage: 'input',
 *   check: (text) => (text.includes('주문 취소') ? { action: 'block', reason: 'order cancellation' } : undefined) });
 */
export function defineGuardrail<const Stage extends GuardrailStage>(
  definition: GuardrailDefinition<Stage>,
): CustomGuardrail {
  return { kind: 'custom', ...definition } as unknown as CustomGuardrail;
}
