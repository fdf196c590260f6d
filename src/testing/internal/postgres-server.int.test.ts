import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type PostgresServer, startPostgresServer } from './postgres-server.ts';

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function refuses(url: string): Promise<boolean> {
  return query(url, 'SELECT 1').then(
    () => false,
    () => true,
  );
}

describe('startPostgresServer', () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgresServer();
  });
  after(() => server.stop());

  it('serves a real PostgreSQL on 127.0.0.1, never as root', async () => {
    assert.match(server.url, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/yeoul$/);
    const [row] = await query(
      server.url,
      "SELECT current_database() AS name, current_setting('server_version_num')::int AS version",
    );
    assert.equal(row?.name, 'yeoul');
    assert.ok(Number(row?.version) >= 130000);
    // PostgreSQL insists that its data folder belongs to the user it runs as.
    assert.notEqual(statSync(join(server.directory, 'data')).uid, 0);
  });

  it('creates further empty databases on the same server', async () => {
    await query(server.url, 'CREATE TABLE only_in_main (x int)');
    const other = await server.createDatabase();
    assert.notEqual(other, server.url);
    const [row] = await query(other, "SELECT to_regclass('only_in_main') IS NULL AS empty");
    assert.equal(row?.empty, true);
  });

  it('goes away on shutdown and comes back on start with its data', async () => {
    await query(server.url, 'CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)');
    await server.shutdown();
    assert.equal(await refuses(server.url), true);
    await server.start();
    assert.deepEqual(await query(server.url, 'SELECT x FROM kept'), [{ x: 7 }]);
  });
});

describe('startPostgresServer without PostgreSQL', () => {
  it('fails loudly, saying what to install', async () => {
    await assert.rejects(startPostgresServer({ binDirectory: '/nonexistent/postgresql/bin' }), {
      message:
        /^PostgreSQL is missing \(initdb and postgres not found in \/nonexistent\/postgresql\/bin\);.* Install it: .*\bpostgresql\b/,
    });
  });
});

describe('a server whose process ended without stop', () => {
  it('is stopped and its folder removed', async () => {
    const script = `import { startPostgresServer } from ${JSON.stringify(new URL('./postgres-server.ts', import.meta.url).href)};
      const server = await startPostgresServer();
      console.log(JSON.stringify({ url: server.url, directory: server.directory }));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const { url, directory } = JSON.parse(output) as { url: string; directory: string };
    // The supervisor removes the folder only after the server has exited.
    const deadline = Date.now() + 10_000;
    while (existsSync(directory) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(existsSync(directory), false);
    assert.equal(await refuses(url), true);
  });
});
