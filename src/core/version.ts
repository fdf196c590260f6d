import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Yeoul's version, as package.json gives it (read once). */
export const yeoulVersion = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
