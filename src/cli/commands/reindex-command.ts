import { join } from 'node:path';
import type { ReindexProgress } from '../../knowledge/index.ts';
import { defineCommand } from '../define-command.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';
import { createProgressReporter } from '../progress-bar.ts';

/** `yeoul reindex`: rebuilds the search index (an OpenSearch cluster) from the stored documents. */
export const reindexCommand = defineCommand({
  name: 'reindex',
  summary: 'rebuild the search index (an OpenSearch cluster) from the stored documents',
  usage: ['reindex [--data DIR]'],
  details: [
    'With YEOUL_SEARCH_URL=opensearch:URL, builds a new index with the current settings and',
    'mappings from the documents in the data folder (or DATABASE_URL), then moves the alias to it and removes',
    'the old one (search keeps answering meanwhile). Use it after an upgrade that changed the',
    'index, a change of YEOUL_EMBEDDING_MODEL, or a lost cluster. A progress bar shows on a',
    'terminal, one line per document otherwise (stderr). Exit code 1 when any document failed.',
  ],
  example: 'reindex --data ./data',
  async run(args, io) {
    const { values } = parseCommandArgs('reindex', args, dataOption, { min: 0, max: 0, names: '' });
    // Loaded here, not on import, so that `--help` and usage errors answer at once.
    const { readServerConfig } = await import('../../server/index.ts');
    const { rebuildSearchIndex, readSearchSettings, PostgresDocumentStore, SqliteDocumentStore } =
      await import('../../knowledge/index.ts');
    const { createPostgresPool } = await import('../../core/index.ts');
    const { resolveEmbedder } = await import('../../models/index.ts');
    const config = readServerConfig(
      io.env,
      values.data === undefined ? {} : { dataDir: values.data },
    );
    if (readSearchSettings(config.env) === undefined) {
      io.stdout.write(
        'YEOUL_SEARCH_URL is not set: the embedded index is written with the documents, so there is nothing to rebuild.\n',
      );
      return 0;
    }
    // With DATABASE_URL the documents live in PostgreSQL (migrated by `yeoul serve` or `yeoul migrate`).
    const pool = config.databaseUrl
      ? await createPostgresPool({ url: config.databaseUrl })
      : undefined;
    const store = pool
      ? new PostgresDocumentStore(pool)
      : new SqliteDocumentStore({ path: join(config.dataDir, 'knowledge.sqlite') });
    const report = createProgressReporter(io.stderr, 8);
    try {
      const result = await rebuildSearchIndex(config.env, {
        store,
        embedder: resolveEmbedder(config.env),
        onProgress: (progress: ReindexProgress) =>
          report({ ...progress, status: progress.document.status, label: progress.document.title }),
      });
      report.end();
      if (result === undefined) return 0;
      const replaced =
        result.replaced.length > 0 ? `, replacing ${result.replaced.join(', ')}` : '';
      io.stdout.write(
        `${result.documents} ${result.documents === 1 ? 'document' : 'documents'} (${result.chunks} chunks) ` +
          `indexed into ${result.index}${replaced}; ${result.failed.length} failed\n`,
      );
      if (result.failed.length === 0) return 0;
      io.stderr.write(
        `yeoul: ${result.failed.length} of ${result.documents} documents were not indexed; they stay pending and a running yeoul retries them\n`,
      );
      return 1;
    } finally {
      report.end();
      await store.close();
      await pool?.end();
    }
  },
});
