// How the peer comparison of `npm run bench:server` drives one calculator turn on a new
// thread through each server's own HTTP API — Yeoul (`/api/agent/*`, the react graph),
// Mastra (`/api/agents/:id/*` with a memory thread), LangGraph's Agent Server (a thread,
// then a run on it) — and reads the thread back to prove the turn was stored.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:http';
import { calculatorQuestion } from './calculator-turn.ts';
import { okJson, type ServerSentEvent, sendJson, sseReader } from './http-client.ts';

/** What one turn gives back: the answer text and the thread it was stored on. */
export interface TurnOutcome {
  answer: string;
  threadId: string;
  /** Milliseconds from the turn's first request to the first token of the answer (streams). */
  firstTokenMs?: number;
}

/** One server of the comparison, as the bench drives it. */
export interface PeerClient {
  name: 'yeoul' | 'mastra' | 'langgraph';
  /** One calculator turn on a new thread, waiting for the whole answer. */
  invoke(baseUrl: string, agent: Agent): Promise<TurnOutcome>;
  /** The same turn streamed; `firstTokenMs` is set when the first answer token arrives. */
  stream(baseUrl: string, agent: Agent): Promise<TurnOutcome>;
  /** The thread as the server stored it, as text (its messages, tool calls and results). */
  thread(baseUrl: string, agent: Agent, threadId: string): Promise<string>;
}

/**
 * Streams `body` to `url`, showing every event to `onEvent`; the time from `startedAt` to the
 * first event `onEvent` calls a token of the answer.
 */
async function streamTurn(
  url: string,
  body: unknown,
  agent: Agent,
  startedAt: number,
  onEvent: (event: ServerSentEvent) => boolean,
): Promise<{ firstTokenMs?: number }> {
  let firstTokenMs: number | undefined;
  let failure: unknown;
  const read = sseReader((event) => {
    try {
      if (onEvent(event) && firstTokenMs === undefined)
        firstTokenMs = performance.now() - startedAt;
    } catch (error) {
      failure ??= error; // an error event: the turn fails once the stream has ended
    }
  });
  const answer = await sendJson(url, body, { agent, onChunk: read });
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${url}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  if (failure) throw failure;
  return firstTokenMs === undefined ? {} : { firstTokenMs };
}

const yeoulBody = { message: calculatorQuestion, options: { graph: 'react' } };

/** Yeoul: no session id in the request, so each turn opens a new session. */
export const yeoulClient: PeerClient = {
  name: 'yeoul',
  async invoke(baseUrl, agent) {
    const answer = okJson<{ response: string; sessionId: string }>(
      await sendJson(`${baseUrl}/api/agent/invoke`, yeoulBody, { agent }),
      'yeoul invoke',
    );
    return { answer: answer.response, threadId: answer.sessionId };
  },
  async stream(baseUrl, agent) {
    let done = '{}';
    const { firstTokenMs } = await streamTurn(
      `${baseUrl}/api/agent/stream`,
      yeoulBody,
      agent,
      performance.now(),
      (event) => {
        if (event.event === 'done') done = event.data;
        return event.event === 'token';
      },
    );
    const result = JSON.parse(done) as { response?: string; sessionId?: string };
    return { answer: result.response ?? '', threadId: result.sessionId ?? '', firstTokenMs };
  },
  async thread(baseUrl, agent, threadId) {
    return (await sendJson(`${baseUrl}/api/sessions/${threadId}/history`, undefined, { agent }))
      .body;
  },
};

const mastraAgent = 'calculatorAgent';
const mastraBody = (threadId: string) => ({
  messages: [{ role: 'user', content: calculatorQuestion }],
  memory: { thread: threadId, resource: 'bench' },
});

/** Mastra: a new memory thread id per turn; Mastra creates the thread on first use. */
export const mastraClient: PeerClient = {
  name: 'mastra',
  async invoke(baseUrl, agent) {
    const threadId = randomUUID();
    const answer = okJson<{ text: string }>(
      await sendJson(`${baseUrl}/api/agents/${mastraAgent}/generate`, mastraBody(threadId), {
        agent,
      }),
      'mastra generate',
    );
    return { answer: answer.text, threadId };
  },
  async stream(baseUrl, agent) {
    const threadId = randomUUID();
    let answer = '';
    const { firstTokenMs } = await streamTurn(
      `${baseUrl}/api/agents/${mastraAgent}/stream`,
      mastraBody(threadId),
      agent,
      performance.now(),
      (event) => {
        if (!event.data.includes('"text-delta"') && !event.data.includes('"error"')) return false;
        const chunk = JSON.parse(event.data) as { type: string; payload?: { text?: string } };
        if (chunk.type === 'error') throw new Error(`mastra stream: ${event.data.slice(0, 300)}`);
        if (chunk.type !== 'text-delta') return false;
        answer += chunk.payload?.text ?? '';
        return true;
      },
    );
    return { answer, threadId, firstTokenMs };
  },
  async thread(baseUrl, agent, threadId) {
    return (
      await sendJson(
        `${baseUrl}/api/memory/threads/${threadId}/messages?agentId=${mastraAgent}`,
        undefined,
        { agent },
      )
    ).body;
  },
};

const langgraphInput = {
  assistant_id: 'agent',
  input: { messages: [{ role: 'user', content: calculatorQuestion }] },
};

async function createLanggraphThread(baseUrl: string, agent: Agent): Promise<string> {
  return okJson<{ thread_id: string }>(
    await sendJson(`${baseUrl}/threads`, {}, { agent }),
    'langgraph create thread',
  ).thread_id;
}

type LanggraphMessage = { type?: string; content?: unknown };
const lastText = (messages: LanggraphMessage[] | undefined) => {
  const content = messages?.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
};

/** LangGraph's Agent Server: `POST /threads`, then a run on that thread, waited for. */
export const langgraphClient: PeerClient = {
  name: 'langgraph',
  async invoke(baseUrl, agent) {
    const threadId = await createLanggraphThread(baseUrl, agent);
    const state = okJson<{ messages?: LanggraphMessage[]; __error__?: unknown }>(
      await sendJson(`${baseUrl}/threads/${threadId}/runs/wait`, langgraphInput, { agent }),
      'langgraph run',
    );
    if (state.__error__) throw new Error(`langgraph run: ${JSON.stringify(state.__error__)}`);
    return { answer: lastText(state.messages), threadId };
  },
  async stream(baseUrl, agent) {
    const startedAt = performance.now();
    const threadId = await createLanggraphThread(baseUrl, agent);
    let answer = '';
    const { firstTokenMs } = await streamTurn(
      `${baseUrl}/threads/${threadId}/runs/stream`,
      { ...langgraphInput, stream_mode: ['messages-tuple'] },
      agent,
      startedAt,
      (event) => {
        if (event.event === 'error') throw new Error(`langgraph run: ${event.data}`);
        if (event.event !== 'messages') return false;
        const [message] = JSON.parse(event.data) as [LanggraphMessage];
        const isAnswer =
          (message.type === 'AIMessageChunk' || message.type === 'ai') &&
          typeof message.content === 'string' &&
          message.content !== '';
        if (isAnswer) answer += message.content;
        return isAnswer;
      },
    );
    return { answer, threadId, firstTokenMs };
  },
  async thread(baseUrl, agent, threadId) {
    return (await sendJson(`${baseUrl}/threads/${threadId}/state`, undefined, { agent })).body;
  },
};

/** The three servers, Yeoul first. */
export const peerClients: readonly PeerClient[] = [yeoulClient, mastraClient, langgraphClient];
