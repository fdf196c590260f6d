import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withoutBlankValues } from '../core/index.ts';
import {
  type FakeChatProvider,
  startFakeAzureOpenAi,
  startFakeBedrock,
  startFakeGemini,
} from '../testing/internal/index.ts';
import type { DeferredLanguageModel } from './deferred-language-model.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import { ModelConfigError } from './errors/model-config-error.ts';
import { readModelConfig } from './model-config.ts';
import { modelVariables } from './model-variables.ts';
import { resolveModel } from './resolve-model.ts';

// biome-ignore lint/suspicious/noExplicitAny: provider internals, read for their URLs
type Json = any;

const fakes: FakeChatProvider[] = [];
const root = mkdtempSync(join(tmpdir(), 'yeoul-cloud-providers-'));
after(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  rmSync(root, { recursive: true, force: true });
});

const question = [{ role: 'user' as const, content: '안녕하세요' }];
const aws = { accessKeyId: 'AKIAFAKEYEOUL0000001', secretAccessKey: 'fake/secret+key' };
const fast = { retryBaseDelayMs: 5, retryMaxDelayMs: 50, timeoutMs: 5000 };

async function started<T extends FakeChatProvider>(fake: Promise<T>): Promise<T> {
  const ready = await fake;
  fakes.push(ready);
  return ready;
}

function bedrockEnv(fake: FakeChatProvider, extra: Record<string, string> = {}) {
  return {
    YEOUL_MODEL: 'bedrock:amazon.nova-lite-v1:0',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.baseUrl,
    HOME: root,
    ...extra,
  };
}

/** The failure a call ends in. */
async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelCallError, String(error));
    return error;
  }
  assert.fail('the call should have failed');
}

describe('bedrock credentials, as the AWS SDK reads them', () => {
  it('signs with the keys in the environment; a wrong secret is refused (403) and not retried', async () => {
    const fake = await started(startFakeBedrock([{ kind: 'text', text: 'ok' }], aws));
    const env = bedrockEnv(fake, {
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
    });
    assert.equal(
      (await resolveModel(readModelConfig(env)).call({ messages: question })).text,
      'ok',
    );
    const authorization = String(fake.server.requests[0]?.headers.authorization);
    assert.match(authorization, /Credential=AKIAFAKEYEOUL0000001\/\d{8}\/us-east-1\/bedrock\//);

    const wrong = resolveModel(readModelConfig({ ...env, AWS_SECRET_ACCESS_KEY: 'other' }), fast);
    const failure = await failureOf(wrong.call({ messages: question }));
    assert.equal(failure.code, 'model_auth_failed');
    assert.equal(failure.status, 403);
    assert.equal(failure.attempts, 1);
    assert.match(failure.message, /signature we calculated does not match/);
    assert.equal(fake.server.requests.length, 2);
  });

  it('sends the session token of temporary keys, signed', async () => {
    const temporary = { ...aws, sessionToken: 'FwoGZXIvYXdzEFAKE//token' };
    const fake = await started(startFakeBedrock([{ kind: 'text', text: 'ok' }], temporary));
    const env = bedrockEnv(fake, {
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
      AWS_SESSION_TOKEN: temporary.sessionToken,
    });
    assert.equal(
      (await resolveModel(readModelConfig(env)).call({ messages: question })).text,
      'ok',
    );
    assert.equal(fake.server.requests[0]?.headers['x-amz-security-token'], temporary.sessionToken);
  });

  it('reads a profile from the shared credentials file (AWS_PROFILE), which wins over keys', async () => {
    const fake = await started(
      startFakeBedrock([{ kind: 'text', text: '프로필로 서명했어요' }], aws),
    );
    const credentialsFile = join(root, 'credentials');
    writeFileSync(
      credentialsFile,
      `[default]\naws_access_key_id = AKIAWRONGDEFAULT0000\naws_secret_access_key = nope\n\n[yeoul]\naws_access_key_id = ${aws.accessKeyId}\naws_secret_access_key = ${aws.secretAccessKey}\n`,
    );
    const configFile = join(root, 'config');
    writeFileSync(
      configFile,
      '[default]\nregion = us-west-2\n\n[profile yeoul]\nregion = eu-central-1\n',
    );
    const env = bedrockEnv(fake, {
      AWS_REGION: '',
      AWS_PROFILE: 'yeoul',
      AWS_SHARED_CREDENTIALS_FILE: credentialsFile,
      AWS_CONFIG_FILE: configFile,
      // The AWS SDK takes the profile when both are set; so does Yeoul.
      AWS_ACCESS_KEY_ID: 'AKIAWRONGENVIRONMENT',
      AWS_SECRET_ACCESS_KEY: 'wrong',
    });
    // Read as the process reads its environment: the empty AWS_REGION counts as unset.
    const variables = modelVariables.parse(withoutBlankValues(env));
    const result = await resolveModel(readModelConfig(variables)).call({ messages: question });
    assert.equal(result.text, '프로필로 서명했어요');
    const authorization = String(fake.server.requests[0]?.headers.authorization);
    assert.match(
      authorization,
      /\/eu-central-1\/bedrock\//,
      "the profile's region from ~/.aws/config",
    );
  });

  it('reports a profile that does not exist as refused credentials, without retrying', async () => {
    const fake = await started(startFakeBedrock([{ kind: 'text', text: 'ok' }], aws));
    const env = bedrockEnv(fake, {
      AWS_PROFILE: 'missing',
      AWS_SHARED_CREDENTIALS_FILE: join(root, 'credentials'),
      AWS_CONFIG_FILE: join(root, 'no-config'),
    });
    const failure = await failureOf(
      resolveModel(readModelConfig(env), fast).call({ messages: question }),
    );
    assert.equal(failure.code, 'model_auth_failed');
    assert.equal(failure.attempts, 1);
    assert.match(
      failure.message,
      /AWS credential provider failed: found no AWS credentials for profile "missing"/,
    );
    assert.equal(fake.server.requests.length, 0);
  });

  it('sends a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) as a bearer token instead of signing', async () => {
    const fake = await started(
      startFakeBedrock([{ kind: 'text', text: 'ok' }], { apiKey: 'ABSKfakeBedrockKey' }),
    );
    const env = bedrockEnv(fake, { AWS_BEARER_TOKEN_BEDROCK: 'ABSKfakeBedrockKey' });
    assert.equal(
      (await resolveModel(readModelConfig(env)).call({ messages: question })).text,
      'ok',
    );
    assert.equal(fake.server.requests[0]?.headers['x-amz-date'], undefined, 'not signed');
    const wrong = { ...env, AWS_BEARER_TOKEN_BEDROCK: 'ABSKother' };
    const failure = await failureOf(
      resolveModel(readModelConfig(wrong), fast).call({ messages: question }),
    );
    assert.equal(failure.code, 'model_auth_failed');
    assert.equal(failure.attempts, 1);
  });

  it('sorts exceptions sent inside a started stream: throttling is retried, validation is not', async () => {
    const fake = await started(
      startFakeBedrock(
        [
          { kind: 'error', status: 429, message: 'Too many tokens, please wait.', midStream: true },
          { kind: 'text', text: 'after the wait' },
          { kind: 'error', status: 400, message: 'Input is too long.', midStream: true },
          { kind: 'error', status: 429, message: 'Too many tokens, please wait.', midStream: true },
        ],
        aws,
      ),
    );
    const env = bedrockEnv(fake, {
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
    });
    const model = resolveModel(readModelConfig(env), fast);
    const streamed = { messages: question, onTextDelta: () => undefined };
    const result = await model.call(streamed);
    assert.equal(result.text, 'after the wait');
    assert.equal(result.attempts, 2);
    const failure = await failureOf(model.call(streamed));
    assert.equal(failure.code, 'model_bad_request');
    assert.equal(failure.status, 400);
    assert.equal(failure.attempts, 1);
    assert.match(failure.message, /validationException: Input is too long/);
    const throttled = await failureOf(model.call(streamed));
    assert.equal(throttled.code, 'model_rate_limited');
    assert.equal(throttled.attempts, 3);
  });

  it('names what to set when there is no region and no credentials', () => {
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'bedrock:amazon.nova-lite-v1:0', HOME: root }),
      (error: unknown) => {
        assert.ok(error instanceof ModelConfigError);
        assert.ok(error.problems.some((problem) => problem.includes('AWS_REGION')));
        assert.ok(
          error.problems.some(
            (problem) =>
              problem.includes('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY') &&
              problem.includes('AWS_PROFILE'),
          ),
        );
        return true;
      },
    );
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'bedrock', AWS_REGION: 'us-east-1', AWS_PROFILE: 'x' }),
      /bedrock needs a model id: bedrock:<model id>/,
    );
  });
});

describe("google and azure keys; each cloud's default endpoint", () => {
  it('sends the Gemini key as x-goog-api-key; a wrong one (400 API_KEY_INVALID) is an auth failure', async () => {
    const fake = await started(startFakeGemini([{ kind: 'text', text: 'ok' }], 'AIza-right'));
    const env = {
      YEOUL_MODEL: 'google:gemini-test',
      GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-right',
      GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.baseUrl}/v1beta`,
    };
    assert.equal(
      (await resolveModel(readModelConfig(env)).call({ messages: question })).text,
      'ok',
    );
    const wrong = { ...env, GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-wrong' };
    const failure = await failureOf(
      resolveModel(readModelConfig(wrong), fast).call({ messages: question }),
    );
    assert.equal(failure.code, 'model_auth_failed');
    assert.equal(failure.attempts, 1);
    assert.match(failure.message, /API key not valid/);
  });

  it('sends the Azure key as api-key; a wrong one (401) is an auth failure', async () => {
    const fake = await started(startFakeAzureOpenAi([{ kind: 'text', text: 'ok' }], 'right'));
    const env = {
      YEOUL_MODEL: 'azure:my-gpt',
      AZURE_API_KEY: 'right',
      AZURE_BASE_URL: `${fake.baseUrl}/openai/v1`,
    };
    assert.equal(
      (await resolveModel(readModelConfig(env)).call({ messages: question })).text,
      'ok',
    );
    assert.equal(fake.bodies()[0]?.model, 'my-gpt', 'the deployment is the model');
    const failure = await failureOf(
      resolveModel(readModelConfig({ ...env, AZURE_API_KEY: 'wrong' }), fast).call({
        messages: question,
      }),
    );
    assert.equal(failure.code, 'model_auth_failed');
    assert.equal(failure.status, 401);
    assert.equal(failure.attempts, 1);
  });

  it("reaches each cloud's own endpoint when no base URL is set (URLs only, no network)", async () => {
    // The providers' URL builders, as they will be called (internals of the AI SDK packages).
    const configOf = async (env: Record<string, string>) => {
      const deferred = resolveModel(readModelConfig(env)).languageModel as DeferredLanguageModel;
      return ((await deferred.load()) as unknown as { config: Json }).config;
    };
    const bedrock = await configOf({
      YEOUL_MODEL: 'bedrock:m',
      AWS_REGION: 'ap-northeast-2',
      AWS_PROFILE: 'p',
    });
    assert.equal(bedrock.baseUrl(), 'https://bedrock-runtime.ap-northeast-2.amazonaws.com');
    const google = await configOf({ YEOUL_MODEL: 'google', GOOGLE_GENERATIVE_AI_API_KEY: 'k' });
    assert.equal(google.baseURL, 'https://generativelanguage.googleapis.com/v1beta');
    const azure = await configOf({
      YEOUL_MODEL: 'azure:my-gpt',
      AZURE_API_KEY: 'k',
      AZURE_RESOURCE_NAME: 'yeoul',
    });
    assert.equal(
      azure.url({ path: '/responses', modelId: 'my-gpt' }),
      'https://yeoul.openai.azure.com/openai/v1/responses?api-version=v1',
    );
  });

  it('names every missing setting at start', () => {
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'google:gemini-2.5-flash' }),
      /GOOGLE_GENERATIVE_AI_API_KEY is not set/,
    );
    assert.deepEqual(
      readModelConfig({ YEOUL_MODEL: 'google', GOOGLE_GENERATIVE_AI_API_KEY: 'k' }).model,
      { provider: 'google', modelId: 'gemini-2.5-flash' },
    );
    assert.throws(
      () => readModelConfig({ YEOUL_MODEL: 'azure' }),
      (error: unknown) => {
        assert.ok(error instanceof ModelConfigError);
        assert.deepEqual(error.problems, [
          'YEOUL_MODEL=azure needs a deployment: azure:<deployment>',
          'YEOUL_MODEL uses azure but AZURE_API_KEY is not set',
          'YEOUL_MODEL uses azure but neither AZURE_RESOURCE_NAME (the resource in https://<name>.openai.azure.com) nor AZURE_BASE_URL is set',
        ]);
        return true;
      },
    );
    assert.throws(
      () =>
        readModelConfig({ YEOUL_MODEL: 'azure:d', AZURE_API_KEY: 'k', AZURE_RESOURCE_NAME: 'a.b' }),
      /AZURE_RESOURCE_NAME must be one DNS label/,
    );
  });
});
