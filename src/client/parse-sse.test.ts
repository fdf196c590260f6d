import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSse, type SseEvent } from './parse-sse.ts';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(streamOf(chunks))) events.push(event);
  return events;
}

describe('parseSse', () => {
  it('reads events, ids and data split across chunks at any byte', async () => {
    const text =
      'id: r1:1\nevent: token\ndata: {"text":"안녕"}\n\n: ping\n\nid: r1:2\nevent: done\ndata: {}\n\n';
    const bytes = new TextEncoder().encode(text);
    // One byte at a time: multi-byte Korean characters are cut in half too.
    const events: SseEvent[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    for await (const event of parseSse(stream)) events.push(event);
    assert.deepEqual(events, [
      { event: 'token', data: '{"text":"안녕"}', id: 'r1:1' },
      { event: 'done', data: '{}', id: 'r1:2' },
    ]);
  });

  it('joins multi-line data, accepts CRLF and CR line ends, and defaults the event name', async () => {
    assert.deepEqual(await collect(['data: a\r\ndata: b\r\n\r\n', 'data:c\r', '\r']), [
      { event: 'message', data: 'a\nb', id: undefined },
      { event: 'message', data: 'c', id: undefined },
    ]);
  });

  it('ignores comments and events without data', async () => {
    assert.deepEqual(await collect([': ping\n\nevent: step\n\n']), []);
  });
});
