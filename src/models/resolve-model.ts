import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { awsCredentialChain } from './aws-credential-chain.ts';
import { ChatModel } from './chat-model.ts';
import { DeferredLanguageModel } from './deferred-language-model.ts';
import type { ModelChoice } from './model-chain.ts';
import type { ModelConfig, ModelName } from './model-config.ts';
import { OfflineLanguageModel } from './offline/offline-language-model.ts';
import type { ModelSettings, ProviderName } from './types.ts';

/**
 * The ChatModel a configuration names: its model, or its chain (the primary, then its
 * fallbacks, with the cool-down of `YEOUL_MODEL_COOLDOWN_MS`). OpenAI is spoken to through
 * its chat-completions API (so `OPENAI_BASE_URL` may point at any proxy that speaks it);
 * Ollama through its native API; `compat` through the OpenAI-compatible API at
 * `YEOUL_COMPAT_BASE_URL`; Bedrock through its Converse API, signed with SigV4 (or with a
 * Bedrock API key); Gemini through `generateContent`; Azure OpenAI through the Responses API,
 * the Azure provider's default. A provider's package loads on its model's first call, never
 * before.
 * @example
 * const model = resolveModel(readModelConfig({ YEOUL_MODEL: 'ollama:llama3.1' }));
 */
export function resolveModel(
  config: ModelConfig,
  settings: Partial<ModelSettings> = {},
): ChatModel {
  const [primary, ...fallbacks] = modelChoices(config);
  const { languageModel, info } = primary as ModelChoice;
  return new ChatModel(
    languageModel,
    info,
    { ...config.settings, ...settings },
    { fallbacks, cooldownMs: config.cooldownMs },
  );
}

/** The models a configuration's chain names, in order, each ready to be called. */
export function modelChoices(config: ModelConfig): ModelChoice[] {
  return config.models.map((info) => ({ languageModel: languageModelFor(info, config), info }));
}

function languageModelFor({ provider, modelId }: ModelName, config: ModelConfig): LanguageModel {
  if (provider === 'offline') return new OfflineLanguageModel(modelId);
  return new DeferredLanguageModel({ provider, modelId }, () =>
    providerModel(provider, modelId, config),
  );
}

/** The provider package's model, built from the settings as read (keys and base URLs passed, not left to `process.env`). */
async function providerModel(
  provider: Exclude<ProviderName, 'offline'>,
  modelId: string,
  config: ModelConfig,
): Promise<LanguageModelV4> {
  switch (provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: config.openai.apiKey, baseURL: config.openai.baseUrl }).chat(
        modelId,
      );
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        apiKey: config.anthropic.apiKey,
        baseURL: config.anthropic.baseUrl,
      })(modelId);
    }
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2');
      return createOllama({ baseURL: `${config.ollama.baseUrl.replace(/\/+$/, '')}/api` })(modelId);
    }
    case 'compat': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'compat',
        baseURL: config.compat.baseUrl as string,
        ...(config.compat.apiKey ? { apiKey: config.compat.apiKey } : {}),
        includeUsage: true,
      }).chatModel(modelId);
    }
    case 'bedrock': {
      const { createAmazonBedrock } = await import('@ai-sdk/amazon-bedrock');
      const bedrock = config.bedrock ?? {};
      // As in the AWS SDK, a profile wins over keys in the environment.
      const keys =
        bedrock.profile === undefined &&
        bedrock.accessKeyId !== undefined &&
        bedrock.secretAccessKey !== undefined
          ? {
              accessKeyId: bedrock.accessKeyId,
              secretAccessKey: bedrock.secretAccessKey,
              ...(bedrock.sessionToken ? { sessionToken: bedrock.sessionToken } : {}),
            }
          : { credentialProvider: awsCredentialChain(bedrock) };
      return createAmazonBedrock({
        region: bedrock.region,
        ...(bedrock.baseUrl ? { baseURL: bedrock.baseUrl } : {}),
        ...(bedrock.apiKey ? { apiKey: bedrock.apiKey } : keys),
      })(modelId);
    }
    case 'google': {
      const { createGoogle } = await import('@ai-sdk/google');
      return createGoogle({
        apiKey: config.google?.apiKey,
        ...(config.google?.baseUrl ? { baseURL: config.google.baseUrl } : {}),
      })(modelId);
    }
    case 'azure': {
      const { createAzure } = await import('@ai-sdk/azure');
      return createAzure({
        apiKey: config.azure?.apiKey,
        ...(config.azure?.baseUrl
          ? { baseURL: config.azure.baseUrl }
          : { resourceName: config.azure?.resourceName }),
      })(modelId);
    }
  }
}
