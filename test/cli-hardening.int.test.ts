import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRuntime, readServerConfig, startServer } from '../src/server/index.ts';
import {
  childEnv,
  cliPath,
  type FakeOpenAiServer,
  requireSystemProgram,
  runYeoul,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-cli-hardening-'));
after(() => rmSync(root, { recursive: true, force: true }));
const projectRoot = join(import.meta.dirname, '..');
const binPath = join(projectRoot, 'bin', 'yeoul.js');

/** The first `node` on PATH that is not the Node 24 npm put in node_modules: the system's. */
function systemNode(): string {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder.includes('node_modules')) continue;
    const candidate = join(folder, 'node');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    'no node on PATH outside node_modules: the bin cannot be tested with the system Node',
  );
}

describe('one session registry for the CLI and the API', () => {
  it('shows a session made by `yeoul ask` over HTTP, in the list and by id', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const asked = await runYeoul(['ask', '내 이름은 민지야', '--session', 's1', '--data', data]);
    assert.equal(asked.code, 0, asked.stderr);
    const runtime = await createRuntime(readServerConfig({ YEOUL_DATA_DIR: data, PORT: '0' }));
    const server = await startServer(runtime, { logger: false });
    try {
      const session = await fetch(`${server.url}/api/sessions/s1`);
      assert.equal(session.status, 200);
      assert.equal(((await session.json()) as Json).messages[0].content, '내 이름은 민지야');
      const list = (await (await fetch(`${server.url}/api/sessions`)).json()) as Json;
      const listed = list.sessions.find((entry: Json) => entry.sessionId === 's1');
      assert.equal(listed?.title, '내 이름은 민지야');
    } finally {
      await server.close();
    }
  });

  it('refuses the session ids the API refuses, as bad usage', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    for (const id of ['철수', 'a/b', 'x'.repeat(129)]) {
      const run = await runYeoul(['ask', 'hi', '--session', id, '--data', data]);
      assert.equal(run.code, 2, `${id}: ${run.stderr}`);
      assert.match(run.stderr, /^yeoul: --session must be 1–128 letters, digits and _ \. : -/);
    }
  });
});

describe('configuration refused at start', () => {
  it('names an unknown tool in YEOUL_TOOL_PERMISSIONS and stops', async () => {
    const run = await runYeoul(['ask', 'hi', '--data', mkdtempSync(join(root, 'data-'))], {
      env: { YEOUL_TOOL_PERMISSIONS: 'write_file:allow,nope:ask' },
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^yeoul: .*YEOUL_TOOL_PERMISSIONS: there is no tool "nope"/);
  });

  it('says a taken port is taken and how to choose another', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runYeoul(
        ['serve', '--port', String(port), '--data', mkdtempSync(join(root, 'data-'))],
        { timeoutMs: 30_000 },
      );
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        new RegExp(`^yeoul: port ${port} on 127\\.0\\.0\\.1 is already in use .*--port N`, 'm'),
      );
    } finally {
      taken.close();
    }
  });
});

describe('the yeoul bin', () => {
  it('runs with the system Node first on PATH, through the Node 24 npm brought', () => {
    const node = systemNode();
    const version = execFileSync(node, ['--version']).toString().trim();
    const linked = join(mkdtempSync(join(root, 'bin-')), 'yeoul');
    symlinkSync(binPath, linked);
    const path = [join(node, '..'), ...(process.env.PATH ?? '').split(delimiter)].join(delimiter);
    const output = execFileSync(linked, ['graph', 'chat'], {
      env: { ...process.env, PATH: path },
    }).toString();
    assert.match(output, /^graph chat: 6 nodes/, `with ${node} ${version}`);
    const help = execFileSync(node, [binPath, '--help'], { env: { ...process.env, PATH: path } });
    assert.match(help.toString(), /^yeoul 0\.\d+\.\d+ — a graph-based AI agent server/);
  });

  it('is what package.json names, and is plain JavaScript an old Node can read', () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    assert.equal(manifest.bin.yeoul, 'bin/yeoul.js');
    assert.match(readFileSync(binPath, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });
});

describe('approvals in the terminal', () => {
  let model: FakeOpenAiServer;
  before(async () => {
    model = await startFakeOpenAiServer((request) => {
      const last = request.body.messages.at(-1);
      if (last?.role === 'tool') return { kind: 'text', text: `결과: ${String(last.content)}` };
      return {
        kind: 'tool-calls',
        calls: [
          {
            id: `call-${request.body.messages.length}`,
            name: 'write_file',
            arguments: JSON.stringify({ path: 'note.txt', content: '안녕' }),
          },
        ],
      };
    });
  });
  after(() => model.close());
  const env = () => ({ YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: model.baseUrl });

  /**
   * Runs `yeoul ask` in a pseudo-terminal (util-linux `script`) and types `answer` once the
   * y/N prompt shows, as a person would.
   */
  const askOnTerminal = (data: string, answer: string) =>
    new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(
        requireSystemProgram('script'),
        [
          '-qec',
          `${process.execPath} ${cliPath} ask "노트에 안녕이라고 써줘" --session t --data ${data}`,
          '/dev/null',
        ],
        { env: childEnv(env()) },
      );
      let stdout = '';
      let answered = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (!answered && stdout.includes('[y/N]')) {
          answered = true;
          child.stdin.write(`${answer}\r`);
        }
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout });
      });
    });

  it('asks y/N on a terminal and runs the call once approved', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const run = await askOnTerminal(data, 'y');
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /write_file needs approval/);
    assert.match(run.stdout, /"path": "note\.txt"/);
    assert.match(run.stdout, /Allow this call\? \[y\/N\]/);
    assert.match(run.stdout, /결과: Wrote/);
    assert.equal(readFileSync(join(data, 'workspace', 'note.txt'), 'utf8'), '안녕');
  });

  it('denies on anything but y, and the model is told', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const run = await askOnTerminal(data, 'n');
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /결과: Error: a person denied this call/);
    assert.equal(existsSync(join(data, 'workspace', 'note.txt')), false);
  });

  it('without a terminal, prints the pending call and how to decide over HTTP, and exits 1', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const run = await runYeoul(
      ['ask', '노트에 안녕이라고 써줘', '--session', 'p', '--data', data],
      {
        env: env(),
      },
    );
    assert.equal(run.code, 1);
    assert.match(run.stderr, /write_file needs approval/);
    assert.match(run.stderr, /"resume":\{"decisions":\[\{"id":"[^"]+","approve":true\}\]\}/);
    assert.match(run.stdout, /승인을 기다리고/);
  });
});
