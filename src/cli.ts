#!/usr/bin/env node
// The `yeoul` command (package.json "bin"): `yeoul --help` lists the commands.
import { runCli } from './cli/index.ts';

const exitCode = await runCli(process.argv.slice(2));
process.exitCode = exitCode;
// Everything a command opened is closed by now; should a stray handle still hold the
// event loop, leave anyway rather than hang (the timer itself keeps nothing alive).
setTimeout(() => process.exit(exitCode), 2000).unref();
