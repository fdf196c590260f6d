import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findOnPath, installCommand, type PackageNames } from './install-command.ts';

const prometheus: PackageNames = {
  'apt-get': 'prometheus',
  dnf: 'golang-github-prometheus',
  brew: 'prometheus',
};
const script: PackageNames = { 'apt-get': 'bsdutils', dnf: 'util-linux-script' };

describe('installCommand', () => {
  it('updates, then installs with apt-get, through sudo unless root', () => {
    assert.equal(
      installCommand([prometheus], { manager: 'apt-get', root: true }),
      'apt-get update && apt-get install -y prometheus',
    );
    assert.equal(
      installCommand([prometheus, script], { manager: 'apt-get', root: false }),
      'sudo apt-get update && sudo apt-get install -y prometheus bsdutils',
    );
  });

  it("uses the machine's own package manager and its package names", () => {
    assert.equal(
      installCommand([prometheus, script], { manager: 'dnf', root: false }),
      'sudo dnf install -y golang-github-prometheus util-linux-script',
    );
    assert.equal(
      installCommand([prometheus], { manager: 'brew', root: false }),
      'brew install prometheus',
    );
  });

  it("gives Debian's command when the manager is unknown or has no name for a package", () => {
    assert.equal(
      installCommand([script], { manager: 'brew', root: false }),
      'sudo apt-get update && sudo apt-get install -y bsdutils',
    );
    assert.equal(
      installCommand([script], { manager: undefined, root: true }),
      'apt-get update && apt-get install -y bsdutils',
    );
  });
});

describe('findOnPath', () => {
  const folder = mkdtempSync(join(tmpdir(), 'yeoul-path-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('finds an executable in a PATH folder and passes over a file that is not one', () => {
    writeFileSync(join(folder, 'runnable'), '#!/bin/sh\n');
    chmodSync(join(folder, 'runnable'), 0o755);
    writeFileSync(join(folder, 'plain'), 'text');
    chmodSync(join(folder, 'plain'), 0o644);
    const path = `/nonexistent:${folder}`;
    assert.equal(findOnPath('runnable', path), join(folder, 'runnable'));
    assert.equal(findOnPath('absent', path), undefined);
    assert.equal(findOnPath('plain', path), undefined);
  });
});
