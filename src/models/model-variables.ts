import { z } from 'zod';
import { environmentVariable, wholeNumber } from '../core/index.ts';
import { defaultModelSettings } from './chat-model.ts';
import { cloudVariables } from './cloud-variables.ts';
import { defaultCooldownMs } from './model-chain.ts';
import { providers, unknownProviders } from './providers.ts';

/** Where OpenAI, Anthropic and Ollama are reached unless their base URL variable says otherwise. */
export const defaultBaseUrls = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://127.0.0.1:11434',
} as const;

/** `YEOUL_MODEL`'s text: every model of the chain names a known provider (all unknown ones named). */
const modelChainText = z.string().superRefine((spec, context) => {
  const unknown = unknownProviders(spec);
  if (unknown.length === 0) return;
  context.addIssue({
    code: 'custom',
    message: `names unknown provider${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}; use ${providers.join(', ')} as <provider>:<model id>, comma-separated for a fallback chain`,
  });
});

/** The environment variables that choose the model and reach it (cloud providers included). */
export const modelVariables = z.object({
  YEOUL_MODEL: environmentVariable(modelChainText.optional(), {
    meaning:
      '`<provider>:<model id>`, or a fallback chain `primary,fallback,…` of them (each with its provider’s own settings); providers `openai`, `anthropic`, `ollama`, `compat`, `bedrock`, `google`, `azure`, `offline` (a provider alone takes its default model id)',
    default:
      '`openai:gpt-4o-mini` if `OPENAI_API_KEY` is set, else `anthropic:claude-haiku-4-5` if `ANTHROPIC_API_KEY`, else `offline`',
  }),
  OPENAI_API_KEY: environmentVariable(z.string().optional(), { meaning: 'OpenAI’s API key' }),
  OPENAI_BASE_URL: environmentVariable(z.string().optional(), {
    meaning: 'OpenAI’s base URL: any server that speaks its chat-completions API',
    default: `\`${defaultBaseUrls.openai}\``,
  }),
  ANTHROPIC_API_KEY: environmentVariable(z.string().optional(), { meaning: 'Anthropic’s API key' }),
  ANTHROPIC_BASE_URL: environmentVariable(z.string().optional(), {
    meaning: 'Anthropic’s base URL',
    default: `\`${defaultBaseUrls.anthropic}\``,
  }),
  OLLAMA_BASE_URL: environmentVariable(z.string().optional(), {
    meaning: 'Ollama’s base URL',
    default: `\`${defaultBaseUrls.ollama}\``,
  }),
  YEOUL_COMPAT_BASE_URL: environmentVariable(z.string().optional(), {
    meaning:
      'base URL (ending in `/v1`) of any OpenAI-compatible server (vLLM, LM Studio, llama.cpp server, …); `compat` needs it',
  }),
  YEOUL_COMPAT_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'the OpenAI-compatible server’s key, when it wants one',
  }),
  YEOUL_MODEL_TIMEOUT_MS: environmentVariable(
    wholeNumber({ min: 1, unit: 'milliseconds' }).optional(),
    { meaning: 'per-attempt model time-out', default: `\`${defaultModelSettings.timeoutMs}\`` },
  ),
  YEOUL_MODEL_COOLDOWN_MS: environmentVariable(
    wholeNumber({ min: 0, unit: 'milliseconds' }).optional(),
    {
      meaning:
        'how long a model of the chain whose call moved on to the next is skipped (`0`: never skipped; the last model never is)',
      default: `\`${defaultCooldownMs}\``,
    },
  ),
  YEOUL_MAX_INPUT_TOKENS: environmentVariable(wholeNumber({ min: 1 }).optional(), {
    meaning: 'input token budget of a model call (older history is left out to fit)',
    default: `\`${defaultModelSettings.maxInputTokens}\``,
  }),
  YEOUL_MAX_OUTPUT_TOKENS: environmentVariable(wholeNumber({ min: 1 }).optional(), {
    meaning: 'output token cap of a model call',
    default: `\`${defaultModelSettings.maxOutputTokens}\``,
  }),
  YEOUL_EMBEDDING_MODEL: environmentVariable(z.string().optional(), {
    meaning:
      '`<provider>:<model id>` for vector search: `openai`, `ollama` or `compat`, with the same keys and URLs as chat models',
    default: 'unset = keyword search only',
  }),
  ...cloudVariables.shape,
});

/** The model variables as read: trimmed, an empty value unset, numbers parsed. */
export type ModelVariables = z.output<typeof modelVariables>;
