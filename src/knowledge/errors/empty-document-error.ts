import { YeoulError } from '../../core/index.ts';

/** A document with no text in it (an empty file, only white space, a PDF of images). */
export class EmptyDocumentError extends YeoulError {
  readonly source: string;

  constructor(fields: { source: string }) {
    super('empty_document', `"${fields.source}" has no text to add`);
    this.source = fields.source;
  }
}
