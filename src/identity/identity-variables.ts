import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';
import { type Read, readJwksLocation, readPublicKey } from './jwt-key-material.ts';

/** The shortest HS256 secret accepted, in bytes. */
export const minimumSecretBytes = 32;

/** A comma-separated list, read as its trimmed, non-empty entries. */
function commaList() {
  return z.string().transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );
}

/** A value read into key material, or one problem naming why it cannot be. */
function keyMaterial<Value>(read: (text: string) => Read<Value>) {
  return z.string().transform((text, context) => {
    const outcome = read(text);
    if (outcome.ok) return outcome.value;
    context.addIssue({ code: 'custom', message: outcome.problem });
    return z.NEVER;
  });
}

/** A claim's name: what a token's payload is looked up by. */
const claimName = z
  .string()
  .max(256, { error: 'must be a claim name of at most 256 characters' })
  .regex(/^\S+$/, { error: 'must be a claim name without spaces' });

/**
 * Who may call the server: static keys, admin keys and end users' tokens (JWT). With any
 * of them (or the config's `auth.authenticate`) every request needs credentials.
 */
export const identityVariables = z.object({
  YEOUL_API_KEYS: environmentVariable(commaList().optional(), {
    meaning:
      'comma-separated keys, each an owner (with `yeoul:write` and `yeoul:documents`); with any, every request needs credentials',
    default: 'unset = no auth, loopback only',
  }),
  YEOUL_ADMIN_KEYS: environmentVariable(commaList().optional(), {
    meaning: 'comma-separated admin keys, each an owner with `yeoul:admin`',
    default: 'unset',
  }),
  YEOUL_JWT_SECRET: environmentVariable(
    z
      .string()
      .refine((secret) => Buffer.byteLength(secret, 'utf8') >= minimumSecretBytes, {
        error: `must be at least ${minimumSecretBytes} bytes`,
      })
      .optional(),
    { meaning: 'HS256 secret of end-user tokens, at least 32 bytes', default: 'unset' },
  ),
  YEOUL_JWT_PUBLIC_KEY: environmentVariable(keyMaterial(readPublicKey).optional(), {
    meaning:
      'RS256 (RSA) or ES256 (P-256) public key of end-user tokens: the PEM text, or the path of a PEM file',
    default: 'unset',
  }),
  YEOUL_JWT_JWKS: environmentVariable(keyMaterial(readJwksLocation).optional(), {
    meaning:
      'a JWK Set: the path of a JSON file `{"keys": [...]}`, or an `https://` URL (`http://` only on a loopback address), fetched at start, every 10 minutes and on an unknown `kid` (at most once every 10 s)',
    default: 'unset',
  }),
  YEOUL_JWT_ISSUER: environmentVariable(z.string().optional(), {
    meaning: 'the `iss` every token must carry',
    default: 'not checked',
  }),
  YEOUL_JWT_AUDIENCE: environmentVariable(commaList().optional(), {
    meaning:
      'comma-separated; a token’s `aud` (a string or an array) must hold one of them; required with `YEOUL_JWT_PUBLIC_KEY` or `YEOUL_JWT_JWKS`',
    default: 'not checked (secret only)',
  }),
  YEOUL_JWT_OWNER_CLAIM: environmentVariable(claimName.default('sub'), {
    meaning:
      'the claim naming the end user (a string of 1–256 characters); the owner is `jwt:<it>`',
  }),
  YEOUL_JWT_SCOPES_CLAIM: environmentVariable(claimName.default('scope'), {
    meaning:
      'the claim holding a token’s scopes: a space-separated string or an array of strings (only `yeoul:*` ones count)',
  }),
});

/** The identity variables as read: keys listed, key material loaded and checked. */
export type IdentityVariables = z.output<typeof identityVariables>;

/**
 * What the identity variables cannot be together, each a line naming its variable: a
 * public key or a JWK Set is trusted only for tokens meant for this server (an audience).
 */
export function identityVariableProblems(env: Readonly<Record<string, string>>): string[] {
  const asymmetric = env.YEOUL_JWT_PUBLIC_KEY !== undefined || env.YEOUL_JWT_JWKS !== undefined;
  if (!asymmetric || env.YEOUL_JWT_AUDIENCE !== undefined) return [];
  return [
    'YEOUL_JWT_AUDIENCE: required with YEOUL_JWT_PUBLIC_KEY or YEOUL_JWT_JWKS (the aud of tokens meant for this server)',
  ];
}
