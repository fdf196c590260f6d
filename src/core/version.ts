import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What Yeoul's own package.json says about it (read once). */
export interface YeoulManifest {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** The folder Yeoul is installed in (or the repository): package.json, templates/, … */
export const yeoulRoot = join(import.meta.dirname, '..', '..');

/** Yeoul's package.json: its version and the versions of what it depends on. */
export const yeoulManifest: YeoulManifest = {
  dependencies: {},
  devDependencies: {},
  ...(JSON.parse(readFileSync(join(yeoulRoot, 'package.json'), 'utf8')) as Partial<YeoulManifest>),
} as YeoulManifest;

/** Yeoul's version, as package.json gives it. */
export const yeoulVersion = yeoulManifest.version;
