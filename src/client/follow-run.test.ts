import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { YeoulApiError } from './errors/yeoul-api-error.ts';
import { followRun, type RunEvent } from './follow-run.ts';

const encoder = new TextEncoder();

/** An SSE answer that sends `text`, then ends cleanly or (`cut`) fails like a dropped connection. */
function sseResponse(text: string, ending: 'end' | 'cut' = 'end'): Response {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    // The text is read first; the next read ends the stream, or fails as a cut connection does.
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(encoder.encode(text));
      } else if (ending === 'cut') controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const event = (id: number, name: string, data: unknown) =>
  `id: run:${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const item of events) seen.push(item);
  return seen;
}

const fast = { attempts: 3, delayMs: 1 };

describe('followRun', () => {
  it('rejoins after the last event id when the connection drops, and ends after done', async () => {
    const rejoins: Array<string | undefined> = [];
    const events = await collect(
      followRun({
        start: async () =>
          sseResponse(`${event(1, 'step', { node: 'agent', phase: 'start' })}: ping\n\n`, 'cut'),
        rejoin: async (lastEventId) => {
          rejoins.push(lastEventId);
          return sseResponse(
            `${event(2, 'token', { text: '안녕' })}${event(3, 'done', { ok: 1 })}`,
          );
        },
        reconnect: fast,
      }),
    );
    assert.deepEqual(rejoins, ['run:1']);
    assert.deepEqual(
      events.map((item) => [item.id, item.event]),
      [
        ['run:1', 'step'],
        ['run:2', 'token'],
        ['run:3', 'done'],
      ],
    );
    assert.deepEqual(events[1]?.data, { text: '안녕' });
  });

  it('rejoins after the id the caller started from when no event came before the drop', async () => {
    const rejoins: Array<string | undefined> = [];
    const events = await collect(
      followRun({
        start: async () => sseResponse(': ping\n\n', 'cut'),
        rejoin: async (lastEventId) => {
          rejoins.push(lastEventId);
          return sseResponse(event(8, 'done', {}));
        },
        lastEventId: 'run:7',
        reconnect: fast,
      }),
    );
    assert.deepEqual(rejoins, ['run:7']);
    assert.deepEqual(
      events.map((item) => item.id),
      ['run:8'],
    );
  });

  it('ends without rejoining when the server closes the stream after an error event', async () => {
    let rejoined = false;
    const events = await collect(
      followRun({
        start: async () => sseResponse(event(1, 'error', { code: 'run_failed', message: 'x' })),
        rejoin: async () => {
          rejoined = true;
          return sseResponse('');
        },
        reconnect: fast,
      }),
    );
    assert.deepEqual(
      events.map((item) => item.event),
      ['error'],
    );
    assert.equal(rejoined, false);
  });

  it('gives up with stream_interrupted after the allowed rejoins bring nothing', async () => {
    let rejoins = 0;
    const run = collect(
      followRun({
        start: async () => sseResponse(event(1, 'step', { node: 'a', phase: 'start' }), 'cut'),
        rejoin: async () => {
          rejoins += 1;
          throw new YeoulApiError({ status: 0, code: 'network_error', message: 'refused' });
        },
        reconnect: fast,
      }),
    );
    await assert.rejects(run, (error: unknown) => {
      assert.ok(error instanceof YeoulApiError);
      assert.equal(error.code, 'stream_interrupted');
      assert.equal(error.status, 0);
      assert.equal((error.cause as YeoulApiError).code, 'network_error');
      return true;
    });
    assert.equal(rejoins, 3);
  });

  it('stops at once when the server answers a rejoin with an error (no run to join)', async () => {
    let rejoins = 0;
    const run = collect(
      followRun({
        start: async () => sseResponse('', 'cut'),
        rejoin: async () => {
          rejoins += 1;
          throw new YeoulApiError({ status: 404, code: 'no_active_run', message: 'none' });
        },
        reconnect: fast,
      }),
    );
    await assert.rejects(run, { name: 'YeoulApiError', code: 'no_active_run', status: 404 });
    assert.equal(rejoins, 1);
  });

  it('refuses an event whose data is not JSON, naming the event', async () => {
    const run = collect(
      followRun({
        start: async () => sseResponse('event: token\ndata: {broken\n\n'),
        rejoin: async () => sseResponse(''),
        reconnect: fast,
      }),
    );
    await assert.rejects(run, { code: 'invalid_event', message: /token event's data is not JSON/ });
  });

  it('stops waiting to rejoin when the caller aborts', async () => {
    const controller = new AbortController();
    const run = collect(
      followRun({
        start: async () => sseResponse(event(1, 'step', { node: 'a', phase: 'start' }), 'cut'),
        rejoin: async () => sseResponse('', 'cut'),
        reconnect: { attempts: 5, delayMs: 10_000 },
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(new Error('the caller left')), 20);
    await assert.rejects(run, { message: 'the caller left' });
  });
});
