import type { Runtime } from '../runtime/create-runtime.ts';

/**
 * Whether any chat graph checks messages with input guardrails: then a run's record stores
 * its message only as they leave it (placeholders for redacted values), never as sent.
 */
export function guardsInput(runtime: Pick<Runtime, 'guards'>): boolean {
  return Object.values(runtime.guards.suite.describe()).some((graph) => graph.input.length > 0);
}
