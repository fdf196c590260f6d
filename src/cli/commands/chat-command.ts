import { createInterface, type Interface } from 'node:readline';
import { createId } from '../../core/index.ts';
import { agentOptions, requestOptions, sessionOption } from '../agent-options.ts';
import { defineCommand } from '../define-command.ts';
import { errorLine } from '../error-line.ts';
import { createEventPrinter } from '../event-printer.ts';
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

const exitWords = new Set(['/exit', '/quit']);

/**
 * `yeoul chat`: a conversation in the terminal. Tokens stream as they arrive, tool calls
 * and results get lines of their own, every turn runs on one session, and a tool call
 * that needs approval is asked y/N. Piped input works too: each line is a turn.
 */
export const chatCommand = defineCommand({
  name: 'chat',
  summary: 'talk with the agent in the terminal (streaming)',
  usage: [
    `chat [--session ID] [--graph ${builtinGraphChoices()}] [--evaluate] ${ownerSynopsis} [--data DIR]`,
  ],
  details: [
    '--session ID   continue the conversation ID (default: a new one)',
    `--graph NAME   ${builtinGraphWords()}`,
    '--evaluate     score each answer and retry a weak one',
    ...ownerDetails,
    'Type /exit or press Ctrl-D to leave; Ctrl-C stops the answer being written.',
    'A tool call that needs approval is asked: y runs it, anything else denies it.',
    'With input piped in, every line is one turn; a call that needs approval ends the',
    'chat with how to decide over HTTP (exit code 1).',
  ],
  example: 'chat --session demo',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'chat',
      args,
      { ...agentOptions, ...dataOption, ...ownerOptions },
      { min: 0, max: 0, names: 'nothing' },
    );
    const options = requestOptions('chat', values);
    const sessionId = sessionOption('chat', values.session) ?? createId();
    const acting = await ownerChoice('chat', values);
    const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
    return withRuntime(io.env, { dataDir: values.data, config: values.config }, async (runtime) => {
      const owner = await resolveOwner(runtime, acting, 'yeoul:write');
      // Another owner's session ends the chat before it starts, as a request naming it would.
      const holder = await runtime.sessions.ownerOf(sessionId);
      if (holder !== undefined && holder !== owner) throw new Error(`no session "${sessionId}"`);
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
      const lines = lineSource(reader);
      let running: AbortController | undefined;
      reader.on('SIGINT', () => {
        if (running) running.abort(new Error('stopped by Ctrl-C'));
        else reader.close();
      });
      const printer = createEventPrinter(io.stdout);
      const ask = interactive
        ? (question: string) => {
            io.stdout.write(question);
            return lines.next();
          }
        : undefined;
      try {
        for (;;) {
          if (interactive) reader.prompt();
          const line = await lines.next();
          if (line === null) break;
          const message = line.trim();
          if (exitWords.has(message)) break;
          if (message === '') continue;
          if (!interactive) io.stdout.write(`> ${message}\n`);
          running = new AbortController();
          try {
            const payload = await runTurn(
              runtime,
              {
                message,
                sessionId,
                options,
                owner,
                signal: running.signal,
                onEvent: printer.onEvent,
              },
              io,
              ask,
            );
            printer.finish(payload);
            if (payload.status === 'interrupted') return 1;
          } catch (error) {
            printer.breakLine();
            if (running.signal.aborted) io.stdout.write('(stopped)\n');
            else io.stderr.write(errorLine(error));
          } finally {
            running = undefined;
          }
        }
      } finally {
        reader.close();
      }
      if (interactive) io.stdout.write('\n');
      return 0;
    });
  },
});

/** The reader's lines one at a time, for the chat loop and the y/N questions alike; null at the end. */
function lineSource(reader: Interface) {
  const waiting: string[] = [];
  const takers: Array<(line: string | null) => void> = [];
  let ended = false;
  reader.on('line', (line) => {
    const taker = takers.shift();
    if (taker) taker(line);
    else waiting.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const taker of takers.splice(0)) taker(null);
  });
  return {
    next(): Promise<string | null> {
      const line = waiting.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => takers.push(resolve));
    },
  };
}
