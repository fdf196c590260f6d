import assert from 'node:assert/strict';
import { mkdir, mkdtemp, open, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { confirmOpenedInside, resolveWorkspacePath } from './resolve-workspace-path.ts';

describe('resolveWorkspacePath', () => {
  let base: string;
  let workspace: string;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'yeoul-path-')));
    workspace = join(base, 'workspace');
    await mkdir(join(base, 'outside'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('creates a missing workspace folder and resolves "." to it', async () => {
    const outcome = await resolveWorkspacePath(workspace, '.');
    assert.ok(outcome.ok);
    assert.equal(outcome.path.absolute, workspace);
    assert.equal(outcome.path.display, '.');
    assert.ok((await stat(workspace)).isDirectory());
  });

  it('resolves a path that does not exist yet below the workspace', async () => {
    const outcome = await resolveWorkspacePath(workspace, 'notes/2025/todo.txt');
    assert.ok(outcome.ok);
    assert.equal(outcome.path.absolute, join(workspace, 'notes', '2025', 'todo.txt'));
    assert.equal(outcome.path.exists, false);
  });

  it('allows ".." that stays inside the workspace', async () => {
    const outcome = await resolveWorkspacePath(workspace, 'a/../b.txt');
    assert.ok(outcome.ok);
    assert.equal(outcome.path.display, 'b.txt');
  });

  for (const [title, requested, pattern] of [
    ['a parent escape', '../etc/passwd', /leaves the workspace/],
    ['an escape after a folder', 'a/../../x', /leaves the workspace/],
    ['a lone ..', '..', /leaves the workspace/],
    ['an absolute path', '/etc/passwd', /absolute paths are not allowed/],
    ['a Windows drive path', 'C:\\Windows\\win.ini', /absolute paths are not allowed/],
    ['a NUL byte', 'notes.txt\0.png', /NUL byte/],
  ] as const) {
    it(`refuses ${title}`, async () => {
      const outcome = await resolveWorkspacePath(workspace, requested);
      assert.equal(outcome.ok, false);
      assert.match(outcome.ok ? '' : outcome.problem, pattern);
    });
  }

  it('refuses a symbolic link anywhere on the path that leads outside', async () => {
    await symlink(join(base, 'outside'), join(workspace, 'escape'));
    for (const requested of ['escape', 'escape/new.txt', 'escape/deeper/new.txt']) {
      const outcome = await resolveWorkspacePath(workspace, requested);
      assert.equal(outcome.ok, false, requested);
      assert.match(
        outcome.ok ? '' : outcome.problem,
        /outside the workspace through a symbolic link/,
      );
    }
  });

  it('refuses a dangling symbolic link', async () => {
    await symlink(join(base, 'outside', 'not-yet.txt'), join(workspace, 'ghost'));
    const outcome = await resolveWorkspacePath(workspace, 'ghost');
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.problem, /points nowhere/);
  });

  it('follows a symbolic link that stays inside to its real place', async () => {
    await mkdir(join(workspace, 'real-folder'));
    await symlink(join(workspace, 'real-folder'), join(workspace, 'alias'));
    const outcome = await resolveWorkspacePath(workspace, 'alias/file.txt');
    assert.ok(outcome.ok);
    assert.equal(outcome.path.absolute, join(workspace, 'real-folder', 'file.txt'));
  });

  it('works when the workspace folder itself is reached through a link', async () => {
    await symlink(workspace, join(base, 'workspace-link'));
    const outcome = await resolveWorkspacePath(join(base, 'workspace-link'), 'x.txt');
    assert.ok(outcome.ok);
    assert.equal(outcome.path.absolute, join(workspace, 'x.txt'));
  });

  it('confirms where an opened file really is (a folder swapped for a link after the check)', async (t) => {
    if (process.platform !== 'linux') return t.skip('only Linux tells where an open file is');
    await writeFile(join(base, 'outside', 'secret.txt'), 'secret');
    await writeFile(join(workspace, 'mine.txt'), 'mine');
    // What a path resolved earlier would open once a folder on it became a link outward.
    await symlink(join(base, 'outside'), join(workspace, 'swapped'));
    const outward = await open(join(workspace, 'swapped', 'secret.txt'));
    const inside = await open(join(workspace, 'mine.txt'));
    try {
      await assert.rejects(
        confirmOpenedInside(outward, workspace, 'swapped/secret.txt'),
        /"swapped\/secret.txt" leads outside the workspace through a symbolic link/,
      );
      await confirmOpenedInside(inside, workspace, 'mine.txt');
    } finally {
      await outward.close();
      await inside.close();
    }
  });
});
