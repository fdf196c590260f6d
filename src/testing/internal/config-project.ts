import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where Yeoul's own source doors are, as a config file in a temporary project imports them. */
const sourceRoot = resolve(import.meta.dirname, '..', '..');

/** A `file://` URL of one of Yeoul's source doors (`config`, `graph`, `tools`, …), for configs in tests. */
export function yeoulDoor(folder: string): string {
  return pathToFileURL(join(sourceRoot, folder, 'index.ts')).href;
}

/**
 * A throwaway project folder for config-file tests: `files` written into it (a
 * `yeoul.config.ts`, modules it imports), and a copy of zod of its own in its
 * `node_modules` — a second zod, as a user's project has.
 * @example
 * const project = makeConfigProject({ 'yeoul.config.ts': `export default {}` });
 */
export function makeConfigProject(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'yeoul-project-'));
  const zod = join(folder, 'node_modules', 'zod');
  mkdirSync(join(folder, 'node_modules'), { recursive: true });
  cpSync(join(sourceRoot, '..', 'node_modules', 'zod'), zod, { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{"type": "module"}\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}
