import { defineCommand } from '../define-command.ts';
import { serveDetails, startServing, stopOnSignal } from './serve-command.ts';

/** `yeoul dev`: `serve` that applies the config file (and what it imports) again on every save. */
export const devCommand = defineCommand({
  name: 'dev',
  summary: 'serve, reloading the config file and what it imports on save',
  usage: ['dev [--port N] [--host H] [--data DIR] [--config FILE] [--no-sample] [--no-migrate]'],
  details: [
    ...serveDetails,
    'A save to the config file or any local file it imports is applied within 2 s, in the same',
    'process: sessions, approvals and the data folder stay; a run going on finishes on the code it',
    'started with. A save that cannot be used keeps the last good version serving; the error is',
    'printed here and shown in the web console (and GET /api/agent/status `config`) until fixed.',
  ],
  example: 'dev --port 8787',
  async run(args, io) {
    const serving = await startServing('dev', args, io);
    const { runtime } = serving;
    const file = runtime.configState.file;
    if (file === undefined) {
      io.stderr.write(
        'yeoul dev: no config file (yeoul.config.ts, .mjs or .js here, --config or YEOUL_CONFIG): nothing to reload; serving as `yeoul serve` does\n',
      );
      await stopOnSignal(serving, io);
      return 0;
    }
    const { ConfigWatcher } = await import('../../config/index.ts');
    const watcher = new ConfigWatcher(file, {
      onReload: async (loaded) => {
        await runtime.reload(loaded);
        const watched = loaded.files.length;
        io.stderr.write(
          `yeoul dev: reloaded ${file} (${watched} ${watched === 1 ? 'file' : 'files'} watched)\n`,
        );
      },
      onError: (message) => {
        runtime.reportConfigError(message);
        io.stderr.write(
          `yeoul dev: the config cannot be used; the last good version keeps serving:\n${indent(message)}\n`,
        );
      },
    });
    watcher.watch(runtime.configFiles);
    io.stderr.write(`yeoul dev: watching ${file} and the files it imports\n`);
    await stopOnSignal(serving, io, () => watcher.close());
    return 0;
  },
});

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
