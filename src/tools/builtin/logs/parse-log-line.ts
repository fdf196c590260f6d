import type { LogEvent } from './types.ts';

/** One line of a log, read: a JSON object's fields, or a plain-text line as it was. */
export interface ParsedLogLine {
  kind: 'json' | 'text';
  event: LogEvent;
  /** Milliseconds since the epoch; undefined when the line has no readable time. */
  timeMs: number | undefined;
  /** Plain-text lines: the line without its leading timestamp, lower-cased, for matching. */
  lowerText?: string;
}

/** pino's numeric levels, so that Yeoul's own JSON logs read as named levels. */
const pinoLevels: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const consumedFields = new Set(['timestamp', '@timestamp', 'time', 'level', 'message', 'msg']);
const leadingTime =
  /^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)\]?\s*/i;

/**
 * Reads one line: a JSON object (fields `timestamp` — or pino's `time`, or `@timestamp` —,
 * `level`, `service`, `status`, `message` or `msg`; other fields kept) or plain text, whose
 * leading timestamp (`2025-03-14T14:05:00Z`, `[2025-03-14 14:05:00,123]`; UTC without a
 * zone) is read when there is one. Returns undefined for a blank line.
 */
export function parseLogLine(line: string): ParsedLogLine | undefined {
  const trimmed = line.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('{')) {
    const record = parseObject(trimmed);
    if (record !== undefined) return fromRecord(record);
  }
  return fromText(trimmed);
}

/** A JSON object's fields as a log event (also used for lines a remote back end returns). */
export function fromRecord(record: Record<string, unknown>): ParsedLogLine {
  const rawTime = record.timestamp ?? record['@timestamp'] ?? record.time;
  const timeMs = readTime(rawTime);
  const event: LogEvent = { message: readMessage(record.message ?? record.msg) };
  if (timeMs !== undefined) event.timestamp = new Date(timeMs).toISOString();
  else if (typeof rawTime === 'string') event.timestamp = rawTime;
  const level = readLevel(record.level);
  if (level !== undefined) event.level = level;
  if (typeof record.service === 'string') event.service = record.service;
  const status = readStatus(record.status);
  for (const [field, value] of Object.entries(record)) {
    if (!consumedFields.has(field) && field !== 'service' && field !== 'status') {
      event[field] = value;
    }
  }
  if (status !== undefined) event.status = status;
  else if (record.status !== undefined) event.status_text = record.status;
  return { kind: 'json', event, timeMs };
}

function fromText(line: string): ParsedLogLine {
  const match = leadingTime.exec(line);
  const timeMs = match ? readTextTime(match[1] as string) : undefined;
  const event: LogEvent = { message: line };
  if (timeMs !== undefined) event.timestamp = new Date(timeMs).toISOString();
  const body = match && timeMs !== undefined ? line.slice(match[0].length) : line;
  return { kind: 'text', event, timeMs, lowerText: body.toLowerCase() };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Epoch numbers below 10^11 are seconds (pino and most loggers write milliseconds). */
function readTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value !== 'string') return undefined;
  return readTextTime(value);
}

function readTextTime(text: string): number | undefined {
  let normalised = text.replace(' ', 'T').replace(',', '.');
  normalised = normalised.replace(/(\.\d{3})\d+/, '$1');
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(normalised) && /T/.test(normalised)) normalised += 'Z';
  const time = Date.parse(normalised);
  return Number.isNaN(time) ? undefined : time;
}

function readLevel(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return pinoLevels[value] ?? String(value);
  return undefined;
}

function readStatus(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{3}$/.test(value.trim())) return Number(value);
  return undefined;
}

function readMessage(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? String(value);
}
