import { Readable } from 'node:stream';
import type { CliIo } from '../../cli/index.ts';

/** A CliIo that keeps what a command writes (`out`, `err`), with empty stdin and environment. */
export function fakeCliIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (io.out += text) },
    stderr: { write: (text: string) => (io.err += text) },
    env: {},
  };
  return io;
}
