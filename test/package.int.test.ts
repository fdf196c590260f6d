// The package as a user gets it, by the README's own commands: in a clone of the repository,
// `npx yeoul init ../my-agent` packs the clone (`npm pack`, whose prepack step builds dist/)
// into a new project, then `npm install` there — all on the Node first on the user's PATH
// (the system one, Node 20 here): the project carries the Node 24 its scripts run on. There
// the bin, the server, the web console, the three entry points and their types must work.
// The clone is of the committed tree (what CI runs). The install reaches the npm registry
// (the dependencies) and takes a minute or two.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runYeoul, startServeProcess, type YeoulRun } from '../src/testing/internal/index.ts';

const repoRoot = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'yeoul-package-'));
const clone = join(work, 'yeoul');
const project = join(work, 'my-agent');
const installed = join(project, 'node_modules', 'yeoul');
/**
 * The user's PATH: without what npm and this test put first (node_modules/.bin, Node 24's
 * folder), so the Node first on it is the one the user has.
 */
const path = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((entry) => !entry.includes('node_modules') && entry !== dirname(process.execPath))
  .join(delimiter);
const minute = 60_000;
/** The repository has a typed client: then the package must ship it as `yeoul/client`. */
const hasClient = existsSync(join(repoRoot, 'src', 'client', 'index.ts'));

// Settings of an npm running this test (its prefix, its script) are not the project's.
for (const name of Object.keys(process.env)) if (name.startsWith('npm_')) delete process.env[name];

/** Runs a program to its end in `cwd` (killed after `timeoutMs`) on the user's PATH. */
const run = (program: string, args: string[], cwd: string, timeoutMs = 2 * minute) =>
  runYeoul(args, { command: [program], cwd, timeoutMs, env: { PATH: path } });

function assertSucceeded(result: YeoulRun, what: string): void {
  assert.equal(result.code, 0, `${what} failed:\n${result.stdout}\n${result.stderr}`);
}

const listFiles = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' });

/** The README's shell block for making a project, as written (the line after its marker). */
function readmeCommands(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const marker = readme.indexOf(
    '<!-- The commands below are run as written by test/package.int.test.ts. -->',
  );
  assert.notEqual(marker, -1, "the README's marked block of commands");
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker))?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

let nodeVersion = '';

before(
  async () => {
    // The install needs the npm registry: without it, say so at once instead of timing out.
    const ping = await run('npm', ['ping'], work, 30_000);
    assert.equal(
      ping.code,
      0,
      `the package test installs the packed tarball's dependencies from the npm registry, which did not answer \`npm ping\` within 30 s (check the network or the npm registry setting):\n${ping.stderr}`,
    );
    nodeVersion = (await run('node', ['--version'], work)).stdout.trim();
    assertSucceeded(await run('git', ['clone', '--quiet', repoRoot, clone], work), 'git clone');
    // The clone's own npm install would bring the same packages: share the repository's.
    symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // Everything up to `npm start`, which the tests below run as a server.
    const commands = readmeCommands();
    const setup = commands.filter((line) => !/^npm (?:start|run dev)\b/.test(line));
    assert.ok(setup.some((line) => /yeoul init/.test(line)) && setup.length < commands.length);
    const made = await run('bash', ['-e', '-c', setup.join('\n')], clone, 15 * minute);
    assertSucceeded(made, `the README's commands (${setup.join('; ')})`);
  },
  { timeout: 16 * minute },
);

after(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', { timeout: 20 * minute }, () => {
  it('ships compiled JavaScript with types, the bin, the web console and its data files', () => {
    const files = new Set(listFiles(installed));
    for (const file of [
      'bin/yeoul.js',
      'dist/cli.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
      ...(hasClient ? ['dist/client/index.js', 'dist/client/index.d.ts'] : []),
      'dist/web/index.html',
      'dist/web/main.ts',
      'dist/tools/builtin/calculator/math-worker-thread.js',
      'dist/tools/builtin/sql/query-process.js',
      'dist/tools/builtin/sql/demo-database.sql',
      'dist/tools/builtin/python/python-worker-thread.js',
      'dist/tools/builtin/python/sandbox.py',
      'dist/tools/builtin/logs/samples/payment-service.jsonl',
      'knowledge-samples/vacation-policy.md',
      'templates/init/yeoul.config.ts',
    ]) {
      assert.ok(files.has(file), `${file} is missing from the package`);
    }
    assert.ok(!files.has('src/cli.ts'), 'the package ships no TypeScript sources to run');
    const internal = [...files].filter(
      (file) => file.includes('testing/internal/') || file.includes('-conformance'),
    );
    assert.deepEqual(internal, [], "the repository's own fakes and conformance suites stay out");
    const typeScript = [...files].filter(
      (file) => file.startsWith('dist/') && /(?<!\.d)\.ts$/.test(file),
    );
    assert.ok(
      typeScript.every((file) => file.startsWith('dist/web/')),
      `only the web console's browser modules stay TypeScript: ${typeScript.join(', ')}`,
    );
  });

  it('imports at run time only packages it depends on', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const problems: string[] = [];
    for (const file of listFiles(join(installed, 'dist'))) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(installed, 'dist', file), 'utf8');
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...text.matchAll(/^import\s+['"]([^'"]+)['"]/gm),
      ].map((match) => match[1] as string);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : (specifier.split('/')[0] as string);
        if (!Object.hasOwn(manifest.dependencies, name)) problems.push(`${file}: ${specifier}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('runs the bin from the project: --help exits 0, on Node 22.18 or newer only', async () => {
    const help = await run('npx', ['yeoul', '--help'], project);
    assertSucceeded(help, 'npx yeoul --help');
    assert.match(help.stdout, /^ {2}init +scaffold a project/m);
    assertSucceeded(await run('npx', ['yeoul', 'init', '--help'], project), 'yeoul init --help');
    // The system Node (first on PATH without Node 24) may be older: one line, exit 1.
    const older = await olderNode();
    if (older) {
      const refused = await run(older, [join(installed, 'bin', 'yeoul.js'), '--help'], project);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /^yeoul: this is Node [\d.]+; yeoul needs Node 22\.18 or newer\.\n$/,
      );
    }
  });

  it('serves the API, an offline answer and the web console with `npm start`', async (t) => {
    t.diagnostic(`the Node first on the user's PATH: ${nodeVersion}`);
    // The project's logs/ folder is what query_logs reads (none of Yeoul's sample logs).
    mkdirSync(join(project, 'logs'), { recursive: true });
    writeFileSync(
      join(project, 'logs', 'orders.jsonl'),
      `${[1, 2, 3]
        .map((n) =>
          JSON.stringify({
            timestamp: new Date(Date.now() - n * 60_000).toISOString(),
            service: 'order-service',
            level: 'error',
            status: 500,
            message: `payment declined ${n}`,
          }),
        )
        .join('\n')}\n`,
    );
    const server = await startServeProcess(join(work, 'data'), { PATH: path }, [], {
      argv: ['npm', 'start', '--'],
      cwd: project,
    });
    try {
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as {
        status: string;
        model: string;
        tools: string[];
        graphs: string[];
      };
      assert.equal(status.status, 'ok');
      assert.match(status.model, /^offline:/);
      // The project's yeoul.config.ts was loaded: its tool and its graph are served.
      assert.ok(status.tools.includes('word_count'), status.tools.join(', '));
      assert.ok(status.graphs.includes('word-counter'), status.graphs.join(', '));
      const page = await fetch(`${server.url}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<script type="module" src="\/web\/main\.ts"/);
      const module = await fetch(`${server.url}/web/main.ts`);
      assert.equal(module.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.match(await module.text(), /from '\.\/components\/app\.ts'/);
      assert.equal((await fetch(`${server.url}/vendor/preact.mjs`)).status, 200);
      // A new project holds none of Yeoul's sample documents.
      const documents = (await (await fetch(`${server.url}/api/documents`)).json()) as {
        documents: unknown[];
      };
      assert.deepEqual(documents.documents, []);
      // The calculator answers plain arithmetic itself (with mathjs's number formatting, read
      // from the installed package) and the rest in a worker thread (a .js file of dist/); the
      // log tool reads the project's own logs.
      for (const [message, tool, answer] of [
        ['123 * 456 계산해줘', 'calculator', /56,088/],
        ['sqrt(16) * 2^10 계산해줘', 'calculator', /= 4,096/],
        ['order-service에서 500 에러 로그 보여줘', 'query_logs', /3건/],
      ] as const) {
        const response = await fetch(`${server.url}/api/agent/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message }),
        });
        const body = (await response.json()) as { response: string; toolsUsed: string[] };
        assert.deepEqual(body.toolsUsed, [tool], JSON.stringify(body));
        assert.match(body.response, answer);
      }
    } finally {
      await server.stop();
    }
  });

  it("runs the project's own tests (`npm test`: a scripted model, throwaway servers)", async () => {
    const result = await run('npm', ['test'], project, 5 * minute);
    assertSucceeded(result, 'npm test');
    assert.match(result.stdout, /ℹ pass [1-9]/);
    assert.match(result.stdout, /ℹ fail 0/);
  });

  it('imports yeoul, yeoul/client and yeoul/testing from TypeScript that Node runs', async () => {
    writeFileSync(join(project, 'exports-check.ts'), exportsCheck);
    const result = await run(process.execPath, ['exports-check.ts'], project, 2 * minute);
    assertSucceeded(result, 'node exports-check.ts');
    assert.deepEqual(JSON.parse(result.stdout), {
      visited: ['a', 'b'],
      total: 2,
      status: 'ok',
      answer: 'scripted answer',
    });
  });

  it('type-checks the project against the .d.ts files (`tsc --noEmit`)', async () => {
    if (!existsSync(join(project, 'exports-check.ts')))
      writeFileSync(join(project, 'exports-check.ts'), exportsCheck);
    // A type error must be found: the check is real.
    writeFileSync(
      join(project, 'wrong.ts'),
      "import { StateGraph } from 'yeoul';\nnew StateGraph(1);\n",
    );
    const wrong = await run('npx', ['tsc', '--noEmit'], project, 3 * minute);
    assert.notEqual(wrong.code, 0, wrong.stdout);
    assert.match(wrong.stdout, /wrong\.ts/);
    rmSync(join(project, 'wrong.ts'));
    assertSucceeded(await run('npx', ['tsc', '--noEmit'], project, 3 * minute), 'tsc --noEmit');
  });
});

/** Uses each entry point the way a project would; prints what it saw as JSON. */
const exportsCheck = `import assert from 'node:assert/strict';
${hasClient ? "import { YeoulClient } from 'yeoul/client';" : ''}
import { scriptedLanguageModel, startThrowawayServer } from 'yeoul/testing';
import {
  append,
  defineState,
  END,
  GraphValidationError,
  increment,
  START,
  StateGraph,
  YeoulError,
} from 'yeoul';

const graph = new StateGraph(defineState({ visited: append<string>(), total: increment() }))
  .addNode('a', () => ({ visited: 'a', total: 1 }))
  .addNode('b', () => ({ visited: 'b', total: 1 }))
  .addEdge(START, 'a')
  .addEdge('a', 'b')
  .addEdge('b', END)
  .compile();
const state = await graph.invoke({});
assert.throws(() => new StateGraph(defineState({})).compile(), GraphValidationError);
assert.ok(new GraphValidationError({ problems: ['x'] }) instanceof YeoulError);

const model = scriptedLanguageModel([{ text: 'scripted answer' }]);
const server = await startThrowawayServer({ model });
try {
  ${
    hasClient
      ? `const client = new YeoulClient({ baseUrl: server.url });
  const status = await client.status();
  const answer = await client.invoke({ message: 'hello' });`
      : `const status = await (await fetch(server.url + '/api/agent/status')).json() as { status: string };
  const answer = await (await fetch(server.url + '/api/agent/invoke', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello' }),
  })).json() as { response: string };`
  }
  process.stdout.write(
    JSON.stringify({ visited: state.visited, total: state.total, status: status.status, answer: answer.response }),
  );
} finally {
  await server.close();
}
`;

/** A `node` older than 22.18 on PATH after Node 24 (the system one, say), if there is one. */
async function olderNode(): Promise<string | undefined> {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(folder, 'node');
    if (folder === dirname(process.execPath) || !existsSync(candidate)) continue;
    const version = (await run(candidate, ['--version'], work)).stdout.trim();
    const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 18)) return candidate;
  }
  return undefined;
}
