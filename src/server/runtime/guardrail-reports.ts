import type { Logger } from 'pino';
import type { GuardrailRecord } from '../../guardrails/index.ts';

/** Hears each guardrail action of every run (the metrics count them). */
export type GuardrailListener = (record: GuardrailRecord) => void;

/**
 * Where the runs' guardrail actions go besides their events: one log line each (`warn` for
 * a block, `info` otherwise, with the guardrail, stage, action, reason and session; never
 * the value found), and the listeners subscribed with `onGuardrail`.
 * @example
 * const reports = new GuardrailReports(logger);
 * const stop = reports.onGuardrail((record) => counter.inc({ name: record.name }));
 */
export class GuardrailReports {
  readonly #logger: Logger;
  readonly #listeners = new Set<GuardrailListener>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Reports one action of a run on `sessionId`. */
  readonly observe = (record: GuardrailRecord, sessionId: string): void => {
    const fields = {
      guardrail: record.name,
      stage: record.stage,
      action: record.action,
      reason: record.reason,
      sessionId,
      ...(record.tool === undefined ? {} : { tool: record.tool }),
    };
    if (record.action === 'block') this.#logger.warn(fields, 'a guardrail blocked');
    else this.#logger.info(fields, `a guardrail acted (${record.action})`);
    for (const listener of this.#listeners) listener(record);
  };

  /** Subscribes to every action; returns the unsubscribe. */
  onGuardrail(listener: GuardrailListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
