import { type EmbeddingModel, embedMany } from 'ai';
import { ModelConfigError } from './errors/model-config-error.ts';
import { defaultBaseUrls, type ModelVariables } from './model-variables.ts';

/** Turns texts into vectors (for the knowledge base's vector index). */
export interface Embedder {
  /** `<provider>:<model id>`, as configured. */
  readonly name: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

const embeddingProviders = ['openai', 'ollama', 'compat'] as const;
const batchSize = 64;

/**
 * The embedder `YEOUL_EMBEDDING_MODEL=<provider>:<model id>` names (openai, ollama or
 * compat, with the same keys and URLs as chat models), or undefined when it is unset:
 * the knowledge base then searches by keywords only. The provider's package loads on the
 * first texts embedded.
 */
export function resolveEmbedder(env: ModelVariables): Embedder | undefined {
  const spec = env.YEOUL_EMBEDDING_MODEL;
  if (spec === undefined) return undefined;
  const separator = spec.indexOf(':');
  const provider = (separator === -1 ? spec : spec.slice(0, separator)).toLowerCase();
  const modelId = separator === -1 ? '' : spec.slice(separator + 1).trim();
  const problems: string[] = [];
  if (!(embeddingProviders as readonly string[]).includes(provider)) {
    problems.push(
      `YEOUL_EMBEDDING_MODEL names unknown provider "${provider}"; use ${embeddingProviders.join(', ')}`,
    );
  }
  if (modelId === '')
    problems.push('YEOUL_EMBEDDING_MODEL needs a model id: <provider>:<model id>');
  if (provider === 'openai' && !env.OPENAI_API_KEY)
    problems.push('YEOUL_EMBEDDING_MODEL uses openai but OPENAI_API_KEY is not set');
  if (provider === 'compat' && !env.YEOUL_COMPAT_BASE_URL) {
    problems.push('YEOUL_EMBEDDING_MODEL uses compat but YEOUL_COMPAT_BASE_URL is not set');
  }
  if (problems.length > 0) throw new ModelConfigError({ problems });
  let model: Promise<EmbeddingModel> | undefined;
  return {
    name: `${provider}:${modelId}`,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        model ??= embeddingModelFor(provider, modelId, env);
        const { embeddings } = await embedMany({
          model: await model,
          values: texts.slice(start, start + batchSize),
          maxRetries: 2,
          ...(signal ? { abortSignal: signal } : {}),
        });
        vectors.push(...embeddings);
      }
      return vectors;
    },
  };
}

async function embeddingModelFor(
  provider: string,
  modelId: string,
  env: ModelVariables,
): Promise<EmbeddingModel> {
  if (provider === 'openai') {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return createOpenAI({
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL ?? defaultBaseUrls.openai,
    }).embedding(modelId);
  }
  if (provider === 'ollama') {
    const { createOllama } = await import('ollama-ai-provider-v2');
    const base = (env.OLLAMA_BASE_URL ?? defaultBaseUrls.ollama).replace(/\/+$/, '');
    return createOllama({ baseURL: `${base}/api` }).embedding(modelId);
  }
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return createOpenAICompatible({
    name: 'compat',
    baseURL: env.YEOUL_COMPAT_BASE_URL as string,
    ...(env.YEOUL_COMPAT_API_KEY ? { apiKey: env.YEOUL_COMPAT_API_KEY } : {}),
  }).embeddingModel(modelId);
}
