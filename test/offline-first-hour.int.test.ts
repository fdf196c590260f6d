import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { defineConfig, defineTool } from '../src/index.ts';
import { startThrowawayServer, type ThrowawayServer } from '../src/testing/index.ts';

// What a team tries in its first hour, with no model configured: its own tool, the approval
// of a file write, a percentage, and a question its own document answers.

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const looked: string[] = [];
let server: ThrowawayServer;

before(async () => {
  server = await startThrowawayServer({
    config: defineConfig({
      tools: [
        defineTool({
          name: 'order_status',
          description: 'Looks up the status of an order by its id',
          inputSchema: z.object({ orderId: z.string() }),
          async execute({ orderId }) {
            looked.push(orderId);
            return { orderId, status: 'shipped' };
          },
        }),
      ],
    }),
  });
});

after(() => server.close());

async function ask(message: string, sessionId?: string): Promise<Json> {
  const response = await fetch(`${server.url}/api/agent/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, ...(sessionId ? { sessionId } : {}) }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

describe('the offline model shows a team its own work', () => {
  it("calls the team's own tool it is named, with the id given", async () => {
    const answer = await ask('order_status A-1');
    assert.deepEqual(answer.toolsUsed, ['order_status']);
    assert.deepEqual(looked, ['A-1']);
    assert.match(answer.response, /shipped/);
  });

  it('pauses a file write for approval', async () => {
    const answer = await ask("write 'hello' to notes.txt");
    assert.equal(answer.status, 'interrupted', JSON.stringify(answer));
    assert.equal(answer.interrupts[0].tool, 'write_file');
    assert.deepEqual(answer.interrupts[0].args, { path: 'notes.txt', content: 'hello' });
  });

  it('answers percentages with the calculator, in English and Korean', async () => {
    for (const question of ['What is 15% of 2400?', '2400의 15%는?']) {
      const answer = await ask(question);
      assert.deepEqual(answer.toolsUsed, ['calculator'], question);
      assert.match(answer.response, /= 360\b/, question);
    }
  });

  it('answers a question about a duration from the uploaded document, not the clock', async () => {
    const upload = await fetch(`${server.url}/api/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        documents: [
          {
            id: 'parking',
            title: '방문객 주차 안내',
            text: '방문객은 주차를 최대 3시간까지 무료로 할 수 있습니다. 3시간이 넘으면 시간당 2,000원입니다.',
          },
        ],
      }),
    });
    assert.equal(upload.status, 201);
    const answer = await ask('방문객은 주차를 몇 시간 할 수 있어?');
    assert.deepEqual(answer.toolsUsed, []);
    assert.match(answer.response, /3시간/);
  });
});
