import { z } from 'zod';
import { variableDocs } from '../../core/index.ts';
import { environmentSchema } from './read-environment.ts';

/** Where the reference is written, from the repository's root. */
export const environmentReferencePath = 'docs/reference/environment.md';

const preamble = [
  '# Environment variables',
  '',
  '<!-- Written by `npm run docs:env` from the schema the code reads the environment with',
  '(src/config/environment/ and each folder’s `*-variables.ts`); a test fails when this file',
  'differs from what it would write. Change the schema, then run the script. -->',
  '',
  'Yeoul reads these variables as it starts. An empty value (or one of spaces only) counts as',
  'unset, for every variable. A value that cannot be used stops the start (exit 2), with every bad',
  'variable named on stderr, a line each. Command-line flags (`--port`, `--data`, …) win over the',
  'environment; the config file (`yeoul.config.ts`) fills what the environment leaves unset.',
  '',
  '| variable | meaning | default |',
  '| --- | --- | --- |',
];

/**
 * `docs/reference/environment.md` as the schema describes it now: one row per variable, in
 * the schema's order, with its meaning and its default.
 * @example
 * writeFileSync(environmentReferencePath, environmentReference());
 */
export function environmentReference(): string {
  const rows = Object.entries(environmentSchema.shape).map(([name, schema]) => {
    const doc = variableDocs.get(schema);
    if (doc === undefined) throw new Error(`${name} is declared without environmentVariable()`);
    const fallback = schema instanceof z.ZodDefault ? `\`${String(schema.def.defaultValue)}\`` : '';
    return `| \`${name}\` | ${cell(doc.meaning)} | ${cell(doc.default ?? fallback)} |`;
  });
  return `${[...preamble, ...rows].join('\n')}\n`;
}

/** Text safe inside a table cell (a `|` would end the cell, even in a code span). */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}
