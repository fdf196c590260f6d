import { randomUUIDv7 } from 'node:crypto';

/**
 * A new id (UUID v7: a millisecond timestamp, then 74 random bits), for sessions, runs,
 * messages and anything else that needs one. Ids made later sort later, so rows keyed by
 * them land at the end of SQLite's B-trees instead of on a random page each.
 */
export function createId(): string {
  return randomUUIDv7();
}
