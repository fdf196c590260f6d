import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { startFakeHttpServer } from './fake-http-server.ts';

/** A signing key of the fake provider, named by its `kid`. */
interface ProviderKey {
  kid: string;
  algorithm: 'RS256' | 'ES256';
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** What a test token says beyond its claims: its key, and whether its header names the kid. */
export interface SignOptions {
  /** Which of the current keys signs (default RS256). */
  algorithm?: 'RS256' | 'ES256';
  /** `false` leaves `kid` out of the header; a string names another kid. */
  kid?: string | false;
  /** Seconds until `exp` (default 3600); `null` leaves `exp` out. */
  expiresIn?: number | null;
}

/** An identity provider on 127.0.0.1 serving its JWK Set (as Auth0 or Keycloak do) and signing tokens. */
export interface FakeIdentityProvider {
  /** `http://127.0.0.1:PORT/.well-known/jwks.json`. */
  jwksUrl: string;
  /** The `iss` its tokens carry. */
  issuer: string;
  /** How many times the set was fetched. */
  readonly fetches: number;
  /** A token signed with a current key, with `iss` and (unless given) `exp` set. */
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** New keys under new kids: the set served from now on holds only them. */
  rotate(): void;
  /** Answers the set's fetches with this status from now on (`undefined`: serves it again). */
  failWith(status: number | undefined): void;
  /** Writes the current set to a JSON file (for `YEOUL_JWT_JWKS=<path>`). */
  writeJwksFile(path: string): void;
  /** The current RS256 key's public PEM (for `YEOUL_JWT_PUBLIC_KEY`). */
  publicKeyPem(algorithm?: 'RS256' | 'ES256'): string;
  close(): Promise<void>;
}

/**
 * Starts a fake identity provider: an RSA and a P-256 key, its JWK Set over HTTP, tokens
 * signed on demand; keys rotate and fetches fail when a test says so.
 * @example
 * const idp = await startFakeIdentityProvider();
 * const token = await idp.sign({ sub: 'alice', aud: 'yeoul' });
 */
export async function startFakeIdentityProvider(): Promise<FakeIdentityProvider> {
  let generation = 0;
  let keys: ProviderKey[] = [];
  const makeKeys = () => {
    generation += 1;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    keys = [
      { kid: `rsa-${generation}`, algorithm: 'RS256', ...rsa },
      { kid: `ec-${generation}`, algorithm: 'ES256', ...ec },
    ];
  };
  makeKeys();
  const jwks = () => ({
    keys: keys.map((key) => ({
      ...key.publicKey.export({ format: 'jwk' }),
      kid: key.kid,
      alg: key.algorithm,
      use: 'sig',
    })),
  });
  let failing: number | undefined;
  let fetches = 0;
  const server = await startFakeHttpServer((request) => {
    if (request.path !== '/.well-known/jwks.json') return { kind: 'json', status: 404, body: {} };
    fetches += 1;
    return failing === undefined
      ? { kind: 'json', body: jwks() }
      : { kind: 'text', status: failing, body: 'unavailable' };
  });
  const issuer = `${server.url}/`;
  const keyOf = (algorithm: 'RS256' | 'ES256') =>
    keys.find((key) => key.algorithm === algorithm) as ProviderKey;
  return {
    jwksUrl: `${server.url}/.well-known/jwks.json`,
    issuer,
    get fetches() {
      return fetches;
    },
    async sign(claims, options = {}) {
      const key = keyOf(options.algorithm ?? 'RS256');
      const kid = options.kid === undefined ? key.kid : options.kid;
      const expiresIn = options.expiresIn === undefined ? 3600 : options.expiresIn;
      const payload = {
        iss: issuer,
        ...(expiresIn === null ? {} : { exp: Math.floor(Date.now() / 1000) + expiresIn }),
        ...claims,
      };
      return new SignJWT(payload)
        .setProtectedHeader({ alg: key.algorithm, typ: 'JWT', ...(kid === false ? {} : { kid }) })
        .sign(key.privateKey);
    },
    rotate: makeKeys,
    failWith(status) {
      failing = status;
    },
    writeJwksFile(path) {
      writeFileSync(path, JSON.stringify(jwks(), null, 2));
    },
    publicKeyPem(algorithm = 'RS256') {
      return keyOf(algorithm).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    },
    close: () => server.close(),
  };
}

/** An HS256 token signed with `secret`, expiring in an hour unless `claims` say otherwise. */
export function hs256Token(secret: string, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}
