import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { yeoulManifest, yeoulRoot, yeoulVersion } from '../../core/index.ts';
import { defineCommand } from '../define-command.ts';
import { TargetNotEmptyError } from '../errors/target-not-empty-error.ts';
import { UsageError } from '../errors/usage-error.ts';
import { packClone, runsFromClone } from '../pack-clone.ts';
import { parseCommandArgs } from '../parse-command-args.ts';

/** The project files `yeoul init` copies (package.json is written from the versions). */
export const initTemplateDir = join(yeoulRoot, 'templates', 'init');

/** npm leaves `.gitignore` out of a package, so the template keeps it under another name. */
const renamedFiles: Record<string, string> = { gitignore: '.gitignore' };

/** `yeoul init [DIR] [--yeoul SPEC]`: scaffolds a project that builds on Yeoul. */
export const initCommand = defineCommand({
  name: 'init',
  summary: 'scaffold a project that builds on Yeoul (config, a tool, a graph, tests)',
  usage: ['init [DIR] [--yeoul SPEC]'],
  details: [
    'DIR            a new or empty folder (default: the current one)',
    `--yeoul SPEC   the npm spec the project depends on (default ^${yeoulVersion};`,
    '               run from a clone of the repository: the clone, packed into DIR),',
    '               e.g. file:../yeoul-0.2.0.tgz for a build that is not published',
    'Nothing is installed: run npm install, then npm start, npm test.',
  ],
  example: 'init my-agent',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'init',
      args,
      { yeoul: { type: 'string' } },
      { min: 0, max: 1, names: 'DIR' },
    );
    if (values.yeoul !== undefined && values.yeoul.trim() === '')
      throw new UsageError({ problem: '--yeoul needs an npm spec', command: 'init' });
    const target = resolve(positionals[0] ?? '.');
    if (values.yeoul?.startsWith('file:')) checkFileSpec(values.yeoul, target);
    await ensureEmptyFolder(target);
    let spec = values.yeoul ?? `^${yeoulVersion}`;
    if (values.yeoul === undefined && runsFromClone()) {
      // Nothing is published yet: the project depends on this clone, packed beside it.
      io.stdout.write(`Packing Yeoul from ${yeoulRoot} (npm pack)…\n`);
      spec = `file:./${await packClone(target)}`;
    }
    const written = await scaffoldProject(target, { yeoulSpec: spec });
    const shown = relative(process.cwd(), target) || '.';
    io.stdout.write(
      [
        `Created a Yeoul project in ${shown}:`,
        ...written.map((file) => `  ${file}`),
        '',
        'Next:',
        ...(shown === '.' ? [] : [`  cd ${shown}`]),
        '  npm install',
        '  npm start        # the API and web console on http://127.0.0.1:8787',
        '  npm test',
        '',
      ].join('\n'),
    );
    return 0;
  },
});

/**
 * Writes a project into `target` (which must exist and be empty): package.json depending
 * on `yeoulSpec`, and the template's files. Resolves to the files written, sorted.
 */
export async function scaffoldProject(
  target: string,
  options: { yeoulSpec: string },
): Promise<string[]> {
  await cp(initTemplateDir, target, { recursive: true });
  for (const [from, to] of Object.entries(renamedFiles)) {
    await rename(join(target, from), join(target, to)).catch(() => undefined);
  }
  const manifest = projectManifest(basename(target), options.yeoulSpec);
  await writeFile(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const files = await readdir(target, { recursive: true, withFileTypes: true });
  return files
    .filter((entry) => entry.isFile())
    .map((entry) => relative(target, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The project's package.json: Yeoul, zod for tool schemas, TypeScript to check types, and
 * the Node 24 runtime its scripts run on (as the repository carries it), so the project
 * works on whatever Node 20 or newer its user has.
 */
export function projectManifest(folderName: string, yeoulSpec: string) {
  const range = (version: string | undefined, fallback: string) =>
    version ? `^${version.replace(/^[\^~]/, '')}` : fallback;
  return {
    name: packageName(folderName),
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20' },
    scripts: {
      start: 'yeoul serve',
      dev: 'yeoul dev',
      test: 'node --test "test/**/*.test.ts"',
      typecheck: 'tsc --noEmit',
    },
    dependencies: {
      yeoul: yeoulSpec,
      zod: range(yeoulManifest.dependencies.zod, '^4.0.0'),
    },
    devDependencies: {
      '@types/node': range(yeoulManifest.devDependencies['@types/node'], '^24.0.0'),
      node: yeoulManifest.devDependencies.node ?? '24',
      typescript: range(yeoulManifest.devDependencies.typescript, '^5.9.0'),
    },
    allowScripts: yeoulManifest.allowScripts,
  };
}

/** A `file:` spec must name a tarball or folder that exists (relative to the new project). */
function checkFileSpec(spec: string, target: string): void {
  const path = spec.slice('file:'.length);
  if (path === '' || !existsSync(resolve(target, path))) {
    throw new UsageError({
      problem: `--yeoul ${spec}: no such file (a file: spec is read relative to the new project, ${target})`,
      command: 'init',
    });
  }
}

/** A valid npm package name made from a folder name (lower case, safe characters). */
export function packageName(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name === '' ? 'yeoul-project' : name.slice(0, 214);
}

async function ensureEmptyFolder(target: string): Promise<void> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined) {
    await mkdir(target, { recursive: true });
    return;
  }
  if (!info.isDirectory()) throw new TargetNotEmptyError({ path: target, reason: 'it is a file' });
  const entries = await readdir(target);
  if (entries.length > 0) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
    throw new TargetNotEmptyError({ path: target, reason: `it already holds ${shown}` });
  }
}
