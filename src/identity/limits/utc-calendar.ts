const dayMs = 86_400_000;

/** `YYYY-MM-DD` of a time in UTC. */
export function utcDate(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** The first day (`YYYY-MM-01`) of the UTC month of a time. */
export function utcMonthStart(time: Date): string {
  return `${utcDate(time).slice(0, 7)}-01`;
}

/** The next 00:00 UTC after a time. */
export function nextUtcMidnight(time: Date): Date {
  return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate() + 1));
}

/** 00:00 UTC on the first of the month after a time's. */
export function nextUtcMonth(time: Date): Date {
  return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth() + 1, 1));
}

/** Whether `text` is a real `YYYY-MM-DD` date (not 2025-02-30). */
export function isUtcDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && utcDate(new Date(time)) === text;
}

/** The date `days` days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs));
}

/** Days from `from` to `to`, both counted (1 for the same day). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1;
}
