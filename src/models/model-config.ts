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
import { defaultCooldownMs } from './model-chain.ts';
import { defaultBaseUrls, type ModelVariables } from './model-variables.ts';
import { defaultModelIds, providers } from './providers.ts';
import type { ModelSettings, ProviderName } from './types.ts';

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

/** One model `YEOUL_MODEL` names. */
export interface ModelName {
  provider: ProviderName;
  modelId: string;
}

/** Everything model resolution reads from the environment. */
export interface ModelConfig {
  /** The primary model (the first of `models`). */
  model: ModelName;
  /** The chain: the primary, then its fallbacks in order. */
  models: ModelName[];
  /** How long a model whose call moved on to the next is skipped, in ms (0: never). */
  cooldownMs: number;
  openai: { apiKey?: string; baseUrl: string };
  anthropic: { apiKey?: string; baseUrl: string };
  ollama: { baseUrl: string };
  compat: { baseUrl?: string; apiKey?: string };
  /** Present when a model of the chain is bedrock's. */
  bedrock?: BedrockSettings;
  /** Present when a model of the chain is google's. */
  google?: GoogleSettings;
  /** Present when a model of the chain is azure's. */
  azure?: AzureSettings;
  settings: Partial<ModelSettings>;
}

/**
 * Reads the model configuration from the model variables (trimmed, an empty value unset, the
 * limits parsed: see `modelVariables`): `YEOUL_MODEL=<provider>:<model id>`, or a chain
 * `primary,fallback,…` of them, else openai when `OPENAI_API_KEY` is set, else anthropic when
 * `ANTHROPIC_API_KEY` is set, else the offline model. Reports every problem at once (an
 * unknown provider anywhere in the chain, a missing key, region or URL, a base URL on a port
 * fetch refuses).
 * @example
 * const config = readModelConfig({ YEOUL_MODEL: 'ollama:qwen2.5:7b,openai:gpt-4o-mini', OPENAI_API_KEY: key });
 */
export function readModelConfig(env: ModelVariables): ModelConfig {
  const problems: string[] = [];
  const models =
    env.YEOUL_MODEL === undefined
      ? [defaultModel(env)]
      : env.YEOUL_MODEL.split(',').flatMap((entry, index) => {
          const model = parseModel(entry.trim(), index, problems);
          return model === undefined ? [] : [model];
        });
  const used = new Set(models.map((model) => model.provider));
  if (used.has('openai') && !env.OPENAI_API_KEY)
    problems.push('YEOUL_MODEL uses openai but OPENAI_API_KEY is not set');
  if (used.has('anthropic') && !env.ANTHROPIC_API_KEY) {
    problems.push('YEOUL_MODEL uses anthropic but ANTHROPIC_API_KEY is not set');
  }
  if (used.has('compat') && !env.YEOUL_COMPAT_BASE_URL) {
    problems.push(
      'YEOUL_MODEL uses compat but YEOUL_COMPAT_BASE_URL is not set (the server URL ending in /v1)',
    );
  }
  const bedrock = used.has('bedrock') ? readBedrockSettings(env, problems) : undefined;
  const google = used.has('google') ? readGoogleSettings(env, problems) : undefined;
  const azure = used.has('azure') ? readAzureSettings(env, problems) : undefined;
  for (const name of baseUrlNames) {
    // The AWS endpoints serve other clients too (CloudWatch logs): judged only for Bedrock.
    const url = name.startsWith('AWS_') && !used.has('bedrock') ? undefined : env[name];
    if (url === undefined) continue;
    if (!URL.canParse(url)) problems.push(`${name} is not a URL: ${url}`);
    const port = blockedPort(url);
    if (port !== undefined) problems.push(`${name} (${url}): ${blockedPortReason(port)}`);
  }
  if (problems.length > 0) throw new ModelConfigError({ problems });
  return {
    model: models[0] as ModelName,
    models,
    cooldownMs: env.YEOUL_MODEL_COOLDOWN_MS ?? defaultCooldownMs,
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

/** The model used when `YEOUL_MODEL` is unset: OpenAI's or Anthropic's when its key is set, else offline. */
function defaultModel(env: ModelVariables): ModelName {
  const provider = env.OPENAI_API_KEY ? 'openai' : env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline';
  return { provider, modelId: defaultModelIds[provider] as string };
}

/** One entry of `YEOUL_MODEL` (`<provider>:<model id>`, or a provider alone), its problems told. */
function parseModel(spec: string, index: number, problems: string[]): ModelName | undefined {
  const where = index === 0 ? 'YEOUL_MODEL' : `YEOUL_MODEL (model ${index + 1} of the chain)`;
  if (spec === '') {
    problems.push(`${where} is empty: give <provider>:<model id>, separated by commas`);
    return undefined;
  }
  const separator = spec.indexOf(':');
  const name = (separator === -1 ? spec : spec.slice(0, separator)).trim().toLowerCase();
  const modelId = separator === -1 ? undefined : spec.slice(separator + 1).trim() || undefined;
  if (!(providers as readonly string[]).includes(name)) {
    problems.push(
      `${where} names unknown provider "${name}"; use one of ${providers.join(', ')} as <provider>:<model id>`,
    );
    return undefined;
  }
  const provider = name as ProviderName;
  const id = modelId ?? defaultModelIds[provider];
  if (id === undefined) {
    const what = provider === 'azure' ? 'deployment' : 'model id';
    problems.push(`${where}=${provider} needs a ${what}: ${provider}:<${what}>`);
  }
  // Kept even without its id, so that the provider's own settings are checked too.
  return { provider, modelId: id ?? '' };
}

function optional<Key extends string, Value>(
  key: Key,
  value: Value | undefined,
): Partial<Record<Key, Value>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, Value>);
}
