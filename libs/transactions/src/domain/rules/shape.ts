import type { FieldError } from './field-error';

/** A JSON object (not null, not an array), as a body's nested value must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One error per key the object should not have (CONTRACT §7: unknown body fields are 400). */
export function unknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  path: string,
): FieldError[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({ field: `${path}.${key}`, message: 'is not a known field' }));
}

/** Absent and JSON `null` both mean "not given" for an optional field. */
export const isAbsent = (value: unknown): value is undefined | null => value === undefined || value === null;

/** Length in Unicode code points, so an emoji counts as one character. */
export const codePoints = (value: string): number => [...value].length;
