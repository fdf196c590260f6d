import { createHash, timingSafeEqual } from 'node:crypto';
import { keyScopes, scopeSet } from './scope-set.ts';
import type { Identity } from './types.ts';

/** The owner of what is made without credentials: the CLI, or a server without authentication. */
export const anonymousOwner = 'anonymous';

/** The caller of a server without authentication: the anonymous owner, allowed everything. */
export const anonymousIdentity: Identity = Object.freeze({
  owner: anonymousOwner,
  via: 'anonymous',
  scopes: scopeSet(['yeoul:admin']),
  admin: false,
  expiresAt: null,
});

/**
 * The owner tag of a key: 32 hex characters of its SHA-256, never the key itself, so
 * stores and logs hold no key; `anonymous` without one.
 */
export function ownerOfKey(key: string | undefined): string {
  return key === undefined ? anonymousOwner : digestOf(key).toString('hex').slice(0, 32);
}

/**
 * The static keys (`YEOUL_API_KEYS`, `YEOUL_ADMIN_KEYS`), compared in constant time: a
 * credential is hashed and checked against every key's hash, whichever matches.
 */
export class KeyRing {
  readonly #keys: Array<{ digest: Buffer; identity: Identity }>;

  constructor(keys: { apiKeys: readonly string[]; adminKeys: readonly string[] }) {
    const admin = new Set(keys.adminKeys);
    const entry = (key: string): { digest: Buffer; identity: Identity } => ({
      digest: digestOf(key),
      identity: Object.freeze({
        owner: ownerOfKey(key),
        via: admin.has(key) ? 'admin-key' : 'key',
        scopes: scopeSet(admin.has(key) ? ['yeoul:admin'] : keyScopes),
        admin: admin.has(key),
        expiresAt: null,
      }),
    });
    // A key in both lists is an admin key.
    const plain = keys.apiKeys.filter((key) => !admin.has(key));
    this.#keys = [...new Set([...plain, ...admin])].map(entry);
  }

  /** Whether any key is set. */
  get size(): number {
    return this.#keys.length;
  }

  /** The identity of a known key, else undefined. */
  identify(credential: string): Identity | undefined {
    const digest = digestOf(credential);
    let found: Identity | undefined;
    // Every key is compared, so the time taken says nothing of which matched.
    for (const key of this.#keys) {
      if (timingSafeEqual(key.digest, digest)) found = key.identity;
    }
    return found;
  }
}

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
