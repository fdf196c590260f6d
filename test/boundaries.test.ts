import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { builtinGraphNames } from '../src/agents/index.ts';

const sourceRoot = resolve(import.meta.dirname, '..', 'src');

/** Which folders each folder of src/ may import (see STYLE.md "Layout"). */
const allowed: Record<string, string[]> = {
  core: [],
  protocol: [],
  identity: ['core'],
  guardrails: ['core'],
  schedules: ['core', 'protocol'],
  webhooks: ['core'],
  graph: ['core'],
  models: ['core'],
  tools: ['core', 'models'],
  knowledge: ['core', 'models'],
  'memory-store': ['core', 'models', 'knowledge'],
  agents: ['core', 'graph', 'models', 'tools', 'knowledge', 'memory-store', 'guardrails'],
  mcp: ['core', 'tools'],
  evals: ['core', 'graph', 'models', 'tools', 'knowledge', 'agents', 'guardrails'],
  config: [
    'core',
    'graph',
    'models',
    'tools',
    'knowledge',
    'memory-store',
    'agents',
    'mcp',
    'evals',
    'identity',
    'guardrails',
    'webhooks',
  ],
  server: [
    'core',
    'protocol',
    'graph',
    'models',
    'tools',
    'knowledge',
    'memory-store',
    'agents',
    'mcp',
    'evals',
    'config',
    'identity',
    'guardrails',
    'schedules',
    'webhooks',
  ],
  cli: [
    'core',
    'protocol',
    'graph',
    'models',
    'tools',
    'knowledge',
    'memory-store',
    'agents',
    'mcp',
    'evals',
    'config',
    'server',
    'identity',
    'guardrails',
    'schedules',
    'webhooks',
  ],
  client: ['protocol'],
  web: ['client'],
  testing: [
    'core',
    'protocol',
    'client',
    'graph',
    'models',
    'tools',
    'knowledge',
    'memory-store',
    'agents',
    'mcp',
    'evals',
    'config',
    'server',
    'cli',
    'identity',
    'guardrails',
    'schedules',
    'webhooks',
  ],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)];
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return [...specifiers, ...dynamic].map((match) => match[1] as string);
}

const folderOf = (path: string) => relative(sourceRoot, path).split('/')[0] as string;

/**
 * String literals outside agents/ that spell a built-in graph's name but mean something
 * else: each file, the word, and what it names there.
 */
const unrelatedWords: ReadonlyArray<{ file: string; word: string; reason: string }> = [
  { file: 'web/components/app.ts', word: 'chat', reason: 'the console’s chat view (a tab)' },
  { file: 'web/components/chat-view.ts', word: 'chat', reason: 'the chat view’s i18n label' },
  { file: 'models/model-span.ts', word: 'chat', reason: 'OpenTelemetry’s GenAI operation name' },
  { file: 'cli/commands/chat-command.ts', word: 'chat', reason: 'the CLI command named chat' },
];

/** Tests and the conformance suites beside the interfaces they check. */
const isTestSupport = (path: string) => /(?:\.test|-conformance[\w-]*)\.ts$/.test(path);

/** Characters after which a `/` starts a regular expression (not a division). */
const beforeRegex = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '>']);

/**
 * The values of a file's string literals: quoted strings and templates without
 * substitutions, never comments or regular expressions (a small lexer: enough for src/).
 */
function stringLiterals(text: string): string[] {
  const found: string[] = [];
  const templateDepths: number[] = [];
  let depth = 0;
  let last = '';
  let at = 0;
  /** Reads a template's text from `at` up to its end (true) or its next `${` (false). */
  const templatePart = (): { value: string; ended: boolean } => {
    let value = '';
    while (at < text.length) {
      const char = text[at] as string;
      if (char === '\\') {
        value += text.slice(at, at + 2);
        at += 2;
      } else if (char === '`' || (char === '$' && text[at + 1] === '{')) {
        at += char === '`' ? 1 : 2;
        return { value, ended: char === '`' };
      } else {
        value += char;
        at += 1;
      }
    }
    return { value, ended: true };
  };
  while (at < text.length) {
    const char = text[at] as string;
    const next = text[at + 1];
    if (char === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? text.indexOf('\n', at) : text.indexOf('*/', at + 2) + 2;
      at = end <= 0 ? text.length : end;
    } else if (char === "'" || char === '"') {
      let value = '';
      at += 1;
      while (at < text.length && text[at] !== char) {
        value += text[at] === '\\' ? text[at + 1] : text[at];
        at += text[at] === '\\' ? 2 : 1;
      }
      at += 1;
      found.push(value);
      last = char;
    } else if (char === '`' || (char === '}' && templateDepths.at(-1) === depth)) {
      const opening = char === '`';
      if (!opening) templateDepths.pop();
      at += 1;
      const part = templatePart();
      if (!part.ended) templateDepths.push(depth);
      else if (opening) found.push(part.value);
      last = '`';
    } else if (char === '/' && beforeRegex.has(last)) {
      let inClass = false;
      at += 1;
      while (at < text.length && text[at] !== '\n' && (inClass || text[at] !== '/')) {
        if (text[at] === '[') inClass = true;
        else if (text[at] === ']') inClass = false;
        at += text[at] === '\\' ? 2 : 1;
      }
      at += 1;
      last = '/';
    } else {
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
      if (!/\s/.test(char)) last = /[\w$]/.test(char) ? 'a' : char;
      at += 1;
    }
  }
  return found;
}

/** The files of `files` each one imports (type-only included): `./x.ts`, or a folder's index.ts. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      let target = resolve(dirname(file), specifier);
      if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.ts');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of more than one file (Tarjan). */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file) as number, lowest.get(target) as number));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file) as number, order.get(target) as number));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/**
 * The layers of src/graph/, lowest first: a file imports only its own layer and those below.
 * A path ending in `/` names a folder; the longest matching path decides.
 */
const graphLayers: string[][] = [
  [
    'types.ts',
    'state.ts',
    'channels.ts',
    'messages.ts',
    'send.ts',
    'interrupt.ts',
    'errors/',
    'checkpoint/types.ts',
  ],
  ['planning/'],
  ['storage/', 'checkpoint/'],
  ['execution/'],
  ['subgraph.ts', 'compiled-graph.ts', 'builder.ts', 'index.ts'],
];

/** The layer of a file of src/graph/ (its path relative to the folder), or -1 when none names it. */
function graphLayerOf(path: string): number {
  let found = -1;
  let matched = 0;
  graphLayers.forEach((layer, index) => {
    for (const entry of layer) {
      const matches = entry.endsWith('/') ? path.startsWith(entry) : path === entry;
      if (matches && entry.length > matched) {
        found = index;
        matched = entry.length;
      }
    }
  });
  return found;
}

describe('import boundaries', () => {
  const files = sourceFiles(sourceRoot);

  it('finds the source folders', () => {
    assert.ok(files.some((file) => folderOf(file) === 'graph'));
  });

  it('keeps every import arrow pointing the allowed way, through index.ts', () => {
    const problems: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      const isTest = file.endsWith('.test.ts');
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        const to = folderOf(target);
        const where = `${relative(sourceRoot, file)} → ${specifier}`;
        if (!target.startsWith(sourceRoot)) {
          problems.push(`${where}: imports from outside src/`);
          continue;
        }
        if (to === from || from.endsWith('.ts')) continue;
        if (to === 'testing' && !isTest) problems.push(`${where}: only tests may import testing/`);
        else if (to !== 'testing' && !(allowed[from] ?? []).includes(to)) {
          problems.push(`${where}: ${from}/ may not import ${to}/`);
        }
        const door = relative(join(sourceRoot, to), target);
        if (door !== 'index.ts' && !(to === 'testing' && door === 'internal/index.ts')) {
          problems.push(`${where}: import ${to}/ through its index.ts`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it("keeps the repository's own fakes and conformance suites out of what the package runs", () => {
    const internal = join(sourceRoot, 'testing', 'internal');
    const problems: string[] = [];
    for (const file of files) {
      if (isTestSupport(file) || file.startsWith(internal)) continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        if (target.startsWith(internal) || isTestSupport(target)) {
          problems.push(`${relative(sourceRoot, file)} → ${specifier}: only tests may import it`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('reads string literals, never comments or regular expressions', () => {
    const sample = [
      "const a = 'one'; // 'two'",
      // \u0024 is `$`: a template with a substitution inside.
      '/* "three" */ const b = "fo\\"ur" + `five` + `x\u0024{f({ k: `six` })}y`;',
      'const c = /[\'"]/.test(d) ? e / 2 : `seven`;',
    ].join('\n');
    assert.deepEqual(stringLiterals(sample), ['one', 'fo"ur', 'five', 'six', 'seven']);
  });

  it('spells the built-in graph names only in agents/ (the registry) and tests', () => {
    const names = new Set<string>(builtinGraphNames);
    const problems: string[] = [];
    const used = new Set<string>();
    for (const file of files) {
      const path = relative(sourceRoot, file);
      if (folderOf(file) === 'agents' || isTestSupport(file)) continue;
      const words = stringLiterals(readFileSync(file, 'utf8')).filter((text) => names.has(text));
      for (const word of words) {
        const allowed = unrelatedWords.find((entry) => entry.file === path && entry.word === word);
        if (allowed) used.add(`${path}:${word}`);
        else problems.push(`${path}: '${word}' (read it from the graph registry)`);
      }
    }
    const stale = unrelatedWords.filter((entry) => !used.has(`${entry.file}:${entry.word}`));
    assert.deepEqual(problems, []);
    assert.deepEqual(stale, [], 'allowed words no longer found');
  });

  it('has no import circle in src/', () => {
    const graph = importGraph(files.filter((file) => !file.endsWith('.test.ts')));
    const circles = circlesOf(graph).map((circle) =>
      circle.map((file) => relative(sourceRoot, file)).sort(),
    );
    assert.deepEqual(circles, []);
  });

  it('keeps the layers of src/graph/ importing downwards only', () => {
    const graphRoot = join(sourceRoot, 'graph');
    const code = files.filter((file) => folderOf(file) === 'graph' && !isTestSupport(file));
    const problems: string[] = [];
    for (const [file, targets] of importGraph(code)) {
      const from = relative(graphRoot, file);
      const layer = graphLayerOf(from);
      if (layer === -1) problems.push(`${from}: in no layer of src/graph/`);
      for (const target of targets) {
        const to = relative(graphRoot, target);
        if (graphLayerOf(to) > layer) problems.push(`${from} → ${to}: imports a layer above it`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
