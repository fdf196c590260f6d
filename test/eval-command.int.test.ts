import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SqliteEvalStore } from '../src/evals/index.ts';
import {
  childEnv,
  cliPath,
  type PostgresServer,
  runYeoul,
  startPostgresServer,
} from '../src/testing/internal/index.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-eval-'));
after(() => rmSync(root, { recursive: true, force: true }));
const data = join(root, 'data');
const env = { YEOUL_DATA_DIR: data };

function dataset(name: string, lines: unknown[]): string {
  const path = join(root, name);
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
}

const calculator = {
  id: 'calc',
  input: '123 * 456 계산해줘',
  expected: '56088',
  expectedTools: ['calculator'],
};
const name = {
  id: 'name',
  input: ['내 이름은 철수야', '내 이름이 뭐라고 했지?'],
  expected: '철수',
};

describe('yeoul eval', () => {
  it('runs a dataset, prints a table and a summary, stores the run and exits 0 when all pass', async () => {
    const path = dataset('good.jsonl', [calculator, name]);
    const result = await runYeoul(['eval', path, '--name', 'base', '--concurrency', '2'], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^calc\s+PASS\s+1\s+contains 1, tools 1, grounded 1\s+123 \* 456 계산해줘$/m,
    );
    assert.match(
      result.stdout,
      /^name\s+PASS\s+1\s+contains 1, grounded 1\s+내 이름은 철수야 \/ 내 이름이 뭐라고 했지\?$/m,
    );
    assert.match(
      result.stdout,
      /^PASS 2 items: 2 passed, 0 failed; mean score 1 .*run [0-9a-f-]{36} "base"$/m,
    );
    assert.match(result.stderr, /^PASS calc$/m);
  });

  it('writes JUnit XML that a JUnit parser reads, with a failure naming the scorer, and exits 1', async () => {
    const wrong = { ...calculator, id: 'wrong <&>', expected: '56000' };
    const path = dataset('mixed.jsonl', [calculator, wrong]);
    const junit = join(root, 'report.xml');
    const result = await runYeoul(['eval', path, '--json', '--junit', junit], { env });
    assert.equal(result.code, 1, result.stderr);
    const run = JSON.parse(result.stdout);
    assert.equal(run.status, 'done');
    assert.deepEqual(run.summary, {
      items: 2,
      passed: 1,
      failed: 1,
      meanScore: 0.8333,
      byScorer: { contains: 0.5, tools: 1, grounded: 1 },
    });
    const xml = readFileSync(junit, 'utf8');
    assert.equal(XMLValidator.validate(xml), true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    assert.equal(suite.tests, '2');
    assert.equal(suite.failures, '1');
    assert.equal(suite.testcase.length, 2);
    assert.equal(suite.testcase[0].name, 'calc');
    assert.equal(suite.testcase[0].failure, undefined);
    assert.equal(suite.testcase[1].name, 'wrong <&>');
    assert.match(
      suite.testcase[1].failure.message,
      /^contains: the answer .* does not state "56000"/,
    );
  });

  it('reads CSV datasets, runs the scorers named, and gates on --min-score', async () => {
    const path = join(root, 'one.csv');
    writeFileSync(
      path,
      'id,input,expected,expectedTools\ncalc,123 * 456 계산해줘,"56,088",calculator\n',
    );
    const high = await runYeoul(
      ['eval', path, '--min-score', '1', '--scorers', 'contains,judge,latency', '--json'],
      { env },
    );
    assert.equal(high.code, 0, high.stderr);
    const [item] = JSON.parse(high.stdout).items;
    assert.deepEqual(
      item.scores.map((score: { scorer: string }) => score.scorer),
      ['contains', 'judge', 'latency'],
    );
    assert.match(item.scores[1].reason, /^rule-based grade, not a model's judgement/);
    assert.match(item.scores[2].reason, /^\d+ ms$/);
  });

  it('exits 2 on bad usage and on a bad dataset, naming every bad line', async () => {
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, '{"input": "ok"}\n{oops\n\n{"input": 3}\n');
    const result = await runYeoul(['eval', bad], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /bad\.jsonl: line 2: not valid JSON/);
    assert.match(result.stderr, /bad\.jsonl: line 4: input: must be a non-empty message/);
    const path = dataset('usage.jsonl', [calculator]);
    for (const args of [
      ['--min-score', '1.5'],
      ['--graph', 'nope'],
      ['--scorers', 'contains,nope'],
      ['--concurrency', '0'],
      ['--judge-model', 'nope:model'],
    ]) {
      const usage = await runYeoul(['eval', path, ...args], { env });
      assert.equal(usage.code, 2, `${args.join(' ')}: ${usage.stderr}`);
    }
    const missing = await runYeoul(['eval', join(root, 'missing.jsonl')], { env });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.jsonl: no such file/);
  });

  it('stores a run stopped by SIGINT as failed and exits 1', async () => {
    const items = Array.from({ length: 400 }, (_, index) => ({ ...name, id: `name-${index}` }));
    const path = dataset('long.jsonl', items);
    const child = spawn(process.execPath, [cliPath, 'eval', path, '--name', 'stopped'], {
      env: childEnv(env),
    });
    let stderr = '';
    let stopped = false;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Stop it (once) when the first items are in.
      if (!stopped && /PASS name-3\b/.test(stderr)) {
        stopped = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /yeoul: the evaluation was interrupted/);
    const database = new DatabaseSync(join(data, 'threads.sqlite'));
    try {
      const run = await new SqliteEvalStore(database).latestNamed('stopped', 'anonymous');
      assert.equal(run?.status, 'failed');
    } finally {
      database.close();
    }
  });

  it('compares two runs: lists a planted regression and exits 1, else 0', async () => {
    const before = await runYeoul(
      ['eval', dataset('a.jsonl', [calculator, name]), '--name', 'nightly', '--json'],
      { env },
    );
    assert.equal(before.code, 0, before.stderr);
    const first = JSON.parse(before.stdout).id;
    // The regression: the same item now expects what the agent does not say.
    const planted = { ...name, expected: '영희' };
    const after = await runYeoul(
      ['eval', dataset('b.jsonl', [calculator, planted]), '--name', 'nightly'],
      { env },
    );
    assert.equal(after.code, 1);
    const compared = await runYeoul(['eval', 'compare', first, 'nightly'], { env });
    assert.equal(compared.code, 1, compared.stderr);
    assert.match(compared.stdout, /^regressed\s+name: 1 → 0\.5\s+contains 1 → 0/m);
    assert.match(compared.stdout, /^1 regression: name$/m);
    const same = await runYeoul(['eval', 'compare', first, first], { env });
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /no regressions/);
    const unknown = await runYeoul(['eval', 'compare', first, 'no-such-run'], { env });
    assert.equal(unknown.code, 2);
  });
});

describe('yeoul eval on PostgreSQL (DATABASE_URL)', () => {
  let server: PostgresServer;
  after(() => server?.stop());

  it('stores runs in the database, where compare finds them by name', async () => {
    server = await startPostgresServer();
    const pgEnv = {
      DATABASE_URL: await server.createDatabase(),
      YEOUL_DATA_DIR: join(root, 'pg-data'),
    };
    const path = dataset('pg.jsonl', [calculator]);
    const first = await runYeoul(['eval', path, '--name', 'pg-nightly', '--json'], { env: pgEnv });
    assert.equal(first.code, 0, first.stderr);
    const second = await runYeoul(['eval', path, '--name', 'pg-nightly'], { env: pgEnv });
    assert.equal(second.code, 0, second.stderr);
    const compared = await runYeoul(
      ['eval', 'compare', JSON.parse(first.stdout).id, 'pg-nightly'],
      {
        env: pgEnv,
      },
    );
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /1 item unchanged\nno regressions/);
    // Not in the SQLite store of the data folder: the database holds them.
    const local = await runYeoul(['eval', 'compare', 'pg-nightly', 'pg-nightly'], {
      env: { YEOUL_DATA_DIR: join(root, 'pg-data') },
    });
    assert.equal(local.code, 2);
  });
});
