import { agentOptions, requestOptions } from '../agent-options.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

/** `yeoul ask "…"`: one question, one answer (or the whole payload with --json). */
export const askCommand = defineCommand({
  name: 'ask',
  summary: 'ask one question and print the answer',
  usage: [
    'ask "QUESTION" [--session ID] [--json] [--graph chat|react|ops] [--evaluate] [--data DIR]',
  ],
  details: [
    '--session ID   continue (or start) the conversation ID',
    '--json         print the whole payload (response, sessionId, toolsUsed, steps, usage, …)',
    '--graph NAME   chat (default), react, or ops (chat inside the self-checking loop)',
    '--evaluate     score the answer and retry a weak one (same as --graph ops)',
    'Exit code 1 when the run ends with status "error".',
  ],
  example: 'ask "123 * 456 계산해줘"',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'ask',
      args,
      { ...agentOptions, ...dataOption, json: { type: 'boolean' } },
      { min: 1, names: 'QUESTION' },
    );
    const message = positionals.join(' ');
    if (message.trim() === '')
      throw new UsageError({ problem: 'the question is empty', command: 'ask' });
    const options = requestOptions('ask', values);
    const payload = await withRuntime(io.env, { dataDir: values.data }, (runtime) =>
      runtime.runner.invoke({
        message,
        ...(values.session ? { sessionId: values.session } : {}),
        options,
      }),
    );
    io.stdout.write(
      values.json ? `${JSON.stringify(payload, null, 2)}\n` : `${payload.response}\n`,
    );
    if (payload.status !== 'error') return 0;
    io.stderr.write(`yeoul: the agent could not answer (${payload.errorCode ?? 'error'})\n`);
    return 1;
  },
});
