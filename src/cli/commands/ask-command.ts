import { createInterface } from 'node:readline/promises';
import { evaluationGraphName } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import { agentOptions, requestOptions, sessionOption } from '../agent-options.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { builtinGraphChoices, builtinGraphWords } from '../graph-choices.ts';
import { withRuntime } from '../open-runtime.ts';
import {
  ownerChoice,
  ownerDetails,
  ownerOptions,
  ownerSynopsis,
  resolveOwner,
} from '../owner-options.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';
import { runTurn } from '../run-turn.ts';

/** `yeoul ask "…"`: one question, one answer (or the whole payload with --json). */
export const askCommand = defineCommand({
  name: 'ask',
  summary: 'ask one question and print the answer',
  usage: [
    `ask "QUESTION" [--session ID] [--json] [--graph ${builtinGraphChoices()}] [--evaluate] ${ownerSynopsis} [--data DIR]`,
  ],
  details: [
    '--session ID   continue (or start) the conversation ID',
    '--json         print the whole payload (response, sessionId, toolsUsed, steps, usage, …)',
    `--graph NAME   ${builtinGraphWords()}`,
    `--evaluate     score the answer and retry a weak one (same as --graph ${evaluationGraphName})`,
    ...ownerDetails,
    'A tool call that needs approval is asked on the terminal (y/N); without a terminal the',
    'command prints the pending call, how to decide over HTTP, and exits 1.',
    'Exit code 1 when the run ends with status "error" or "blocked" (a guardrail, named on',
    'stderr) or waits for approval.',
  ],
  example: 'ask "123 * 456 계산해줘"',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'ask',
      args,
      { ...agentOptions, ...dataOption, ...ownerOptions, json: { type: 'boolean' } },
      { min: 1, names: 'QUESTION' },
    );
    const message = positionals.join(' ');
    if (message.trim() === '')
      throw new UsageError({ problem: 'the question is empty', command: 'ask' });
    const options = requestOptions('ask', values);
    const sessionId = sessionOption('ask', values.session) ?? createId();
    const acting = await ownerChoice('ask', values);
    const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
    const payload = await withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      async (runtime) => {
        const reader = interactive
          ? createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream })
          : undefined;
        try {
          const owner = await resolveOwner(runtime, acting, 'yeoul:write');
          return await runTurn(
            runtime,
            { message, sessionId, options, owner },
            io,
            reader ? (question) => reader.question(question) : undefined,
          );
        } finally {
          reader?.close();
        }
      },
    );
    io.stdout.write(
      values.json ? `${JSON.stringify(payload, null, 2)}\n` : `${payload.response}\n`,
    );
    if (payload.status === 'interrupted') return 1;
    if (payload.status === 'blocked') {
      const blocked = payload.guardrail;
      io.stderr.write(
        `yeoul: blocked by guardrail ${blocked?.name ?? '?'} (${blocked?.stage ?? '?'}): ${blocked?.reason ?? ''}\n`,
      );
      return 1;
    }
    if (payload.status !== 'error') return 0;
    io.stderr.write(`yeoul: the agent could not answer (${payload.errorCode ?? 'error'})\n`);
    return 1;
  },
});
