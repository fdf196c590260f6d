import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelConfigError } from './errors/model-config-error.ts';
import { readModelConfig } from './model-config.ts';
import { resolveModel } from './resolve-model.ts';

describe('model configuration', () => {
  it('uses the offline model with no keys and no YEOUL_MODEL', () => {
    assert.deepEqual(readModelConfig({}).model, { provider: 'offline', modelId: 'rules' });
  });

  it('prefers OpenAI, then Anthropic, when their keys are set', () => {
    assert.equal(
      readModelConfig({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a' }).model.provider,
      'openai',
    );
    assert.equal(readModelConfig({ ANTHROPIC_API_KEY: 'a' }).model.provider, 'anthropic');
  });

  it('reads <provider>:<model id>, keeping colons inside the id', () => {
    assert.deepEqual(readModelConfig({ YEOUL_MODEL: 'ollama:qwen2.5:7b' }).model, {
      provider: 'ollama',
      modelId: 'qwen2.5:7b',
    });
    assert.deepEqual(readModelConfig({ YEOUL_MODEL: 'openai', OPENAI_API_KEY: 'k' }).model, {
      provider: 'openai',
      modelId: 'gpt-4o-mini',
    });
  });

  it('reports every problem at once', () => {
    assert.throws(
      () =>
        readModelConfig({
          YEOUL_MODEL: 'compat',
          OLLAMA_BASE_URL: 'not a url',
          YEOUL_MAX_INPUT_TOKENS: '-5',
        }),
      (error: unknown) =>
        error instanceof ModelConfigError &&
        error.code === 'model_config' &&
        error.problems.some((problem) => problem.includes('YEOUL_COMPAT_BASE_URL')) &&
        error.problems.some((problem) => problem.includes('compat:<model id>')) &&
        error.problems.some((problem) => problem.includes('OLLAMA_BASE_URL')) &&
        error.problems.some((problem) => problem.includes('YEOUL_MAX_INPUT_TOKENS')),
    );
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'gemini:pro' }),
      /unknown provider "gemini"/,
    );
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'anthropic:claude' }),
      /ANTHROPIC_API_KEY is not set/,
    );
  });

  it('takes the token limits from the environment', () => {
    const config = readModelConfig({
      YEOUL_MAX_INPUT_TOKENS: '8000',
      YEOUL_MAX_OUTPUT_TOKENS: '512',
    });
    const model = resolveModel(config);
    assert.equal(model.settings.maxInputTokens, 8000);
    assert.equal(model.settings.maxOutputTokens, 512);
    assert.equal(model.settings.maxAttempts, 3);
  });

  it('builds a model for every provider', () => {
    const cases = [
      { YEOUL_MODEL: 'openai:gpt-test', OPENAI_API_KEY: 'k' },
      { YEOUL_MODEL: 'anthropic:claude-test', ANTHROPIC_API_KEY: 'k' },
      { YEOUL_MODEL: 'ollama:llama3.1' },
      { YEOUL_MODEL: 'compat:m', YEOUL_COMPAT_BASE_URL: 'http://127.0.0.1:9/v1' },
      {},
    ];
    assert.deepEqual(
      cases.map((env) => resolveModel(readModelConfig(env)).info.provider),
      ['openai', 'anthropic', 'ollama', 'compat', 'offline'],
    );
  });
});
