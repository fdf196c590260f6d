import { YeoulError } from '../../core/index.ts';

/** The embedding model changed: its vectors have another size than those already stored. */
export class EmbeddingMismatchError extends YeoulError {
  readonly stored: number;
  readonly given: number;

  constructor(fields: { stored: number; given: number }) {
    super(
      'embedding_mismatch',
      `The knowledge base holds ${fields.stored}-dimensional vectors but the embedding model gives ${fields.given}; re-create the knowledge base to change models`,
    );
    this.stored = fields.stored;
    this.given = fields.given;
  }
}
