import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { retrieverConformance } from './retriever-conformance.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-retriever-'));
after(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;
let current = '';

retrieverConformance(
  'sqlite',
  () => {
    counter += 1;
    current = join(directory, `kb-${counter}.sqlite`);
    return new SqliteRetriever({ path: current });
  },
  () => new SqliteRetriever({ path: current }),
);
