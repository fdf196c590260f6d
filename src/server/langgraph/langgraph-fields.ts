import type { z } from 'zod';
import { HttpError } from '../http/http-error.ts';

/** Fields of a body, by name: `true` taken as is, a nested spec for an object taken field by field. */
export interface FieldSpec {
  [field: string]: true | FieldSpec;
}

/**
 * The paths of the fields of `body` that `spec` does not take (`null` counts as absent), e.g.
 * `["checkpoint_during", "config.callbacks"]`, in the body's order.
 */
export function unsupportedFields(body: unknown, spec: FieldSpec, prefix = ''): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const found: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    const taken = spec[field];
    const path = `${prefix}${field}`;
    if (taken === undefined) found.push(path);
    else if (taken !== true) found.push(...unsupportedFields(value, taken, `${path}.`));
  }
  return found;
}

/**
 * Refuses a body holding a field Yeoul does not implement (or an unknown one): 422
 * `unsupported_field` with `details.fields` naming each; nothing starts.
 */
export function refuseUnsupported(body: unknown, spec: FieldSpec, extra: string[] = []): void {
  const fields = [...unsupportedFields(body, spec), ...extra];
  if (fields.length === 0) return;
  throw unsupportedField(fields);
}

/** The 422 `unsupported_field` naming `fields`. */
export function unsupportedField(fields: string[]): HttpError {
  return new HttpError({
    status: 422,
    code: 'unsupported_field',
    message: `not supported by Yeoul's LangGraph API: ${fields.join(', ')}`,
    details: { fields },
  });
}

/** A 422 `invalid_input` naming the field that is wrong. */
export function invalidInput(field: string, message: string): HttpError {
  return new HttpError({
    status: 422,
    code: 'invalid_input',
    message: `${field}: ${message}`,
    details: { fields: [field] },
  });
}

/** Parses `value` with `schema` (nulls dropped first), or 422 `invalid_input` listing every problem. */
export function parseLangGraph<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(withoutNulls(value ?? {}));
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
  );
  throw new HttpError({
    status: 422,
    code: 'invalid_input',
    message: problems.join('; '),
    details: { fields: result.error.issues.map((issue) => issue.path.join('.')) },
  });
}

/** The object without its top-level `null` fields (LangGraph's clients send them for absent ones). */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}
