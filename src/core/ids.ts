import * as crypto from 'node:crypto';

/**
 * A new id (UUID v7: a millisecond timestamp, then 74 random bits), for sessions, runs,
 * messages and anything else that needs one. Ids made later sort later, so rows keyed by
 * them land at the end of SQLite's B-trees instead of on a random page each.
 */
export function createId(): string {
  return nativeUuidV7 ? nativeUuidV7() : uuidV7();
}

/** What a session id may be everywhere (HTTP API, CLI, /v1): 1–128 letters, digits and `_ . : -`. */
export const sessionIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A graph's name: `chat`, `react`, `ops` or a config file's graph (also `/v1`'s `yeoul-NAME`). */
export const graphNamePattern = /^[a-z][a-z0-9-]{0,31}$/;

/** Node's own (24 and later); the package also runs on Node 22, which lacks it. */
const nativeUuidV7 = typeof crypto.randomUUIDv7 === 'function' ? crypto.randomUUIDv7 : undefined;

let lastMs = 0;
let sequence = 0;

/**
 * UUID v7 (RFC 9562) where Node has none: the 12 bits after the version count ids within
 * one millisecond, so that ids of one process still sort in the order they were made.
 */
export function uuidV7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const bytes = crypto.randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
