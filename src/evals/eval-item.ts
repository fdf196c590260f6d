import { z } from 'zod';
import { graphNamePattern } from '../core/index.ts';
import type { EvalItem } from './types.ts';

const text = z.string().trim().min(1, 'must not be empty');
const names = z.array(text);

/**
 * One dataset item as written (JSONL object, CSV row or `POST /api/evals` item): `input` is
 * a message or an array of messages (turns on one session). Unknown fields are refused, so
 * a misspelt `expectedTool` is reported rather than silently ignored; `metadata` holds
 * anything else a user scorer needs.
 */
export const evalItemSchema = z.strictObject({
  id: z.string().trim().min(1).max(200).optional(),
  input: z.union([text, z.array(text).min(1, 'needs at least one turn')], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required: a message, or an array of messages (one per turn)'
        : 'must be a non-empty message, or an array of non-empty messages (one per turn)',
  }),
  expected: z.string().optional(),
  expectedTools: names.optional(),
  expectedSources: names.optional(),
  expectedGuardrail: z
    .string()
    .trim()
    .regex(
      /^(none|[A-Za-z][A-Za-z0-9_-]{0,63}(:(block|redact|warn))?)$/,
      'must be a guardrail name, NAME:ACTION (block, redact or warn), or none',
    )
    .optional(),
  graph: z.string().regex(graphNamePattern, 'must be a graph name').optional(),
  tags: names.optional(),
  maxLatencyMs: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  longTermMemory: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** An item as written, before defaults. */
export type EvalItemInput = z.input<typeof evalItemSchema>;

/**
 * Validates one item; the problems (every one, `field: message`) or the item with its
 * defaults (`id` = `line-N` from `fallbackId`, `input` as a list of turns).
 */
export function parseEvalItem(
  value: unknown,
  fallbackId: string,
): { ok: true; item: EvalItem } | { ok: false; problems: string[] } {
  const parsed = evalItemSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      ),
    };
  }
  const { id, input, ...rest } = parsed.data;
  const defined = Object.fromEntries(
    Object.entries(rest).filter(([, field]) => field !== undefined),
  ) as Omit<EvalItem, 'id' | 'input'>;
  return {
    ok: true,
    item: { id: id ?? fallbackId, input: typeof input === 'string' ? [input] : input, ...defined },
  };
}

/** Items with every id told apart: a repeated id is a problem of the later line. */
export function repeatedIds(items: Array<{ item: EvalItem; where: string }>): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const { item, where } of items) {
    const first = seen.get(item.id);
    if (first) problems.push(`${where}: id "${item.id}" is already used by ${first}`);
    else seen.set(item.id, where);
  }
  return problems;
}
