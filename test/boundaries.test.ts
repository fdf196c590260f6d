import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const sourceRoot = resolve(import.meta.dirname, '..', 'src');

/** Which folders each folder of src/ may import (see STYLE.md "Layout"). */
const allowed: Record<string, string[]> = {
  core: [],
  protocol: [],
  graph: ['core'],
  models: ['core'],
  tools: ['core', 'models'],
  knowledge: ['core', 'models'],
  'memory-store': ['core', 'models', 'knowledge'],
  agents: ['core', 'graph', 'models', 'tools', 'knowledge', 'memory-store'],
  mcp: ['core', 'tools'],
  evals: ['core', 'graph', 'models', 'tools', 'knowledge', 'agents'],
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
        if (relative(join(sourceRoot, to), target) !== 'index.ts') {
          problems.push(`${where}: import ${to}/ through its index.ts`);
        }
      }
    }
    assert.deepEqual(problems, []);
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
    const code = files.filter((file) => folderOf(file) === 'graph' && !file.endsWith('.test.ts'));
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
