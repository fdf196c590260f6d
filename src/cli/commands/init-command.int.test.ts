import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { yeoulRoot as repositoryRoot, yeoulManifest, yeoulVersion } from '../../core/index.ts';
import { fakeCliIo as fakeIo } from '../../testing/internal/index.ts';
import { runsFromClone } from '../pack-clone.ts';
import { runCli } from '../run-cli.ts';
import { packageName } from './init-command.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-init-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Manifest {
  name: string;
  engines: Record<string, string>;
  allowScripts: Record<string, boolean>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

describe('yeoul init', () => {
  it('creates a project depending on yeoul, with zod, TypeScript and its own Node 24', async () => {
    const target = join(root, 'My Agent');
    const io = fakeIo();
    assert.equal(await runCli(['init', target, '--yeoul', `^${yeoulVersion}`], io), 0, io.err);
    const files = readdirSync(target, { recursive: true, encoding: 'utf8' }).sort();
    for (const file of [
      '.gitignore',
      'README.md',
      'package.json',
      'tsconfig.json',
      'yeoul.config.ts',
    ]) {
      assert.ok(files.includes(file), `${file} in ${files.join(', ')}`);
    }
    assert.ok(files.filter((file) => file.endsWith('.test.ts')).length >= 2, files.join(', '));
    const manifest = manifestOf(target);
    assert.equal(manifest.name, 'my-agent');
    assert.equal(manifest.dependencies.yeoul, `^${yeoulVersion}`);
    assert.match(manifest.dependencies.zod ?? '', /^\^4\./);
    assert.ok(manifest.devDependencies.typescript, 'typescript among devDependencies');
    assert.equal(manifest.scripts.start, 'yeoul serve');
    // The Node its scripts run on comes with it, so an older system Node runs the project.
    assert.equal(manifest.devDependencies.node, yeoulManifest.devDependencies.node);
    assert.deepEqual(manifest.allowScripts, yeoulManifest.allowScripts);
    assert.equal(manifest.engines.node, '>=20');
    // No sample documents or logs of Yeoul's own: the project's config says so.
    const config = readFileSync(join(target, 'yeoul.config.ts'), 'utf8');
    assert.match(config, /knowledge: \{ sampleDocuments: false \}/);
    assert.match(config, /logs: 'file:\.\/logs'/);
    assert.ok(files.includes('logs/README.md'));
    assert.match(io.out, /npm install/);
  });

  it('depends on the clone it runs from, packed into the project, when no --yeoul is given', () => {
    // The pack itself (npm pack, a full build) is exercised by test/package.int.test.ts.
    assert.equal(runsFromClone(repositoryRoot), existsSync(join(repositoryRoot, '.git')));
    assert.equal(runsFromClone(root), false);
  });

  it('refuses a file: spec that names no file, writing nothing', async () => {
    const target = join(root, 'missing-tarball');
    const io = fakeIo();
    assert.equal(await runCli(['init', target, '--yeoul', 'file:../nothing-here.tgz'], io), 2);
    assert.match(io.err, /--yeoul file:\.\.\/nothing-here\.tgz: no such file/);
    assert.ok(!existsSync(target));
  });

  it('writes the npm spec --yeoul names', async () => {
    const target = join(root, 'from-tarball');
    writeFileSync(join(root, 'yeoul-0.2.0.tgz'), 'a build of ones own');
    const io = fakeIo();
    assert.equal(await runCli(['init', target, '--yeoul', 'file:../yeoul-0.2.0.tgz'], io), 0);
    assert.equal(manifestOf(target).dependencies.yeoul, 'file:../yeoul-0.2.0.tgz');
  });

  it('fills an empty folder and refuses one that holds files, writing nothing there', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    assert.equal(await runCli(['init', empty, '--yeoul', '^1.0.0'], fakeIo()), 0);
    const taken = join(root, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine');
    const io = fakeIo();
    assert.equal(await runCli(['init', taken, '--yeoul', '^1.0.0'], io), 1);
    assert.match(
      io.err,
      /^yeoul: cannot create a project in .*taken: it already holds notes\.txt[^\n]*\n$/,
    );
    assert.deepEqual(readdirSync(taken), ['notes.txt']);
  });

  it('answers --help with exit 0 and bad usage with exit 2', async () => {
    const help = fakeIo();
    assert.equal(await runCli(['init', '--help'], help), 0);
    assert.match(help.out, /Usage: yeoul init \[DIR\] \[--yeoul SPEC\]/);
    const listed = fakeIo();
    assert.equal(await runCli(['--help'], listed), 0);
    assert.match(listed.out, /^ {2}init +scaffold a project/m);
    assert.equal(await runCli(['init', 'a', 'b'], fakeIo()), 2);
    assert.equal(await runCli(['init', '--yeoul'], fakeIo()), 2);
  });

  it('makes a valid npm name from any folder name', () => {
    assert.equal(packageName('My Agent'), 'my-agent');
    assert.equal(packageName('에이전트'), 'yeoul-project');
    assert.equal(packageName('.hidden_thing'), 'hidden_thing');
  });
});
