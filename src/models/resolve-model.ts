import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogle } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { awsCredentialChain } from './aws-credential-chain.ts';
import { ChatModel } from './chat-model.ts';
import type { ModelConfig } from './model-config.ts';
import { OfflineLanguageModel } from './offline/offline-language-model.ts';
import type { ModelSettings } from './types.ts';

/**
 * The ChatModel a configuration names. OpenAI is spoken to through its chat-completions
 * API (so `OPENAI_BASE_URL` may point at any proxy that speaks it); Ollama through its
 * native API; `compat` through the OpenAI-compatible API at `YEOUL_COMPAT_BASE_URL`;
 * Bedrock through its Converse API, signed with SigV4 (or with a Bedrock API key); Gemini
 * through `generateContent`; Azure OpenAI through the Responses API, the Azure provider's
 * default.
 * @example
 * const model = resolveModel(readModelConfig(process.env));
 */
export function resolveModel(
  config: ModelConfig,
  settings: Partial<ModelSettings> = {},
): ChatModel {
  return new ChatModel(languageModelFor(config), config.model, { ...config.settings, ...settings });
}

function languageModelFor(config: ModelConfig): LanguageModel {
  const { provider, modelId } = config.model;
  switch (provider) {
    case 'openai':
      return createOpenAI({
        apiKey: config.openai.apiKey,
        ...(config.openai.baseUrl ? { baseURL: config.openai.baseUrl } : {}),
      }).chat(modelId);
    case 'anthropic':
      return createAnthropic({
        apiKey: config.anthropic.apiKey,
        ...(config.anthropic.baseUrl ? { baseURL: config.anthropic.baseUrl } : {}),
      })(modelId);
    case 'ollama':
      return createOllama({ baseURL: `${config.ollama.baseUrl.replace(/\/+$/, '')}/api` })(modelId);
    case 'compat':
      return createOpenAICompatible({
        name: 'compat',
        baseURL: config.compat.baseUrl as string,
        ...(config.compat.apiKey ? { apiKey: config.compat.apiKey } : {}),
        includeUsage: true,
      }).chatModel(modelId);
    case 'bedrock': {
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
    case 'google':
      return createGoogle({
        apiKey: config.google?.apiKey,
        ...(config.google?.baseUrl ? { baseURL: config.google.baseUrl } : {}),
      })(modelId);
    case 'azure':
      return createAzure({
        apiKey: config.azure?.apiKey,
        ...(config.azure?.baseUrl
          ? { baseURL: config.azure.baseUrl }
          : { resourceName: config.azure?.resourceName }),
      })(modelId);
    case 'offline':
      return new OfflineLanguageModel(modelId);
  }
}
