import {
  type CompiledGuardrail,
  type Finding,
  findingsOf,
  replaceFindings,
  summarize,
} from './compiled-guardrail.ts';
import { type DeniedWord, deniedPrefixLength } from './deny/find-denied.ts';
import { placeholderOf, recordOf, runTextStage } from './run-text-stage.ts';
import type { OutputGuard, StageOutcome, StageRun } from './suite-types.ts';
import { holdFrom } from './text/hold-from.ts';
import type { GuardrailAction, GuardrailRecord } from './types.ts';

/** How much text before a segment each check sees again (an account word, a word boundary). */
const lookBehind = 64;

/** The most a stream holds back: the longest possible e-mail address fits. */
export const maxHeld = 256;

/**
 * The output stage of one streamed answer. Text flows as it comes, except a tail that could
 * still grow into a match (the current number with its separators, the current word, the start
 * of a deny-list word; at most {@link maxHeld} characters), so a redaction holds however the
 * chunks split the match. A graph with a custom output guardrail holds the whole answer until
 * it ends, when every guardrail checks it at once.
 */
export class StreamingOutputGuard implements OutputGuard {
  #guardrails: readonly CompiledGuardrail[];
  #run: StageRun;
  #holdAll: boolean;
  #denied: DeniedWord[];
  #pending = '';
  #sent = '';
  #contexts: string[];
  #found = new Map<string, Array<{ kind: string; action: GuardrailAction }>>();
  #blocked: GuardrailRecord | undefined;

  /** Opens the stage for one answer of a run. */
  constructor(guardrails: readonly CompiledGuardrail[], run: StageRun) {
    this.#guardrails = guardrails;
    this.#run = run;
    this.#holdAll = guardrails.some((guardrail) => guardrail.type === 'custom');
    this.#denied = guardrails.flatMap((guardrail) =>
      guardrail.type === 'deny' ? guardrail.words : [],
    );
    this.#contexts = guardrails.map(() => '');
  }

  /** Set once a `block` matched. */
  get blocked(): GuardrailRecord | undefined {
    return this.#blocked;
  }

  /** A chunk in; what may be sent now. */
  push(chunk: string): string {
    if (this.#blocked !== undefined || chunk === '') return '';
    this.#pending += chunk;
    if (this.#holdAll) return '';
    const cut = this.#cut();
    if (cut === 0) return '';
    const segment = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.#send(segment);
  }

  /** The answer ended: the held rest, checked. */
  async end(): Promise<StageOutcome & { rest: string }> {
    if (this.#holdAll) {
      const whole = this.#pending;
      this.#pending = '';
      const outcome = await runTextStage(this.#guardrails, whole, {
        stage: 'output',
        run: this.#run,
        numbered: false,
      });
      this.#blocked = outcome.blocked;
      const rest = outcome.blocked ? '' : outcome.text;
      this.#sent = rest;
      return {
        text: rest,
        rest,
        records: outcome.records,
        ...(outcome.blocked ? { blocked: outcome.blocked } : {}),
      };
    }
    const rest =
      this.#blocked === undefined && this.#pending !== '' ? this.#send(this.#pending) : '';
    this.#pending = '';
    const records = [...this.#found].flatMap(([name, found]) => {
      const summary = summarize(found);
      return summary ? [recordOf(name, 'output', summary)] : [];
    });
    return {
      text: this.#sent,
      rest,
      records,
      ...(this.#blocked ? { blocked: this.#blocked } : {}),
    };
  }

  /** Checks a segment that no match runs out of; '' once it blocks. */
  #send(segment: string): string {
    let text = segment;
    for (let index = 0; index < this.#guardrails.length; index += 1) {
      const guardrail = this.#guardrails[index] as CompiledGuardrail;
      const context = this.#contexts[index] as string;
      const whole = context + text;
      this.#contexts[index] = whole.slice(-lookBehind);
      const findings: Finding[] = [];
      for (const finding of findingsOf(guardrail, whole)) {
        if (finding.end <= context.length && finding.redactable) continue;
        findings.push({
          ...finding,
          start: Math.max(0, finding.start - context.length),
          end: Math.max(0, finding.end - context.length),
        });
      }
      if (findings.length === 0) continue;
      const found = this.#found.get(guardrail.name) ?? [];
      found.push(...findings.map(({ kind, action }) => ({ kind, action })));
      this.#found.set(guardrail.name, found);
      if (findings.some((finding) => finding.action === 'block')) {
        this.#blocked = recordOf(
          guardrail.name,
          'output',
          summarize(found) as { action: GuardrailAction; reason: string },
        );
        return '';
      }
      text = replaceFindings(text, findings, (finding) =>
        placeholderOf(guardrail, finding, false, this.#run.vault),
      );
    }
    this.#sent += text;
    return text;
  }

  /** Where the held tail starts: everything before it is sent now. */
  #cut(): number {
    const text = this.#pending;
    let start = holdFrom(text, maxHeld);
    if (this.#denied.length > 0)
      start = Math.min(start, text.length - deniedPrefixLength(text, this.#denied));
    if (text.length - start <= maxHeld) {
      // A whole denied word may end inside the held word (`top secret`): hold it all.
      if (this.#denied.length === 0) return start;
      for (const guardrail of this.#guardrails) {
        if (guardrail.type !== 'deny') continue;
        for (const finding of findingsOf(guardrail, text)) {
          if (finding.start < start && finding.end > start) start = finding.start;
        }
      }
      return start;
    }
    // A tail longer than any match: cut inside it, but never through a match already decided.
    start = text.length - maxHeld;
    for (const guardrail of this.#guardrails) {
      for (const finding of findingsOf(guardrail, text)) {
        if (finding.start < start && finding.end > start)
          start = finding.end <= text.length - 2 ? finding.end : finding.start;
      }
    }
    return start;
  }
}
