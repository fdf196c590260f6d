import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardrailVariables } from '../../guardrails/index.ts';
import { identityVariables, limitVariables } from '../../identity/index.ts';
import { knowledgeVariables } from '../../knowledge/index.ts';
import { mcpVariables } from '../../mcp/index.ts';
import { modelVariables, readModelConfig } from '../../models/index.ts';
import { toolVariables } from '../../tools/index.ts';
import { webhookVariables } from '../../webhooks/index.ts';
import { ConfigError } from '../errors/config-error.ts';
import { environmentSchema, readEnvironment } from './read-environment.ts';
import { serverVariables } from './server-variables.ts';
import { tracingVariables } from './tracing-variables.ts';

const names = Object.keys(environmentSchema.shape);
const every = (value: string) => Object.fromEntries(names.map((name) => [name, value]));

/** The problems readEnvironment reports for `env`. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    readEnvironment(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.code, 'config_invalid');
    return error.problems;
  }
  return assert.fail('the environment was accepted');
}

describe('readEnvironment', () => {
  it('reads every variable set empty, or to spaces, exactly as unset', () => {
    const unset = readEnvironment({});
    assert.deepEqual(readEnvironment(every('')), unset);
    assert.deepEqual(readEnvironment(every('  \t')), unset);
    assert.deepEqual(readModelConfig(readEnvironment(every(''))), readModelConfig(unset));
  });

  it('applies the defaults and types the values', () => {
    const environment = readEnvironment({});
    assert.equal(environment.PORT, 8787);
    assert.equal(environment.HOST, '127.0.0.1');
    assert.equal(environment.YEOUL_DURABILITY, 'sync');
    assert.equal(environment.YEOUL_SAMPLE_KNOWLEDGE, true);
    assert.equal(environment.YEOUL_LONG_TERM_MEMORY, true);
    assert.equal(environment.YEOUL_MAX_INPUT_TOKENS, undefined);
    const set = readEnvironment({
      YEOUL_MAX_INPUT_TOKENS: '8000',
      YEOUL_SAMPLE_KNOWLEDGE: '0',
      YEOUL_LONG_TERM_MEMORY: 'off',
      YEOUL_TRACE_CONTENT: 'true',
      YEOUL_API_KEYS: ' a, ,b ',
    });
    assert.equal(set.YEOUL_MAX_INPUT_TOKENS, 8000);
    assert.equal(set.YEOUL_SAMPLE_KNOWLEDGE, false);
    assert.equal(set.YEOUL_LONG_TERM_MEMORY, false);
    assert.equal(set.YEOUL_TRACE_CONTENT, true);
    assert.deepEqual(set.YEOUL_API_KEYS, ['a', 'b']);
  });

  it('trims every value and leaves out variables it does not know', () => {
    const environment = readEnvironment({
      PORT: ' 8080 ',
      OPENAI_BASE_URL: '  http://127.0.0.1:4000/v1\n',
      SOMETHING_ELSE: 'x',
    });
    assert.equal(environment.PORT, 8080);
    assert.equal(environment.OPENAI_BASE_URL, 'http://127.0.0.1:4000/v1');
    assert.equal('SOMETHING_ELSE' in environment, false);
  });

  it('reports every bad variable at once, one line each, naming it, in the schema’s order', () => {
    assert.deepEqual(
      problemsOf({
        PORT: 'eighty',
        YEOUL_DURABILITY: 'sometimes',
        YEOUL_MAX_INPUT_TOKENS: '-5',
        YEOUL_MODEL_TIMEOUT_MS: '1.5',
        YEOUL_SESSION_TTL_DAYS: '0.5',
        DATABASE_URL: 'mysql://db',
        OTEL_BSP_SCHEDULE_DELAY: 'soon',
        YEOUL_TRACE_CONTENT: 'yes',
      }),
      [
        'PORT: must be a whole number from 0 to 65535',
        'DATABASE_URL: must be a postgres:// (or postgresql://) URL',
        'YEOUL_DURABILITY: must be one of sync, async, exit',
        'YEOUL_SESSION_TTL_DAYS: must be a whole number of days from 1 to 999999',
        'YEOUL_MODEL_TIMEOUT_MS: must be a positive whole number of milliseconds',
        'YEOUL_MAX_INPUT_TOKENS: must be a positive whole number',
        'OTEL_BSP_SCHEDULE_DELAY: must be a whole number of milliseconds (0 or more)',
        'YEOUL_TRACE_CONTENT: must be 1, 0, true or false',
      ],
    );
  });

  it('names a variable that another one needs beside the bad values, in the schema’s order', () => {
    assert.deepEqual(
      problemsOf({
        PORT: 'x',
        YEOUL_JWT_SECRET: 'too short',
        YEOUL_JWT_JWKS: 'ftp://idp.example/keys',
        YEOUL_MAX_INPUT_TOKENS: '0',
      }),
      [
        'PORT: must be a whole number from 0 to 65535',
        'YEOUL_JWT_SECRET: must be at least 32 bytes',
        'YEOUL_JWT_JWKS: must be an https:// URL (http:// only on a loopback address)',
        'YEOUL_JWT_AUDIENCE: required with YEOUL_JWT_PUBLIC_KEY or YEOUL_JWT_JWKS (the aud of tokens meant for this server)',
        'YEOUL_MAX_INPUT_TOKENS: must be a positive whole number',
      ],
    );
  });

  it('refuses a limit that is not a positive whole number, naming each variable', () => {
    assert.deepEqual(
      problemsOf({
        YEOUL_REQUESTS_PER_MINUTE: '0',
        YEOUL_TOKENS_PER_DAY: '1.5',
        YEOUL_TOKENS_PER_MONTH: 'lots',
      }),
      [
        'YEOUL_REQUESTS_PER_MINUTE: must be a whole number from 1 to 100000',
        'YEOUL_TOKENS_PER_DAY: must be a positive whole number',
        'YEOUL_TOKENS_PER_MONTH: must be a positive whole number',
      ],
    );
    const set = readEnvironment({
      YEOUL_REQUESTS_PER_MINUTE: '60',
      YEOUL_TOKENS_PER_DAY: '100000',
    });
    assert.equal(set.YEOUL_REQUESTS_PER_MINUTE, 60);
    assert.equal(set.YEOUL_TOKENS_PER_DAY, 100000);
    assert.equal(set.YEOUL_TOKENS_PER_MONTH, undefined);
  });

  it('says the whole configuration is not valid, every problem in the message', () => {
    assert.throws(() => readEnvironment({ YEOUL_BODY_LIMIT: '10', LOG_LEVEL: 'loud' }), {
      code: 'config_invalid',
      message:
        'The configuration is not valid: YEOUL_BODY_LIMIT: must be a whole number of bytes of at least 1024; LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent',
    });
  });

  it('reads YEOUL_GUARDRAILS as off or built-in names, and refuses an unknown name by name', () => {
    assert.equal(readEnvironment({ YEOUL_GUARDRAILS: 'off' }).YEOUL_GUARDRAILS, 'off');
    assert.deepEqual(
      readEnvironment({ YEOUL_GUARDRAILS: ' pii , promptInjection,' }).YEOUL_GUARDRAILS,
      ['pii', 'promptInjection'],
    );
    assert.equal(readEnvironment({}).YEOUL_GUARDRAILS, undefined);
    assert.deepEqual(problemsOf({ YEOUL_GUARDRAILS: 'pii,piii' }), [
      'YEOUL_GUARDRAILS: unknown guardrail "piii"; use off or a comma list of pii, promptInjection',
    ]);
    assert.deepEqual(problemsOf({ YEOUL_GUARDRAILS: ' , ' }), [
      'YEOUL_GUARDRAILS: names no guardrail; use off or a comma list of pii, promptInjection',
    ]);
  });

  it('reads the webhook secret and hosts, and refuses a short secret or a bad host by name', () => {
    const read = readEnvironment({
      YEOUL_WEBHOOK_SECRET: 'sixteen-chars-ok',
      YEOUL_WEBHOOK_HOSTS: '127.0.0.1:9000, *.example.com,10.0.0.0/8',
    });
    assert.equal(read.YEOUL_WEBHOOK_SECRET, 'sixteen-chars-ok');
    assert.deepEqual(
      read.YEOUL_WEBHOOK_HOSTS?.map((entry) => entry.kind),
      ['range', 'subdomains', 'range'],
    );
    assert.equal(readEnvironment({}).YEOUL_WEBHOOK_HOSTS, undefined);
    assert.deepEqual(
      problemsOf({ YEOUL_WEBHOOK_SECRET: 'too-short', YEOUL_WEBHOOK_HOSTS: 'ok.example.com,a b' }),
      [
        'YEOUL_WEBHOOK_SECRET: must be at least 16 characters',
        'YEOUL_WEBHOOK_HOSTS: "a b" is not a host, *.domain pattern, IP address or CIDR range (each with an optional :port)',
      ],
    );
  });

  it('composes every folder’s variables, none declared twice', () => {
    const fragments = [
      serverVariables,
      identityVariables,
      modelVariables,
      knowledgeVariables,
      toolVariables,
      guardrailVariables,
      webhookVariables,
      mcpVariables,
      tracingVariables,
      limitVariables,
    ];
    const declared = fragments.flatMap((fragment) => Object.keys(fragment.shape));
    assert.equal(new Set(declared).size, declared.length);
    assert.deepEqual(names, declared);
  });
});
