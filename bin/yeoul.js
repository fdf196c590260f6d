#!/usr/bin/env node
// The `yeoul` command, however it is launched (npx, npm link, a global install).
// In the repository (src/ is there) it runs src/cli.ts on Node 24, which runs TypeScript
// directly; on an older Node (the system one, say) it starts the Node 24 that
// `npm install` put in node_modules instead. Installed as a package (no src/, the built
// dist/ instead) it runs dist/cli.js on the Node that launched it, 22.18 or newer.
// Plain JavaScript on purpose: this file must run on any Node that is likely first on PATH.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli.ts');
const [major, minor] = process.versions.node.split('.').map(Number);

if (!existsSync(source)) {
  // The installed package: compiled JavaScript, for any Node that runs yeoul.config.ts itself.
  if (major < 22 || (major === 22 && minor < 18)) {
    process.stderr.write(
      `yeoul: this is Node ${process.versions.node}; yeoul needs Node 22.18 or newer.\n`,
    );
    process.exit(1);
  }
  await import(pathToFileURL(join(root, 'dist', 'cli.js')).href);
} else if (major >= 24) {
  // Node's compile cache is on before the first TypeScript file loads (src/cli.ts turns it on
  // too, but only once it was itself read): a warm start then strips no TypeScript and never
  // loads Node's stripper, whose WebAssembly memory would stay resident in a server.
  nodeModule.enableCompileCache?.();
  await import(pathToFileURL(source).href);
} else {
  const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node24)) {
    process.stderr.write(
      `yeoul: this is Node ${process.versions.node}; yeoul needs Node 24, which \`npm install\` brings. ` +
        `Run \`npm install\` in ${root} (or put Node 24 first on PATH).\n`,
    );
    process.exit(1);
  }
  const child = spawn(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  // Ctrl-C reaches the child through the terminal; a signal sent to this process is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => {
    process.stderr.write(`yeoul: could not start ${node24}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Die of the same signal, so the caller sees it (the forwarder above would catch it).
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
