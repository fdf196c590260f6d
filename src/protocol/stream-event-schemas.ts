import { z } from 'zod';
import { graphInterruptSchema, graphPathSchema, graphRunResponseSchema } from './graph-schemas.ts';
import {
  guardrailRecordSchema,
  interruptSchema,
  invokeResponseSchema,
} from './response-schemas.ts';

const errorEvent = z.object({ code: z.string(), message: z.string() });

/** Where inside subgraphs an event happened (absent at the top level). */
const path = graphPathSchema;

/** The data of each event of POST /api/graphs/:name/stream, by event name. */
export const graphStreamEventSchemas = {
  /** A node started or ended (with the update it returned). */
  step: z.object({
    node: z.string(),
    phase: z.enum(['start', 'end']),
    update: z.unknown().optional(),
    path,
  }),
  /** What a node emitted itself. */
  custom: z.object({ node: z.string(), name: z.string(), data: z.unknown(), path }),
  /** The run paused on these questions. */
  interrupt: z.object({
    node: z.string(),
    interrupts: z.array(graphInterruptSchema.pick({ id: true, value: true, path: true })),
    path,
  }),
  error: errorEvent,
  done: graphRunResponseSchema,
} as const;

/** The data of each event of POST /api/agent/stream (and GET /api/sessions/:id/stream), by event name. */
export const agentStreamEventSchemas = {
  step: z.object({
    node: z.string(),
    phase: z.enum(['start', 'end']),
    /** The graph run's super-step (from 1): nodes that run in parallel share it. */
    superstep: z.number().int().optional(),
    /** The graph run the node belongs to (a graph run inside a node has its own). */
    runId: z.string().optional(),
  }),
  token: z.object({ text: z.string() }),
  'tool-call': z.object({ id: z.string(), name: z.string(), args: z.unknown() }),
  'tool-result': z.object({
    id: z.string(),
    name: z.string(),
    result: z.unknown(),
    error: z.literal(true).optional(),
    durationMs: z.number().optional(),
  }),
  interrupt: interruptSchema,
  guardrail: guardrailRecordSchema,
  error: errorEvent,
  done: invokeResponseSchema,
} as const;
