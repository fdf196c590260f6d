import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type EmbeddingModel, embedMany } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { ModelConfigError } from './errors/model-config-error.ts';

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
 * the knowledge base then searches by keywords only.
 */
export function resolveEmbedder(env: Record<string, string | undefined>): Embedder | undefined {
  const spec = env.YEOUL_EMBEDDING_MODEL?.trim();
  if (!spec) return undefined;
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
  const model = embeddingModelFor(provider, modelId, env);
  return {
    name: `${provider}:${modelId}`,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const { embeddings } = await embedMany({
          model,
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

function embeddingModelFor(
  provider: string,
  modelId: string,
  env: Record<string, string | undefined>,
): EmbeddingModel {
  if (provider === 'openai') {
    return createOpenAI({
      apiKey: env.OPENAI_API_KEY,
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    }).embedding(modelId);
  }
  if (provider === 'ollama') {
    const base = (env.OLLAMA_BASE_URL ?? 'http://127.0.0.1:11434').replace(/\/+$/, '');
    return createOllama({ baseURL: `${base}/api` }).embedding(modelId);
  }
  return createOpenAICompatible({
    name: 'compat',
    baseURL: env.YEOUL_COMPAT_BASE_URL as string,
    ...(env.YEOUL_COMPAT_API_KEY ? { apiKey: env.YEOUL_COMPAT_API_KEY } : {}),
  }).embeddingModel(modelId);
}
