import type { LanguageModel } from 'ai';
import { ChatModel } from './chat-model.ts';
import { ModelConfigError } from './errors/model-config-error.ts';
import { defaultCooldownMs, type ModelChoice } from './model-chain.ts';
import { readModelConfig } from './model-config.ts';
import type { ModelVariables } from './model-variables.ts';
import { modelChoices } from './resolve-model.ts';
import type { ModelSettings } from './types.ts';

/** A model as a config file names it: `provider:model id`, or any AI SDK language model object. */
export type ModelSpec = string | LanguageModel;

/** A model, or a fallback chain of them (the primary first), as a config file names it. */
export type ModelChainSpec = ModelSpec | readonly ModelSpec[];

/**
 * The ChatModel a spec names: a `provider:model id` string (or a chain `a,b`) is resolved as
 * `YEOUL_MODEL` is (keys and base URLs from the model variables); an AI SDK model object
 * (from any provider package) is used as it is, under the provider and id it reports; an
 * array is a fallback chain of such models, the primary first, with the cool-down of
 * `YEOUL_MODEL_COOLDOWN_MS`. Every problem is reported at once.
 * @example
 * const model = chatModelFrom('anthropic:claude-haiku-4-5', { ANTHROPIC_API_KEY: key });
 * const bedrock = chatModelFrom(createAmazonBedrock()('anthropic.claude-3-haiku'), {});
 * const chain = chatModelFrom(['openai:gpt-4o-mini', 'ollama:llama3.1'], { OPENAI_API_KEY: key });
 */
export function chatModelFrom(
  spec: ModelChainSpec,
  env: ModelVariables,
  settings: Partial<ModelSettings> = {},
): ChatModel {
  const specs: readonly ModelSpec[] = Array.isArray(spec) ? spec : [spec as ModelSpec];
  const problems: string[] = [];
  const choices: ModelChoice[] = [];
  let envSettings: Partial<ModelSettings> = {};
  specs.forEach((item, index) => {
    const place = specs.length > 1 ? `[${index}]: ` : '';
    if (typeof item === 'string') {
      try {
        const config = readModelConfig({ ...env, YEOUL_MODEL: item.trim() || undefined });
        envSettings = config.settings;
        choices.push(...modelChoices(config));
      } catch (error) {
        if (!(error instanceof ModelConfigError)) throw error;
        problems.push(...error.problems.map((problem) => `${place}${problem}`));
      }
    } else if (isLanguageModel(item)) {
      choices.push({
        languageModel: item,
        info: { provider: item.provider, modelId: item.modelId },
      });
    } else {
      problems.push(
        `${place}a model is a "provider:model id" string or an AI SDK language model object`,
      );
    }
  });
  const [primary, ...fallbacks] = choices;
  if (primary === undefined && problems.length === 0)
    problems.push('a model chain needs at least one model');
  if (primary === undefined || problems.length > 0) throw new ModelConfigError({ problems });
  return new ChatModel(
    primary.languageModel,
    primary.info,
    { ...envSettings, ...settings },
    { fallbacks, cooldownMs: env.YEOUL_MODEL_COOLDOWN_MS ?? defaultCooldownMs },
  );
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
