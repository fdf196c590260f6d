import type { FastifyReply } from 'fastify';
import type { Scope } from '../../identity/index.ts';
import { HttpError } from './http-error.ts';

/**
 * The 403 `insufficient_scope` of a request beyond its credentials' scopes: the error
 * naming what `action` needs and what is held, with `WWW-Authenticate` set on `reply`.
 * @example
 * if (!identity.scopes.has('yeoul:admin')) throw insufficientScope(reply, 'yeoul:admin', identity.scopes, 'pruning another owner’s sessions');
 */
export function insufficientScope(
  reply: FastifyReply,
  needed: Scope,
  held: ReadonlySet<Scope>,
  action: string,
): HttpError {
  void reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${needed}"`);
  const holding = held.size === 0 ? 'no Yeoul scope' : [...held].join(' ');
  return new HttpError({
    status: 403,
    code: 'insufficient_scope',
    message: `${action} needs ${needed}; these credentials hold ${holding}`,
  });
}
