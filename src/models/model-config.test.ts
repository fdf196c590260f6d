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

  // A limit that is not a positive whole number is refused by the environment's schema.
  it('reports every problem at once', () => {
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'compat', OLLAMA_BASE_URL: 'not a url' }),
      (error: unknown) =>
        error instanceof ModelConfigError &&
        error.code === 'model_config' &&
        error.problems.some((problem) => problem.includes('YEOUL_COMPAT_BASE_URL')) &&
        error.problems.some((problem) => problem.includes('compat:<model id>')) &&
        error.problems.some((problem) => problem.includes('OLLAMA_BASE_URL')),
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
      YEOUL_MAX_INPUT_TOKENS: 8000,
      YEOUL_MAX_OUTPUT_TOKENS: 512,
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
      { YEOUL_MODEL: 'compat:m', YEOUL_COMPAT_BASE_URL: 'http://127.0.0.1:8999/v1' },
      {
        YEOUL_MODEL: 'bedrock:amazon.nova-lite-v1:0',
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'AKIA',
        AWS_SECRET_ACCESS_KEY: 's',
      },
      { YEOUL_MODEL: 'google:gemini-2.5-flash', GOOGLE_GENERATIVE_AI_API_KEY: 'k' },
      { YEOUL_MODEL: 'azure:my-deployment', AZURE_API_KEY: 'k', AZURE_RESOURCE_NAME: 'yeoul' },
      {},
    ];
    assert.deepEqual(
      cases.map((env) => `${resolveModel(readModelConfig(env)).info.provider}`),
      ['openai', 'anthropic', 'ollama', 'compat', 'bedrock', 'google', 'azure', 'offline'],
    );
  });

  it('refuses a base URL on a port fetch blocks, naming the port and why', () => {
    assert.throws(
      () =>
        readModelConfig({
          YEOUL_MODEL: 'compat:m',
          YEOUL_COMPAT_BASE_URL: 'http://127.0.0.1:6000/v1',
          OLLAMA_BASE_URL: 'http://localhost:6667',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ModelConfigError);
        assert.deepEqual(error.problems, [
          'OLLAMA_BASE_URL (http://localhost:6667): port 6667 is blocked by fetch (a "bad port" in the WHATWG Fetch standard, reserved for another protocol), so no request can reach it; choose another port',
          'YEOUL_COMPAT_BASE_URL (http://127.0.0.1:6000/v1): port 6000 is blocked by fetch (a "bad port" in the WHATWG Fetch standard, reserved for another protocol), so no request can reach it; choose another port',
        ]);
        return true;
      },
    );
    assert.throws(
      () =>
        readModelConfig({
          YEOUL_MODEL: 'bedrock:m',
          AWS_REGION: 'us-east-1',
          AWS_PROFILE: 'p',
          AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:10080',
        }),
      /AWS_ENDPOINT_URL_BEDROCK_RUNTIME \(http:\/\/127\.0\.0\.1:10080\): port 10080 is blocked/,
    );
    // The shared AWS endpoint is only the model's business when the model is on Bedrock.
    assert.equal(
      readModelConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:6000' }).model.provider,
      'offline',
    );
  });
});
