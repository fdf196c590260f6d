import type { KeyObject } from 'node:crypto';
import { errors, type JWTHeaderParameters, type JWTPayload, jwtVerify } from 'jose';
import type { PublicKeyAlgorithm, SetKey } from './jwt-key-material.ts';
import { parseScopes, scopeSet } from './scope-set.ts';
import type { AuthRefusal, Identity, Scope } from './types.ts';

/** Where a token's keys come from, and what it must say to be accepted. */
export interface TokenRules {
  /** HS256. */
  secret?: string;
  /** RS256 or ES256, whatever `kid` a token names. */
  publicKey?: { key: KeyObject; algorithm: PublicKeyAlgorithm };
  /** A JWK Set: the key whose `kid` a token names, or the set's only key. */
  keySet?: {
    keys(): SetKey[];
    /** Called when a token names a `kid` the set lacks; may fetch the set again. */
    refreshForUnknownKey?(): Promise<void>;
  };
  issuer?: string;
  /** A token's `aud` must hold one of them. */
  audience?: string[];
  ownerClaim: string;
  scopesClaim: string;
  defaultScopes: readonly Scope[];
  clockSkewSeconds: number;
}

/** A token checked: who it names, or why it is refused. */
export type TokenOutcome = { ok: true; identity: Identity } | { ok: false; refusal: AuthRefusal };

/** A refusal found while picking the key, carried out of jose's verification. */
class Refused extends Error {}

/** How long a verified token is taken again without a second check (never past its `exp`). */
const acceptedForMs = 60_000;
/** How many verified tokens are remembered; the oldest go first. */
const acceptedLimit = 5_000;

/**
 * Checks end-user tokens (JWT): three base64url parts; `alg` HS256 with the secret, or
 * RS256/ES256 with a configured public key of that type; the signature; `exp` present and
 * not past, `nbf` not in the future (with the clock skew); `iss` and `aud` when configured;
 * the owner claim a string of 1–256 characters. The owner is `jwt:<owner claim>`.
 * @example
 * const verifier = new TokenVerifier({ secret, ownerClaim: 'sub', scopesClaim: 'scope',
 *   defaultScopes: ['yeoul:read', 'yeoul:write'], clockSkewSeconds: 30 });
 * const outcome = await verifier.verify(token); // { ok: true, identity: { owner: 'jwt:alice', … } }
 */
export class TokenVerifier {
  readonly #rules: TokenRules;
  readonly #algorithms: string[];
  readonly #cryptoKeys = new WeakMap<KeyObject, Promise<CryptoKey>>();
  /** Tokens that passed every check, until a minute later (or their `exp`): a client sends the same token again and again. */
  readonly #accepted = new Map<string, { identity: Identity; until: number }>();
  #secretKey: Promise<CryptoKey> | undefined;

  constructor(rules: TokenRules) {
    this.#rules = rules;
    this.#algorithms = [
      ...(rules.secret === undefined ? [] : ['HS256']),
      ...(rules.keySet ? ['RS256', 'ES256'] : rules.publicKey ? [rules.publicKey.algorithm] : []),
    ];
  }

  /** Whether any key is configured: without one no token is accepted. */
  get configured(): boolean {
    return this.#algorithms.length > 0;
  }

  /** The token's identity, or why it is refused (the message never holds the token). */
  async verify(token: string): Promise<TokenOutcome> {
    const remembered = this.#accepted.get(token);
    if (remembered !== undefined && remembered.until > Date.now()) {
      return { ok: true, identity: remembered.identity };
    }
    this.#accepted.delete(token);
    const outcome = await this.#check(token);
    if (outcome.ok) {
      const expires = outcome.identity.expiresAt?.getTime() ?? 0;
      if (this.#accepted.size >= acceptedLimit) {
        this.#accepted.delete(this.#accepted.keys().next().value as string);
      }
      this.#accepted.set(token, {
        identity: outcome.identity,
        until: Math.min(expires, Date.now() + acceptedForMs),
      });
    }
    return outcome;
  }

  async #check(token: string): Promise<TokenOutcome> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header) => this.#keyFor(header), {
        algorithms: this.#algorithms,
        ...(this.#rules.issuer === undefined ? {} : { issuer: this.#rules.issuer }),
        ...(this.#rules.audience === undefined ? {} : { audience: this.#rules.audience }),
        clockTolerance: this.#rules.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return refused(reasonOf(error));
    }
    const owner = payload[this.#rules.ownerClaim];
    if (typeof owner !== 'string' || owner.length === 0 || owner.length > 256) {
      return refused(
        `no owner claim: its "${this.#rules.ownerClaim}" must be a string of 1–256 characters`,
      );
    }
    const claimed = payload[this.#rules.scopesClaim];
    const granted =
      claimed === undefined ? this.#rules.defaultScopes : (parseScopes(claimed) ?? []);
    return {
      ok: true,
      identity: {
        owner: `jwt:${owner}`,
        via: 'jwt',
        scopes: scopeSet(granted),
        admin: granted.includes('yeoul:admin'),
        expiresAt: new Date((payload.exp as number) * 1000),
      },
    };
  }

  async #keyFor(header: JWTHeaderParameters): Promise<CryptoKey> {
    const { alg, kid } = header;
    if (alg === 'HS256' && this.#rules.secret !== undefined) {
      this.#secretKey ??= crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(this.#rules.secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['verify'],
      );
      return this.#secretKey;
    }
    const { publicKey, keySet } = this.#rules;
    const fixed = publicKey?.algorithm === alg ? publicKey.key : undefined;
    if (keySet !== undefined && (kid !== undefined || fixed === undefined)) {
      let found = pick(keySet.keys(), kid);
      if (found === undefined && kid !== undefined) {
        await keySet.refreshForUnknownKey?.();
        found = pick(keySet.keys(), kid);
      }
      if (found !== undefined) {
        if (found.algorithm !== alg) throw new Refused(`unsupported algorithm for its key: ${alg}`);
        return this.#cryptoKey(found.key, found.algorithm);
      }
      if (fixed === undefined) {
        throw new Refused(
          kid === undefined
            ? 'unknown key: it names no kid and the key set does not hold exactly one key'
            : 'unknown key: no configured key has the kid it names',
        );
      }
    }
    if (fixed === undefined || publicKey === undefined) {
      throw new Refused('unsupported algorithm: no configured key verifies it');
    }
    return this.#cryptoKey(fixed, publicKey.algorithm);
  }

  /** Node's key as WebCrypto's, made once per key. */
  #cryptoKey(key: KeyObject, algorithm: PublicKeyAlgorithm): Promise<CryptoKey> {
    let made = this.#cryptoKeys.get(key);
    if (made === undefined) {
      const parameters =
        algorithm === 'RS256'
          ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
          : { name: 'ECDSA', namedCurve: 'P-256' };
      const spki = key.export({ type: 'spki', format: 'der' });
      made = crypto.subtle.importKey('spki', spki, parameters, false, ['verify']);
      this.#cryptoKeys.set(key, made);
    }
    return made;
  }
}

/** The key a `kid` names, or the set's only key when none is named. */
function pick(keys: SetKey[], kid: string | undefined): SetKey | undefined {
  if (kid === undefined) return keys.length === 1 ? keys[0] : undefined;
  return keys.find((key) => key.kid === kid);
}

function refused(reason: string): TokenOutcome {
  return {
    ok: false,
    refusal: { code: 'invalid_token', message: `the token was refused: ${reason}` },
  };
}

/** Why jose refused a token, in words a caller can act on (never the token's content). */
function reasonOf(error: unknown): string {
  if (error instanceof Refused) return error.message;
  if (error instanceof errors.JWTExpired) return 'expired: its exp is past';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'not yet valid: its nbf is in the future';
    if (error.claim === 'iss') return 'wrong issuer: its iss is not the configured issuer';
    if (error.claim === 'aud')
      return 'wrong audience: its aud holds none of the configured audiences';
    if (error.claim === 'exp') return 'no expiry: it must carry a numeric exp';
    return `a claim is not valid: ${error.claim}`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return 'unsupported algorithm: accepted are HS256 with a secret and RS256 or ES256 with a configured key';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'bad signature: it was not signed by a configured key, or was changed since';
  }
  if (error instanceof errors.JWKSNoMatchingKey) return 'unknown key: no configured key matches';
  return 'malformed: not a signed JWT (three base64url parts with a JSON header and payload)';
}
