import { YeoulError } from '../../core/index.ts';

/** `--scorers` (or a request's `scorers`) named a scorer that does not exist, or a name twice. */
export class UnknownScorerError extends YeoulError {
  readonly names: string[];

  constructor(fields: { names: string[]; known: string[] }) {
    super(
      'unknown_scorer',
      `unknown scorer${fields.names.length === 1 ? '' : 's'} ${fields.names.map((name) => `"${name}"`).join(', ')}; the scorers are ${fields.known.join(', ')}`,
    );
    this.names = fields.names;
  }
}
