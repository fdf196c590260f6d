import { defineCommand } from '../define-command.ts';
import { parseCommandArgs } from '../parse-command-args.ts';

/** `yeoul migrate [--status]`: applies (or lists) the PostgreSQL schema migrations of DATABASE_URL. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'apply (or list) the PostgreSQL schema migrations of DATABASE_URL',
  usage: ['migrate [--status]'],
  details: [
    'Brings the database of DATABASE_URL up to date: every pending migration, in order, each in',
    'a transaction of its own. Instances starting together take turns (an advisory lock), so it',
    'is safe beside running servers. `yeoul serve` does the same at start unless --no-migrate.',
    '--status   list the migrations and their state (applied, pending, changed, unknown) instead',
    'Exit code 1 when DATABASE_URL is unset, the database is unreachable or a migration fails.',
  ],
  example: 'migrate --status',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'migrate',
      args,
      { status: { type: 'boolean' } },
      { min: 0, max: 0, names: 'nothing' },
    );
    // Loaded here, not on import, so that `--help` and usage errors answer at once.
    const { readServerConfig, storeMigrations } = await import('../../server/index.ts');
    const { applyMigrations, createPostgresPool, describePostgresTarget, migrationStatus } =
      await import('../../core/index.ts');
    const config = readServerConfig(io.env);
    if (config.databaseUrl === undefined) {
      io.stderr.write(
        'yeoul: DATABASE_URL is not set; the embedded SQLite store needs no migrations\n',
      );
      return 1;
    }
    const target = describePostgresTarget(config.databaseUrl);
    const pool = await createPostgresPool({ url: config.databaseUrl, maxConnections: 2 });
    try {
      const migrations = storeMigrations();
      if (values.status) {
        const entries = await migrationStatus(pool, migrations);
        io.stdout.write(`${target}\n`);
        for (const entry of entries) {
          const when = entry.appliedAt ? `  ${entry.appliedAt.toISOString()}` : '';
          io.stdout.write(
            `${String(entry.version).padStart(5)}  ${entry.name.padEnd(24)} ${entry.state}${when}\n`,
          );
        }
        return 0;
      }
      const applied = await applyMigrations(pool, migrations);
      if (applied.length === 0) {
        io.stdout.write(`${target} is up to date (${migrations.length} migrations)\n`);
      } else {
        const names = applied.map((migration) => `${migration.version} ${migration.name}`);
        io.stdout.write(
          `applied ${applied.length} ${applied.length === 1 ? 'migration' : 'migrations'} to ${target}: ${names.join(', ')}\n`,
        );
      }
      return 0;
    } finally {
      await pool.end();
    }
  },
});
