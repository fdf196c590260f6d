const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter that reads an instant's wall clock in `zone` (cached: they are costly to make). */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * Whether `name` is an IANA time zone this runtime knows (`UTC`, `Europe/Berlin`, any case).
 * A UTC offset (`+05:00`) is not a zone name and is refused.
 */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64 || /^[+-]/.test(name)) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** How far `zone`'s wall clock is ahead of UTC at `instant` (milliseconds; whole seconds). */
export function zoneOffset(instant: number, zone: string): number {
  const second = Math.floor(instant / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(second)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
  );
  return wall - second;
}

/**
 * Whether `instant` shows a wall-clock time that `zone` already showed earlier, when a
 * daylight-saving change set the clocks back (the second 01:30 of a night that repeats an
 * hour). A zone changes its offset at most once a day, so the day before tells how far back.
 */
export function isRepeatedWallTime(instant: number, zone: string): boolean {
  const shift = zoneOffset(instant - 86_400_000, zone) - zoneOffset(instant, zone);
  if (shift <= 0) return false;
  return zoneOffset(instant - shift, zone) === zoneOffset(instant, zone) + shift;
}
