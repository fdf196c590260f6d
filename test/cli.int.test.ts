import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const cliPath = join(import.meta.dirname, '..', 'src', 'cli.ts');
const root = mkdtempSync(join(tmpdir(), 'yeoul-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Variables that would make the CLI reach a real model, a service, or another data folder. */
const unwanted = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'OLLAMA_BASE_URL',
  'YEOUL_MODEL',
  'YEOUL_COMPAT_BASE_URL',
  'YEOUL_COMPAT_API_KEY',
  'YEOUL_EMBEDDING_MODEL',
  'YEOUL_DATA_DIR',
  'DATABASE_URL',
  'OPENWEATHER_API_KEY',
  'TAVILY_API_KEY',
  'NODE_TEST_CONTEXT',
];

let folders = 0;
/** A fresh, empty folder under the test's temporary root. */
function freshFolder(name: string): string {
  folders += 1;
  const path = join(root, `${name}-${folders}`);
  mkdirSync(path, { recursive: true });
  return path;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node src/cli.ts …` as a child process, offline, with no keys. */
function yeoul(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of unwanted) delete env[name];
  Object.assign(env, { YEOUL_SAMPLE_KNOWLEDGE: 'false', ...options.env });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Asserts that stderr is exactly one `yeoul: …` line and returns it. */
function oneErrorLine(run: Run): string {
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `expected one stderr line, got: ${run.stderr}`);
  assert.match(lines[0] as string, /^yeoul: /);
  return lines[0] as string;
}

describe('yeoul command line', { concurrency: 2 }, () => {
  it('answers one question with the offline model and the calculator', async () => {
    const data = freshFolder('ask');
    const text = await yeoul(['ask', '123 * 456 계산해줘', '--data', data]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, '123 * 456 = 56,088입니다.\n');

    const json = await yeoul(['ask', '123 * 456 계산해줘', '--json', '--data', data]);
    assert.equal(json.code, 0, json.stderr);
    const payload = JSON.parse(json.stdout);
    assert.equal(payload.response, '123 * 456 = 56,088입니다.');
    assert.deepEqual(payload.toolsUsed, ['calculator']);
    assert.equal(payload.status, 'published');
    assert.equal(typeof payload.sessionId, 'string');
    assert.ok(payload.steps.includes('tools'));
  });

  it('chats over piped lines on one session, streaming tool calls on their own lines', async () => {
    const data = freshFolder('chat');
    const run = await yeoul(['chat', '--data', data], {
      input:
        '내 이름은 철수야\n내 이름이 뭐라고 했지?\n123 * 456 계산해줘\n/exit\n이 줄은 읽지 않는다\n',
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0] as string, /^session \S+/);
    const secondTurn = run.stdout.slice(run.stdout.indexOf('> 내 이름이 뭐라고 했지?'));
    assert.match(secondTurn.split('\n')[1] as string, /철수님/);
    assert.ok(lines.some((line) => /^ {2}→ calculator \{"expression":"123 \* 456"\}$/.test(line)));
    assert.ok(lines.some((line) => /^ {2}← calculator: 123 \* 456 = 56088$/.test(line)));
    assert.ok(lines.includes('123 * 456 = 56,088입니다.'));
    assert.ok(!run.stdout.includes('이 줄은 읽지 않는다'), 'nothing after /exit is answered');
  });

  it('ingests a folder, skips unchanged files, and finds them by search', async () => {
    const data = freshFolder('knowledge');
    const docs = freshFolder('docs');
    mkdirSync(join(docs, 'team'));
    writeFileSync(
      join(docs, 'parking.md'),
      '# 여울 주차 안내\n\n주차장은 지하 2층이며 방문객은 3시간 동안 무료입니다.\n',
    );
    writeFileSync(
      join(docs, 'team', 'offsite.txt'),
      'The quarterly offsite happens in Gangneung, next to the beach.\n',
    );

    const first = await yeoul(['ingest', docs, '--data', data]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^2 files: 2 added, 0 updated, 0 unchanged, 0 failed/);
    assert.deepEqual(
      first.stderr
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
      ['added', 'added'],
      'one line per file when stderr is not a terminal',
    );

    const again = await yeoul(['ingest', docs, '--data', data]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /2 unchanged, 0 failed/);

    const korean = await yeoul(['search', '주차장 무료', '--data', data]);
    assert.equal(korean.code, 0, korean.stderr);
    assert.match(korean.stdout, /^1\. 여울 주차 안내/);

    const json = await yeoul(['search', 'offsite beach', '-k', '1', '--json', '--data', data]);
    assert.equal(json.code, 0, json.stderr);
    const { hits } = JSON.parse(json.stdout);
    assert.equal(hits.length, 1);
    assert.match(hits[0].text, /Gangneung/);
    assert.match(hits[0].metadata.path, /offsite\.txt$/);
  });

  it('fails an ingestion with exit code 1 when a file cannot be read', async () => {
    const data = freshFolder('broken');
    const docs = freshFolder('broken-docs');
    writeFileSync(join(docs, 'good.txt'), 'A readable note.\n');
    writeFileSync(join(docs, 'broken.pdf'), 'not a pdf at all');
    const run = await yeoul(['ingest', docs, '--data', data]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /1 failed/);
    assert.match(run.stderr, /^failed +\S*broken\.pdf: /m);
    assert.match(run.stderr, /^added +\S*good\.txt$/m);
    assert.match(run.stderr, /\nyeoul: 1 of 2 files could not be ingested\n$/);
  });

  it('lists, shows and deletes a session that ask started', async () => {
    const data = freshFolder('sessions');
    const asked = await yeoul(['ask', '내 이름은 철수야', '--session', 'cli-test', '--data', data]);
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /철수님/);

    const list = await yeoul(['sessions', 'list', '--data', data]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^cli-test .*2 msg {2}내 이름은 철수야$/m);

    const show = await yeoul(['sessions', 'show', 'cli-test', '--json', '--data', data]);
    assert.equal(show.code, 0, show.stderr);
    const session = JSON.parse(show.stdout);
    assert.equal(session.sessionId, 'cli-test');
    assert.deepEqual(
      session.messages.map((message: { role: string }) => message.role),
      ['user', 'assistant'],
    );

    const removed = await yeoul(['sessions', 'delete', 'cli-test', '--data', data]);
    assert.equal(removed.code, 0, removed.stderr);
    const gone = await yeoul(['sessions', 'show', 'cli-test', '--data', data]);
    assert.equal(gone.code, 1);
    assert.match(oneErrorLine(gone), /no session "cli-test"/);
    const empty = await yeoul(['sessions', '--data', data]);
    assert.equal(empty.stdout, 'No sessions yet.\n');
  });

  it('prints the graphs as Mermaid or as a list of nodes and edges', async () => {
    const mermaid = await yeoul(['graph', 'chat', '--mermaid']);
    assert.equal(mermaid.code, 0, mermaid.stderr);
    assert.match(mermaid.stdout, /^flowchart TD\n/);
    assert.match(mermaid.stdout, / {2}n_agent -\.-> n_tools\n/);

    const text = await yeoul(['graph', 'ops']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^nodes: analyze, evaluate, decide, regenerate, finalize$/m);
    assert.match(text.stdout, /^ {2}decide +⇢ regenerate \| finalize$/m);
  });

  it('exits with 2 and one stderr line on bad usage', async () => {
    const unknownCommand = await yeoul(['fly']);
    assert.equal(unknownCommand.code, 2);
    assert.match(oneErrorLine(unknownCommand), /unknown command "fly"/);

    const missing = await yeoul(['ask']);
    assert.equal(missing.code, 2);
    assert.match(oneErrorLine(missing), /missing QUESTION/);

    const unknownOption = await yeoul(['search', 'x', '--fast']);
    assert.equal(unknownOption.code, 2);
    assert.match(oneErrorLine(unknownOption), /unknown option --fast/);

    const badChoice = await yeoul(['graph', 'maze']);
    assert.equal(badChoice.code, 2);
    oneErrorLine(badChoice);

    const help = await yeoul(['--help']);
    assert.equal(help.code, 0);
    for (const command of ['serve', 'chat', 'ask', 'ingest', 'search', 'graph', 'sessions']) {
      assert.match(help.stdout, new RegExp(`^ {2}${command} `, 'm'));
    }
  });

  it('exits with 2 and one stderr line per problem on a bad configuration', async () => {
    const data = freshFolder('config');
    const run = await yeoul(['ask', '안녕', '--data', data], {
      env: { YEOUL_MODEL: 'gemini:x,offline,mistral:large', YEOUL_MODEL_COOLDOWN_MS: '-1' },
    });
    assert.equal(run.code, 2);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 2, run.stderr);
    assert.ok(
      lines.some((line) => /YEOUL_MODEL: names unknown providers "gemini", "mistral"/.test(line)),
      run.stderr,
    );
    assert.ok(
      lines.some((line) =>
        /YEOUL_MODEL_COOLDOWN_MS: must be a whole number of milliseconds \(0 or more\)/.test(line),
      ),
      run.stderr,
    );
    assert.equal(run.stdout, '');

    const several = await yeoul(['ask', '안녕', '--data', data], {
      env: { YEOUL_JWT_SECRET: 'short', YEOUL_JWT_JWKS: 'http://idp.example/jwks.json' },
    });
    assert.equal(several.code, 2);
    assert.equal(several.stdout, '');
    assert.deepEqual(
      several.stderr
        .trim()
        .split('\n')
        .map((line) => /^yeoul: (YEOUL_\w+): /.exec(line)?.[1]),
      ['YEOUL_JWT_SECRET', 'YEOUL_JWT_JWKS', 'YEOUL_JWT_AUDIENCE'],
    );
    assert.doesNotMatch(several.stderr, /short/);
  });
});
