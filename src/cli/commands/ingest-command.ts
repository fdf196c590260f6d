import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { IngestProgress } from '../../knowledge/index.ts';
import { defineCommand } from '../define-command.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';
import { createProgressReporter } from '../progress-bar.ts';

type Status = IngestProgress['document']['status'];

/** `yeoul ingest PATH…`: adds files and folders to the knowledge base. */
export const ingestCommand = defineCommand({
  name: 'ingest',
  summary: 'add files and folders (.md, .txt, .html, .pdf) to the knowledge base',
  usage: ['ingest PATH... [--data DIR]'],
  details: [
    'Folders are read recursively. Unchanged files are skipped; changed ones replace their',
    'old version. A progress bar shows on a terminal, one line per file otherwise (stderr).',
    'Exit code 1 when any file failed.',
  ],
  example: 'ingest ./docs notes.md',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('ingest', args, dataOption, {
      min: 1,
      names: 'PATH (a file or folder to ingest)',
    });
    const missing = positionals.filter((path) => !existsSync(path));
    if (missing.length > 0) throw new Error(`no such file or folder: ${missing.join(', ')}`);
    const counts: Record<Status, number> = { added: 0, updated: 0, unchanged: 0, failed: 0 };
    const report = createProgressReporter(io.stderr, 9);
    const result = await withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      (runtime) =>
        runtime.knowledge.ingestPaths(positionals, (progress) => {
          counts[progress.document.status] += 1;
          const path =
            progress.source && (relative(resolve('.'), progress.source) || progress.source);
          report({
            ...progress,
            status: progress.document.status,
            label: path || progress.document.title,
          });
        }),
      { agents: false },
    ).finally(report.end);
    const total = counts.added + counts.updated + counts.unchanged + counts.failed;
    if (total === 0) throw new Error('found no .md, .txt, .html or .pdf files to ingest');
    io.stdout.write(
      `${total} ${total === 1 ? 'file' : 'files'}: ${counts.added} added, ${counts.updated} updated, ` +
        `${counts.unchanged} unchanged, ${counts.failed} failed (${result.chunks} chunks written)\n`,
    );
    if (counts.failed === 0) return 0;
    io.stderr.write(`yeoul: ${counts.failed} of ${total} files could not be ingested\n`);
    return 1;
  },
});
