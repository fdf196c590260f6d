import { YeoulError } from '../../core/index.ts';

/**
 * A document was stored but the search index did not accept it (all or some of its
 * chunks). It stays marked as pending and is written again later; it is not searchable yet.
 */
export class IndexWriteError extends YeoulError {
  readonly documentId: string;
  readonly reason: string;

  constructor(fields: { documentId: string; reason: string }, options: { cause?: unknown } = {}) {
    super(
      'search_index_write_failed',
      `Document "${fields.documentId}" was stored but the search index did not accept it ` +
        `(${fields.reason}); it will be retried`,
      options,
    );
    this.documentId = fields.documentId;
    this.reason = fields.reason;
  }
}
