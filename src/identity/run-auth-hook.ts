import { parseScopes, scopeSet } from './scope-set.ts';
import type { AuthenticateHook, AuthRequest, Identity, Scope } from './types.ts';

/** What the config's hook decided: an identity, no opinion (`null`), or a failure to log. */
export type HookOutcome =
  | { kind: 'identity'; identity: Identity }
  | { kind: 'pass' }
  | { kind: 'failed'; problem: string; error?: unknown };

/**
 * Calls the config's `auth.authenticate` and checks what it returns: `{owner, scopes?}`
 * (owner `hook:<owner>`, scopes `defaultScopes` unless it names some) or `null`. A throw,
 * or anything else, is a failure — never a pass.
 * @example
 * await runAuthHook(hook, request, ['yeoul:read']); // { kind: 'identity', identity: { owner: 'hook:alice', … } }
 */
export async function runAuthHook(
  hook: AuthenticateHook,
  request: AuthRequest,
  defaultScopes: readonly Scope[],
): Promise<HookOutcome> {
  let returned: unknown;
  try {
    returned = await hook(request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', problem: `auth.authenticate threw: ${reason}`, error };
  }
  if (returned === null) return { kind: 'pass' };
  const { owner, scopes } = (returned ?? {}) as { owner?: unknown; scopes?: unknown };
  const granted = scopes === undefined ? defaultScopes : parseScopes(scopes);
  if (
    typeof returned !== 'object' ||
    typeof owner !== 'string' ||
    owner.length === 0 ||
    owner.length > 256 ||
    granted === undefined ||
    typeof scopes === 'string'
  ) {
    return {
      kind: 'failed',
      problem: `auth.authenticate returned ${describe(returned)}, not {owner: string (1–256 characters), scopes?: string[]} or null`,
    };
  }
  return {
    kind: 'identity',
    identity: {
      owner: `hook:${owner}`,
      via: 'hook',
      scopes: scopeSet(granted),
      admin: granted.includes('yeoul:admin'),
      expiresAt: null,
    },
  };
}

/** What a value is, without its content (it may hold a credential). */
function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const { owner, scopes } = value as { owner?: unknown; scopes?: unknown };
  if (typeof owner !== 'string') return 'an object without a string owner';
  if (owner.length === 0 || owner.length > 256) return `an owner of ${owner.length} characters`;
  return `scopes of type ${Array.isArray(scopes) ? 'array holding a non-string' : typeof scopes}`;
}
