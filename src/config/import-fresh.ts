import { registerHooks } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The query that marks a module as part of one load of a config file. */
const generationParameter = 'yeoul-config';

/** Yeoul's own modules (`src/` here, `dist/` in the package): loaded once, never again. */
const yeoulRoot = pathToFileURL(`${resolve(import.meta.dirname, '..')}/`).href;

/** The local files each generation loaded, by generation. */
const filesOfGeneration = new Map<string, Set<string>>();
let generations = 0;
let hooked = false;

/**
 * Imports a module with a module graph of its own: the module and every local file it
 * imports (not packages in node_modules, not Yeoul itself) are loaded afresh, so a config
 * file edited on disk is seen as it is now (`yeoul dev`). Returns the module and the local
 * files it loaded, for watching.
 * @example
 * const { module, files } = await importFresh('/app/yeoul.config.ts');
 */
export async function importFresh(
  path: string,
): Promise<{ module: Record<string, unknown>; files: string[] }> {
  installHooks();
  generations += 1;
  const generation = String(generations);
  const files = new Set<string>([path]);
  filesOfGeneration.set(generation, files);
  const url = new URL(pathToFileURL(path).href);
  url.searchParams.set(generationParameter, generation);
  try {
    const module = (await import(url.href)) as Record<string, unknown>;
    return { module, files: [...files] };
  } finally {
    filesOfGeneration.delete(generation);
  }
}

/** Marks every local file a generation's module imports with that generation. */
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const parent = context.parentURL;
      if (parent === undefined || !parent.includes(`${generationParameter}=`)) return resolved;
      const generation = new URL(parent).searchParams.get(generationParameter);
      if (
        generation === null ||
        !resolved.url.startsWith('file:') ||
        resolved.url.includes('/node_modules/') ||
        resolved.url.startsWith(yeoulRoot)
      ) {
        return resolved;
      }
      filesOfGeneration.get(generation)?.add(fileURLToPath(resolved.url));
      const url = new URL(resolved.url);
      url.searchParams.set(generationParameter, generation);
      return { ...resolved, url: url.href };
    },
  });
}
