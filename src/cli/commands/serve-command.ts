import type { RunningServer } from '../../server/index.ts';
import { defineCommand } from '../define-command.ts';
import { openRuntime } from '../open-runtime.ts';
import { dataOption, integerOption, parseCommandArgs } from '../parse-command-args.ts';

/** `yeoul serve`: the HTTP API (and the web page when present) until SIGINT or SIGTERM. */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the HTTP API (and the web page)',
  usage: ['serve [--port N] [--host H] [--data DIR] [--no-sample] [--no-migrate]'],
  details: [
    '--port N      listen port (default PORT or 8787; 0 picks a free one)',
    '--host H      listen address (default HOST or 127.0.0.1)',
    '--data DIR    the data folder (default YEOUL_DATA_DIR or ./data)',
    '--no-sample   do not ingest the bundled sample documents on the first start',
    '--no-migrate  with DATABASE_URL: do not apply pending schema migrations (refuse to start',
    '              when the database lacks any; apply them with `yeoul migrate`)',
    'Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.',
  ],
  example: 'serve --port 8080',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'serve',
      args,
      {
        ...dataOption,
        port: { type: 'string' },
        host: { type: 'string' },
        'no-sample': { type: 'boolean' },
        'no-migrate': { type: 'boolean' },
      },
      { min: 0, max: 0, names: 'nothing' },
    );
    const port = integerOption('serve', '--port', values.port, { min: 0, max: 65_535 });
    const { startServer } = await import('../../server/index.ts');
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
    // The calculator's thread loads mathjs (about a second) now, not on the first question.
    runtime.tools.registry.warmUp(['calculator']).catch((error: unknown) => {
      io.stderr.write(`The calculator could not start yet: ${(error as Error).message}\n`);
    });
    const { provider, modelId } = runtime.model.info;
    const store =
      runtime.store.backend === 'postgres'
        ? `, store postgres as instance ${runtime.checkpointer.instanceId}`
        : '';
    io.stdout.write(
      `Yeoul listening on ${listening.url} (model ${provider}:${modelId}, data ${runtime.config.dataDir}${store})\n`,
    );
    const signal = await stopSignal();
    io.stderr.write(`Shutting down (${signal})…\n`);
    await listening.close(); // closes the runtime too
    return 0;
  },
});

/** Resolves with the first of SIGINT and SIGTERM. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
