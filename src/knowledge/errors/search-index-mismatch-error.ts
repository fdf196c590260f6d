import { YeoulError } from '../../core/index.ts';

/** The cluster's existing index was built with other settings or mappings than Yeoul's. */
export class SearchIndexMismatchError extends YeoulError {
  readonly index: string;
  /** Each difference, in words (`schema version 0, expected 1`). */
  readonly differences: string[];

  constructor(fields: { index: string; differences: string[] }) {
    super(
      'search_index_mismatch',
      `The OpenSearch index "${fields.index}" does not match this version of Yeoul ` +
        `(${fields.differences.join('; ')}). Run "yeoul reindex" to rebuild it from the ` +
        'stored documents, or delete the index to start empty',
    );
    this.index = fields.index;
    this.differences = fields.differences;
  }
}
