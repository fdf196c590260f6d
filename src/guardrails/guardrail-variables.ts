import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';
import { defaultableBuiltins } from './compile-entry.ts';

/** `off`, or the built-ins a comma list names (trimmed, empty entries dropped); an unknown name is refused. */
const guardrailList = z.string().transform((text, context): string[] | 'off' => {
  if (text.trim().toLowerCase() === 'off') return 'off';
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) {
    context.addIssue({
      code: 'custom',
      message: `names no guardrail; use off or a comma list of ${defaultableBuiltins.join(', ')}`,
    });
  }
  for (const name of names) {
    if (!(defaultableBuiltins as readonly string[]).includes(name)) {
      context.addIssue({
        code: 'custom',
        message: `unknown guardrail "${name}"; use off or a comma list of ${defaultableBuiltins.join(', ')}`,
      });
    }
  }
  return [...new Set(names)];
});

/** The environment variable that switches the built-in guardrails. */
export const guardrailVariables = z.object({
  YEOUL_GUARDRAILS: environmentVariable(guardrailList.optional(), {
    meaning: `\`off\` (every guardrail off, the config file’s included), or a comma list of built-ins (${defaultableBuiltins.map((name) => `\`${name}\``).join(', ')}) with their defaults at every stage they work on; the list replaces the config file’s global lists (its per-graph lists still apply)`,
    default: 'unset = the config file’s guardrails (none without one)',
  }),
});

/** The guardrail variables as read: `off`, or the built-ins' names. */
export type GuardrailVariables = z.output<typeof guardrailVariables>;
