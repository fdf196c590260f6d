import {
  type CompiledGuardrail,
  type Finding,
  findingsOf,
  summarize,
} from './compiled-guardrail.ts';
import { runCustom } from './run-custom.ts';
import { recordOf, scrubbedReason } from './run-text-stage.ts';
import type { StageRun, ToolArgsOutcome } from './suite-types.ts';
import type { GuardrailRecord } from './types.ts';

/** Every string at any depth of a value's arrays and plain objects. */
function stringsOf(value: unknown, into: string[], depth = 0): string[] {
  if (typeof value === 'string') into.push(value);
  else if (depth <= 64 && typeof value === 'object' && value !== null) {
    for (const item of Array.isArray(value) ? value : Object.values(value))
      stringsOf(item, into, depth + 1);
  }
  return into;
}

/** An argument as a pattern tests it: a string as it is, anything else as JSON (absent: ''). */
function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/** What `pii` blocks or notes in arguments (`redact` has no effect on arguments). */
function piiOnArguments(guardrail: CompiledGuardrail, args: Record<string, unknown>): Finding[] {
  return stringsOf(args, []).flatMap((text) =>
    findingsOf(guardrail, text).filter((finding) => finding.action !== 'redact'),
  );
}

/**
 * The tools stage on a call's arguments: the guardrails see them with the session's
 * placeholders restored; the first `block` ends the stage. The tool receives the restored
 * arguments when it may have real values, else the arguments as the model wrote them (a
 * custom `redact` hands the tool its replacement either way).
 */
export async function checkToolArgs(
  guardrails: readonly CompiledGuardrail[],
  subject: { tool: string; args: Record<string, unknown> },
  run: StageRun,
  restoreTools: ReadonlySet<string>,
): Promise<ToolArgsOutcome> {
  let current = run.vault.restoreDeep(subject.args);
  let replaced = false;
  const records: GuardrailRecord[] = [];
  for (const guardrail of guardrails) {
    let summary: { action: GuardrailRecord['action']; reason: string } | undefined;
    if (guardrail.type === 'pii') summary = summarize(piiOnArguments(guardrail, current));
    else if (guardrail.type === 'toolArgs') {
      for (const [arg, pattern] of guardrail.patterns.get(subject.tool) ?? []) {
        if (pattern.test(argumentText(current[arg]))) continue;
        summary = { action: 'block', reason: `${arg} does not match ${pattern}` };
        break;
      }
    } else if (guardrail.type === 'custom') {
      const outcome = await runCustom(
        guardrail.guardrail,
        { tool: subject.tool, args: current },
        { sessionId: run.sessionId, graph: run.graph, stage: 'tools', signal: run.signal },
        'args',
      );
      if (outcome.action === 'redact') {
        current = outcome.replacement as Record<string, unknown>;
        replaced = true;
      }
      if (outcome.action !== 'allow') {
        const reason = scrubbedReason(guardrails, outcome.reason, 'tools', run);
        summary = { action: outcome.action, reason };
      }
    }
    if (summary === undefined) continue;
    const record = recordOf(guardrail.name, 'tools', summary, subject.tool);
    records.push(record);
    if (record.action === 'block') return { records, blocked: record, args: subject.args };
  }
  return { records, args: replaced || restoreTools.has(subject.tool) ? current : subject.args };
}
