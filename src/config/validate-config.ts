import { z } from 'zod';
import { graphNamePattern } from '../core/index.ts';
import { scopes } from '../identity/index.ts';
import { isLanguageModel, providers, unknownProviders } from '../models/index.ts';
import { builtinAgentNames, type YeoulConfig } from './types.ts';

/** Tool names: the built-ins' rule. */
export const toolNamePattern = /^[a-z][a-z0-9_]{0,63}$/;

const permission = z.enum(['allow', 'ask', 'deny'], { error: "one of 'allow', 'ask', 'deny'" });
const isFunction = (value: unknown) => typeof value === 'function';

/** A zod schema (of any copy of zod 4, or anything speaking Standard Schema with a JSON Schema). */
const isSchema = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  ('_zod' in value || '~standard' in value) &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';

/** A limit: a positive whole number. */
const positiveWhole = z
  .number({ error: 'a positive whole number' })
  .int({ error: 'a positive whole number' })
  .positive({ error: 'a positive whole number' });

const oneModelError = 'a "provider:model id" string or an AI SDK language model object';

/** What is wrong with one model of a config (undefined: nothing). */
function modelProblem(value: unknown): string | undefined {
  if (isLanguageModel(value)) return undefined;
  if (typeof value !== 'string' || !/^[a-z][a-z0-9-]*(:.+)?$/i.test(value)) return oneModelError;
  const unknown = unknownProviders(value);
  return unknown.length === 0
    ? undefined
    : `unknown provider${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}; use one of ${providers.join(', ')}`;
}

/** A model, or a fallback chain of them (the primary first): each bad model named by its index. */
const modelSpec = z.unknown().superRefine((value, context) => {
  if (!Array.isArray(value)) {
    const problem = modelProblem(value);
    if (problem === oneModelError) {
      context.addIssue({ code: 'custom', message: `${oneModelError}, or an array of them` });
    } else if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    return;
  }
  if (value.length === 0) {
    context.addIssue({ code: 'custom', message: 'a fallback chain of at least one model' });
  }
  value.forEach((model, index) => {
    const problem = modelProblem(model);
    if (problem !== undefined)
      context.addIssue({ code: 'custom', message: problem, path: [index] });
  });
});

const toolSchema = z.looseObject({
  name: z.string({ error: 'a string' }).regex(toolNamePattern, {
    error: 'tool names are snake_case: ^[a-z][a-z0-9_]{0,63}$',
  }),
  description: z.string({ error: 'a string' }).min(1, { error: 'describe what the tool does' }),
  inputSchema: z.custom<unknown>(isSchema, {
    error: 'a zod schema of the input, e.g. z.object({ id: z.string() })',
  }),
  permission: permission.optional(),
  timeoutMs: z
    .number({ error: 'milliseconds' })
    .int()
    .positive()
    .max(600_000, { error: 'at most 600000 (10 minutes)' })
    .optional(),
  execute: z.custom<unknown>(isFunction, { error: 'a function (input, context) => result' }),
});

const agentSchema = z.strictObject({
  persona: z.string({ error: 'a string' }).min(1, { error: 'an empty persona' }).optional(),
  tools: z.array(z.string({ error: 'a tool name' })).optional(),
  model: modelSpec.optional(),
  memory: z
    .strictObject({
      maxMessages: z.number().int().min(2).optional(),
      keepRecent: z.number().int().min(1).optional(),
      maxSummaries: z.number().int().min(1).optional(),
    })
    .optional(),
});

const graphSchema = z.custom<unknown>(
  (value) =>
    isFunction(value) ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { compile?: unknown }).compile === 'function' &&
      typeof (value as { addNode?: unknown }).addNode === 'function'),
  {
    error:
      'a StateGraph (uncompiled: Yeoul compiles it with its own checkpointer) or a function (kit) => StateGraph',
  },
);

const text = z.string({ error: 'a string' }).min(1, { error: 'an empty string' });

const authSchema = z.strictObject({
  authenticate: z
    .custom<unknown>(isFunction, {
      error: 'a function (request) => {owner, scopes?} | null, which may be async',
    })
    .optional(),
  jwt: z
    .strictObject({
      secret: text.optional(),
      publicKey: text.optional(),
      jwks: text.optional(),
      issuer: text.optional(),
      audience: z.union([text, z.array(text).min(1)], { error: 'a string or strings' }).optional(),
      ownerClaim: text.optional(),
      scopesClaim: text.optional(),
      defaultScopes: z.array(z.enum(scopes, { error: `one of ${scopes.join(', ')}` })).optional(),
      clockSkewSeconds: z
        .number({ error: 'seconds' })
        .int({ error: 'whole seconds' })
        .min(0, { error: '0 or more seconds' })
        .max(3600, { error: 'at most 3600 seconds' })
        .optional(),
    })
    .optional(),
});

const configSchema = z.strictObject({
  tools: z.array(toolSchema).optional(),
  agents: z
    .strictObject(
      Object.fromEntries(builtinAgentNames.map((name) => [name, agentSchema.optional()])),
    )
    .optional(),
  graphs: z.record(z.string(), graphSchema).optional(),
  scorers: z
    .array(
      z.looseObject({
        name: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, { error: 'a scorer name (snake_case)' }),
        score: z.custom<unknown>(isFunction, {
          error: 'a function ({item, response, …}) => score',
        }),
      }),
    )
    .optional(),
  models: z
    .strictObject({
      default: modelSpec.optional(),
      embedding: z.string().optional(),
      cooldownMs: z
        .number({ error: 'milliseconds' })
        .int({ error: 'a whole number of milliseconds (0 or more)' })
        .min(0, { error: 'a whole number of milliseconds (0 or more)' })
        .optional(),
      timeoutMs: z.number().int().positive().optional(),
      maxInputTokens: z.number().int().positive().optional(),
      maxOutputTokens: z.number().int().positive().optional(),
    })
    .optional(),
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  permissions: z.record(z.string(), permission).optional(),
  knowledge: z
    .strictObject({ searchUrl: z.string().optional(), sampleDocuments: z.boolean().optional() })
    .optional(),
  logs: z.string().optional(),
  prometheusUrl: z.string().optional(),
  auth: authSchema.optional(),
  // Checked in full when the app is built: that needs the chat graphs and the tools.
  guardrails: z.unknown().optional(),
  limits: z
    .strictObject({
      requestsPerMinute: positiveWhole.max(100_000, { error: 'at most 100000' }).optional(),
      tokensPerDay: positiveWhole.optional(),
      tokensPerMonth: positiveWhole.optional(),
    })
    .optional(),
});

/** `tools[1].name`, `graphs.triage`, `agents.chat.persona`: a problem's place in the config. */
export function configPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');
}

/**
 * Checks a config's shape: every problem, each with its path, or none. What needs the
 * running server to check (tool names against the built-ins, graphs that compile, models that
 * resolve) is checked when the runtime is built from it.
 */
export function validateConfig(value: unknown): string[] {
  const parsed = configSchema.safeParse(value);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const where = configPath(issue.path);
        const message =
          issue.code === 'unrecognized_keys'
            ? `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
            : issue.message;
        return where ? `${where}: ${message}` : message;
      });
  if (typeof value !== 'object' || value === null) return problems;
  const config = value as YeoulConfig;
  const seen = new Map<string, number>();
  (Array.isArray(config.tools) ? config.tools : []).forEach((tool, index) => {
    const name = (tool as { name?: unknown })?.name;
    if (typeof name !== 'string') return;
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push(`tools[${index}].name: "${name}" is also the name of tools[${first}]`);
    } else seen.set(name, index);
  });
  for (const name of Object.keys(config.graphs ?? {})) {
    if ((builtinAgentNames as readonly string[]).includes(name)) {
      problems.push(`graphs.${name}: "${name}" is a built-in graph; choose another name`);
    } else if (!graphNamePattern.test(name)) {
      problems.push(`graphs.${name}: graph names match ^[a-z][a-z0-9-]{0,31}$`);
    }
  }
  return problems;
}
