import type { YeoulConfig } from './types.ts';

/**
 * The environment with the config file's settings as defaults: what the environment sets
 * (non-empty) wins, so one deployment can override a project's file without editing it.
 * A model given as an AI SDK object is not an environment value; the runtime takes it as is.
 * @example
 * envWithConfig({ YEOUL_MODEL: 'openai:gpt-4o' }, { models: { default: 'anthropic:claude-haiku-4-5' } });
 * // → { YEOUL_MODEL: 'openai:gpt-4o' }
 */
export function envWithConfig(
  env: Record<string, string | undefined>,
  config: YeoulConfig | undefined,
): Record<string, string | undefined> {
  if (config === undefined) return env;
  const fromConfig: Record<string, string | undefined> = {
    YEOUL_MODEL: typeof config.models?.default === 'string' ? config.models.default : undefined,
    YEOUL_EMBEDDING_MODEL: config.models?.embedding,
    YEOUL_MODEL_TIMEOUT_MS: numberText(config.models?.timeoutMs),
    YEOUL_MAX_INPUT_TOKENS: numberText(config.models?.maxInputTokens),
    YEOUL_MAX_OUTPUT_TOKENS: numberText(config.models?.maxOutputTokens),
    YEOUL_SEARCH_URL: config.knowledge?.searchUrl,
    YEOUL_SAMPLE_KNOWLEDGE:
      config.knowledge?.sampleDocuments === undefined
        ? undefined
        : String(config.knowledge.sampleDocuments),
    YEOUL_LOGS: config.logs,
    YEOUL_PROMETHEUS_URL: config.prometheusUrl,
    YEOUL_REQUESTS_PER_MINUTE: numberText(config.limits?.requestsPerMinute),
    YEOUL_TOKENS_PER_DAY: numberText(config.limits?.tokensPerDay),
    YEOUL_TOKENS_PER_MONTH: numberText(config.limits?.tokensPerMonth),
  };
  const merged: Record<string, string | undefined> = { ...env };
  for (const [name, value] of Object.entries(fromConfig)) {
    if (value !== undefined && (env[name] ?? '').trim() === '') merged[name] = value;
  }
  return merged;
}

function numberText(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}
