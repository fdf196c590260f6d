import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Environment } from './environment/read-environment.ts';
import { ConfigFileError } from './errors/config-file-error.ts';

/** The names a config file may have in the working directory, in the order they are looked for. */
export const configFileNames = ['yeoul.config.ts', 'yeoul.config.mjs', 'yeoul.config.js'] as const;

/**
 * The config file to load: `--config FILE`, else `YEOUL_CONFIG`, else `yeoul.config.{ts,mjs,js}`
 * in the working directory; undefined when there is none (zero config). A file named
 * explicitly that does not exist is an error.
 * @example
 * const path = findConfigFile({ cwd: process.cwd(), env: readEnvironment(process.env) });
 */
export function findConfigFile(options: {
  cwd: string;
  env: Pick<Environment, 'YEOUL_CONFIG'>;
  flag?: string | undefined;
}): string | undefined {
  const named = options.flag?.trim()
    ? { path: options.flag.trim(), source: '--config' }
    : options.env.YEOUL_CONFIG
      ? { path: options.env.YEOUL_CONFIG, source: 'YEOUL_CONFIG' }
      : undefined;
  if (named) {
    const path = resolve(options.cwd, named.path);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ConfigFileError({
        file: path,
        problems: [`${named.source}: no such file: ${path}`],
      });
    }
    return path;
  }
  for (const name of configFileNames) {
    const path = resolve(options.cwd, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}
