// The `langgraphProtocol` section of `npm run bench:server`: the same client — the
// `@langchain/langgraph-sdk` `Client` the Agent Server peer installs — against Yeoul
// (assistant `react`) and LangGraph's Agent Server (assistant `agent`), on the zero-latency
// scripted calculator model: 100 turns at once, each `threads.create()` then `runs.wait(...)`;
// every answer must hold 56,088.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { calculatorQuestion } from './calculator-turn.ts';
import { peerClients } from './peer-clients.ts';
import { ensureInstalled, peersDirectory, startPeer } from './peer-comparison.ts';
import { type ReadyProcess, stopProcess } from './ready-process.ts';
import { ratio, target } from './stats.ts';
import { runTurns, type TurnLoadSummary } from './turn-load.ts';

type Log = (...parts: unknown[]) => void;
const connections = 100;
const expected = '56,088';

/** The part of the SDK's Client the load uses. */
interface SdkClient {
  threads: { create(): Promise<{ thread_id: string }> };
  runs: {
    wait(threadId: string, assistantId: string, payload: unknown): Promise<unknown>;
  };
}

/** The `Client` class of the copy of the SDK the Agent Server peer installs. */
async function sdkClientClass(): Promise<new (options: unknown) => SdkClient> {
  const entry = join(
    peersDirectory,
    'langgraph-api',
    'node_modules',
    '@langchain',
    'langgraph-sdk',
    'dist',
    'index.js',
  );
  const sdk = (await import(pathToFileURL(entry).href)) as {
    Client: new (options: unknown) => SdkClient;
  };
  return sdk.Client;
}

/** One calculator turn through the SDK: a new thread, then a run waited for; the answer's text. */
async function waitTurn(client: SdkClient, assistantId: string): Promise<{ answer: string }> {
  const thread = await client.threads.create();
  const values = (await client.runs.wait(thread.thread_id, assistantId, {
    input: { messages: [{ type: 'human', content: calculatorQuestion }] },
  })) as { messages?: Array<{ content?: unknown }> };
  const content = values.messages?.at(-1)?.content;
  return { answer: typeof content === 'string' ? content : JSON.stringify(content ?? values) };
}

/** The section's numbers: each server's load. */
export interface LangGraphProtocolResults {
  yeoul: TurnLoadSummary;
  agentServer: TurnLoadSummary;
}

/**
 * Runs the section: Yeoul then the Agent Server, each in its own process on the model
 * `startModel(0)` starts; `quick` 300 turns each (else 3,000), after a warm-up.
 */
export async function compareLangGraphProtocol(options: {
  quick: boolean;
  env: NodeJS.ProcessEnv;
  log: Log;
  startModel(delayMs: number): Promise<ReadyProcess>;
}): Promise<LangGraphProtocolResults> {
  ensureInstalled('langgraph-api', options.log);
  const Client = await sdkClientClass();
  const counts = options.quick
    ? { warmUp: 50, measured: 300, maxSeconds: 60 }
    : { warmUp: 200, measured: 3_000, maxSeconds: 300 };
  const model = await options.startModel(0);
  const results: Partial<LangGraphProtocolResults> = {};
  try {
    for (const [key, name, assistant] of [
      ['yeoul', 'yeoul', 'react'],
      ['agentServer', 'langgraph', 'agent'],
    ] as const) {
      const peer = peerClients.find((client) => client.name === name);
      if (peer === undefined) throw new Error(`no peer ${name}`);
      const server = await startPeer(peer, model.url, options.env);
      try {
        const client = new Client({
          apiUrl: server.url,
          callerOptions: { maxRetries: 0, maxConcurrency: connections },
        });
        const turn = () => waitTurn(client, assistant);
        await runTurns({ count: counts.warmUp, connections, turn, expected, maxSeconds: 30 });
        const summary = await runTurns({
          count: counts.measured,
          connections,
          turn,
          expected,
          maxSeconds: counts.maxSeconds,
        });
        options.log(
          `langgraph protocol, ${name} (${assistant}) @${connections}: ${summary.requests} turns, ${summary.requestsPerSecond} turns/s, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, errors ${summary.errors}${summary.firstError ? ` (${summary.firstError})` : ''}`,
        );
        results[key] = summary;
      } finally {
        await stopProcess(server);
        rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await stopProcess(model);
  }
  return results as LangGraphProtocolResults;
}

/** The section's targets: Yeoul against the Agent Server through the same client. */
export function langGraphProtocolTargets(results: LangGraphProtocolResults) {
  return {
    langgraphWaitVsAgentServer: target(
      ratio(results.yeoul.requestsPerSecond, results.agentServer.requestsPerSecond),
      3,
      'higher',
    ),
    langgraphWaitP99VsAgentServer: target(
      ratio(results.yeoul.p99Ms, results.agentServer.p99Ms),
      0.5,
      'lower',
    ),
    langgraphProtocolErrors: target(results.yeoul.errors + results.agentServer.errors, 0, 'lower'),
  };
}
