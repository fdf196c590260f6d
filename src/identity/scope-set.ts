import { type Scope, scopes } from './types.ts';

/** What a token without a scopes claim holds, unless the settings say otherwise. */
export const defaultTokenScopes: readonly Scope[] = ['yeoul:read', 'yeoul:write'];

/** What a key of `YEOUL_API_KEYS` may do: run and change its own things, and the documents. */
export const keyScopes: readonly Scope[] = ['yeoul:write', 'yeoul:documents'];

/**
 * The scopes a grant amounts to: `yeoul:write` includes `yeoul:read`, `yeoul:admin`
 * everything. An identity holds the whole set, so a check is one lookup.
 * @example
 * scopeSet(['yeoul:write']); // Set { 'yeoul:write', 'yeoul:read' }
 */
export function scopeSet(granted: Iterable<Scope>): ReadonlySet<Scope> {
  const held = new Set(granted);
  if (held.has('yeoul:admin')) return new Set(scopes);
  if (held.has('yeoul:write')) held.add('yeoul:read');
  return held;
}

/**
 * The scopes a claim or a hook names: a space-separated string or an array of strings, of
 * which only Yeoul's own are kept (`openid`, `profile`, unknown `yeoul:*` are ignored).
 * Undefined when the value is neither.
 */
export function parseScopes(value: unknown): Scope[] | undefined {
  const names =
    typeof value === 'string'
      ? value.split(/\s+/)
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? (value as string[])
        : undefined;
  return names?.filter(isScope);
}

/** Whether a string is one of Yeoul's scopes. */
export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}
