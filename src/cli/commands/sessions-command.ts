import type { ChatMessage } from '../../models/index.ts';
import type { Runtime } from '../../server/index.ts';
import { sessionOption } from '../agent-options.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { createEventPrinter } from '../event-printer.ts';
import type { CliIo } from '../io.ts';
import { withRuntime } from '../open-runtime.ts';
import {
  namesOwner,
  type OwnerChoice,
  ownerChoice,
  ownerDetails,
  ownerOptions,
  ownerSynopsis,
  resolveOwner,
} from '../owner-options.ts';
import { choiceOption, dataOption, parseCommandArgs } from '../parse-command-args.ts';

const actions = ['list', 'show', 'delete', 'resume', 'abandon', 'fork', 'prune'] as const;
/** The actions that only read (a token needs yeoul:read for them, yeoul:write for the rest). */
const reading = new Set<string>(['list', 'show']);
const previewLength = 60;

/**
 * `yeoul sessions [list|show ID|delete ID|resume ID|abandon ID|fork ID --at-step N]`: one
 * owner's stored conversations (another owner's session is one that does not exist);
 * `prune`: every owner's, or the named owner's.
 */
export const sessionsCommand = defineCommand({
  name: 'sessions',
  summary: 'list, show or delete conversations; finish or drop a run a crash interrupted',
  usage: [
    `sessions [list] [--json] ${ownerSynopsis} [--data DIR]`,
    'sessions show ID [--json]',
    'sessions delete ID',
    'sessions resume ID [--json]',
    'sessions abandon ID',
    'sessions fork ID --at-step N [--json]',
    `sessions prune --older-than DURATION [--dry-run] [--json] ${ownerSynopsis}`,
  ],
  details: [
    'list         the owner’s sessions, newest first (the default)',
    'show ID      the messages and the summary of a session',
    'delete ID    remove a session and everything stored for it',
    'resume ID    run again the step a crash interrupted, and go on to the answer',
    'abandon ID   drop that run: its open tool calls get an error result saying so',
    'fork ID      a new session from the state after step N of ID (steps as its history numbers',
    '             them; -1: empty); the original is not changed. Prints the new session id',
    'prune        delete every owner’s sessions (with an owner option, that owner’s) idle longer',
    '             than DURATION (30d, 12h, 15m, 0s), with their ops threads; a session waiting',
    '             for an approval is kept and counted',
    '--dry-run    prune: say what would go, remove nothing',
    '--json       print list/show/resume/prune as JSON (show: {sessionId, messages, summary})',
    ...ownerDetails,
    'resume and abandon exit 1 when the session has no interrupted run; every action on an ID',
    'exits 1 when the owner has no session ID (another owner’s session included).',
  ],
  example: 'sessions show demo',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'sessions',
      args,
      {
        ...dataOption,
        ...ownerOptions,
        json: { type: 'boolean' },
        'at-step': { type: 'string' },
        'older-than': { type: 'string' },
        'dry-run': { type: 'boolean' },
      },
      { min: 0, max: 2, names: 'ID' },
    );
    const action = choiceOption('sessions', 'the action', positionals[0], actions) ?? 'list';
    const sessionId = positionals[1];
    const acting = await ownerChoice('sessions', values);
    if (action === 'prune') {
      const named = namesOwner(values);
      return pruneCommand(io, {
        dataDir: values.data,
        olderThan: values['older-than'],
        dryRun: values['dry-run'] === true,
        json: values.json === true,
        extra: sessionId,
        ...(named ? { acting } : {}),
      });
    }
    if (action === 'list' && sessionId !== undefined) {
      throw new UsageError({ problem: `unexpected argument "${sessionId}"`, command: 'sessions' });
    }
    if (action !== 'list' && sessionId === undefined) {
      throw new UsageError({ problem: `missing ID (sessions ${action} ID)`, command: 'sessions' });
    }
    sessionOption('sessions', sessionId, 'ID');
    const atStep = action === 'fork' ? stepOption(values['at-step']) : undefined;
    // Only `resume` runs an agent: the others need no MCP servers or tracing.
    const options = { agents: action === 'resume' };
    return withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      async (runtime) => {
        const owner = await resolveOwner(
          runtime,
          acting,
          reading.has(action) ? 'yeoul:read' : 'yeoul:write',
        );
        if (action === 'list') return listSessions(runtime, io, owner, values.json === true);
        const missing = new Error(`there is no session "${sessionId}"`);
        // Another owner's session is one that does not exist, in the same words.
        await runtime.sessions.check(sessionId as string, owner).catch(() => {
          throw missing;
        });
        const graph = await runtime.runner.threadGraph(sessionId as string);
        const state = await graph.getState(sessionId as string);
        if (state === undefined) throw missing;
        if (action === 'delete') {
          const { deleteSession } = await import('../../server/index.ts');
          await deleteSession(runtime, state.threadId);
          io.stdout.write(`deleted session ${state.threadId}\n`);
          return 0;
        }
        if (action === 'fork') {
          const fork = { sessionId: state.threadId, atStep: atStep as number, owner };
          return forkSession(runtime, io, fork, values.json === true);
        }
        if (action === 'abandon') {
          const reason = 'the run was interrupted and then abandoned from the command line';
          if (!(await runtime.runner.abandon(state.threadId, reason))) {
            io.stderr.write(`yeoul: session "${state.threadId}" has no interrupted run\n`);
            return 1;
          }
          io.stdout.write(`abandoned the interrupted run of session ${state.threadId}\n`);
          return 0;
        }
        if (action === 'resume') {
          const printer = createEventPrinter(io.stdout);
          // The runner decides what is left to resume (the chat run, or an ops loop's).
          // In the session's line like a request, so a server's run never interleaves.
          const { inSessionLine } = await import('../../server/index.ts');
          const payload = await inSessionLine(runtime, state.threadId, () =>
            runtime.runner.resumeInterrupted(state.threadId, {
              ...(values.json ? {} : { onEvent: printer.onEvent }),
            }),
          ).catch((error: unknown) => {
            if ((error as { code?: string }).code === 'run_not_resumable') return undefined;
            throw error;
          });
          if (payload === undefined) {
            io.stderr.write(`yeoul: session "${state.threadId}" has no interrupted run\n`);
            return 1;
          }
          if (values.json) io.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
          else printer.finish(payload);
          return payload.status === 'error' ? 1 : 0;
        }
        const { messages, summary } = state.values;
        if (values.json) {
          io.stdout.write(
            `${JSON.stringify({ sessionId: state.threadId, messages, summary }, null, 2)}\n`,
          );
          return 0;
        }
        io.stdout.write(
          `session ${state.threadId}: ${messages.length} messages, updated ${formatTime(state.updatedAt)}\n`,
        );
        if (summary) io.stdout.write(`[summary]\n${summary}\n`);
        for (const message of messages) {
          const text = formatMessage(message);
          if (text) io.stdout.write(`${text}\n`);
        }
        return 0;
      },
      options,
    );
  },
});

/** `--at-step N`: a whole number from -1 (write `--at-step=-1`). */
function stepOption(value: string | undefined): number {
  if (value === undefined) {
    throw new UsageError({
      problem: 'missing --at-step N (sessions fork ID --at-step N)',
      command: 'sessions',
    });
  }
  if (!/^-?\d+$/.test(value.trim()) || Number(value) < -1) {
    throw new UsageError({
      problem: `--at-step must be a whole number from -1, not "${value}"`,
      command: 'sessions',
    });
  }
  return Number(value);
}

async function forkSession(
  runtime: Runtime,
  io: CliIo,
  { sessionId, atStep, owner }: { sessionId: string; atStep: number; owner: string },
  json: boolean,
): Promise<number> {
  const { forkSession: fork } = await import('../../server/index.ts');
  let forked: string;
  let forkedFrom: { sessionId: string; step: number };
  try {
    ({ sessionId: forked, forkedFrom } = await fork(runtime, { from: sessionId, atStep, owner }));
  } catch (error) {
    if ((error as { code?: string }).code !== 'invalid_fork_point') throw error;
    io.stderr.write(`yeoul: ${(error as Error).message}\n`);
    return 1;
  }
  if (json) io.stdout.write(`${JSON.stringify({ sessionId: forked, forkedFrom }, null, 2)}\n`);
  else io.stdout.write(`forked session ${sessionId} at step ${atStep} into ${forked}\n`);
  return 0;
}

/** `sessions prune --older-than DURATION [--dry-run]`: retention, now (of one owner when one is named). */
async function pruneCommand(
  io: CliIo,
  options: {
    dataDir: string | undefined;
    olderThan: string | undefined;
    dryRun: boolean;
    json: boolean;
    extra: string | undefined;
    acting?: OwnerChoice;
  },
): Promise<number> {
  const { dataDir, olderThan, dryRun, json, extra, acting } = options;
  if (extra !== undefined) {
    throw new UsageError({ problem: `unexpected argument "${extra}"`, command: 'sessions' });
  }
  if (olderThan === undefined) {
    throw new UsageError({
      problem: 'prune needs --older-than DURATION (e.g. 30d)',
      command: 'sessions',
    });
  }
  const { parseRetentionDuration, pruneSessions } = await import('../../server/index.ts');
  const olderThanMs = parseRetentionDuration(olderThan);
  if (olderThanMs === undefined) {
    throw new UsageError({
      problem: `--older-than must be a number and s, m, h or d (30d, 12h, 0s), not "${olderThan}"`,
      command: 'sessions',
    });
  }
  return withRuntime(
    io.env,
    { dataDir },
    async (runtime) => {
      const owner =
        acting === undefined ? undefined : await resolveOwner(runtime, acting, 'yeoul:write');
      const report = await pruneSessions(runtime, {
        olderThanMs,
        dryRun,
        ...(owner === undefined ? {} : { owner }),
      });
      if (json) {
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return 0;
      }
      const verb = dryRun ? 'would remove' : 'removed';
      io.stdout.write(
        `${verb} ${report.removed} session${report.removed === 1 ? '' : 's'}; kept ${report.keptAwaitingApproval} waiting for an approval decision\n`,
      );
      io.stdout.write(
        `${report.bytesFreed} bytes given back (${report.bytesBefore} → ${report.bytesAfter} bytes)\n`,
      );
      return 0;
    },
    { agents: false },
  );
}

async function listSessions(
  runtime: Runtime,
  io: CliIo,
  owner: string,
  json: boolean,
): Promise<number> {
  // The agents are loaded with the runtime already; the CLI does not load them to start.
  const { isSessionThread } = await import('../../agents/index.ts');
  const { sessionsOfOwner } = await import('../../server/index.ts');
  const all = (await runtime.checkpointer.listThreads()).filter((thread) =>
    isSessionThread(thread.threadId),
  );
  const mine = await sessionsOfOwner(
    runtime.sessions,
    owner,
    all.map((thread) => thread.threadId),
  );
  const threads = all.filter((thread) => mine.has(thread.threadId));
  const sessions = [];
  for (const thread of threads) {
    const state = await runtime.runner.conversationState(thread.threadId);
    const messages = state?.values.messages ?? [];
    const first = messages.find((message) => message.role === 'user')?.content ?? '';
    sessions.push({
      sessionId: thread.threadId,
      status: thread.status,
      messageCount: messages.length,
      updatedAt: new Date(thread.updatedAt).toISOString(),
      firstMessage: first,
    });
  }
  if (json) {
    io.stdout.write(`${JSON.stringify({ sessions }, null, 2)}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write('No sessions yet.\n');
    return 0;
  }
  const width = Math.max(...sessions.map((session) => session.sessionId.length));
  for (const session of sessions) {
    const count = `${session.messageCount} msg`.padStart(7);
    io.stdout.write(
      `${session.sessionId.padEnd(width)}  ${formatTime(Date.parse(session.updatedAt))}  ${count}  ${preview(session.firstMessage)}\n`,
    );
  }
  return 0;
}

function formatMessage(message: ChatMessage): string {
  if (message.role === 'tool') {
    return `  ${message.isError ? '✗' : '←'} ${message.name ?? 'tool'}: ${preview(message.content, 200)}`;
  }
  const calls = (message.toolCalls ?? []).map(
    (call) => `  → ${call.name} ${JSON.stringify(call.args)}`,
  );
  const text = message.content ? [`${message.role}: ${message.content}`] : [];
  return [...text, ...calls].join('\n');
}

function formatTime(milliseconds: number): string {
  return `${new Date(milliseconds).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

function preview(text: string, length = previewLength): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
