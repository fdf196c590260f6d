import { YeoulError } from '../../core/index.ts';

/** A text file in an encoding the knowledge base does not read (Latin-1, Shift-JIS, …). */
export class UnsupportedEncodingError extends YeoulError {
  readonly source: string;

  constructor(fields: { source: string }) {
    super(
      'unsupported_encoding',
      `Cannot read "${fields.source}": it is not UTF-8, UTF-16 (with a byte order mark) or EUC-KR/CP949 text; convert it to UTF-8`,
    );
    this.source = fields.source;
  }
}
