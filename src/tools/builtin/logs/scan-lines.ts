import { createReadStream } from 'node:fs';

/** Longest line kept whole; the rest of a longer line is dropped (a line cannot fill memory). */
export const maxLineBytes = 1024 * 1024;
const newline = 0x0a;

/**
 * Calls `onLine` for every line of the file at `path`, streaming it in 256 KiB chunks so
 * that a file of any size is read in bounded memory. Lines longer than {@link maxLineBytes}
 * are cut there; `\r\n` endings are accepted. Rejects with the signal's reason when it fires.
 */
export async function scanLines(
  path: string,
  onLine: (line: string) => void,
  options: { signal: AbortSignal },
): Promise<void> {
  const { signal } = options;
  signal.throwIfAborted();
  const stream = createReadStream(path, { highWaterMark: 256 * 1024, signal });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const keep = (piece: Buffer) => {
    const room = maxLineBytes - pendingBytes;
    if (room <= 0 || piece.length === 0) return;
    const kept = piece.length > room ? piece.subarray(0, room) : piece;
    // Copied: a view would pin the whole 256 KiB chunk for as long as the line is pending.
    pending.push(Buffer.from(kept));
    pendingBytes += kept.length;
  };
  const emit = (piece: Buffer) => {
    let bytes = piece;
    if (pending.length > 0) {
      keep(piece);
      bytes = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
    } else if (bytes.length > maxLineBytes) {
      bytes = bytes.subarray(0, maxLineBytes);
    }
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    onLine(bytes.toString('utf8', 0, end));
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(newline, start);
      if (end === -1) {
        keep(chunk.subarray(start));
        break;
      }
      emit(chunk.subarray(start, end));
      start = end + 1;
    }
  }
  if (pendingBytes > 0) emit(Buffer.alloc(0));
}
