import type { AgentRequest, AgentResponse, ApprovalInterrupt } from '../agents/index.ts';
import type { Runtime } from '../server/index.ts';
import { UsageError } from './errors/usage-error.ts';
import type { CliIo } from './io.ts';

/** Asks a question on the terminal and resolves with the line typed (null at end of input). */
export type AskLine = (question: string) => Promise<string | null>;

/**
 * Runs one turn from the terminal on a session registered like the API's (for
 * `request.owner`, default the anonymous owner: another owner's session is refused as the
 * API refuses it), in the session's line like a request (`inSessionLine`), and handles
 * approvals: on a terminal (`ask` given) each pending tool call is shown and decided with
 * y/N, then the run resumes; without one the pending calls are printed with how to decide
 * over HTTP, and the paused payload is returned.
 */
export async function runTurn(
  runtime: Runtime,
  request: AgentRequest & { sessionId: string },
  io: CliIo,
  ask: AskLine | undefined,
): Promise<AgentResponse> {
  const { inSessionLine } = await import('../server/index.ts');
  const { anonymousOwner } = await import('../identity/index.ts');
  const graph = request.options?.graph;
  if (graph !== undefined) {
    const { requireChatGraph } = await import('../server/index.ts');
    try {
      requireChatGraph(runtime, graph);
    } catch (error) {
      throw new UsageError({ problem: `--graph: ${(error as Error).message}` });
    }
  }
  const owner = request.owner ?? anonymousOwner;
  const { firstMessageTitle } = await import('../server/index.ts');
  const title = firstMessageTitle(runtime, graph, request.message ?? '');
  await runtime.sessions.claim(request.sessionId, owner, title, graph);
  // Each run takes its place in the session's line like a request (with DATABASE_URL, behind
  // the runs of every instance); the line is free again while a question waits on the terminal.
  // Each run (a resume too) is a run request of the owner: counted, never limited.
  const invoke = async (turn: AgentRequest) => {
    const admission = await runtime.usage.admit(owner, { exempt: true });
    return admission.run(() =>
      inSessionLine(runtime, request.sessionId, () => runtime.runner.invoke(turn)),
    );
  };
  let payload = await invoke({ ...request, owner });
  while (payload.status === 'interrupted' && ask !== undefined) {
    const decisions = [];
    for (const pending of payload.interrupts ?? []) {
      io.stdout.write(`\n${describeCall(pending)}\n`);
      const answer = ((await ask('Allow this call? [y/N] ')) ?? '').trim().toLowerCase();
      const approve = answer === 'y' || answer === 'yes';
      decisions.push({
        id: pending.id,
        approve,
        ...(approve ? {} : { reason: 'denied at the terminal' }),
      });
    }
    const { message: _message, resume: _resume, ...rest } = request;
    payload = await invoke({ ...rest, owner, resume: { decisions } });
  }
  if (payload.status === 'interrupted') io.stderr.write(howToDecide(request.sessionId, payload));
  return payload;
}

/** A pending call as the terminal shows it: the tool and its arguments. */
export function describeCall(pending: ApprovalInterrupt): string {
  const args = JSON.stringify(pending.args, null, 2) ?? '{}';
  return `⏸ ${pending.tool} needs approval (${pending.id}):\n${args
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}`;
}

function howToDecide(sessionId: string, payload: AgentResponse): string {
  const calls = (payload.interrupts ?? []).map((pending) => describeCall(pending)).join('\n');
  const decisions = (payload.interrupts ?? [])
    .map((pending) => `{"id":"${pending.id}","approve":true}`)
    .join(',');
  return [
    calls,
    'yeoul: the run waits for approval. Decide on a terminal with',
    `  yeoul chat --session ${sessionId}   (then answer y or n)`,
    'or over HTTP (approve: true or false) with',
    `  curl -s localhost:8787/api/agent/invoke -H 'content-type: application/json' -d '{"sessionId":"${sessionId}","resume":{"decisions":[${decisions}]}}'`,
    '',
  ].join('\n');
}
