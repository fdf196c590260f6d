import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const clientRoot = import.meta.dirname;

/** The client's own modules (what a browser loads), tests left out. */
function clientModules(directory = clientRoot): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return clientModules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every import or re-export with a `from`: its specifier, and whether it is for types only. */
function importsOf(text: string): Array<{ specifier: string; typeOnly: boolean }> {
  return [...text.matchAll(/^(import|export)(\s+type)?\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
    (match) => ({ specifier: match[3] as string, typeOnly: match[2] !== undefined }),
  );
}

describe('the client runs in browsers', () => {
  it('loads no package and no Node module at run time: only its own files', () => {
    const problems: string[] = [];
    for (const file of clientModules()) {
      const text = readFileSync(file, 'utf8');
      for (const { specifier, typeOnly } of importsOf(text)) {
        const own =
          specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(clientRoot);
        if (!own && !typeOnly) problems.push(`${file}: imports ${specifier} at run time`);
      }
      // Examples in comments may use Node; the code may not.
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      if (/\bimport\(/.test(code)) problems.push(`${file}: imports dynamically`);
      if (/\b(?:process|Buffer|require)\b[.(]/.test(code))
        problems.push(`${file}: uses Node globals`);
    }
    assert.deepEqual(problems, []);
  });
});
