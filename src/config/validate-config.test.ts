import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { envWithConfig } from './config-env.ts';
import { configPath, validateConfig } from './validate-config.ts';

describe('config validation', () => {
  it('accepts an empty config and a full one', () => {
    assert.deepEqual(validateConfig({}), []);
    assert.deepEqual(
      validateConfig({
        tools: [
          {
            name: 'order_status',
            description: 'x',
            inputSchema: z.object({ id: z.string() }),
            permission: 'ask',
            timeoutMs: 5000,
            execute: async () => 1,
          },
        ],
        agents: { chat: { persona: 'p', tools: ['order_status'], model: 'openai:gpt-4o-mini' } },
        graphs: { desk: () => undefined },
        models: { default: 'offline', maxOutputTokens: 100 },
        permissions: { write_file: 'allow' },
        knowledge: { sampleDocuments: false },
        auth: {
          authenticate: async () => null,
          jwt: { jwks: 'https://idp.example/jwks.json', audience: ['a', 'b'], defaultScopes: [] },
        },
        limits: { requestsPerMinute: 60, tokensPerDay: 200_000, tokensPerMonth: 5_000_000 },
      }),
      [],
    );
  });

  it('names every problem with its path', () => {
    const problems = validateConfig({
      tools: [
        { name: 'Bad', description: '', inputSchema: {}, execute: 'no' },
        { name: 'dup', description: 'x', inputSchema: z.string(), execute: () => 1 },
        { name: 'dup', description: 'x', inputSchema: z.string(), execute: () => 1 },
      ],
      agents: { chat: { persona: 3, model: 42 }, writer: {} },
      graphs: { Triage: () => undefined, ops: () => undefined, fine: 7 },
      permissions: { calculator: 'sometimes' },
      auth: { authenticate: 'yes', jwt: { defaultScopes: ['read'], clockSkewSeconds: -1, x: 1 } },
      limits: { requestsPerMinute: 0, tokensPerDay: 1.5, tokensPerMonth: '100', perHour: 3 },
      extra: true,
    });
    const expected = [
      'tools[0].name: tool names are snake_case',
      'tools[0].description: describe what the tool does',
      'tools[0].inputSchema: a zod schema',
      'tools[0].execute: a function',
      'tools[2].name: "dup" is also the name of tools[1]',
      'agents.chat.persona: a string',
      'agents.chat.model: a "provider:model id" string',
      'agents: unknown key "writer"',
      'graphs.fine: a StateGraph',
      'graphs.Triage: graph names match',
      'graphs.ops: "ops" is a built-in graph',
      "permissions.calculator: one of 'allow', 'ask', 'deny'",
      'auth.authenticate: a function (request) => {owner, scopes?} | null',
      'auth.jwt.defaultScopes[0]: one of yeoul:read, yeoul:write, yeoul:documents, yeoul:admin',
      'auth.jwt.clockSkewSeconds: 0 or more seconds',
      'auth.jwt: unknown key "x"',
      'limits.requestsPerMinute: a positive whole number',
      'limits.tokensPerDay: a positive whole number',
      'limits.tokensPerMonth: a positive whole number',
      'limits: unknown key "perHour"',
      'unknown key "extra"',
    ];
    for (const start of expected) {
      assert.ok(
        problems.some((problem) => problem.startsWith(start)),
        `expected a problem starting "${start}" in:\n${problems.join('\n')}`,
      );
    }
  });

  it('takes a model or a fallback chain of them, and names each bad model of a chain', () => {
    assert.deepEqual(
      validateConfig({
        models: { default: ['openai:gpt-4o-mini', 'ollama:llama3.1'], cooldownMs: 0 },
        agents: { chat: { model: ['compat:local', 'offline'] } },
      }),
      [],
    );
    assert.deepEqual(
      validateConfig({
        models: { default: ['openai:gpt-4o-mini', 42, 'gemini:pro,mistral'], cooldownMs: 1.5 },
        agents: { react: { model: [] } },
      }),
      [
        'agents.react.model: a fallback chain of at least one model',
        'models.default[1]: a "provider:model id" string or an AI SDK language model object',
        'models.default[2]: unknown providers "gemini", "mistral"; use one of openai, anthropic, ollama, compat, bedrock, google, azure, offline',
        'models.cooldownMs: a whole number of milliseconds (0 or more)',
      ],
    );
  });

  it('writes paths as a user reads them', () => {
    assert.equal(configPath(['tools', 2, 'inputSchema']), 'tools[2].inputSchema');
    assert.equal(configPath(['graphs', 'triage']), 'graphs.triage');
  });
});

describe('the environment and the config file', () => {
  it('lets a set environment variable win and fills the rest from the file', () => {
    const env = envWithConfig(
      { YEOUL_MODEL: 'openai:gpt-4o', YEOUL_LOGS: '' },
      {
        models: { default: 'anthropic:claude-haiku-4-5', maxInputTokens: 3000 },
        logs: 'file:/var/log/app',
        knowledge: { sampleDocuments: false },
      },
    );
    assert.equal(env.YEOUL_MODEL, 'openai:gpt-4o');
    assert.equal(env.YEOUL_MAX_INPUT_TOKENS, '3000');
    assert.equal(env.YEOUL_LOGS, 'file:/var/log/app');
    assert.equal(env.YEOUL_SAMPLE_KNOWLEDGE, 'false');
  });

  it('reads auth.jwt as the YEOUL_JWT_* variables, the environment winning', () => {
    const env = envWithConfig(
      { YEOUL_JWT_ISSUER: 'https://env.example/' },
      {
        auth: {
          jwt: { issuer: 'https://file.example/', audience: ['a', 'b'], secret: 's'.repeat(32) },
        },
      },
    );
    assert.equal(env.YEOUL_JWT_ISSUER, 'https://env.example/');
    assert.equal(env.YEOUL_JWT_AUDIENCE, 'a,b');
    assert.equal(env.YEOUL_JWT_SECRET, 's'.repeat(32));
  });

  it('reads the config file’s limits as their variables, the environment winning', () => {
    const env = envWithConfig(
      { YEOUL_TOKENS_PER_DAY: '500' },
      { limits: { requestsPerMinute: 30, tokensPerDay: 100_000 } },
    );
    assert.equal(env.YEOUL_REQUESTS_PER_MINUTE, '30');
    assert.equal(env.YEOUL_TOKENS_PER_DAY, '500');
    assert.equal(env.YEOUL_TOKENS_PER_MONTH, undefined);
  });
});
