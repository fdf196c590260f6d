import { relative, resolve } from 'node:path';

/** One event of `node --test`'s reporter stream (the fields this reporter reads). */
interface TestEvent {
  type: string;
  data: { file?: string | undefined; name?: string | undefined; nesting?: number | undefined };
}

/**
 * A `node --test` reporter that fails the run when a test file's process ended before its
 * tests did. Node counts a file whose process exits with code 0 mid-run as passed, its
 * remaining tests silently never reported; a file that finishes sends its own summary first,
 * so a file seen without one was cut short (a test file with no tests sends none either, and
 * counts as cut short). Prints each such file and sets a failing exit code.
 */
export default async function* unfinishedFilesReporter(
  source: AsyncIterable<TestEvent>,
): AsyncGenerator<string> {
  const files = new Set<string>();
  const finished = new Set<string>();
  for await (const event of source) {
    const { file, name, nesting } = event.data;
    if (event.type !== 'test:summary') {
      // A file's own test (named by its path): not a test a shared suite defined elsewhere.
      if (
        file !== undefined &&
        nesting === 0 &&
        name !== undefined &&
        resolve(name) === resolve(file)
      ) {
        files.add(resolve(file));
      }
      continue;
    }
    if (file !== undefined) {
      finished.add(resolve(file));
      continue;
    }
    // The run's own summary: every file has ended by now.
    const cut = [...files].filter((seen) => !finished.has(seen));
    for (const path of cut) {
      yield `✖ ${relative(process.cwd(), path)}: its process ended before its tests did (tests after the last one reported never ran)\n`;
    }
    if (cut.length > 0) process.exitCode = 1;
  }
}
