/** An error as the one line `yeoul: <message>` shows it. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `yeoul: ${message.replace(/\s+/g, ' ').trim()}\n`;
}
