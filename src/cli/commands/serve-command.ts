import type { RunningServer, Runtime } from '../../server/index.ts';
import { defineCommand } from '../define-command.ts';
import type { CliIo } from '../io.ts';
import { openRuntime } from '../open-runtime.ts';
import { dataOption, integerOption, parseCommandArgs } from '../parse-command-args.ts';

/** The options `serve` and `dev` share. */
export const serveOptions = {
  ...dataOption,
  port: { type: 'string' },
  host: { type: 'string' },
  'no-sample': { type: 'boolean' },
  'no-migrate': { type: 'boolean' },
} as const;

/** The lines of `serve --help` and `dev --help` that describe those options. */
export const serveDetails = [
  '--port N        listen port (default PORT or 8787; 0 picks a free one)',
  '--host H        listen address (default HOST or 127.0.0.1)',
  '--data DIR      the data folder (default YEOUL_DATA_DIR or ./data)',
  '--config FILE   the config file (default YEOUL_CONFIG, else yeoul.config.{ts,mjs,js} here)',
  '--no-sample     do not ingest the bundled sample documents on the first start',
  '--no-migrate    with DATABASE_URL: do not apply pending schema migrations (refuse to start',
  '                when the database lacks any; apply them with `yeoul migrate`)',
];

/** `yeoul serve`: the HTTP API (and the web page when present) until SIGINT or SIGTERM. */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the HTTP API (and the web page)',
  usage: ['serve [--port N] [--host H] [--data DIR] [--config FILE] [--no-sample] [--no-migrate]'],
  details: [...serveDetails, 'Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.'],
  example: 'serve --port 8080',
  async run(args, io) {
    const serving = await startServing('serve', args, io);
    await stopOnSignal(serving, io);
    return 0;
  },
});

/** Parses `serve`'s options, wires a runtime and starts listening; says where on stdout. */
export async function startServing(
  command: string,
  args: string[],
  io: CliIo,
): Promise<{ runtime: Runtime; listening: RunningServer; configFlag: string | undefined }> {
  const { values } = parseCommandArgs(command, args, serveOptions, {
    min: 0,
    max: 0,
    names: 'nothing',
  });
  const port = integerOption(command, '--port', values.port, { min: 0, max: 65_535 });
  const { startServer, tuneServerHeap } = await import('../../server/index.ts');
  const runtime = await openRuntime(
    io.env,
    {
      dataDir: values.data,
      config: values.config,
      port,
      host: values.host,
      sampleKnowledge: values['no-sample'] ? false : undefined,
      migrate: values['no-migrate'] ? false : undefined,
    },
    { log: true },
  );
  tuneServerHeap(runtime.config.env.NODE_OPTIONS);
  let listening: RunningServer;
  try {
    listening = await startServer(runtime, {
      port: runtime.config.port,
      host: runtime.config.host,
    });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  // A server outlives a failure nobody waited for (a background write whose database went
  // away, say): it is logged, by code and message, instead of ending every request in flight.
  process.on('unhandledRejection', (reason) =>
    runtime.logger.error(
      { err: reason },
      'a background operation failed; the server keeps running',
    ),
  );
  // The calculator answers plain arithmetic itself; its mathjs thread (~0.2 s to start, and
  // ~40 MB) starts on the first expression that needs more, so it is not started here.
  // The model, or its fallback chain in order.
  const model = runtime.model.chain.links.map((link) => link.name).join(' → ');
  const store =
    runtime.store.backend === 'postgres'
      ? `, store postgres as instance ${runtime.checkpointer.instanceId}`
      : '';
  const file = runtime.configState.file ? `, config ${runtime.configState.file}` : '';
  io.stdout.write(
    `Yeoul listening on ${listening.url} (model ${model}, data ${runtime.config.dataDir}${store}${file})\n`,
  );
  return { runtime, listening, configFlag: values.config };
}

/** Waits for SIGINT or SIGTERM, then closes the server (and with it the runtime). */
export async function stopOnSignal(
  serving: { listening: RunningServer },
  io: CliIo,
  onStop?: () => void,
): Promise<void> {
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(received);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.stderr.write(`Shutting down (${signal})…\n`);
  onStop?.();
  await serving.listening.close(); // closes the runtime too
}
