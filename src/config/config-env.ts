import type { JwtSettings } from '../identity/index.ts';
import type { ModelChainSpec } from '../models/index.ts';
import type { YeoulConfig } from './types.ts';

/**
 * The environment with the config file's settings as defaults: what the environment sets
 * (non-empty) wins, so one deployment can override a project's file without editing it.
 * A model chain of strings is `YEOUL_MODEL=a,b`; a model (or a chain holding one) given as an
 * AI SDK object is not an environment value: the runtime takes it as is.
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
    YEOUL_MODEL: modelText(config.models?.default),
    YEOUL_MODEL_COOLDOWN_MS: numberText(config.models?.cooldownMs),
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
    ...jwtVariables(config.auth?.jwt),
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

/** `YEOUL_MODEL`'s text of a model or a chain of them, when every one is a string. */
function modelText(spec: ModelChainSpec | undefined): string | undefined {
  if (typeof spec === 'string') return spec;
  if (Array.isArray(spec) && spec.every((model) => typeof model === 'string')) {
    return spec.join(',');
  }
  return undefined;
}

/** The config's `auth.jwt` as the `YEOUL_JWT_*` variables it stands for. */
function jwtVariables(jwt: JwtSettings | undefined): Record<string, string | undefined> {
  if (jwt === undefined) return {};
  return {
    YEOUL_JWT_SECRET: jwt.secret,
    YEOUL_JWT_PUBLIC_KEY: jwt.publicKey,
    YEOUL_JWT_JWKS: jwt.jwks,
    YEOUL_JWT_ISSUER: jwt.issuer,
    YEOUL_JWT_AUDIENCE: Array.isArray(jwt.audience) ? jwt.audience.join(',') : jwt.audience,
    YEOUL_JWT_OWNER_CLAIM: jwt.ownerClaim,
    YEOUL_JWT_SCOPES_CLAIM: jwt.scopesClaim,
  };
}

function numberText(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}
