import { z } from 'zod';
import { withoutBlankValues } from '../../core/index.ts';
import { guardrailVariables } from '../../guardrails/index.ts';
import {
  identityVariableProblems,
  identityVariables,
  limitVariables,
} from '../../identity/index.ts';
import { knowledgeVariables } from '../../knowledge/index.ts';
import { mcpVariables } from '../../mcp/index.ts';
import { modelVariables } from '../../models/index.ts';
import { toolVariables } from '../../tools/index.ts';
import { webhookVariables } from '../../webhooks/index.ts';
import { ConfigError } from '../errors/config-error.ts';
import { serverVariables } from './server-variables.ts';
import { tracingVariables } from './tracing-variables.ts';

/**
 * Every environment variable Yeoul reads, with its type, format, default and meaning: the
 * folders' own declarations, composed. `docs/reference/environment.md` is written from it.
 */
export const environmentSchema = z.object({
  ...serverVariables.shape,
  ...identityVariables.shape,
  ...modelVariables.shape,
  ...knowledgeVariables.shape,
  ...toolVariables.shape,
  ...guardrailVariables.shape,
  ...webhookVariables.shape,
  ...mcpVariables.shape,
  ...tracingVariables.shape,
  ...limitVariables.shape,
});

/** The variables' names in the schema's order, the order problems are reported in. */
const order = Object.keys(environmentSchema.shape);

/** The environment as read: every variable trimmed, an empty one unset, values typed. */
export type Environment = z.output<typeof environmentSchema>;

/**
 * Reads the environment, the one place it is read: every value is trimmed and an empty (or
 * whitespace-only) one counts as unset, for every variable; then every variable is checked,
 * and all the bad ones are reported at once (ConfigError, a line each).
 * @example
 * const environment = readEnvironment(process.env);
 * environment.PORT; // 8787 unless PORT says otherwise
 */
export function readEnvironment(env: Readonly<Record<string, string | undefined>>): Environment {
  const values = withoutBlankValues(env);
  const parsed = environmentSchema.safeParse(values);
  // What variables cannot be together (a public key without an audience, say).
  const together = identityVariableProblems(values);
  if (parsed.success && together.length === 0) return parsed.data;
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues).map((issue) => ({
      variable: String(issue.path[0]),
      line: `${issue.path.join('.')}: ${issue.message}`,
    })),
    ...together.map((line) => ({ variable: line.split(':')[0] as string, line })),
  ]
    .toSorted((a, b) => order.indexOf(a.variable) - order.indexOf(b.variable))
    .map((problem) => problem.line);
  // A value can miss a format twice (a fraction below the minimum): one line says it.
  throw new ConfigError({ problems: [...new Set(problems)], environment: true });
}
