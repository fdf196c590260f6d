import {
  type CompiledGuardrail,
  type Finding,
  findingsOf,
  replaceFindings,
  summarize,
} from './compiled-guardrail.ts';
import type { PlaceholderVault } from './placeholder-vault.ts';
import { runCustom } from './run-custom.ts';
import type { StageOutcome, StageRun } from './suite-types.ts';
import type { GuardrailRecord, GuardrailStage } from './types.ts';

/** Where a text stage runs: the stage, the run, whether placeholders are numbered, the tool call. */
export interface TextStageContext {
  stage: GuardrailStage;
  run: StageRun;
  /** Numbered, vaulted placeholders for restorable kinds (input, tool results); plain ones on output. */
  numbered: boolean;
  /** The call whose result is checked (tools stage). */
  tool?: { tool: string; args: Record<string, unknown> };
}

/**
 * The placeholder that replaces a finding: `[EMAIL_1]` (numbered, restorable), `[CARD]`,
 * `[REDACTED]`. Only a redacted value is restorable: one its detector blocks goes to no vault.
 */
export function placeholderOf(
  guardrail: CompiledGuardrail,
  finding: Finding,
  numbered: boolean,
  vault: PlaceholderVault,
): string {
  if (guardrail.type !== 'pii') return '[REDACTED]';
  const restorable =
    numbered &&
    finding.action === 'redact' &&
    guardrail.settings.restoreKinds.has(finding.kind as never);
  return restorable && finding.value !== undefined
    ? vault.placeholderFor(finding.kind, finding.value)
    : `[${finding.kind.toUpperCase()}]`;
}

/** A record of what a guardrail did. */
export function recordOf(
  name: string,
  stage: GuardrailStage,
  summary: { action: GuardrailRecord['action']; reason: string },
  tool?: string,
): GuardrailRecord {
  return {
    name,
    stage,
    action: summary.action,
    reason: summary.reason,
    ...(tool === undefined ? {} : { tool }),
  };
}

/** One built-in on a text: the text with its matches replaced, and its record (none when nothing was found). */
export function applyBuiltin(
  guardrail: CompiledGuardrail,
  text: string,
  context: TextStageContext,
): { text: string; record?: GuardrailRecord } {
  const findings = findingsOf(guardrail, text);
  const summary = summarize(findings);
  if (summary === undefined) return { text };
  const replaced = replaceFindings(text, findings, (finding) =>
    placeholderOf(guardrail, finding, context.numbered, context.run.vault),
  );
  return {
    text: replaced,
    record: recordOf(guardrail.name, context.stage, summary, context.tool?.tool),
  };
}

/**
 * What the rest of a blocked stage's pii and deny guardrails would replace, replaced silently:
 * a blocked message is still stored, and nothing stored holds what they match.
 */
export function scrub(
  guardrails: readonly CompiledGuardrail[],
  text: string,
  context: TextStageContext,
): string {
  let current = text;
  for (const guardrail of guardrails) {
    if (guardrail.type === 'pii' || guardrail.type === 'deny')
      current = applyBuiltin(guardrail, current, context).text;
  }
  return current;
}

/**
 * A custom guardrail's reason with what the stage's pii and deny guardrails would replace
 * replaced (`[EMAIL]`, never numbered): its own words, or why it failed, may quote its subject.
 */
export function scrubbedReason(
  guardrails: readonly CompiledGuardrail[],
  reason: string,
  stage: GuardrailStage,
  run: StageRun,
): string {
  return scrub(guardrails, reason, { stage, run, numbered: false });
}

/**
 * Runs a text stage's guardrails in order, each on the text the previous one left; the first
 * `block` ends it (the rest only scrub what they would replace).
 */
export async function runTextStage(
  guardrails: readonly CompiledGuardrail[],
  text: string,
  context: TextStageContext,
): Promise<StageOutcome> {
  let current = text;
  const records: GuardrailRecord[] = [];
  for (let index = 0; index < guardrails.length; index += 1) {
    const guardrail = guardrails[index] as CompiledGuardrail;
    let record: GuardrailRecord | undefined;
    if (guardrail.type === 'custom') {
      const subject = context.tool ? { ...context.tool, result: current } : current;
      const outcome = await runCustom(
        guardrail.guardrail,
        subject,
        {
          sessionId: context.run.sessionId,
          graph: context.run.graph,
          stage: context.stage,
          signal: context.run.signal,
        },
        'text',
      );
      if (outcome.action === 'allow') continue;
      if (outcome.action === 'redact') current = outcome.replacement as string;
      record = recordOf(
        guardrail.name,
        context.stage,
        {
          action: outcome.action,
          reason: scrubbedReason(guardrails, outcome.reason, context.stage, context.run),
        },
        context.tool?.tool,
      );
    } else {
      const applied = applyBuiltin(guardrail, current, context);
      current = applied.text;
      record = applied.record;
    }
    if (record === undefined) continue;
    records.push(record);
    if (record.action === 'block') {
      return {
        text: scrub(guardrails.slice(index + 1), current, context),
        records,
        blocked: record,
      };
    }
  }
  return { text: current, records };
}
