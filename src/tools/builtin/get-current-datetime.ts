import { z } from 'zod';
import { defineTool } from '../define-tool.ts';

const defaultTimeZone = 'Asia/Seoul';

/** The current moment as `get_current_datetime` reports it. */
export interface CurrentDatetime {
  /** The instant in UTC, ISO 8601 (`2025-03-14T12:30:05.000Z`). */
  iso: string;
  timeZone: string;
  /** Local date and time with the offset (`2025-03-14T21:30:05+09:00`). */
  localDateTime: string;
  date: string;
  time: string;
  weekday: string;
  /** `+09:00`, `-04:00`, `+05:30`. */
  utcOffset: string;
}

/** The `get_current_datetime` tool: the date, time and weekday in a time zone, from `env.now()`. */
export const getCurrentDatetimeTool = defineTool({
  name: 'get_current_datetime',
  description:
    'Returns the current date, time, weekday and UTC offset in a time zone (default Asia/Seoul, ' +
    'Korean time). Use it for any question about today, now, the day of the week or the time.',
  inputSchema: z.object({
    timeZone: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .default(defaultTimeZone)
      .describe(
        'IANA time zone name, e.g. "Asia/Seoul", "UTC", "America/New_York", "Europe/London"',
      ),
  }),
  timeoutMs: 1_000,
  async execute({ timeZone }, { env }) {
    const now = env.now();
    if (Number.isNaN(now.getTime())) throw new Error('the clock gave an invalid date');
    return describeMoment(now, timeZone);
  },
});

/** `moment` as seen in `timeZone`; throws a message with valid examples for an unknown zone. */
export function describeMoment(moment: Date, timeZone: string): CurrentDatetime {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new Error(
      `unknown time zone "${timeZone}"; use an IANA time zone name such as "Asia/Seoul", "UTC" or "America/New_York"`,
    );
  }
  const parts = Object.fromEntries(
    format.formatToParts(moment).map((part) => [part.type, part.value]),
  ) as Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  const utcOffset = offsetOf(parts.timeZoneName ?? 'GMT');
  const resolved = format.resolvedOptions().timeZone;
  return {
    iso: moment.toISOString(),
    // ICU renames some zones (Asia/Kolkata → Asia/Calcutta); keep the caller's name then.
    timeZone: resolved.toLowerCase() === timeZone.toLowerCase() ? resolved : timeZone,
    localDateTime: `${date}T${time}${utcOffset}`,
    date,
    time,
    weekday: parts.weekday ?? '',
    utcOffset,
  };
}

/** `GMT+09:00` → `+09:00`; plain `GMT` → `+00:00`. */
function offsetOf(timeZoneName: string): string {
  const offset = timeZoneName.replace(/^(GMT|UTC)/, '');
  return offset === '' ? '+00:00' : offset;
}
