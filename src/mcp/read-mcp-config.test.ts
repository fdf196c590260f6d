import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withoutBlankValues } from '../core/index.ts';
import { mcpVariables } from './mcp-variables.ts';
import { parseMcpConfig, readMcpConfig } from './read-mcp-config.ts';
import { splitToolPermissions } from './split-tool-permissions.ts';
import { mcpToolName } from './tool-names.ts';

const folder = mkdtempSync(join(tmpdir(), 'yeoul-mcp-config-'));
after(() => rmSync(folder, { recursive: true, force: true }));

describe('YEOUL_MCP_CONFIG', () => {
  it('reads Claude Desktop’s format: stdio and Streamable HTTP entries, permission ask by default', async () => {
    const path = join(folder, 'mcp.json');
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { A: '1' } },
          remote: {
            url: 'https://mcp.example.com/mcp',
            headers: { authorization: 'Bearer x' },
            permission: 'allow',
          },
          off: { command: 'nothing', disabled: true },
        },
      }),
    );
    const reading = await readMcpConfig(path);
    assert.deepEqual(reading, {
      ok: true,
      servers: [
        {
          name: 'files',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', 'server-filesystem', '/tmp'],
          env: { A: '1' },
          permission: 'ask',
        },
        {
          name: 'remote',
          transport: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { authorization: 'Bearer x' },
          permission: 'allow',
        },
      ],
    });
  });

  it('means no servers when unset', async () => {
    assert.deepEqual(await readMcpConfig(undefined), { ok: true, servers: [] });
    // Read as the process reads its environment: an empty value counts as unset.
    const blank = mcpVariables.parse(withoutBlankValues({ YEOUL_MCP_CONFIG: ' ' }));
    assert.deepEqual(await readMcpConfig(blank.YEOUL_MCP_CONFIG), { ok: true, servers: [] });
  });

  it('lists every problem: a missing file, bad JSON, entries without command or url, bad fields', async () => {
    const missing = await readMcpConfig(join(folder, 'nope.json'));
    assert.equal(missing.ok, false);
    assert.match(
      missing.ok ? '' : (missing.problems[0] ?? ''),
      /cannot read .*nope\.json: no such file/,
    );
    const garbled = join(folder, 'garbled.json');
    writeFileSync(garbled, '{"mcpServers": ');
    const bad = await readMcpConfig(garbled);
    assert.match(bad.ok ? '' : (bad.problems[0] ?? ''), /is not valid JSON/);
    const reading = parseMcpConfig({
      mcpServers: {
        nothing: { args: [] },
        wrong: { command: 'x', permission: 'sometimes' },
        web: { url: 'ftp://example.com' },
        'bad name!': { command: 'x' },
      },
    });
    const problems = reading.ok ? [] : reading.problems;
    assert.equal(problems.length, 4);
    assert.match(
      problems[0] ?? '',
      /^YEOUL_MCP_CONFIG: mcpServers\.nothing: needs "command".*or "url"/,
    );
    assert.match(problems[1] ?? '', /mcpServers\.wrong\.permission/);
    assert.match(problems[2] ?? '', /mcpServers\.web\.url: an http:\/\/ or https:\/\/ URL/);
    assert.match(problems[3] ?? '', /mcpServers\.bad name!: server names are 1–40 letters/);
  });

  it('refuses two servers whose tools would share a prefix', () => {
    const reading = parseMcpConfig({
      mcpServers: { 'my-server': { command: 'a' }, my_server: { command: 'b' } },
    });
    assert.match(
      reading.ok ? '' : (reading.problems[0] ?? ''),
      /would be named like those of "my-server"/,
    );
  });
});

describe('MCP tool names', () => {
  it('joins server and tool as NAME__tool in the registry’s snake_case', () => {
    assert.equal(mcpToolName('everything', 'get-sum'), 'everything__get_sum');
    assert.equal(mcpToolName('GitHub', 'createIssue'), 'github__createissue');
    assert.equal(mcpToolName('1password', 'read.item'), 'mcp_1password__read_item');
  });

  it('keeps long names under 64 characters and apart by a hash of the original', () => {
    const first = mcpToolName('server', `${'x'.repeat(70)}_first`);
    const second = mcpToolName('server', `${'x'.repeat(70)}_second`);
    assert.ok(first.length <= 64 && second.length <= 64);
    assert.notEqual(first, second);
    assert.match(first, /^[a-z][a-z0-9_]{0,63}$/);
  });
});

describe('YEOUL_TOOL_PERMISSIONS with MCP tools', () => {
  it('keeps entries for configured servers’ tools apart from the built-in ones', () => {
    const split = splitToolPermissions('write_file:allow, everything__echo:allow,other__x:deny', [
      'everything',
    ]);
    assert.equal(split.builtin, 'write_file:allow,other__x:deny');
    assert.deepEqual([...split.mcp], [['everything__echo', 'allow']]);
    assert.deepEqual(split.problems, []);
  });

  it('reports a bad permission for an MCP tool', () => {
    const split = splitToolPermissions('everything__echo:maybe', ['everything']);
    assert.match(
      split.problems[0] ?? '',
      /"maybe" for everything__echo is not one of allow, ask, deny/,
    );
  });
});
