#!/usr/bin/env node
// The `yeoul` command, however it is launched (npx, npm link, a global install): it runs
// src/cli.ts on Node 24, which runs TypeScript directly. On an older Node (the system
// one, say) it starts the Node 24 that `npm install` put in node_modules instead.
// Plain JavaScript on purpose: this file must run on any Node that is likely first on PATH.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'src', 'cli.ts');
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  await import(cli);
} else {
  const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node24)) {
    process.stderr.write(
      `yeoul: this is Node ${process.versions.node}; yeoul needs Node 24, which \`npm install\` brings. ` +
        `Run \`npm install\` in ${root} (or put Node 24 first on PATH).\n`,
    );
    process.exit(1);
  }
  const child = spawn(node24, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
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
