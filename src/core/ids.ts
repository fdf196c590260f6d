import { randomUUIDv7 } from 'node:crypto';

/**
 * A new id (UUID v7: a millisecond timestamp, then 74 random bits), for sessions, runs,
 * messages and anything else that needs one. Ids made later sort later, so rows keyed by
 * them land at the end of SQLite's B-trees instead of on a random page each.
 */
export function createId(): string {
  return randomUUIDv7();
}

/** What a session id may be everywhere (HTTP API, CLI, /v1): 1–128 letters, digits and `_ . : -`. */
export const sessionIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/;
