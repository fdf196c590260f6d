import { Cron } from 'croner';
import { isRepeatedWallTime, isTimeZone } from './time-zone.ts';

const months = 'JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC';
const weekdays = 'SUN|MON|TUE|WED|THU|FRI|SAT';

/** One field's grammar: `*`, `a`, `a-b`, each but a single value with a step, and lists of them. */
function fieldPattern(names?: string): RegExp {
  const value = names === undefined ? '\\d+' : `(?:\\d+|${names})`;
  const item = `(?:\\*(?:/\\d+)?|${value}(?:-${value}(?:/\\d+)?)?)`;
  return new RegExp(`^${item}(?:,${item})*$`, 'i');
}

const fields = [
  { name: 'second', pattern: fieldPattern() },
  { name: 'minute', pattern: fieldPattern() },
  { name: 'hour', pattern: fieldPattern() },
  { name: 'day-of-month', pattern: fieldPattern() },
  { name: 'month', pattern: fieldPattern(months) },
  { name: 'day-of-week', pattern: fieldPattern(weekdays) },
] as const;

/** Enough steps past slots a daylight-saving change skips or repeats, however dense the expression. */
const maxSkippedSlots = 10_000;

/**
 * A parsed cron expression in a time zone: its slots as instants (epoch milliseconds). Five
 * fields (minute hour day-of-month month day-of-week) or six (a second field first); a day
 * matching either restricted day field fires; day-of-week 0–7 (0 and 7 Sunday). A wall-clock
 * time a daylight-saving change skips is no slot, and one it repeats is a slot once (the first).
 * @example
 * const cron = parseCron('0 9 * * MON-FRI', 'Europe/Berlin');
 * if ('problem' in cron) throw new Error(cron.problem);
 * cron.next(Date.now()); // the next weekday 09:00 in Berlin
 */
export class CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  #cron: Cron;
  #zoned: boolean;

  constructor(expression: string, timezone: string, cron: Cron) {
    this.expression = expression;
    this.timezone = timezone;
    this.#cron = cron;
    this.#zoned = timezone.toUpperCase() !== 'UTC';
  }

  /** The first slot strictly after `after`; null when there is none. */
  next(after: number): number | null {
    let from = after;
    for (let step = 0; step < maxSkippedSlots; step += 1) {
      const slot = this.#cron.nextRun(new Date(from))?.getTime();
      if (slot === undefined) return null;
      if (this.#isSlot(slot)) return slot;
      from = slot;
    }
    return null;
  }

  /** The last slot at or before `atOrBefore`; null when there is none. */
  latest(atOrBefore: number): number | null {
    let before = atOrBefore + 1;
    for (let step = 0; step < maxSkippedSlots; step += 1) {
      const slot = this.#cron.previousRuns(1, new Date(before))[0]?.getTime();
      if (slot === undefined) return null;
      if (this.#isSlot(slot)) return slot;
      before = slot;
    }
    return null;
  }

  /** Croner moves a skipped fixed time past the gap and fires a repeated one twice: neither is a slot. */
  #isSlot(instant: number): boolean {
    if (!this.#zoned) return true;
    return this.#cron.match(new Date(instant)) && !isRepeatedWallTime(instant, this.timezone);
  }
}

/**
 * Parses a cron expression for `timezone` (an IANA name), or says what is wrong with it in
 * words a user can act on: outside the grammar, out of range, never firing, or an unknown zone.
 */
export function parseCron(
  expression: string,
  timezone: string,
  now = Date.now(),
): CronSchedule | { problem: string } {
  if (!isTimeZone(timezone)) return { problem: `the time zone "${timezone}" is unknown` };
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) {
    return {
      problem: `needs 5 fields (minute hour day-of-month month day-of-week) or 6 (a second field first), not ${parts.length}`,
    };
  }
  const named = parts.length === 5 ? fields.slice(1) : fields;
  for (const [index, part] of parts.entries()) {
    const field = named[index] as (typeof fields)[number];
    if (!field.pattern.test(part)) {
      return {
        problem: `the ${field.name} field "${part}" is not *, a number, a range (a-b), a list or a step (*/n, a-b/n)`,
      };
    }
  }
  let cron: Cron;
  try {
    cron = new Cron(parts.join(' '), {
      timezone,
      mode: '5-or-6-parts',
      // Vixie cron's rule: a day matching either restricted day field fires.
      domAndDow: false,
      paused: true,
    });
  } catch (error) {
    const reason = (error as Error).message.replace(/^CronPattern: /, '');
    return { problem: `"${expression}" is not valid: ${reason}` };
  }
  const schedule = new CronSchedule(expression, timezone, cron);
  if (schedule.next(now) === null) return { problem: `"${expression}" never fires` };
  return schedule;
}
