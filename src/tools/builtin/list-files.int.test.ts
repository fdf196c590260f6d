import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { listFilesTool } from './list-files.ts';

describe('list_files', () => {
  let base: string;
  let workspace: string;
  const call = (args: unknown) =>
    new ToolExecutor(new ToolRegistry().register(listFilesTool), {
      env: createToolEnvironment({ dataDir: base, workspaceDir: workspace }),
    }).execute({ id: 'call-1', name: 'list_files', args });

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'yeoul-list-')));
    workspace = join(base, 'workspace');
    await mkdir(join(base, 'outside'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('creates a missing workspace and says it is empty', async () => {
    assert.equal((await call({})).content, '"." is empty');
  });

  it('lists folders with a slash and files with their size, sorted', async () => {
    await mkdir(join(workspace, 'notes'));
    await writeFile(join(workspace, 'notes', 'b.txt'), 'x'.repeat(1536));
    await writeFile(join(workspace, 'notes', 'a.txt'), 'hello');
    await mkdir(join(workspace, 'notes', 'archive'));
    await symlink(join(base, 'outside'), join(workspace, 'notes', 'link'));
    const result = await call({ path: 'notes' });
    assert.equal(
      result.content,
      '"notes" (4 entries):\na.txt  5 bytes\narchive/\nb.txt  1.5 KB\nlink (symbolic link)',
    );
  });

  it('shows at most 200 entries and says how many more there are', async () => {
    await mkdir(join(workspace, 'many'));
    await Promise.all(
      Array.from({ length: 250 }, (_, index) =>
        writeFile(join(workspace, 'many', `file-${String(index).padStart(3, '0')}.txt`), ''),
      ),
    );
    const lines = (await call({ path: 'many' })).content.split('\n');
    assert.equal(lines[0], '"many" (250 entries):');
    assert.equal(lines.length, 202);
    assert.equal(lines[200], 'file-199.txt  0 bytes');
    assert.equal(lines[201], '… and 50 more entries not shown');
  });

  for (const [requested, pattern] of [
    ['..', /leaves the workspace/],
    ['/etc', /absolute paths are not allowed/],
    ['notes/../../..', /leaves the workspace/],
    ['notes/link', /outside the workspace through a symbolic link/],
    ['no\0pe', /NUL byte/],
    ['missing', /"missing" does not exist/],
    ['notes/a.txt', /is a file, not a folder; use read_file/],
  ] as const) {
    it(`refuses ${JSON.stringify(requested)} clearly`, async () => {
      const result = await call({ path: requested });
      assert.equal(result.isError, true);
      assert.match(result.content, pattern);
    });
  }
});
