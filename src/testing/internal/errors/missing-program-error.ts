/**
 * A system program a test needs (Chromium, Prometheus, PostgreSQL, `script`) is not there.
 * The message is one line naming the install command (`missingProgramMessage`), and so is the
 * stack: the test reporter prints it, and where the check ran says nothing the line does not.
 */
export class MissingProgramError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingProgramError';
    this.stack = `${this.name}: ${this.message}`;
  }
}
