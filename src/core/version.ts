import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What Yeoul's own package.json says about it (read once). */
export interface YeoulManifest {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /** npm 11's list of dependencies whose install scripts may run (`node` brings Node 24). */
  allowScripts: Record<string, boolean>;
}

/** The folder Yeoul is installed in (or the repository): package.json, templates/, … */
export const yeoulRoot = join(import.meta.dirname, '..', '..');

/** Yeoul's package.json: its version and the versions of what it depends on. */
export const yeoulManifest: YeoulManifest = {
  dependencies: {},
  devDependencies: {},
  allowScripts: {},
  ...(JSON.parse(readFileSync(join(yeoulRoot, 'package.json'), 'utf8')) as Partial<YeoulManifest>),
} as YeoulManifest;

/** Yeoul's version, as package.json gives it. */
export const yeoulVersion = yeoulManifest.version;
