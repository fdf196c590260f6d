import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAgentRunner, profileExtractorPrompt, routerPrompt } from '../src/agents/index.ts';
import { SqliteCheckpointer } from '../src/graph/index.ts';
import { openSqliteMemoryStore } from '../src/memory-store/index.ts';
import { ChatModel } from '../src/models/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { scriptedLanguageModel } from '../src/testing/index.ts';
import { keyedClient } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';
import { createDefaultTools, createToolEnvironment } from '../src/tools/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-long-term-'));
after(() => rmSync(root, { recursive: true, force: true }));

function client(server: RunningServer, key: string) {
  const call = keyedClient(server.url, key);
  return (path: string, body?: unknown) => call(body === undefined ? 'GET' : 'POST', path, body);
}

describe('long-term memory across sessions (offline model, HTTP, two keys)', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_API_KEYS: 'key-a,key-b',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    }));
  });
  after(() => server.close());

  it('answers 철수 in a new session of the same key, and not for another key', async () => {
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    const stated = await a('/api/agent/invoke', { message: '내 이름은 철수야', sessionId: 'a-1' });
    assert.equal(stated.status, 200);
    assert.equal(stated.body.usage.llmCalls, 1, 'no extra call on the offline path');
    const profile = await a('/api/memory?prefix=profile');
    assert.deepEqual(
      profile.body.items.map((item: Json) => [item.key, item.value]),
      [['name', '철수']],
    );
    const asked = await a('/api/agent/invoke', {
      message: '내 이름이 뭐라고 했지?',
      sessionId: 'a-2',
    });
    assert.match(asked.body.response, /철수/);
    assert.equal(asked.body.usage.llmCalls, 1);
    const other = await b('/api/agent/invoke', {
      message: '내 이름이 뭐라고 했지?',
      sessionId: 'b-1',
    });
    assert.doesNotMatch(other.body.response, /철수/);
    assert.deepEqual((await b('/api/memory')).body.items, []);
    const off = await a('/api/agent/invoke', {
      message: '내 이름이 뭐라고 했지?',
      sessionId: 'a-3',
      options: { longTermMemory: false },
    });
    assert.doesNotMatch(off.body.response, /철수/);
  });

  it('writes nothing when the request turns long-term memory off', async () => {
    const b = client(server, 'key-b');
    await b('/api/agent/invoke', {
      message: '우리 팀은 결제팀이야',
      sessionId: 'b-2',
      options: { longTermMemory: false },
    });
    assert.deepEqual((await b('/api/memory')).body.items, []);
    await b('/api/agent/invoke', { message: '우리 팀은 결제팀이야', sessionId: 'b-3' });
    assert.deepEqual(
      (await b('/api/memory?prefix=profile')).body.items.map((item: Json) => item.value),
      ['결제팀'],
    );
  });
});

describe('YEOUL_LONG_TERM_MEMORY=off', () => {
  it('neither writes nor reads the profile', async () => {
    const { server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_LONG_TERM_MEMORY: 'off',
    });
    try {
      const api = client(server, 'unused');
      await api('/api/agent/invoke', { message: '내 이름은 철수야', sessionId: 'x-1' });
      assert.deepEqual((await api('/api/memory')).body.items, []);
      const asked = await api('/api/agent/invoke', {
        message: '내 이름이 뭐라고 했지?',
        sessionId: 'x-2',
      });
      assert.doesNotMatch(asked.body.response, /철수/);
    } finally {
      await server.close();
    }
  });
});

describe('long-term memory with a real-model path (scripted model)', () => {
  it('spends one extraction call only on a turn that states a fact, and reads the profile in a new session', async () => {
    const systems: string[] = [];
    const model = scriptedLanguageModel((options) => {
      const system = options.prompt
        .filter((message) => message.role === 'system')
        .map((message) => message.content)
        .join('\n');
      systems.push(system);
      if (system.includes(profileExtractorPrompt)) {
        return { object: { facts: [{ key: 'Name', value: '철수' }] } };
      }
      if (system.includes(routerPrompt)) return { object: { route: 'agent', reason: 'chat' } };
      const name = system.match(/- name: (\S+)/)?.[1];
      return { text: name ? `${name}님이라고 하셨어요.` : '아직 모르겠어요.' };
    });
    const memory = openSqliteMemoryStore({ path: ':memory:' });
    const tools = createDefaultTools();
    const dataDir = mkdtempSync(join(root, 'scripted-'));
    const runner = createAgentRunner(
      {
        model: new ChatModel(model, { provider: 'compat', modelId: 'script' }),
        tools: tools.registry,
        toolEnvironment: createToolEnvironment({ dataDir }),
        longTermMemory: memory,
      },
      new SqliteCheckpointer(),
    );
    try {
      const before = model.calls.length;
      const stated = await runner.invoke({
        message: '내 이름은 철수야',
        sessionId: 's-1',
        owner: 'alice',
      });
      const statedCalls = model.calls.length - before;
      assert.equal(stated.usage.llmCalls, statedCalls);
      const extractions = systems.filter((system) => system.includes(profileExtractorPrompt));
      assert.equal(extractions.length, 1, 'one extraction call on the stating turn');
      assert.deepEqual((await memory.get('alice', 'profile', 'name'))?.value, '철수');

      const asked = await runner.invoke({
        message: '내 이름이 뭐라고 했지?',
        sessionId: 's-2',
        owner: 'alice',
      });
      assert.equal(asked.response, '철수님이라고 하셨어요.');
      assert.equal(
        systems.filter((system) => system.includes(profileExtractorPrompt)).length,
        1,
        'no extraction call on a question',
      );
      const other = await runner.invoke({
        message: '내 이름이 뭐라고 했지?',
        sessionId: 's-3',
        owner: 'bob',
      });
      assert.equal(other.response, '아직 모르겠어요.');
    } finally {
      await memory.close();
      await tools.close();
    }
  });
});
