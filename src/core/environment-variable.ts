import { z } from 'zod';

/** What the reference documentation says of one environment variable. */
export interface VariableDoc {
  /** What it sets, with the values it accepts. */
  meaning: string;
  /** What applies while it is unset, as a reader wants it said; absent = the schema's default, or nothing. */
  default?: string;
}

/** The documentation of every variable declared with {@link environmentVariable}. */
export const variableDocs = z.registry<VariableDoc>();

/**
 * Declares one environment variable: its schema (type, format, default) and what the reference
 * says of it. Each folder that reads the environment declares its variables so, in a `z.object`
 * named after the folder; `config/` composes them into the one schema the process is read with.
 * @example
 * const serverVariables = z.object({
 *   PORT: environmentVariable(wholeNumber({ min: 0, max: 65_535 }).default(8787), { meaning: 'listen port' }),
 * });
 */
export function environmentVariable<Schema extends z.ZodType>(
  schema: Schema,
  doc: VariableDoc,
): Schema {
  variableDocs.add(schema, doc);
  return schema;
}

/**
 * A whole number within bounds, read from its decimal text; one message for every way to miss
 * (not a number, a fraction, out of range), naming the range.
 */
export function wholeNumber(bounds: { min: number; max?: number; unit?: string }) {
  const unit = bounds.unit ? ` of ${bounds.unit}` : '';
  const error =
    bounds.max !== undefined
      ? `must be a whole number${unit} from ${bounds.min} to ${bounds.max}`
      : bounds.min === 0
        ? `must be a whole number${unit} (0 or more)`
        : bounds.min === 1
          ? `must be a positive whole number${unit}`
          : `must be a whole number${unit} of at least ${bounds.min}`;
  const number = z.coerce.number({ error }).int({ error }).min(bounds.min, { error });
  return bounds.max === undefined ? number : number.max(bounds.max, { error });
}

/** One of a few words, named in the message when another is given. */
export function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** A yes-or-no switch written `1`/`0` or `true`/`false`, read as a boolean. */
export function yesNo() {
  return z
    .enum(['1', '0', 'true', 'false'], { error: 'must be 1, 0, true or false' })
    .transform((value) => value === '1' || value === 'true');
}

/**
 * The environment as its schema reads it: every value trimmed, and every empty (or
 * whitespace-only) value left out, so that an empty value counts as unset for every variable.
 * @example
 * withoutBlankValues({ OPENAI_BASE_URL: '', PORT: ' 8080 ' }); // { PORT: '8080' }
 */
export function withoutBlankValues(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const text = value?.trim();
    if (text) kept[name] = text;
  }
  return kept;
}

/**
 * Deletes the process's empty (or whitespace-only) variables, so that the libraries that read
 * `process.env` themselves (the AI SDK's providers, the AWS SDK, OpenTelemetry) take them as
 * unset too. Called once by the command line as it starts.
 */
export function deleteBlankVariables(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() === '') delete env[name];
  }
}
