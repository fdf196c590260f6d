import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { yeoulVersion } from '../../core/index.ts';
import { fakeCliIo as fakeIo } from '../../testing/internal/index.ts';
import { runCli } from '../run-cli.ts';
import { packageName } from './init-command.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-init-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Manifest {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

describe('yeoul init', () => {
  it('creates a project depending on this version of yeoul, with zod and TypeScript', async () => {
    const target = join(root, 'My Agent');
    const io = fakeIo();
    assert.equal(await runCli(['init', target], io), 0, io.err);
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
    assert.match(io.out, /npm install/);
  });

  it('writes the npm spec --yeoul names', async () => {
    const target = join(root, 'from-tarball');
    const io = fakeIo();
    assert.equal(await runCli(['init', target, '--yeoul', 'file:../yeoul-0.2.0.tgz'], io), 0);
    assert.equal(manifestOf(target).dependencies.yeoul, 'file:../yeoul-0.2.0.tgz');
  });

  it('fills an empty folder and refuses one that holds files, writing nothing there', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    assert.equal(await runCli(['init', empty], fakeIo()), 0);
    const taken = join(root, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine');
    const io = fakeIo();
    assert.equal(await runCli(['init', taken], io), 1);
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
