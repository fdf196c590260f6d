import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LogSourceError } from './errors/log-source-error.ts';
import { compileLogQuery } from './match-log-query.ts';
import { NewestEvents } from './newest-events.ts';
import { parseLogLine } from './parse-log-line.ts';
import { scanLines } from './scan-lines.ts';
import { shortenEvent } from './shorten-event.ts';
import type { LogQuery, LogQueryResult, LogSource } from './types.ts';

/** How large a kept event may be before the tool shortens it further. */
const keptEventChars = 8_000;
const logFilePattern = /\.(?:log|jsonl)$/i;

/**
 * `file:DIR`: every `*.log` and `*.jsonl` file under `directory` (sub-folders included),
 * JSON lines and plain-text lines alike (rules: {@link compileLogQuery}). Each file is
 * streamed line by line: every match is counted, and only the newest `limit` are kept, so a
 * file of any size is searched in bounded memory. Plain-text events carry the `file` they came
 * from (relative to `directory`).
 * @example
 * const source = createFileLogSource({ directory: './data/logs' });
 * await source.query({ service: 'payment-service', status: { from: 500, to: 500 }, limit: 20 }, { signal });
 */
export function createFileLogSource(options: { directory: string }): LogSource {
  const { directory } = options;
  const name = `the log folder ${directory}`;
  return {
    name,
    async query(query: LogQuery, { signal }): Promise<LogQueryResult> {
      const files = await listLogFiles(directory, name);
      const matches = compileLogQuery(query);
      const newest = new NewestEvents(query.limit);
      let count = 0;
      for (const file of files) {
        await scanLines(
          join(directory, file),
          (line) => {
            const parsed = parseLogLine(line);
            if (parsed === undefined || !matches(parsed)) return;
            count += 1;
            if (parsed.kind === 'text') parsed.event.file = file;
            newest.offer(parsed.event, parsed.timeMs, (event) =>
              shortenEvent(event, keptEventChars),
            );
          },
          { signal },
        ).catch((error: unknown) => {
          if (signal.aborted) throw signal.reason;
          throw new LogSourceError(
            { source: name, problem: `could not read ${file} (${describeFileError(error)})` },
            { cause: error },
          );
        });
      }
      return { count, events: newest.toArray() };
    },
  };
}

/** The log files under `directory`, as paths relative to it, in name order. */
async function listLogFiles(directory: string, name: string): Promise<string[]> {
  let entries: string[];
  try {
    if (!(await stat(directory)).isDirectory()) {
      throw new LogSourceError({ source: name, problem: 'is not a folder' });
    }
    entries = await readdir(directory, { recursive: true });
  } catch (error) {
    if (error instanceof LogSourceError) throw error;
    const hint = 'set YEOUL_LOGS to file:DIR with a folder of .log or .jsonl files';
    throw new LogSourceError(
      { source: name, problem: describeFileError(error), hint },
      { cause: error },
    );
  }
  const files: string[] = [];
  for (const entry of entries.sort()) {
    if (!logFilePattern.test(entry)) continue;
    const info = await stat(join(directory, entry)).catch(() => undefined);
    if (info?.isFile()) files.push(entry);
  }
  return files;
}

function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'may not be read (permission denied)';
  if (code === 'EISDIR') return 'is a folder';
  return code ?? (error instanceof Error ? error.message : String(error));
}
