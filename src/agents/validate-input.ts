import { countTokensOver } from '../models/index.ts';
import type { AgentError } from './types.ts';

/** Characters no one types: control characters other than tab and line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Checks a user message (the routes and the react agent's input node ask it): not empty,
 * not only white space, no control characters, and within the model's input budget.
 * Returns the problem as a value, or undefined when the message is fine.
 */
export function validateInput(message: unknown, maxTokens: number): AgentError | undefined {
  if (typeof message !== 'string' || message.length === 0)
    return { code: 'empty_input', message: 'the message is empty' };
  if (message.trim() === '')
    return { code: 'empty_input', message: 'the message is only white space' };
  if (controlCharacters.test(message)) {
    return { code: 'invalid_input', message: 'the message contains control characters' };
  }
  const tokens = countTokensOver(message, maxTokens);
  if (tokens !== undefined) {
    return {
      code: 'input_too_long',
      message: `the message is ${tokens} tokens long; at most ${maxTokens} fit (YEOUL_MAX_INPUT_TOKENS)`,
    };
  }
  return undefined;
}
