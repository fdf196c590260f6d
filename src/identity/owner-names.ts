import { createHash } from 'node:crypto';
import { anonymousOwner } from './key-ring.ts';

/** A key's owner: its tag, 32 lowercase hex characters. */
const keyTag = /^[0-9a-f]{32}$/;

/** The owners an end user's credentials make: a token's and the config hook's. */
const endUserPrefixes = ['jwt:', 'hook:'] as const;

/**
 * Whether `text` names an owner as `GET /api/me` does: `anonymous`, a key's tag (32 hex
 * characters), `jwt:<claim>` or `hook:<owner>` (1–256 characters after the prefix).
 * @example
 * isOwnerName('jwt:alice'); // true
 * isOwnerName('alice'); // false
 */
export function isOwnerName(text: string): boolean {
  if (text === anonymousOwner || keyTag.test(text)) return true;
  const prefix = endUserPrefixes.find((candidate) => text.startsWith(candidate));
  if (prefix === undefined) return false;
  const rest = text.length - prefix.length;
  return rest >= 1 && rest <= 256;
}

/**
 * The folder of its own an end user's file tools work in (`jwt-<hash>`, `hook-<hash>`: 32
 * hex characters of the owner's SHA-256, never the claim itself, so no claim can name a
 * path); undefined for a key's owner and the anonymous owner, who keep the whole workspace.
 * @example
 * ownWorkspaceFolder('jwt:alice'); // 'jwt-5786039b3926ce6f1e4a5038f82e538c'
 */
export function ownWorkspaceFolder(owner: string): string | undefined {
  const prefix = endUserPrefixes.find((candidate) => owner.startsWith(candidate));
  if (prefix === undefined) return undefined;
  const hash = createHash('sha256').update(owner).digest('hex').slice(0, 32);
  return `${prefix.slice(0, -1)}-${hash}`;
}
