import type { z } from 'zod';

/**
 * A body's shape checked by its zod schema (docs/adr/0007-openapi-from-code.md), as field errors
 * named by wire path (`recurring_plan.frequency`, `custom_fields[1].value`): an unknown field "is
 * not a known field", a missing one "is required", anything else zod's message. Empty when the
 * schema accepts the body. The parsers of hand-read bodies call it so that the schema the
 * document publishes is also what accepts or refuses the shape.
 */
export function schemaFieldErrors(schema: z.ZodType, body: unknown): { field: string; message: string }[] {
  const result = schema.safeParse(body);
  if (result.success) return [];
  const errors: { field: string; message: string }[] = [];
  for (const issue of result.error.issues) {
    const at = wirePath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        errors.push({ field: at ? `${at}.${key}` : key, message: 'is not a known field' });
    } else if (issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined) {
      errors.push({ field: at || 'body', message: 'is required' });
    } else {
      errors.push({ field: at || 'body', message: issue.message });
    }
  }
  return errors;
}

function wirePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let node = body;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
