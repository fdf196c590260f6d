import { createInterface } from 'node:readline';
import { createId } from '../../core/index.ts';
import { agentOptions, requestOptions } from '../agent-options.ts';
import { defineCommand } from '../define-command.ts';
import { errorLine } from '../error-line.ts';
import { createEventPrinter } from '../event-printer.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

const exitWords = new Set(['/exit', '/quit']);

/**
 * `yeoul chat`: a conversation in the terminal. Tokens stream as they arrive, tool calls
 * and results get lines of their own, and every turn runs on one session. Piped input
 * works too: each line is a turn.
 */
export const chatCommand = defineCommand({
  name: 'chat',
  summary: 'talk with the agent in the terminal (streaming)',
  usage: ['chat [--session ID] [--graph chat|react|ops] [--evaluate] [--data DIR]'],
  details: [
    '--session ID   continue the conversation ID (default: a new one)',
    '--graph NAME   chat (default), react, or ops (chat inside the self-checking loop)',
    '--evaluate     score each answer and retry a weak one',
    'Type /exit or press Ctrl-D to leave; Ctrl-C stops the answer being written.',
    'With input piped in, every line is one turn.',
  ],
  example: 'chat --session demo',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'chat',
      args,
      { ...agentOptions, ...dataOption },
      { min: 0, max: 0, names: 'nothing' },
    );
    const options = requestOptions('chat', values);
    const sessionId = values.session ?? createId();
    const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
    return withRuntime(io.env, { dataDir: values.data }, async (runtime) => {
      io.stdout.write(
        `session ${sessionId} (model ${runtime.model.info.provider}:${runtime.model.info.modelId})\n`,
      );
      if (interactive) io.stdout.write('Type /exit or press Ctrl-D to leave.\n');
      const reader = createInterface({
        input: io.stdin,
        output: interactive ? (io.stdout as NodeJS.WritableStream) : undefined,
        terminal: interactive,
        prompt: '> ',
      });
      let running: AbortController | undefined;
      reader.on('SIGINT', () => {
        if (running) running.abort(new Error('stopped by Ctrl-C'));
        else reader.close();
      });
      const printer = createEventPrinter(io.stdout);
      if (interactive) reader.prompt();
      for await (const line of reader) {
        const message = line.trim();
        if (exitWords.has(message)) break;
        if (message !== '') {
          if (!interactive) io.stdout.write(`> ${message}\n`);
          running = new AbortController();
          try {
            const payload = await runtime.runner.invoke({
              message,
              sessionId,
              options,
              signal: running.signal,
              onEvent: printer.onEvent,
            });
            printer.finish(payload);
          } catch (error) {
            printer.breakLine();
            if (running.signal.aborted) io.stdout.write('(stopped)\n');
            else io.stderr.write(errorLine(error));
          } finally {
            running = undefined;
          }
        }
        if (interactive) reader.prompt();
      }
      reader.close();
      if (interactive) io.stdout.write('\n');
      return 0;
    });
  },
});
