import type { LanguageModel } from 'ai';
import { ChatModel } from './chat-model.ts';
import { ModelConfigError } from './errors/model-config-error.ts';
import { readModelConfig } from './model-config.ts';
import type { ModelVariables } from './model-variables.ts';
import { resolveModel } from './resolve-model.ts';
import type { ModelSettings } from './types.ts';

/** A model as a config file names it: `provider:model id`, or any AI SDK language model object. */
export type ModelSpec = string | LanguageModel;

/**
 * The ChatModel a spec names: a `provider:model id` string is resolved as `YEOUL_MODEL` is
 * (keys and base URLs from the model variables); an AI SDK model object (from any provider
 * package) is used as it is, under the provider and id it reports.
 * @example
 * const model = chatModelFrom('anthropic:claude-haiku-4-5', { ANTHROPIC_API_KEY: key });
 * const bedrock = chatModelFrom(createAmazonBedrock()('anthropic.claude-3-haiku'), {});
 */
export function chatModelFrom(
  spec: ModelSpec,
  env: ModelVariables,
  settings: Partial<ModelSettings> = {},
): ChatModel {
  if (typeof spec === 'string') {
    const config = readModelConfig({ ...env, YEOUL_MODEL: spec.trim() || undefined });
    return resolveModel(config, settings);
  }
  if (!isLanguageModel(spec)) {
    throw new ModelConfigError({
      problems: ['a model is a "provider:model id" string or an AI SDK language model object'],
    });
  }
  return new ChatModel(spec, { provider: spec.provider, modelId: spec.modelId }, settings);
}

/** Whether a value is an AI SDK language model object (a provider package's model). */
export function isLanguageModel(value: unknown): value is Exclude<LanguageModel, string> {
  if (typeof value !== 'object' || value === null) return false;
  const model = value as Record<string, unknown>;
  return (
    typeof model.provider === 'string' &&
    typeof model.modelId === 'string' &&
    typeof model.doGenerate === 'function' &&
    typeof model.doStream === 'function'
  );
}
