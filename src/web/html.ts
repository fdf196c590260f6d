import htmModule from 'htm';
import { h } from 'preact';

// htm's types describe its CommonJS build; browsers load its ES module, whose default is htm.
const htm = htmModule as unknown as (typeof htmModule)['default'];

/** Preact elements from tagged templates (no JSX, so no build step). */
export const html = htm.bind(h) as (
  strings: TemplateStringsArray,
  ...values: unknown[]
) => ReturnType<typeof h>;
