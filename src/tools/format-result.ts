/** Turns a tool's return value into the text the model sees, cut at `maxChars`. */
export function formatToolOutput(value: unknown, maxChars: number): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '(no output)';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n…[cut: ${text.length - maxChars} more characters]`;
}

/** The error text the model sees: `Error: ` and one line, never a stack trace. */
export function formatToolError(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return `Error: ${line.length > 500 ? `${line.slice(0, 500)}…` : line}`;
}
