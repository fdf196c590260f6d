import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { readFileTool } from './read-file.ts';

describe('read_file', () => {
  let base: string;
  let workspace: string;
  const call = (args: unknown) =>
    new ToolExecutor(new ToolRegistry().register(readFileTool), {
      env: createToolEnvironment({ dataDir: base, workspaceDir: workspace }),
    }).execute({ id: 'call-1', name: 'read_file', args });

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'yeoul-read-')));
    workspace = join(base, 'workspace');
    await mkdir(join(workspace, 'notes'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.txt'), 'top secret');
    await writeFile(join(workspace, 'notes', 'todo.txt'), '우유 사기\nbuy milk\n');
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('reads a UTF-8 text file by its workspace-relative path', async () => {
    const result = await call({ path: 'notes/todo.txt' });
    assert.equal(result.isError, false);
    assert.equal(result.content, '우유 사기\nbuy milk\n');
  });

  it('names a missing file and points at list_files', async () => {
    const result = await call({ path: 'notes/none.txt' });
    assert.match(result.content, /^Error: "notes\/none.txt" does not exist; use list_files/);
  });

  for (const [requested, pattern] of [
    ['../etc/passwd', /leaves the workspace/],
    ['/etc/passwd', /absolute paths are not allowed/],
    ['a/../../x', /leaves the workspace/],
    ['notes\0/todo.txt', /NUL byte/],
    ['../outside/secret.txt', /leaves the workspace/],
  ] as const) {
    it(`refuses ${JSON.stringify(requested)}`, async () => {
      const result = await call({ path: requested });
      assert.equal(result.isError, true);
      assert.match(result.content, pattern);
    });
  }

  it('refuses a file link and a folder link that lead outside the workspace', async () => {
    await symlink(join(base, 'outside', 'secret.txt'), join(workspace, 'secret-link.txt'));
    await symlink(join(base, 'outside'), join(workspace, 'outside-folder'));
    await symlink('/etc', join(workspace, 'etc'));
    for (const path of [
      'secret-link.txt',
      'outside-folder/secret.txt',
      'etc/passwd',
      'etc/hostname',
    ]) {
      const result = await call({ path });
      assert.equal(result.isError, true, path);
      assert.match(result.content, /outside the workspace through a symbolic link/);
      assert.doesNotMatch(result.content, /top secret|root:/);
    }
  });

  it('reads through a link that stays inside the workspace', async () => {
    await symlink(join(workspace, 'notes'), join(workspace, 'notes-alias'));
    assert.equal((await call({ path: 'notes-alias/todo.txt' })).content, '우유 사기\nbuy milk\n');
  });

  it('refuses a file over 100 KB and says how big it is', async () => {
    await writeFile(join(workspace, 'big.txt'), 'a'.repeat(200 * 1024));
    const result = await call({ path: 'big.txt' });
    assert.equal(
      result.content,
      'Error: "big.txt" is 200 KB; read_file reads files of at most 100 KB',
    );
  });

  it('refuses a folder and a binary file', async () => {
    assert.match(
      (await call({ path: 'notes' })).content,
      /^Error: "notes" is a folder.*list_files/,
    );
    await writeFile(join(workspace, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    assert.match(
      (await call({ path: 'image.png' })).content,
      /^Error: "image.png" is a binary file/,
    );
    await writeFile(join(workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    assert.match((await call({ path: 'latin1.txt' })).content, /is not UTF-8 text/);
  });

  it('never shows the host path of the workspace in an error', async () => {
    const result = await call({ path: 'missing/deeper.txt' });
    assert.equal(result.isError, true);
    assert.ok(!result.content.includes(base));
  });
});
