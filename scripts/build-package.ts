// The package build (`npm run build`, and `prepack` before `npm pack`/`npm publish`): the
// repository runs its TypeScript directly, but Node does not strip types inside
// node_modules, so the package ships JavaScript with .d.ts types in dist/. tsc emits them
// (tsconfig.build.json); this script then copies the files the code reads beside itself
// (the web console, sample logs, the demo database seed, the Python sandbox) into the same
// places under dist/, and points the declarations' relative imports at .js files.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const source = join(root, 'src');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  process.stderr.write(`build: tsc failed (exit ${compiled.status ?? compiled.signal})\n`);
  process.exit(1);
}

const files = listFiles(source);
let copied = 0;
for (const file of files) {
  const path = relative(source, file);
  if (!isRuntimeAsset(path)) continue;
  cpSync(file, join(dist, path));
  copied += 1;
}

let declarations = 0;
for (const file of listFiles(dist)) {
  if (!file.endsWith('.d.ts') || file.startsWith(join(dist, 'web'))) continue;
  const text = readFileSync(file, 'utf8');
  const rewritten = rewriteRelativeTsSpecifiers(text);
  if (rewritten !== text) {
    writeFileSync(file, rewritten);
    declarations += 1;
  }
}
process.stdout.write(
  `build: dist/ written (${copied} asset files copied, ${declarations} declaration files pointed at .js)\n`,
);

/**
 * Files the built code reads by path: the web console (served as it is, browser TypeScript
 * stripped on request) and every non-TypeScript file beside the server code. Tests and
 * the repository's own fakes stay out.
 */
function isRuntimeAsset(path: string): boolean {
  if (path.endsWith('.test.ts') || path.startsWith('testing/internal/')) return false;
  if (path.startsWith('web/')) return !path.endsWith('.d.ts');
  return !path.endsWith('.ts');
}

/** `from './x.ts'` and `import('./x.ts')` in a declaration file → `./x.js`. */
function rewriteRelativeTsSpecifiers(text: string): string {
  return text.replace(/(['"])(\.{1,2}\/[^'"]*?)\.ts\1/g, '$1$2.js$1');
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}
