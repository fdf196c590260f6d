// `npm run docs:env`: writes docs/reference/environment.md from the schema the code reads the
// environment with, so the reference cannot drift from the code (a test compares the two).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  environmentReference,
  environmentReferencePath,
} from '../src/config/environment/environment-reference.ts';

const target = join(import.meta.dirname, '..', environmentReferencePath);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, environmentReference());
process.stdout.write(`wrote ${environmentReferencePath}\n`);
