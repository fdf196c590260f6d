import { YeoulError } from '../../../../core/index.ts';

/** What went wrong reading logs from a source that is not an HTTP service (a folder). */
export interface LogSourceErrorFields {
  /** The source as named to the model (`the log folder ./data/logs`). */
  source: string;
  /** What happened, as a phrase that follows the source name (`does not exist`). */
  problem: string;
  /** What to do next. */
  hint?: string;
}

/** Logs could not be read: a missing or unreadable folder, too many matches to count. */
export class LogSourceError extends YeoulError {
  readonly source: string;

  constructor(fields: LogSourceErrorFields, options: { cause?: unknown } = {}) {
    const hint = fields.hint === undefined ? '' : `; ${fields.hint}`;
    super('log_source', `${fields.source} ${fields.problem}${hint}`, options);
    this.source = fields.source;
  }
}
