import assert from 'node:assert/strict';
import {
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { writeFileTool } from './write-file.ts';

describe('write_file', () => {
  let base: string;
  let workspace: string;
  let outside: string;
  const call = (args: unknown) =>
    new ToolExecutor(new ToolRegistry().register(writeFileTool), {
      env: createToolEnvironment({ dataDir: base, workspaceDir: workspace }),
      // write_file asks for approval by default: this person approves every call.
      approve: async () => true,
    }).execute({ id: 'call-1', name: 'write_file', args });

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'yeoul-write-')));
    workspace = join(base, 'workspace');
    outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'original');
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('creates the workspace and missing folders, then writes the file', async () => {
    const result = await call({ path: 'reports/2025/summary.md', content: '# 요약\n' });
    assert.equal(result.content, 'Wrote "reports/2025/summary.md" (9 bytes)');
    assert.equal(
      await readFile(join(workspace, 'reports', '2025', 'summary.md'), 'utf8'),
      '# 요약\n',
    );
  });

  it('replaces an existing file completely', async () => {
    await call({ path: 'note.txt', content: 'a long first version' });
    const result = await call({ path: 'note.txt', content: 'short' });
    assert.equal(result.content, 'Replaced "note.txt" (5 bytes)');
    assert.equal(await readFile(join(workspace, 'note.txt'), 'utf8'), 'short');
  });

  for (const [requested, pattern] of [
    ['../escape.txt', /leaves the workspace/],
    ['/tmp/escape.txt', /absolute paths are not allowed/],
    ['a/../../escape.txt', /leaves the workspace/],
    ['evil\0.txt', /NUL byte/],
    ['.', /workspace folder itself/],
  ] as const) {
    it(`refuses ${JSON.stringify(requested)}`, async () => {
      const result = await call({ path: requested, content: 'x' });
      assert.equal(result.isError, true);
      assert.match(result.content, pattern);
    });
  }

  it('never writes through links that lead outside: folder, file or dangling', async () => {
    await mkdir(workspace, { recursive: true });
    await symlink(outside, join(workspace, 'out'));
    await symlink(join(outside, 'keep.txt'), join(workspace, 'keep-link.txt'));
    await symlink(join(outside, 'created.txt'), join(workspace, 'ghost.txt'));
    await symlink('/etc', join(workspace, 'etc'));
    for (const path of [
      'out/new.txt',
      'out/deep/new.txt',
      'keep-link.txt',
      'ghost.txt',
      'etc/passwd',
    ]) {
      const result = await call({ path, content: 'pwned' });
      assert.equal(result.isError, true, path);
      assert.match(result.content, /symbolic link/);
    }
    assert.deepEqual((await readdir(outside)).sort(), ['keep.txt']);
    assert.equal(await readFile(join(outside, 'keep.txt'), 'utf8'), 'original');
  });

  it('refuses a file with a second hard link, which could live outside', async () => {
    await mkdir(workspace, { recursive: true });
    await link(join(outside, 'keep.txt'), join(workspace, 'hard.txt'));
    const result = await call({ path: 'hard.txt', content: 'pwned' });
    assert.match(result.content, /several hard links/);
    assert.equal(await readFile(join(outside, 'keep.txt'), 'utf8'), 'original');
  });

  it('refuses more than 100 KB of content and says how much was given', async () => {
    const result = await call({ path: 'big.txt', content: 'a'.repeat(200 * 1024) });
    assert.equal(result.content, 'Error: the content is 200 KB; write_file writes at most 100 KB');
  });

  it('refuses to replace a folder or to write below a file', async () => {
    await call({ path: 'folder/inner.txt', content: 'x' });
    assert.match((await call({ path: 'folder', content: 'x' })).content, /^Error: .*"folder"/);
    const below = await call({ path: 'note.txt/child.txt', content: 'x' });
    assert.match(below.content, /a part of the path is a file, not a folder/);
  });
});
