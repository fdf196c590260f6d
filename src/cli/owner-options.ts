import type { Scope } from '../identity/index.ts';
import type { Runtime } from '../server/index.ts';
import { TokenRefusedError } from './errors/token-refused-error.ts';
import { UsageError } from './errors/usage-error.ts';

/** `--key KEY`, `--token TOKEN`, `--owner OWNER`: the options of every command that acts as an owner. */
export const ownerOptions = {
  key: { type: 'string' },
  token: { type: 'string' },
  owner: { type: 'string' },
} as const;

/** The synopsis words of the owner options. */
export const ownerSynopsis = '[--key KEY|--token TOKEN|--owner OWNER]';

/** The help lines of the owner options. */
export const ownerDetails = [
  '--key KEY      act as that API key’s owner',
  '--token TOKEN  act as that end user (a JWT, checked as the server checks it)',
  '--owner OWNER  act as an owner as GET /api/me names it (anonymous, a key’s tag, jwt:…, hook:…)',
  '               (default: the anonymous owner)',
];

/** The owner a command acts as, as its options name it: known now, or a token to check. */
export type OwnerChoice = { kind: 'owner'; owner: string } | { kind: 'token'; token: string };

/** The owner options' values, as a command's parsed options hold them. */
export interface OwnerValues {
  key?: string | undefined;
  token?: string | undefined;
  owner?: string | undefined;
}

/** Whether any owner option was given (commands that act for every owner without one). */
export function namesOwner(values: OwnerValues): boolean {
  return values.key !== undefined || values.token !== undefined || values.owner !== undefined;
}

/**
 * Reads the owner options (before any data is opened): at most one of them, an `--owner`
 * that names an owner, a `--key` turned into its tag. Bad usage is a UsageError (exit 2).
 * @example
 * const choice = await ownerChoice('ask', values); // { kind: 'owner', owner: 'anonymous' }
 */
export async function ownerChoice(command: string, values: OwnerValues): Promise<OwnerChoice> {
  const given = (['key', 'token', 'owner'] as const).filter((name) => values[name] !== undefined);
  if (given.length > 1) {
    throw new UsageError({
      problem: `${given.map((name) => `--${name}`).join(' and ')} each name the owner: give one`,
      command,
    });
  }
  for (const name of given) {
    if (values[name]?.trim() === '') {
      throw new UsageError({ problem: `--${name} needs a value`, command });
    }
  }
  const { anonymousOwner, isOwnerName, ownerOfKey } = await import('../identity/index.ts');
  if (values.token !== undefined) return { kind: 'token', token: values.token.trim() };
  if (values.key !== undefined) return { kind: 'owner', owner: ownerOfKey(values.key) };
  const owner = values.owner ?? anonymousOwner;
  if (!isOwnerName(owner)) {
    throw new UsageError({
      problem: `--owner must name an owner as GET /api/me does (anonymous, a key's 32-hex tag, jwt:…, hook:…), not "${owner}"`,
      command,
    });
  }
  return { kind: 'owner', owner };
}

/**
 * The owner the command acts as. A token is checked exactly as the server checks a
 * request's (`runtime.identity.verifyToken`) and must hold `needed`; a refused one is a
 * TokenRefusedError (exit 1, one line naming why).
 */
export async function resolveOwner(
  runtime: Runtime,
  choice: OwnerChoice,
  needed: Scope,
): Promise<string> {
  if (choice.kind === 'owner') return choice.owner;
  await runtime.identity.start();
  const outcome = await runtime.identity.verifyToken(choice.token);
  if (!outcome.ok) {
    throw new TokenRefusedError({
      reason:
        outcome.refusal.code === 'invalid_token'
          ? outcome.refusal.message.replace(/^the token was refused: /, '')
          : 'no end-user tokens are configured (YEOUL_JWT_SECRET, YEOUL_JWT_PUBLIC_KEY or YEOUL_JWT_JWKS)',
    });
  }
  const { identity } = outcome;
  if (!identity.scopes.has(needed)) {
    const held = identity.scopes.size === 0 ? 'no Yeoul scope' : [...identity.scopes].join(' ');
    throw new TokenRefusedError({
      reason: `this needs ${needed}; the token of ${identity.owner} holds ${held}`,
    });
  }
  return identity.owner;
}
