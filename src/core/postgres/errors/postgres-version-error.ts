import { YeoulError } from '../../errors/yeoul-error.ts';

/** The PostgreSQL server is older than the oldest version Yeoul supports. */
export class PostgresVersionError extends YeoulError {
  /** The server's version as it reports it (`12.17`). */
  readonly version: string;
  /** The oldest major version Yeoul runs on. */
  readonly minimum: number;

  constructor(fields: { version: string; minimum: number }) {
    super(
      'store_version_unsupported',
      `PostgreSQL ${fields.version} is too old: Yeoul needs PostgreSQL ${fields.minimum} or newer`,
    );
    this.version = fields.version;
    this.minimum = fields.minimum;
  }
}
