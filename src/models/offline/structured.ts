type Schema = Record<string, unknown>;

const explanationKeys = /reason|feedback|explanation|rationale|comment/i;

/**
 * A value that satisfies a JSON Schema: enums take the option the prompt mentions (else
 * the first), numbers their maximum (else minimum, else 0), strings a short text.
 */
export function objectFromSchema(
  schema: Schema | undefined,
  hint: string,
  korean: boolean,
  key = '',
): unknown {
  if (schema === undefined) return {};
  if ('const' in schema) return schema.const;
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options) && options.length > 0) {
    const usable = options.find((option) => option.type !== 'null') ?? options[0];
    return objectFromSchema(usable, hint, korean, key);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return (
      schema.enum.find((value) => typeof value === 'string' && hint.includes(value)) ??
      schema.enum[0]
    );
  }
  const type = Array.isArray(schema.type)
    ? schema.type.find((entry) => entry !== 'null')
    : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        result[name] = objectFromSchema(property, hint, korean, name);
      }
      return result;
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () =>
        objectFromSchema(schema.items as Schema, hint, korean, key),
      );
    }
    case 'number':
    case 'integer': {
      if (typeof schema.maximum === 'number') return schema.maximum;
      if (typeof schema.minimum === 'number') return schema.minimum;
      return 0;
    }
    case 'boolean':
      return true;
    case 'string':
      return stringFor(schema, hint, korean, key);
    default:
      return null;
  }
}

function stringFor(schema: Schema, hint: string, korean: boolean, key: string): string {
  let text = explanationKeys.test(key)
    ? korean
      ? '오프라인 모델의 규칙 기반 판단입니다.'
      : 'A rule-based decision of the offline model.'
    : hint.slice(0, 80) || 'offline';
  if (typeof schema.maxLength === 'number') text = text.slice(0, schema.maxLength);
  if (typeof schema.minLength === 'number' && text.length < schema.minLength) {
    text = text.padEnd(schema.minLength, '.');
  }
  return text;
}
