import type { LogEvent } from './types.ts';

const coreFields = ['timestamp', 'level', 'service', 'status', 'message'] as const;

/**
 * `event` cut to about `maxChars` characters of JSON: the time, level, service and status
 * whole, the message cut with `…`, then other fields while they fit (a long value cut, the
 * rest counted in `omittedFields`).
 * @example shortenEvent({ message: 'x'.repeat(5000) }, 600).message.length // ≤ 600
 */
export function shortenEvent(event: LogEvent, maxChars: number): LogEvent {
  const messageBudget = Math.max(80, Math.floor(maxChars * 0.6));
  const shortened: LogEvent = { message: '' };
  for (const field of coreFields) {
    const value = event[field];
    if (value !== undefined) (shortened as Record<string, unknown>)[field] = value;
  }
  shortened.message = cut(event.message, messageBudget);
  let used = JSON.stringify(shortened).length;
  let omitted = 0;
  const fieldBudget = Math.max(40, Math.floor(maxChars / 5));
  for (const [field, value] of Object.entries(event)) {
    if ((coreFields as readonly string[]).includes(field) || value === undefined) continue;
    const kept = shortenValue(value, fieldBudget);
    const cost = JSON.stringify(kept).length + field.length + 4;
    if (used + cost > maxChars) {
      omitted += 1;
      continue;
    }
    shortened[field] = kept;
    used += cost;
  }
  if (omitted > 0) shortened.omittedFields = omitted;
  return shortened;
}

function shortenValue(value: unknown, maxChars: number): unknown {
  if (typeof value === 'string') return cut(value, maxChars);
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= maxChars) return value;
  return cut(text, maxChars);
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
