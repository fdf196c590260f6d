export type { CliIo } from './io.ts';
export { runCli } from './run-cli.ts';
