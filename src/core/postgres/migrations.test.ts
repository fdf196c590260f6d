import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPostgresVersion } from './check-postgres-version.ts';
import { MigrationDefinitionError } from './errors/migration-definition-error.ts';
import { combineMigrations, migrationChecksum } from './migrations.ts';

describe('combineMigrations', () => {
  it('joins the modules’ lists into one list ordered by version', () => {
    const knowledge = [{ version: 100, name: 'knowledge_base', sql: 'SELECT 1' }];
    const graph = [
      { version: 201, name: 'checkpoint_index', sql: 'SELECT 3' },
      { version: 200, name: 'checkpoints', sql: 'SELECT 2' },
    ];
    assert.deepEqual(
      combineMigrations(graph, knowledge).map((migration) => migration.version),
      [100, 200, 201],
    );
  });

  it('names every duplicate version and malformed entry at once', () => {
    assert.throws(
      () =>
        combineMigrations(
          [{ version: 100, name: 'knowledge_base', sql: 'SELECT 1' }],
          [
            { version: 100, name: 'sessions', sql: 'SELECT 2' },
            { version: 0, name: 'Bad Name', sql: ' ' },
          ],
        ),
      (error: unknown) => {
        assert.ok(error instanceof MigrationDefinitionError);
        assert.equal(error.code, 'migration_invalid');
        assert.equal(error.problems.length, 4);
        assert.match(error.message, /version 100 is used by both "knowledge_base" and "sessions"/);
        return true;
      },
    );
  });
});

describe('migrationChecksum', () => {
  it('changes with the SQL but not with Windows line endings', () => {
    const migration = { version: 1, name: 'a', sql: 'CREATE TABLE a (x int);\nSELECT 1;' };
    assert.equal(
      migrationChecksum(migration),
      migrationChecksum({ ...migration, sql: migration.sql.replace('\n', '\r\n') }),
    );
    assert.notEqual(
      migrationChecksum(migration),
      migrationChecksum({ ...migration, sql: 'SELECT 2' }),
    );
  });
});

describe('checkPostgresVersion', () => {
  const server = (number: string, version: string) => ({
    query: async () => ({ rows: [{ number, version }] }),
  });

  it('accepts PostgreSQL 13 and newer', async () => {
    assert.deepEqual(await checkPostgresVersion(server('150018', '15.18 (Debian)')), {
      major: 15,
      version: '15.18',
    });
    assert.equal((await checkPostgresVersion(server('130000', '13.0'))).major, 13);
  });

  it('refuses an older server with a message naming both versions', async () => {
    await assert.rejects(checkPostgresVersion(server('120017', '12.17')), {
      code: 'store_version_unsupported',
      message: 'PostgreSQL 12.17 is too old: Yeoul needs PostgreSQL 13 or newer',
    });
  });
});
