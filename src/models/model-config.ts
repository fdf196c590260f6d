import { z } from 'zod';
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
  openai: { apiKey?: string; baseUrl?: string };
  anthropic: { apiKey?: string; baseUrl?: string };
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

const positiveInteger = z.coerce.number().int().positive();
const settingsSchema = z.object({
  YEOUL_MAX_INPUT_TOKENS: positiveInteger.optional(),
  YEOUL_MAX_OUTPUT_TOKENS: positiveInteger.optional(),
  YEOUL_MODEL_TIMEOUT_MS: positiveInteger.optional(),
});

/**
 * Reads the model configuration from environment variables:
 * `YEOUL_MODEL=<provider>:<model id>`, else openai when `OPENAI_API_KEY` is set, else
 * anthropic when `ANTHROPIC_API_KEY` is set, else the offline model. Reports every
 * problem at once (unknown provider, missing key, region or URL, a base URL on a port
 * fetch refuses, bad limits).
 */
export function readModelConfig(env: Record<string, string | undefined>): ModelConfig {
  const problems: string[] = [];
  const value = (name: string) => {
    const text = env[name]?.trim();
    return text ? text : undefined;
  };
  const spec = value('YEOUL_MODEL');
  let provider: ProviderName;
  let modelId: string | undefined;
  if (spec === undefined) {
    provider = value('OPENAI_API_KEY')
      ? 'openai'
      : value('ANTHROPIC_API_KEY')
        ? 'anthropic'
        : 'offline';
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
  if (provider === 'openai' && !value('OPENAI_API_KEY'))
    problems.push('YEOUL_MODEL uses openai but OPENAI_API_KEY is not set');
  if (provider === 'anthropic' && !value('ANTHROPIC_API_KEY')) {
    problems.push('YEOUL_MODEL uses anthropic but ANTHROPIC_API_KEY is not set');
  }
  if (provider === 'compat' && !value('YEOUL_COMPAT_BASE_URL')) {
    problems.push(
      'YEOUL_MODEL uses compat but YEOUL_COMPAT_BASE_URL is not set (the server URL ending in /v1)',
    );
  }
  if (defaultModelIds[provider] === undefined && modelId === undefined) {
    const id = provider === 'azure' ? 'deployment' : 'model id';
    problems.push(`YEOUL_MODEL=${provider} needs a ${id}: ${provider}:<${id}>`);
  }
  const bedrock = provider === 'bedrock' ? readBedrockSettings(value, problems) : undefined;
  const google = provider === 'google' ? readGoogleSettings(value, problems) : undefined;
  const azure = provider === 'azure' ? readAzureSettings(value, problems) : undefined;
  for (const name of baseUrlNames) {
    // The AWS endpoints serve other clients too (CloudWatch logs): judged only for Bedrock.
    const url = name.startsWith('AWS_') && provider !== 'bedrock' ? undefined : value(name);
    if (url === undefined) continue;
    if (!URL.canParse(url)) problems.push(`${name} is not a URL: ${url}`);
    const port = blockedPort(url);
    if (port !== undefined) problems.push(`${name} (${url}): ${blockedPortReason(port)}`);
  }
  const limits = settingsSchema.safeParse(env);
  if (!limits.success) {
    for (const issue of limits.error.issues)
      problems.push(`${issue.path.join('.')} must be a positive whole number`);
  }
  if (problems.length > 0) throw new ModelConfigError({ problems });
  const parsed = limits.data ?? {};
  return {
    model: { provider, modelId: modelId ?? (defaultModelIds[provider] as string) },
    openai: {
      ...optional('apiKey', value('OPENAI_API_KEY')),
      ...optional('baseUrl', value('OPENAI_BASE_URL')),
    },
    anthropic: {
      ...optional('apiKey', value('ANTHROPIC_API_KEY')),
      ...optional('baseUrl', value('ANTHROPIC_BASE_URL')),
    },
    ollama: { baseUrl: value('OLLAMA_BASE_URL') ?? 'http://127.0.0.1:11434' },
    compat: {
      ...optional('baseUrl', value('YEOUL_COMPAT_BASE_URL')),
      ...optional('apiKey', value('YEOUL_COMPAT_API_KEY')),
    },
    ...optional('bedrock', bedrock),
    ...optional('google', google),
    ...optional('azure', azure),
    settings: {
      ...optional('maxInputTokens', parsed.YEOUL_MAX_INPUT_TOKENS),
      ...optional('maxOutputTokens', parsed.YEOUL_MAX_OUTPUT_TOKENS),
      ...optional('timeoutMs', parsed.YEOUL_MODEL_TIMEOUT_MS),
    },
  };
}

function optional<Key extends string, Value>(
  key: Key,
  value: Value | undefined,
): Partial<Record<Key, Value>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, Value>);
}
