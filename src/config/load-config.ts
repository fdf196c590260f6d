import { relative } from 'node:path';
import { ConfigFileError } from './errors/config-file-error.ts';
import { importFresh } from './import-fresh.ts';
import type { LoadedConfig, YeoulConfig } from './types.ts';
import { validateConfig } from './validate-config.ts';

/**
 * Loads a config file as it is on disk now (the file and every local file it imports read
 * afresh), and checks its shape. A file that does not load (a syntax error, a failing
 * import) or whose default export is not a usable config is a ConfigFileError listing
 * every problem, the file and line first when known.
 * @example
 * const loaded = await loadConfigFile('/app/yeoul.config.ts');
 */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  let imported: Awaited<ReturnType<typeof importFresh>>;
  try {
    imported = await importFresh(path);
  } catch (error) {
    throw new ConfigFileError({ file: path, problems: [loadFailure(error)] });
  }
  const config = imported.module.default;
  if (config === undefined) {
    throw new ConfigFileError({
      file: path,
      problems: ['the file has no default export: end it with `export default defineConfig({…})`'],
    });
  }
  const problems = validateConfig(config);
  if (problems.length > 0) throw new ConfigFileError({ file: path, problems });
  return { path, config: config as YeoulConfig, files: imported.files, loadedAt: new Date() };
}

/** A load failure in one line: where (file:line, when the error tells) and why. */
function loadFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const where = locationOf(error);
  const message = error.message.split('\n')[0] ?? error.message;
  return where ? `${where}: ${error.name}: ${message}` : `${error.name}: ${message}`;
}

/** `yeoul.config.ts:12` from a syntax error's stack or a throw's first local frame. */
function locationOf(error: Error): string | undefined {
  const text = `${error.stack ?? ''}\n${error.message}`;
  for (const match of text.matchAll(
    /(file:\/\/[^\s)'"]+?|\/[^\s)'"]+?\.(?:ts|mts|js|mjs)):(\d+)/g,
  )) {
    const file = (match[1] as string).replace(/^file:\/\//, '').replace(/\?.*$/, '');
    if (file.includes('/node_modules/') || file.startsWith('node:')) continue;
    return `${relative(process.cwd(), decodeURIComponent(file)) || file}:${match[2]}`;
  }
  return undefined;
}
