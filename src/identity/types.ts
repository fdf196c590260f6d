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
  /**
   * An admin key, or credentials holding `yeoul:admin`: may act across owners, is never held
   * to the limits. The anonymous caller of a server without authentication may do everything
   * its scopes say but is no admin.
   */
  admin: boolean;
  /** When the token stops being accepted; null for keys, hooks and the anonymous owner. */
  expiresAt: Date | null;
}

/** What the config's `auth.authenticate` is given: the request, header names in lower case. */
export interface AuthRequest {
  method: string;
  /** The path and query string, as sent. */
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The client's address. */
  ip: string;
}

/** Who the config's hook says is calling: the owner becomes `hook:<owner>`. */
export interface AuthHookIdentity {
  /** 1–256 characters. */
  owner: string;
  /** `yeoul:*` scopes (others are ignored); default the JWT settings' `defaultScopes`. */
  scopes?: string[];
}

/**
 * The config's `auth.authenticate`: called for every request that needs credentials and
 * carries no known key. `null` lets a JWT decide; a throw, or anything else, refuses the
 * request (401), never passes it.
 */
export type AuthenticateHook = (
  request: AuthRequest,
) => AuthHookIdentity | null | Promise<AuthHookIdentity | null>;

/** End-user token settings of the config file (`auth.jwt`); the `YEOUL_JWT_*` variables win. */
export interface JwtSettings {
  /** HS256 secret, at least 32 bytes (`YEOUL_JWT_SECRET`). */
  secret?: string;
  /** RS256 or ES256 public key: PEM text or a PEM file's path (`YEOUL_JWT_PUBLIC_KEY`). */
  publicKey?: string;
  /** A JWK Set: a JSON file's path or an `https://` URL (`YEOUL_JWT_JWKS`). */
  jwks?: string;
  /** The `iss` every token must carry (`YEOUL_JWT_ISSUER`). */
  issuer?: string;
  /** A token's `aud` must hold one of these (`YEOUL_JWT_AUDIENCE`). */
  audience?: string | string[];
  /** The claim naming the end user (default `sub`). */
  ownerClaim?: string;
  /** The claim holding scopes (default `scope`). */
  scopesClaim?: string;
  /** What a token without the scopes claim (and a hook naming none) holds (default read and write). */
  defaultScopes?: Scope[];
  /** Clock skew allowed on `exp` and `nbf`, in seconds (default 30). */
  clockSkewSeconds?: number;
}

/** The config file's `auth`: end-user tokens and a hook of its own. */
export interface AuthSettings {
  authenticate?: AuthenticateHook;
  jwt?: JwtSettings;
}

/** Why a request's credentials were refused: 401 with this code and message. */
export interface AuthRefusal {
  code: 'unauthorized' | 'invalid_token';
  message: string;
}
