import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { environmentSchema } from '../src/config/index.ts';
import { createRuntime, type Runtime, readServerConfig } from '../src/server/index.ts';
import { runYeoul, startServeProcess } from '../src/testing/internal/index.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-empty-environment-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Every variable Yeoul reads, set to the empty string (as `.env` and compose files leave them). */
const allEmpty = Object.fromEntries(Object.keys(environmentSchema.shape).map((name) => [name, '']));

/** What a runtime is made of, apart from where its data lives. */
function shapeOf(runtime: Runtime) {
  const { dataDir: _dataDir, env, ...config } = runtime.config;
  return {
    config,
    env,
    model: runtime.model.info,
    settings: runtime.model.settings,
    embedder: runtime.embedder?.name,
    tools: runtime.registry.names(),
    search: runtime.searchHealth(),
    store: runtime.store.backend,
    tracing: runtime.tracing === undefined,
    mcp: runtime.mcp.status(),
  };
}

describe('every environment variable set empty', () => {
  it('reads as if none were set', () => {
    const dataDir = join(root, 'read');
    assert.ok(Object.keys(allEmpty).length > 60, 'the schema lists the variables');
    assert.deepEqual(readServerConfig(allEmpty, { dataDir }), readServerConfig({}, { dataDir }));
  });

  it('wires the same runtime as with none set, which answers a turn on the offline model', async () => {
    const open = (env: Record<string, string>, name: string) =>
      createRuntime(readServerConfig(env, { dataDir: join(root, name), sampleKnowledge: false }));
    const empty = await open(allEmpty, 'runtime-empty');
    const unset = await open({}, 'runtime-unset');
    try {
      assert.deepEqual(shapeOf(empty), shapeOf(unset));
      assert.equal(empty.model.info.provider, 'offline');
      const [fromEmpty, fromUnset] = await Promise.all(
        [empty, unset].map((runtime) => runtime.runner.invoke({ message: '2400의 15%는?' })),
      );
      assert.equal(fromEmpty?.status, 'published');
      assert.equal(fromEmpty?.response, fromUnset?.response);
    } finally {
      await empty.close();
      await unset.close();
    }
  });

  it('lets `yeoul --help` print its usage, as with none set', async () => {
    const [empty, unset] = await Promise.all([
      runYeoul(['--help'], { env: allEmpty }),
      runYeoul(['--help']),
    ]);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stderr, '');
    assert.equal(empty.stdout, unset.stdout);
  });

  it('starts `yeoul serve` on the offline model, which serves a turn', async () => {
    const server = await startServeProcess(join(root, 'serve'), allEmpty, ['--no-sample']);
    try {
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as {
        status: string;
        model: string;
      };
      assert.equal(status.status, 'ok');
      assert.equal(status.model, 'offline:rules');
      const turn = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: '안녕하세요' }),
      });
      assert.equal(turn.status, 200);
      const body = (await turn.json()) as { status: string; response: string };
      assert.equal(body.status, 'published');
      assert.ok(body.response.length > 0);
    } finally {
      await server.stop();
    }
  });
});
