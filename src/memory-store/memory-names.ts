import { z } from 'zod';
import { sessionIdPattern } from '../core/index.ts';
import { InvalidMemoryNameError } from './errors/invalid-memory-name-error.ts';
import { MemoryValueTooLargeError } from './errors/memory-value-too-large-error.ts';

/** The largest value, in bytes of its JSON text. */
export const maxMemoryValueBytes = 65_536;

/** Items a listing returns by default, and at most. */
export const defaultMemoryLimit = 20;
export const maxMemoryLimit = 100;

const segmentPattern = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A namespace (or prefix): 1–8 segments of `[A-Za-z0-9_.:-]{1,64}` joined by `/`. */
export const namespaceSchema = z.string().superRefine((text, context) => {
  const segments = text.split('/');
  if (segments.length > 8) {
    context.addIssue({ code: 'custom', message: `has ${segments.length} segments; at most 8` });
  }
  segments.forEach((segment, index) => {
    if (!segmentPattern.test(segment)) {
      context.addIssue({
        code: 'custom',
        message: `segment ${index + 1} ("${segment}") must be 1–64 letters, digits and _ . : -`,
      });
    }
  });
});

/** A key: the session id rule. */
export const memoryKeySchema = z
  .string()
  .regex(sessionIdPattern, 'must be 1–128 letters, digits and _ . : -');

/** Throws `InvalidMemoryNameError` naming every problem of the fields given. */
export function checkMemoryNames(fields: {
  namespace?: string;
  key?: string;
  prefix?: string;
}): void {
  const problems: string[] = [];
  const check = (name: string, schema: z.ZodType, value: string | undefined) => {
    if (value === undefined) return;
    const result = schema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(`${name}: ${issue.message}`);
    }
  };
  check('namespace', namespaceSchema, fields.namespace);
  check('key', memoryKeySchema, fields.key);
  check('prefix', namespaceSchema, fields.prefix);
  if (problems.length > 0) throw new InvalidMemoryNameError({ problems });
}

/** The value as stored (its JSON text), refused when larger than `maxMemoryValueBytes`. */
export function memoryValueText(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new InvalidMemoryNameError({ problems: ['value: must be a JSON value'] });
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxMemoryValueBytes) {
    throw new MemoryValueTooLargeError({ bytes, limit: maxMemoryValueBytes });
  }
  return text;
}

/** A listing's limit: default 20, between 1 and 100. */
export function memoryLimit(limit: number | undefined): number {
  return Math.min(Math.max(Math.trunc(limit ?? defaultMemoryLimit), 1), maxMemoryLimit);
}

/**
 * A prefix as the three parameters of a whole-segment match (`?1 IS NULL OR namespace = ?1
 * OR (namespace >= ?2 AND namespace < ?3)`): the prefix itself, then everything from
 * `prefix/` up to, not including, `prefix0` (`0` follows `/` in code-point order), so `team`
 * never reaches `teams` and no character is read as a wildcard. Nulls for no prefix.
 */
export function prefixRange(prefix: string | undefined): Array<string | null> {
  return prefix === undefined ? [null, null, null] : [prefix, `${prefix}/`, `${prefix}0`];
}
