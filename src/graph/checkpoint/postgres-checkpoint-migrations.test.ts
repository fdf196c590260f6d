import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrationChecksum } from '../../core/index.ts';
import { checkpointMigrations } from './postgres-checkpoint-migrations.ts';

// A migration applied to a database is checked against its checksum on every start: its text
// must never change once shipped, however the source that builds it is arranged.
const shipped: Record<number, string> = {
  200: '9c0fc12794ade252e7bfb7f9776a883b07e51b6fbd535e73580cb3f4aed83def',
  201: '37287b02bedaef0e780bea4d615e837d4a35b054a05a73f16d2bcd1ad223a202',
  202: 'e4b826d734d9a9b5f4758fab0c6217f2832ac346bbc951f06a6a135c85c8035b',
  203: '89472ee01378eafd066b141c4d9a7c9896ce69669ead5e2d7e1c8ed269828821',
};

describe('the graph schema migrations', () => {
  it('keep the exact text they shipped with', () => {
    assert.deepEqual(
      Object.fromEntries(
        checkpointMigrations.map((migration) => [migration.version, migrationChecksum(migration)]),
      ),
      shipped,
    );
  });
});
