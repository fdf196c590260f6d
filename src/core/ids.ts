import { randomUUID } from 'node:crypto';

/** A new random id (UUID v4), for runs, messages and anything else that needs one. */
export function createId(): string {
  return randomUUID();
}
