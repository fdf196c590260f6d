import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import {
  echoCompletion,
  type FakeOpenAiServer,
  type LoadTarget,
  type PostgresServer,
  type ServeProcess,
  sendTurn,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
  startSteadyLoad,
  type TurnOutcome,
  tallyOutcomes,
} from '../src/testing/internal/index.ts';

// The fault campaign: real PostgreSQL, real `yeoul serve` processes, a steady load of turns
// invoked and streamed on many sessions through two instances, and each fault an operator
// meets. After each: no instance exited but the one stopped on purpose, every turn ended in
// 200 or 503 store_unavailable (never a hang, never a 500), every answered turn is in its
// session's history seen from the other instance, no session is left blocked, and both
// instances serve again within 30 s. The log lines never hold a client object, a password or
// a statement's text.

const root = mkdtempSync(join(tmpdir(), 'yeoul-faults-'));
const leaseMs = 3000;
/** A turn with no answer by then hung (the store's 10 s to 503, a model answer, slack). */
const hangMs = 40_000;
/** How soon an instance must serve again once the database is back. */
const backWithinMs = 30_000;
const password = 'fault-campaign-secret';

let database: PostgresServer;
let databaseUrl: string;
let model: FakeOpenAiServer;
const logs = new Map<string, string>();
/** Instances that exited while nobody meant them to. */
const unexpectedExits: string[] = [];

/** One named `yeoul serve`, its output kept for the log checks; `stopping` marks a planned exit. */
interface Instance extends LoadTarget {
  process: ServeProcess;
  stopping: boolean;
}

async function startInstance(name: string, dataDir: string, env: Record<string, string>) {
  const process = await startServeProcess(
    dataDir,
    {
      YEOUL_MODEL: 'compat:echo',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_LEASE_MS: String(leaseMs),
      LOG_LEVEL: 'warn',
      ...env,
    },
    ['--no-sample'],
  );
  const instance: Instance = { name, url: process.url, process, stopping: false };
  const keep = (chunk: Buffer) => logs.set(name, (logs.get(name) ?? '') + chunk.toString());
  process.child.stdout.on('data', keep);
  process.child.stderr.on('data', keep);
  void process.exited.then((code) => {
    if (!instance.stopping) unexpectedExits.push(`${name} exited (${code})`);
  });
  return instance;
}

const startPostgresInstance = (name: string) =>
  startInstance(name, join(root, name), { DATABASE_URL: databaseUrl });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The user messages of a session's history, read through `instance`. */
async function userMessages(instance: LoadTarget, sessionId: string): Promise<Set<string>> {
  const response = await fetch(`${instance.url}/api/sessions/${sessionId}/history`);
  if (response.status === 404) return new Set();
  assert.equal(response.status, 200, `history of ${sessionId} through ${instance.name}`);
  const body = (await response.json()) as {
    steps: Array<{ update?: { messages?: Array<{ role: string; content: unknown }> } }>;
  };
  const texts = new Set<string>();
  for (const step of body.steps) {
    for (const message of step.update?.messages ?? []) {
      if (message.role === 'user' && typeof message.content === 'string')
        texts.add(message.content);
    }
  }
  return texts;
}

/** Asks `instance` fresh turns until one is answered; resolves with how long that took. */
async function servingAgain(instance: LoadTarget, label: string): Promise<number> {
  const started = performance.now();
  for (let attempt = 0; ; attempt += 1) {
    const turn = await sendTurn(instance, 'invoke', `${label}-probe-${attempt}`, 'ping', hangMs);
    if (turn.status === 200 && turn.runStatus === 'published') {
      return Math.round(performance.now() - started);
    }
    assert.ok(
      performance.now() - started < backWithinMs,
      `${instance.name} did not serve again within ${backWithinMs} ms (last: ${JSON.stringify(turn)})`,
    );
    await sleep(250);
  }
}

/** Whether an outcome is one the contract allows for a turn sent to `instance` during a fault. */
function allowed(outcome: TurnOutcome, stopped: string | undefined): boolean {
  if (outcome.via === stopped) {
    // The instance stopped on purpose: its connections end, or it says it is shutting down.
    if (outcome.failure && !outcome.failure.startsWith('no answer')) return true;
    if (outcome.status === 503 && outcome.code === 'shutting_down') return true;
  }
  if (outcome.failure) return false;
  if (outcome.status === 503) return outcome.code === 'store_unavailable';
  if (outcome.status !== 200) return false;
  // A stream cut by the store: an error event with that code, then the end.
  if (outcome.kind === 'stream' && outcome.code !== undefined) {
    return outcome.code === 'store_unavailable';
  }
  return outcome.runStatus === 'published';
}

/** What a scenario reports: for the closing note and for a reader of the test output. */
interface ScenarioReport {
  scenario: string;
  tally: Record<string, number>;
  backMs: Record<string, number>;
  lost: number;
}

/**
 * Runs `fault` under the steady load through `instances()`, then checks what the contract
 * says must hold after it. `stopped` names an instance stopped on purpose by the fault.
 */
async function underLoad(
  t: TestContext,
  scenario: string,
  instances: () => Instance[],
  /** Causes the fault and resolves once what failed is back (the database started, say). */
  fault: () => Promise<void>,
  stopped?: string,
): Promise<ScenarioReport> {
  const load = startSteadyLoad({
    targets: instances,
    workers: 32,
    prefix: scenario,
    timeoutMs: hangMs,
  });
  await sleep(1500);
  assert.ok(load.outcomes.length > 0, 'the load is running before the fault');
  await fault();
  const backMs: Record<string, number> = {};
  await Promise.all(
    instances().map(async (instance) => {
      backMs[instance.name] = await servingAgain(instance, `${scenario}-${instance.name}`);
    }),
  );
  await sleep(1000);
  const outcomes = await load.stop();
  const tally = tallyOutcomes(outcomes);

  assert.deepEqual(unexpectedExits, [], 'no instance exited but the one stopped on purpose');
  const refused = outcomes.filter((outcome) => !allowed(outcome, stopped));
  assert.deepEqual(
    refused,
    [],
    `every turn ended in 200 or 503 store_unavailable: ${JSON.stringify(tally)}`,
  );
  for (const [name, ms] of Object.entries(backMs)) {
    assert.ok(ms <= backWithinMs, `${name} served again ${ms} ms after the fault ended`);
  }

  // Every answered turn is in its session's history, seen from another instance than the one
  // that answered it; and every session takes a new turn (none left blocked by a cut run).
  const [reader] = instances();
  assert.ok(reader);
  const published = outcomes.filter(
    (outcome) =>
      outcome.status === 200 && outcome.runStatus === 'published' && outcome.code === undefined,
  );
  const sessions = [...new Set(outcomes.map((outcome) => outcome.sessionId))];
  let lost = 0;
  for (const sessionId of sessions) {
    const others = instances().filter((instance) => instance.name !== reader.name);
    const seen = await userMessages(others[0] ?? reader, sessionId);
    for (const turn of published.filter((outcome) => outcome.sessionId === sessionId)) {
      if (!seen.has(turn.text)) lost += 1;
    }
    const next = await sendTurn(reader, 'invoke', sessionId, `${scenario} after`, hangMs);
    assert.equal(
      next.status,
      200,
      `session ${sessionId} takes a new turn: ${JSON.stringify(next)}`,
    );
  }
  assert.equal(lost, 0, 'no turn answered 200 is missing from its session');
  const report = { scenario, tally, backMs, lost };
  t.diagnostic(JSON.stringify(report));
  return report;
}

before(async () => {
  database = await startPostgresServer();
  const url = new URL(await database.createDatabase());
  // Trust authentication takes any password: it is here to be looked for in the logs.
  url.password = password;
  databaseUrl = url.toString();
  model = await startFakeOpenAiServer(echoCompletion, { delayMs: 150, keepRequests: false });
});

after(async () => {
  await model?.close();
  await database?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('faults under load: two instances on one PostgreSQL', { timeout: 10 * 60_000 }, () => {
  let a: Instance;
  let b: Instance;
  const both = () => [a, b];

  before(async () => {
    [a, b] = await Promise.all([startPostgresInstance('a'), startPostgresInstance('b')]);
  });

  after(async () => {
    for (const instance of [a, b]) {
      if (instance) instance.stopping = true;
    }
    await Promise.all([a, b].map((instance) => instance?.process.kill()));
  });

  it('survives PostgreSQL stopped fast and started again', async (t) => {
    await underLoad(t, 'stop-fast', both, async () => {
      await database.shutdown('fast');
      await sleep(3000);
      await database.start();
    });
  });

  it('survives PostgreSQL stopped immediately (a crash) and started again', async (t) => {
    await underLoad(t, 'stop-immediate', both, async () => {
      await database.shutdown('immediate');
      await sleep(3000);
      await database.start();
    });
  });

  it('survives every connection of its own terminated by the server', async (t) => {
    await underLoad(t, 'terminate', both, async () => {
      const admin = new pg.Client({
        connectionString: databaseUrl.replace(/\/[^/]*$/, '/postgres'),
      });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ ended: string }>(
          'SELECT count(pg_terminate_backend(pid)) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [new URL(databaseUrl).pathname.slice(1)],
        );
        assert.ok(Number(rows[0]?.ended) > 0, 'some connections were terminated');
      } finally {
        await admin.end();
      }
    });
  });

  it('keeps serving on the other instance when one is killed, and takes over its sessions', async (t) => {
    let live = both();
    await underLoad(
      t,
      'kill',
      () => live,
      async () => {
        a.stopping = true;
        await a.process.kill();
        live = [b];
      },
      'a',
    );
    a = await startPostgresInstance('a');
  });

  it('finishes the runs in flight and exits 0 on SIGTERM, losing nothing it answered', async (t) => {
    let live = both();
    let exitCode: number | string | undefined;
    await underLoad(
      t,
      'sigterm',
      () => live,
      async () => {
        a.stopping = true;
        const started = performance.now();
        a.process.child.kill('SIGTERM');
        exitCode = await a.process.exited;
        assert.ok(performance.now() - started < 15_000, 'it exits within its grace period');
        live = [b];
      },
      'a',
    );
    assert.equal(exitCode, 0);
    a = await startPostgresInstance('a');
  });

  it('logs failed dependencies by code and message, never a client, a password or a statement', () => {
    const text = [...logs.values()].join('\n');
    assert.ok(text.length > 0, 'the instances logged the faults');
    assert.doesNotMatch(text, new RegExp(password), 'no password');
    assert.doesNotMatch(
      text,
      /connectionParameters|queryQueue|"_events"|Client \{/,
      'no client object',
    );
    assert.doesNotMatch(
      text,
      /\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/,
      'no statement text',
    );
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as {
        level: number;
        msg?: string;
        err?: Record<string, unknown>;
      };
      if (entry.level < 40 || entry.err === undefined) continue;
      assert.ok(entry.msg, `says what was being done: ${line}`);
      assert.ok(
        entry.err.message && (entry.err.code || entry.err.type),
        `names the error: ${line}`,
      );
    }
  });
});

describe('faults under load: the SQLite disk full', { timeout: 5 * 60_000 }, () => {
  const mount = join(root, 'small-disk');
  let instance: Instance | undefined;

  before(() => {
    if (process.getuid?.() !== 0) {
      throw new Error(
        'the disk-full test mounts a small tmpfs, which needs root: run npm test as root (CI does)',
      );
    }
    mkdirSync(mount, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
  });

  after(async () => {
    if (instance) {
      instance.stopping = true;
      await instance.process.kill();
    }
    if (process.getuid?.() === 0) execFileSync('umount', ['-l', mount]);
  });

  it('answers 503 naming the disk, keeps the store intact, and serves again once space is freed', async (t) => {
    const data = join(mount, 'data');
    const started = await startInstance('sqlite', data, {});
    instance = started;
    const filler = join(mount, 'filler');
    const report = await underLoad(
      t,
      'disk-full',
      () => [started],
      async () => {
        fillDisk(filler);
        await sleep(3000);
        const during = await sendTurn(started, 'invoke', 'disk-full-during', 'full?', hangMs);
        assert.equal(during.status, 503);
        assert.equal(during.code, 'store_unavailable');
        assert.match(during.message ?? '', /disk/);
        rmSync(filler);
      },
    );
    assert.ok((report.tally['503 store_unavailable'] ?? 0) > 0, 'the load met the full disk');
    for (const file of readdirSync(data).filter((name) => name.endsWith('.sqlite'))) {
      const database = new DatabaseSync(join(data, file), { readOnly: true });
      try {
        const [row] = database.prepare('PRAGMA integrity_check').all() as Array<
          Record<string, unknown>
        >;
        assert.equal(Object.values(row ?? {})[0], 'ok', `${file} passes integrity_check`);
      } finally {
        database.close();
      }
    }
  });
});

/** Writes `path` until the disk has no space left. */
function fillDisk(path: string): void {
  const chunk = Buffer.alloc(256 * 1024);
  const file = openSync(path, 'w');
  try {
    for (;;) writeSync(file, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(file);
  }
}
