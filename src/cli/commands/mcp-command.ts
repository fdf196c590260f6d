import type { Readable, Writable } from 'node:stream';
import { yeoulVersion } from '../../core/index.ts';
import { defineCommand } from '../define-command.ts';
import { loadUserConfig } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

/** How long runs still going when the client leaves may finish before they are cancelled. */
const leaveGraceMs = 2000;

/**
 * `yeoul mcp`: Yeoul as an MCP server on stdio, for desktop MCP clients (Claude Desktop,
 * Cursor, …) that start it as a child process. Standard output carries only protocol
 * messages; logs (level `warn` unless LOG_LEVEL says otherwise) go to standard error.
 */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: 'serve Yeoul as an MCP server on stdio (for desktop MCP clients)',
  usage: ['mcp [--data DIR]'],
  details: [
    'Tools: ask {message, sessionId?} (the agent’s answer) and search_knowledge {query, k?}.',
    'Reads JSON-RPC on standard input and answers on standard output until the input ends;',
    'logs go to standard error. Sessions made here are the anonymous owner’s, as the CLI’s are.',
  ],
  example: 'mcp --data ~/yeoul-data',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'mcp',
      args,
      { ...dataOption },
      { min: 0, max: 0, names: 'nothing' },
    );
    // Only protocol messages may reach standard output: a library's console.log goes to stderr.
    for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;
    const { createLogger, createMcpBackend, createRuntime, readServerConfig } = await import(
      '../../server/index.ts'
    );
    const { anonymousOwner } = await import('../../identity/index.ts');
    const { serveMcpOnStdio } = await import('../../mcp/index.ts');
    const userConfig = await loadUserConfig(io.env, values.config);
    const { envWithConfig } = await import('../../config/index.ts');
    const config = readServerConfig(
      envWithConfig(io.env, userConfig?.config),
      values.data === undefined ? {} : { dataDir: values.data },
    );
    const logger = createLogger(
      { LOG_LEVEL: config.env.LOG_LEVEL ?? 'warn' },
      io.stderr as { write(text: string): void },
    );
    const runtime = await createRuntime(config, { logger, ...(userConfig ? { userConfig } : {}) });
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const backend = createMcpBackend(runtime, {
        owner: anonymousOwner,
        version: yeoulVersion,
        // The command line's runs are counted, never limited.
        admit: () => runtime.usage.admit(anonymousOwner, { exempt: true }),
        run: (call, options) =>
          options.admission.run(() =>
            runtime.runner.invoke({
              ...call,
              signal: options.signal,
              onEvent: options.onEvent,
              streamTokens: true,
            }),
          ),
      });
      await serveMcpOnStdio(
        backend,
        io.stdin as Readable,
        io.stdout as unknown as Writable,
        stop.signal,
      );
      await runtime.runner.settle(leaveGraceMs);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await runtime.close();
    }
    return 0;
  },
});
