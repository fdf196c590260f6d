import { z } from 'zod';
import type { RunLimits } from '../../agents/index.ts';
import type { RunStreamChoice } from '../runs/run-store.ts';
import type { FieldSpec } from './langgraph-fields.ts';

/**
 * The stream modes Yeoul sends (`messages-tuple` as event `messages`); `custom` carries what
 * a node emits itself, which the built-in agents' nodes never do.
 */
export const streamModes = [
  'values',
  'updates',
  'messages-tuple',
  'custom',
  'tasks',
  'checkpoints',
  'debug',
] as const;

/** A stream mode Yeoul sends. */
export type StreamMode = (typeof streamModes)[number];

/** The run options `context` and `config.configurable` may hold (those of `/api`'s `options`). */
const runOptions = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  maxIterations: z.number().int().min(1).max(20).optional(),
  longTermMemory: z.boolean().optional(),
  evaluate: z.boolean().optional(),
});

/** The body of a run request (`POST /threads/:id/runs[/wait|/stream]`, stateless `/runs…`). */
export const runRequestBody = z.object({
  assistant_id: z.string().min(1).max(64),
  input: z.unknown().optional(),
  command: z.object({ resume: z.unknown() }).optional(),
  stream_mode: z.union([z.enum(streamModes), z.array(z.enum(streamModes)).max(7)]).optional(),
  stream_subgraphs: z.boolean().optional(),
  stream_resumable: z.boolean().optional(),
  on_disconnect: z.enum(['continue', 'cancel']).optional(),
  multitask_strategy: z.enum(['reject', 'enqueue', 'interrupt', 'rollback']).optional(),
  if_not_exists: z.enum(['create', 'reject']).optional(),
  on_completion: z.enum(['delete', 'keep']).optional(),
  webhook: z.string().optional(),
  config: z
    .object({
      configurable: runOptions.optional(),
      tags: z.array(z.string().max(200)).max(50).optional(),
      recursion_limit: z.number().int().min(1).max(10_000).optional(),
    })
    .optional(),
  durability: z.enum(['sync', 'async', 'exit']).optional(),
  metadata: z.record(z.string().max(200), z.unknown()).optional(),
  context: runOptions.optional(),
  checkpoint_id: z.string().optional(),
  checkpoint: z.object({ checkpoint_id: z.string().optional() }).optional(),
});

/** A parsed run request. */
export type RunRequestBody = z.infer<typeof runRequestBody>;

/** The metadata a run keeps: the request's `metadata`, with `config.tags` as `tags`. */
export function runMetadataOf(body: RunRequestBody): Record<string, unknown> | undefined {
  const tags = body.config?.tags;
  if (body.metadata === undefined && tags === undefined) return undefined;
  return { ...body.metadata, ...(tags === undefined ? {} : { tags }) };
}

const options: FieldSpec = {
  temperature: true,
  maxIterations: true,
  longTermMemory: true,
  evaluate: true,
};

/** The fields a run request takes; any other (`interrupt_before`, `checkpoint_during`, …) → 422. */
export const runRequestFields: FieldSpec = {
  assistant_id: true,
  input: true,
  command: { resume: true },
  stream_mode: true,
  stream_subgraphs: true,
  stream_resumable: true,
  on_disconnect: true,
  multitask_strategy: true,
  if_not_exists: true,
  on_completion: true,
  webhook: true,
  config: { configurable: options, tags: true, recursion_limit: true },
  durability: true,
  metadata: true,
  context: options,
  checkpoint_id: true,
  checkpoint: { checkpoint_id: true, thread_id: true, checkpoint_ns: true },
};

/** The stream modes asked for, refusing those Yeoul does not send by name (`events`, `messages`, …). */
export function unsupportedModes(body: unknown): string[] {
  const asked = (body as { stream_mode?: unknown } | null)?.stream_mode;
  const list = Array.isArray(asked) ? asked : asked == null ? [] : [asked];
  return list
    .filter((mode) => !(streamModes as readonly unknown[]).includes(mode))
    .map((mode) => `stream_mode.${String(mode)}`);
}

/** What a client follows of a run: its stream modes, and whether events from inside subgraphs. */
export interface StreamChoice {
  modes: ReadonlySet<StreamMode>;
  /** `stream_subgraphs`: events from inside subgraphs too, named `MODE|NS1|NS2…`. */
  subgraphs: boolean;
}

/** What a parsed body streams: its modes (default `values`), and subgraphs' events when asked. */
export function streamChoiceOf(
  body: Pick<RunRequestBody, 'stream_mode' | 'stream_subgraphs'>,
): StreamChoice {
  const asked = body.stream_mode;
  const modes = new Set<StreamMode>(
    asked === undefined ? ['values'] : Array.isArray(asked) ? asked : [asked],
  );
  return { modes, subgraphs: body.stream_subgraphs === true };
}

/** A stream choice as the run's record keeps it (any instance reads it back, also after a restart). */
export function storedChoiceOf(choice: StreamChoice): RunStreamChoice {
  return { modes: [...choice.modes], subgraphs: choice.subgraphs };
}

/**
 * What a rejoin follows: the modes it names in its query, else those the run was started with
 * (its record's; `values` for a run started elsewhere), and subgraphs' events as the run did.
 */
export function rejoinChoiceOf(
  stored: RunStreamChoice | undefined,
  asked: string | string[] | undefined,
): StreamChoice {
  const known = (list: readonly string[]) =>
    list.filter((mode) => (streamModes as readonly string[]).includes(mode)) as StreamMode[];
  const named = asked === undefined ? [] : known(Array.isArray(asked) ? asked : [asked]);
  const started = known(stored?.modes ?? []);
  const modes = named.length > 0 ? named : started.length > 0 ? started : ['values' as const];
  return { modes: new Set(modes), subgraphs: stored?.subgraphs === true };
}

/** The run's cap on super-steps (`config.recursion_limit`) and its `durability`, when given. */
export function runLimitsOf(body: RunRequestBody): RunLimits | undefined {
  const maxSteps = body.config?.recursion_limit;
  if (maxSteps === undefined && body.durability === undefined) return undefined;
  return {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(body.durability === undefined ? {} : { durability: body.durability }),
  };
}
