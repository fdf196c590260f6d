import type { ProviderName } from './types.ts';

/** The providers `YEOUL_MODEL` may name. */
export const providers = [
  'openai',
  'anthropic',
  'ollama',
  'compat',
  'bedrock',
  'google',
  'azure',
  'offline',
] as const;

/**
 * Model ids used when `YEOUL_MODEL` names a provider without one, or is unset. Bedrock
 * (whose models depend on the account and region), Azure (whose deployments are named by
 * their owner) and compat have none: they need `<provider>:<model id>`.
 */
export const defaultModelIds: Partial<Record<ProviderName, string>> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  ollama: 'llama3.1',
  google: 'gemini-2.5-flash',
  offline: 'rules',
};

/**
 * The unknown provider names of a `YEOUL_MODEL` value (`<provider>:<model id>`, or a chain
 * `primary,fallback,…` of them), each once, in order; empty entries are not judged here.
 * @example
 * unknownProviders('gemini:pro,openai:gpt-4o-mini,mistral'); // ['gemini', 'mistral']
 */
export function unknownProviders(spec: string): string[] {
  const names = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => entry.split(':')[0]?.trim().toLowerCase() ?? '')
    .filter((name) => !(providers as readonly string[]).includes(name));
  return [...new Set(names)];
}
