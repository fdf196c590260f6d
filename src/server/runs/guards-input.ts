import type { GuardrailSuite } from '../../guardrails/index.ts';
import type { Runtime } from '../runtime/create-runtime.ts';

/** The answer for each suite (a config reload makes a new one). */
const answers = new WeakMap<GuardrailSuite, boolean>();

/**
 * Whether any chat graph checks messages with input guardrails: then a run's record stores
 * its message only as they leave it (placeholders for redacted values), never as sent.
 */
export function guardsInput(runtime: Pick<Runtime, 'app'>): boolean {
  const suite = runtime.app.guardrails;
  let answer = answers.get(suite);
  if (answer === undefined) {
    answer = Object.values(suite.describe()).some((graph) => graph.input.length > 0);
    answers.set(suite, answer);
  }
  return answer;
}
