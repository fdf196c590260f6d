import { z } from 'zod';

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** Fields of `value` that `schema` (JSON Schema) does not describe, with their paths. */
function undescribedFields(schema: JsonSchema, value: unknown, path: string): string[] {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const results = branches.map((branch) => undescribedFields(branch, value, path));
    return results.reduce((best, result) => (result.length < best.length ? result : best));
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    return value.flatMap((item, index) => undescribedFields(items, item, `${path}[${index}]`));
  }
  if (value === null || typeof value !== 'object' || schema.properties === undefined) return [];
  return Object.entries(value).flatMap(([key, field]) => {
    const property = schema.properties?.[key];
    if (property) return undescribedFields(property, field, `${path}.${key}`);
    return schema.additionalProperties === false ? [`${path}.${key}`] : [];
  });
}

/**
 * How a server's real answer drifts from the schema that describes it: what the schema
 * refuses, and every field it does not name (which a typed client would never see).
 * @example
 * assert.deepEqual(schemaDrift('status', statusResponseSchema, await client.status()), []);
 */
export function schemaDrift(name: string, schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  const invalid = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${name}: ${issue.path.join('.')}: ${issue.message}`);
  const described = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const extra = undescribedFields(described, value, '$').map(
    (path) => `${name}: ${path} is not in the schema`,
  );
  return [...invalid, ...extra];
}
