import { deleteBlankVariables } from '../core/index.ts';

/** A stream the CLI writes to; `isTTY` decides between a progress bar and plain lines. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Where a command reads and writes: the process's streams and environment, or a test's. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: OutputStream;
  stderr: OutputStream;
  env: Record<string, string | undefined>;
}

/**
 * The real process's streams and environment. An empty variable counts as unset, so the
 * process's empty ones are deleted first: the libraries that read `process.env` themselves
 * (the AI SDK's providers, the AWS SDK, OpenTelemetry) then see them unset as well.
 */
export function processIo(): CliIo {
  deleteBlankVariables(process.env);
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
