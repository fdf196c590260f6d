// Composition root for `node src/main.ts`: reads the configuration, wires the runtime and
// starts the server — the same path as `yeoul serve`, arguments included.
import { enableCompileCache } from 'node:module';

enableCompileCache(); // as src/cli.ts does
const { runCli } = await import('./cli/index.ts');

process.exitCode = await runCli(['serve', ...process.argv.slice(2)]);
