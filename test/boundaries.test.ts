import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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

/** Tests and the conformance suites beside the interfaces they check. */
const isTestSupport = (path: string) => /(?:\.test|-conformance[\w-]*)\.ts$/.test(path);

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
});
