/** The scopes a caller may hold; each route needs one of them. */
export const scopes = ['yeoul:read', 'yeoul:write', 'yeoul:documents', 'yeoul:admin'] as const;

/** A scope a caller may hold. */
export type Scope = (typeof scopes)[number];

/** How a caller proved who it is. */
export type IdentityVia = 'anonymous' | 'key' | 'admin-key' | 'jwt' | 'hook';

/**
 * Who is calling: the owner every session, memory item, eval run and count belongs to, how
 * it was proved, and what it may do. The HTTP layer works it out once per request; domain
 * code receives the owner, never a header.
 */
export interface Identity {
  /** `anonymous`, a key's tag (32 hex characters), `jwt:<claim>` or `hook:<owner>`. */
  owner: string;
  via: IdentityVia;
  scopes: ReadonlySet<Scope>;
  /** Holds `yeoul:admin`: may act across owners, is never held to the limits. */
  admin: boolean;
  /** When the token stops being accepted; null for keys, hooks and the anonymous owner. */
  expiresAt: Date | null;
}
