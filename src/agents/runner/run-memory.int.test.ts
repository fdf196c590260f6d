import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryCheckpointer } from '../../graph/index.ts';
import { ChatModel } from '../../models/index.ts';
import { scriptedLanguageModel } from '../../testing/index.ts';
import { createDefaultTools, createToolEnvironment } from '../../tools/index.ts';
import { routerPrompt } from '../prompts.ts';
import { createAgentRunner } from './agent-runner.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const root = mkdtempSync(join(tmpdir(), 'yeoul-run-memory-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('what a finished run leaves in memory', () => {
  it('lets go of the request, its signal and its event listener once the run is over', async () => {
    const model = scriptedLanguageModel((options) => {
      const system = options.prompt.find((message) => message.role === 'system')?.content;
      if (String(system).includes(routerPrompt)) return { object: { route: 'chat', reason: 'hi' } };
      return { text: 'hello' };
    });
    const runner = createAgentRunner(
      {
        model: new ChatModel(model, { provider: 'compat', modelId: 'script' }),
        tools: createDefaultTools().registry,
        toolEnvironment: createToolEnvironment({ dataDir: root }),
      },
      new MemoryCheckpointer(),
    );
    // A caller's signal that lives on (a server's, stopping every run as it shuts down) makes
    // the run's signal a combined one (AbortSignal.any), which Node keeps alive for as long as
    // an abort listener stays on it and a source lives.
    const serverStopping = new AbortController();
    const kept = new Set<WeakRef<object>>();
    for (let turn = 0; turn < 5; turn += 1) {
      const request = { marker: new Array(1000).fill(turn) };
      kept.add(new WeakRef(request));
      const response = await runner.invoke({
        message: 'hi',
        signal: serverStopping.signal,
        onEvent: () => request.marker.length,
      });
      assert.equal(response.response, 'hello');
    }
    for (let round = 0; round < 5; round += 1) {
      collectGarbage();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const alive = [...kept].filter((reference) => reference.deref() !== undefined).length;
    assert.equal(alive, 0, `${alive} of 5 finished runs are still held in memory`);
  });
});
