import { credentialOf, looksLikeJwt, type RequestHeaders } from './credential-of.ts';
import type { IdentityVariables } from './identity-variables.ts';
import type { JwksLocation } from './jwt-key-material.ts';
import { anonymousIdentity, KeyRing } from './key-ring.ts';
import { type JwksTimings, RemoteJwks } from './remote-jwks.ts';
import { runAuthHook } from './run-auth-hook.ts';
import { defaultTokenScopes } from './scope-set.ts';
import { type TokenOutcome, type TokenRules, TokenVerifier } from './token-verifier.ts';
import type { AuthenticateHook, AuthRefusal, Identity, JwtSettings } from './types.ts';

/** Everything that decides who is calling, from the environment and the config file. */
export interface IdentitySettings {
  apiKeys: readonly string[];
  adminKeys: readonly string[];
  tokens: Omit<TokenRules, 'keySet'> & { jwks?: JwksLocation };
}

/** A request as the resolver sees it. */
export interface IdentityRequest {
  method: string;
  url: string;
  headers: RequestHeaders;
  ip: string;
}

/** Who is calling, or why the request is refused (401); a hook's failure to log comes along. */
export type IdentifyOutcome =
  | { ok: true; identity: Identity }
  | { ok: false; refusal: AuthRefusal; hookFailure?: { problem: string; error?: unknown } };

/** Works out who is calling, once per request: keys, the config's hook, then tokens. */
export interface IdentityResolver {
  /** Whether requests need credentials: any key, token key or hook is configured. */
  readonly enabled: boolean;
  /** Fetches a JWK Set at a URL, and keeps it fresh until `close`. */
  start(): Promise<void>;
  identify(request: IdentityRequest): Promise<IdentifyOutcome>;
  /** A token checked exactly as a request's (for the command line's `--token`). */
  verifyToken(token: string): Promise<TokenOutcome>;
  close(): void;
}

/**
 * The identity settings of the environment (the config file's `auth.jwt` already folded
 * in as the `YEOUL_JWT_*` defaults), with what only the config file sets.
 */
export function identitySettingsOf(
  environment: IdentityVariables,
  jwt: JwtSettings = {},
): IdentitySettings {
  const {
    YEOUL_JWT_SECRET: secret,
    YEOUL_JWT_PUBLIC_KEY: publicKey,
    YEOUL_JWT_JWKS: jwks,
    YEOUL_JWT_ISSUER: issuer,
    YEOUL_JWT_AUDIENCE: audience,
  } = environment;
  return {
    apiKeys: environment.YEOUL_API_KEYS ?? [],
    adminKeys: environment.YEOUL_ADMIN_KEYS ?? [],
    tokens: {
      ...(secret === undefined ? {} : { secret }),
      ...(publicKey === undefined ? {} : { publicKey }),
      ...(jwks === undefined ? {} : { jwks }),
      ...(issuer === undefined ? {} : { issuer }),
      ...(audience === undefined ? {} : { audience }),
      ownerClaim: environment.YEOUL_JWT_OWNER_CLAIM,
      scopesClaim: environment.YEOUL_JWT_SCOPES_CLAIM,
      defaultScopes: jwt.defaultScopes ?? defaultTokenScopes,
      clockSkewSeconds: jwt.clockSkewSeconds ?? 30,
    },
  };
}

/**
 * The resolver of a server (or a command acting as an owner). A request's owner comes
 * from the first that applies: a key of `YEOUL_API_KEYS` or `YEOUL_ADMIN_KEYS`; the
 * config's hook (`hook()`, read per request so that a reloaded config applies); a token
 * that passes every check. Otherwise it is refused: `invalid_token` for a token that
 * fails a check, `unauthorized` for anything else.
 * @example
 * const resolver = createIdentityResolver(identitySettingsOf(environment), {});
 * const outcome = await resolver.identify({ method: 'GET', url: '/api/me', headers, ip });
 */
export function createIdentityResolver(
  settings: IdentitySettings,
  options: {
    hook?: () => AuthenticateHook | undefined;
    onJwksFailure?: (problem: string) => void;
    jwksTimings?: Partial<JwksTimings>;
    fetch?: typeof fetch;
  } = {},
): IdentityResolver {
  const keys = new KeyRing(settings);
  const { jwks, ...rules } = settings.tokens;
  const remote =
    jwks?.kind === 'url'
      ? new RemoteJwks(jwks.url, {
          ...(options.jwksTimings ? { timings: options.jwksTimings } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
          ...(options.onJwksFailure ? { onFailure: options.onJwksFailure } : {}),
        })
      : undefined;
  const keySet = jwks?.kind === 'file' ? { keys: () => jwks.keys } : remote;
  const tokens = new TokenVerifier(keySet ? { ...rules, keySet } : rules);
  const hook = options.hook ?? (() => undefined);
  const enabled = keys.size > 0 || tokens.configured || hook() !== undefined;
  const unauthorized: AuthRefusal = {
    code: 'unauthorized',
    message:
      'a valid key or token is required: send Authorization: Bearer <key or token> (or x-api-key)',
  };
  return {
    enabled,
    start: async () => remote?.start(),
    close: () => remote?.close(),
    verifyToken: (token) =>
      tokens.configured
        ? tokens.verify(token)
        : Promise.resolve({ ok: false, refusal: unauthorized }),
    async identify(request) {
      if (!enabled) return { ok: true, identity: anonymousIdentity };
      const credential = credentialOf(request.headers);
      const keyed = credential === undefined ? undefined : keys.identify(credential);
      if (keyed) return { ok: true, identity: keyed };
      const authenticate = hook();
      if (authenticate) {
        const decided = await runAuthHook(
          authenticate,
          { ...request, headers: flatHeaders(request.headers) },
          rules.defaultScopes,
        );
        if (decided.kind === 'identity') return { ok: true, identity: decided.identity };
        if (decided.kind === 'failed') {
          const { problem, error } = decided;
          return { ok: false, refusal: unauthorized, hookFailure: { problem, error } };
        }
      }
      if (credential !== undefined && tokens.configured && looksLikeJwt(credential)) {
        return tokens.verify(credential);
      }
      return { ok: false, refusal: unauthorized };
    },
  };
}

/** Headers as the hook gets them: one string each (repeated ones joined by `, `). */
function flatHeaders(headers: RequestHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
