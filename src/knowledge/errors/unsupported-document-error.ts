import { YeoulError } from '../../core/index.ts';

/** A file or text the knowledge base cannot read (unknown format, binary, broken PDF). */
export class UnsupportedDocumentError extends YeoulError {
  readonly source: string;

  constructor(fields: { source: string; reason: string }) {
    super('document_unsupported', `Cannot read "${fields.source}": ${fields.reason}`);
    this.source = fields.source;
  }
}
