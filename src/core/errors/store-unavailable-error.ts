import { YeoulError, type YeoulErrorOptions } from './yeoul-error.ts';

/**
 * A store cannot serve for now: PostgreSQL refused, unknown host, dropped connection, server
 * shutting down or too slow to answer; or the disk under the embedded SQLite store is full.
 * Transient: the same request may succeed once the database is back or space is freed. The
 * server answers it with 503.
 */
export class StoreUnavailableError extends YeoulError {
  /** Which store failed (`postgres`, `sqlite`). */
  readonly store: string;
  /** Where it was looked for (`host:port/database`, never credentials; a file's path), when known. */
  readonly target: string | undefined;
  /** What went wrong, in the driver's words. */
  readonly reason: string;

  constructor(
    fields: { store: string; target?: string | undefined; reason: string },
    options: YeoulErrorOptions = {},
  ) {
    const where = fields.target ? ` at ${fields.target}` : '';
    super(
      'store_unavailable',
      `The ${fields.store} store${where} is unavailable: ${fields.reason}`,
      options,
    );
    this.store = fields.store;
    this.target = fields.target;
    this.reason = fields.reason;
  }
}
