import type { Me } from '../../client/index.ts';

/** What the signed-in credentials let the console offer, from `GET /api/me`. */
export interface Access {
  /** The owner as the server names it (`jwt:alice`, a key's tag); null when anonymous or not known. */
  owner: string | null;
  /** Sending, approving, editing, rating, deleting sessions and memory (`yeoul:write`). */
  write: boolean;
  /** Adding and deleting documents (`yeoul:documents`). */
  documents: boolean;
}

/**
 * Before `GET /api/me` answers, or when it cannot: everything is offered and the server
 * decides, as it always does.
 */
export const fullAccess: Access = { owner: null, write: true, documents: true };

/**
 * What `GET /api/me`'s answer lets the console offer: the anonymous owner is nobody signed in.
 * @example
 * accessOf({ owner: 'jwt:alice', via: 'jwt', scopes: ['yeoul:read'], admin: false, expiresAt: null });
 * // { owner: 'jwt:alice', write: false, documents: false }
 */
export function accessOf(me: Me): Access {
  return {
    owner: me.via === 'anonymous' ? null : me.owner,
    write: me.scopes.includes('yeoul:write'),
    documents: me.scopes.includes('yeoul:documents'),
  };
}
