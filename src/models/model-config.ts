import { blockedPort, blockedPortReason } from '../core/index.ts';
import {
  type AzureSettings,
  type BedrockSettings,
  type GoogleSettings,
  readAzureSettings,
  readBedrockSettings,
  readGoogleSettings,
} from './cloud-settings.ts';
import { ModelConfigError } from './errors/model-config-error.ts';
import { defaultBaseUrls, type ModelVariables } from './model-variables.ts';
import type { ModelSettings, ProviderName } from './types.ts';

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

/** The environment variables that hold a base URL a model is reached at. */
const baseUrlNames = [
  'OPENAI_BASE_URL',
  'ANTHROPIC_BASE_URL',
  'OLLAMA_BASE_URL',
  'YEOUL_COMPAT_BASE_URL',
  'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
  'AWS_ENDPOINT_URL',
  'GOOGLE_GENERATIVE_AI_BASE_URL',
  'AZURE_BASE_URL',
] as const;

/** Everything model resolution reads from the environment. */
export interface ModelConfig {
  model: { provider: ProviderName; modelId: string };
  openai: { apiKey?: string; baseUrl: string };
  anthropic: { apiKey?: string; baseUrl: string };
  ollama: { baseUrl: string };
  compat: { baseUrl?: string; apiKey?: string };
  /** Present when the provider is bedrock. */
  bedrock?: BedrockSettings;
  /** Present when the provider is google. */
  google?: GoogleSettings;
  /** Present when the provider is azure. */
  azure?: AzureSettings;
  settings: Partial<ModelSettings>;
}

/**
 * Reads the model configuration from the model variables (trimmed, an empty value unset, the
 * limits parsed: see `modelVariables`): `YEOUL_MODEL=<provider>:<model id>`, else openai when
 * `OPENAI_API_KEY` is set, else anthropic when `ANTHROPIC_API_KEY` is set, else the offline
 * model. Reports every problem at once (unknown provider, missing key, region or URL, a base
 * URL on a port fetch refuses).
 * @example
 * const config = readModelConfig({ YEOUL_MODEL: 'ollama:qwen2.5:7b' });
 */
export function readModelConfig(env: ModelVariables): ModelConfig {
  const problems: string[] = [];
  const spec = env.YEOUL_MODEL;
  let provider: ProviderName;
  let modelId: string | undefined;
  if (spec === undefined) {
    provider = env.OPENAI_API_KEY ? 'openai' : env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline';
  } else {
    const separator = spec.indexOf(':');
    const name = (separator === -1 ? spec : spec.slice(0, separator)).toLowerCase();
    modelId = separator === -1 ? undefined : spec.slice(separator + 1).trim() || undefined;
    if ((providers as readonly string[]).includes(name)) provider = name as ProviderName;
    else {
      problems.push(
        `YEOUL_MODEL names unknown provider "${name}"; use one of ${providers.join(', ')} as <provider>:<model id>`,
      );
      provider = 'offline';
    }
  }
  if (provider === 'openai' && !env.OPENAI_API_KEY)
    problems.push('YEOUL_MODEL uses openai but OPENAI_API_KEY is not set');
  if (provider === 'anthropic' && !env.ANTHROPIC_API_KEY) {
    problems.push('YEOUL_MODEL uses anthropic but ANTHROPIC_API_KEY is not set');
  }
  if (provider === 'compat' && !env.YEOUL_COMPAT_BASE_URL) {
    problems.push(
      'YEOUL_MODEL uses compat but YEOUL_COMPAT_BASE_URL is not set (the server URL ending in /v1)',
    );
  }
  if (defaultModelIds[provider] === undefined && modelId === undefined) {
    const id = provider === 'azure' ? 'deployment' : 'model id';
    problems.push(`YEOUL_MODEL=${provider} needs a ${id}: ${provider}:<${id}>`);
  }
  const bedrock = provider === 'bedrock' ? readBedrockSettings(env, problems) : undefined;
  const google = provider === 'google' ? readGoogleSettings(env, problems) : undefined;
  const azure = provider === 'azure' ? readAzureSettings(env, problems) : undefined;
  for (const name of baseUrlNames) {
    // The AWS endpoints serve other clients too (CloudWatch logs): judged only for Bedrock.
    const url = name.startsWith('AWS_') && provider !== 'bedrock' ? undefined : env[name];
    if (url === undefined) continue;
    if (!URL.canParse(url)) problems.push(`${name} is not a URL: ${url}`);
    const port = blockedPort(url);
    if (port !== undefined) problems.push(`${name} (${url}): ${blockedPortReason(port)}`);
  }
  if (problems.length > 0) throw new ModelConfigError({ problems });
  return {
    model: { provider, modelId: modelId ?? (defaultModelIds[provider] as string) },
    openai: {
      ...optional('apiKey', env.OPENAI_API_KEY),
      baseUrl: env.OPENAI_BASE_URL ?? defaultBaseUrls.openai,
    },
    anthropic: {
      ...optional('apiKey', env.ANTHROPIC_API_KEY),
      baseUrl: env.ANTHROPIC_BASE_URL ?? defaultBaseUrls.anthropic,
    },
    ollama: { baseUrl: env.OLLAMA_BASE_URL ?? defaultBaseUrls.ollama },
    compat: {
      ...optional('baseUrl', env.YEOUL_COMPAT_BASE_URL),
      ...optional('apiKey', env.YEOUL_COMPAT_API_KEY),
    },
    ...optional('bedrock', bedrock),
    ...optional('google', google),
    ...optional('azure', azure),
    settings: {
      ...optional('maxInputTokens', env.YEOUL_MAX_INPUT_TOKENS),
      ...optional('maxOutputTokens', env.YEOUL_MAX_OUTPUT_TOKENS),
      ...optional('timeoutMs', env.YEOUL_MODEL_TIMEOUT_MS),
    },
  };
}

function optional<Key extends string, Value>(
  key: Key,
  value: Value | undefined,
): Partial<Record<Key, Value>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, Value>);
}
