import { YeoulError } from '../../core/index.ts';

/** The search index cannot answer: its cluster is unreachable, red, or lost the index. */
export class SearchUnavailableError extends YeoulError {
  /** Which backend failed (`opensearch`). */
  readonly backend: string;
  /** What went wrong, in a few words (`connection refused`, `index health is red`). */
  readonly reason: string;

  constructor(fields: { backend: string; reason: string }, options: { cause?: unknown } = {}) {
    super(
      'search_unavailable',
      `Knowledge search is unavailable: the ${fields.backend} index cannot answer (${fields.reason})`,
      options,
    );
    this.backend = fields.backend;
    this.reason = fields.reason;
  }
}
