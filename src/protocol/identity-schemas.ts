import { z } from 'zod';

/** The scopes credentials may hold, as the wire names them. */
export const scopeSchema = z.enum(['yeoul:read', 'yeoul:write', 'yeoul:documents', 'yeoul:admin']);

/** GET /api/me: who the server takes the caller for, and what it may do. */
export const meResponseSchema = z.object({
  owner: z
    .string()
    .describe(
      '`anonymous`, a key’s tag (32 hex characters), `jwt:<owner claim>` or `hook:<owner>`',
    ),
  via: z.enum(['anonymous', 'key', 'admin-key', 'jwt', 'hook']),
  scopes: z.array(scopeSchema).describe('every scope held (yeoul:write includes yeoul:read)'),
  admin: z.boolean().describe('may act across owners (usage, prune)'),
  expiresAt: z.string().nullable().describe('a token’s exp as ISO time; null otherwise'),
});
