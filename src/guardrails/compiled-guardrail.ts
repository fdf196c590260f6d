import { type DeniedWord, findDenied } from './deny/find-denied.ts';
import { findInjection } from './injection/find-injection.ts';
import { findPii, type PiiKind, type PiiScan } from './pii/find-pii.ts';
import type { CustomGuardrail, DetectorAction, GuardrailAction } from './types.ts';

/** `pii` as its options were read: each kind's action, what is restorable and to which tools. */
export interface PiiSettings {
  actions: Record<PiiKind, DetectorAction>;
  rrnChecksum: boolean;
  /** Kinds whose placeholders are numbered and vaulted. */
  restoreKinds: ReadonlySet<PiiKind>;
  /** Tools that get restored arguments; empty with `restore: false`. */
  restoreTools: ReadonlySet<string>;
  scan: PiiScan;
}

/** A guardrail ready to run: a built-in with its options read, or a custom one. */
export type CompiledGuardrail =
  | { type: 'pii'; name: string; settings: PiiSettings }
  | { type: 'promptInjection'; name: string; action: 'block' | 'warn' }
  | { type: 'deny'; name: string; words: DeniedWord[]; action: GuardrailAction }
  | { type: 'maxInputChars'; name: string; limit: number }
  | { type: 'toolArgs'; name: string; patterns: ReadonlyMap<string, ReadonlyMap<string, RegExp>> }
  | { type: 'custom'; name: string; guardrail: CustomGuardrail };

/** What a built-in found in a text: where (original offsets; empty for the whole text), what, and the action. */
export interface Finding {
  start: number;
  end: number;
  /** The pii kind, `denied word`, the injection family, or the length rule. */
  kind: string;
  action: GuardrailAction;
  /** The normalised value of a pii match (numbered placeholders are keyed by it). */
  value?: string;
  /** Whether a placeholder replaces it (pii and deny matches). */
  redactable: boolean;
}

/** How many code points a text has, counting only as far as `limit + 1`. */
function exceeds(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let count = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) at += 1;
    count += 1;
    if (count > limit) return true;
  }
  return false;
}

/** What a text built-in finds in a text (none for `toolArgs` and custom guardrails). */
export function findingsOf(guardrail: CompiledGuardrail, text: string): Finding[] {
  switch (guardrail.type) {
    case 'pii': {
      const { actions, scan } = guardrail.settings;
      return findPii(text, scan).map((match) => ({
        start: match.start,
        end: match.end,
        kind: match.kind,
        action: actions[match.kind] as GuardrailAction,
        value: match.value,
        redactable: true,
      }));
    }
    case 'deny':
      return findDenied(text, guardrail.words).map((span) => ({
        ...span,
        kind: 'denied word',
        action: guardrail.action,
        redactable: true,
      }));
    case 'promptInjection': {
      const family = findInjection(text);
      return family === undefined
        ? []
        : [{ start: 0, end: 0, kind: family, action: guardrail.action, redactable: false }];
    }
    case 'maxInputChars':
      return exceeds(text, guardrail.limit)
        ? [
            {
              start: 0,
              end: 0,
              kind: `more than ${guardrail.limit} characters`,
              action: 'block',
              redactable: false,
            },
          ]
        : [];
    default:
      return [];
  }
}

const strength: Record<GuardrailAction, number> = { block: 3, redact: 2, warn: 1 };

/** The strongest of some actions. */
export function strongest(actions: Iterable<GuardrailAction>): GuardrailAction | undefined {
  let best: GuardrailAction | undefined;
  for (const action of actions)
    if (best === undefined || strength[action] > strength[best]) best = action;
  return best;
}

/**
 * A record's action and reason from what a guardrail found: the strongest action, and the kinds
 * found, those with another action marked with it (`card, email (redact)`). Never a value.
 */
export function summarize(
  found: ReadonlyArray<{ kind: string; action: GuardrailAction }>,
): { action: GuardrailAction; reason: string } | undefined {
  const action = strongest(found.map((item) => item.action));
  if (action === undefined) return undefined;
  const first: string[] = [];
  const others: string[] = [];
  for (const item of found) {
    const text = item.action === action ? item.kind : `${item.kind} (${item.action})`;
    const list = item.action === action ? first : others;
    if (!list.includes(text)) list.push(text);
  }
  return { action, reason: [...first, ...others].join(', ') };
}

/** A text with the findings of the given actions replaced by their placeholders. */
export function replaceFindings(
  text: string,
  findings: readonly Finding[],
  placeholderOf: (finding: Finding) => string,
): string {
  let result = '';
  let at = 0;
  for (const finding of findings) {
    if (!finding.redactable || finding.action === 'warn' || finding.start < at) continue;
    result += text.slice(at, finding.start) + placeholderOf(finding);
    at = finding.end;
  }
  return at === 0 ? text : result + text.slice(at);
}
