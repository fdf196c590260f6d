import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const sourceRoot = resolve(import.meta.dirname, '..', 'src');

/** Which folders each folder of src/ may import (see STYLE.md "Layout"). */
const allowed: Record<string, string[]> = {
  core: [],
  graph: ['core'],
  models: ['core'],
  tools: ['core', 'models'],
  knowledge: ['core', 'models'],
  agents: ['core', 'graph', 'models', 'tools', 'knowledge'],
  mcp: ['core', 'tools'],
  config: ['core', 'graph', 'models', 'tools', 'knowledge', 'agents', 'mcp'],
  server: ['core', 'graph', 'models', 'tools', 'knowledge', 'agents', 'mcp', 'config'],
  cli: ['core', 'graph', 'models', 'tools', 'knowledge', 'agents', 'mcp', 'config', 'server'],
  web: [],
  testing: [
    'core',
    'graph',
    'models',
    'tools',
    'knowledge',
    'agents',
    'mcp',
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
});
