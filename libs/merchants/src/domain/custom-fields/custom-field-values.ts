import { plainTextProblem } from '../../../../platform/src/validation/plain-text';
import {
  CUSTOM_FIELDS_MAX,
  MAX_VALUES_MAX,
  characterCount,
  matchesRegEx,
  type CustomFieldDefinition,
} from './custom-field-definition';
import type { FieldError } from './custom-field-errors';
import type { CustomFieldsState } from './custom-fields';
import { compareDecimals, decimalFromNumber, decimalPlacesOf, parseDecimal } from './exact-decimal';

/**
 * The one check of custom-field values against a merchant's configuration, for every write that
 * carries them (transaction creates, contract creates, hosted-page checkouts). Pure; paths are
 * `custom_fields[i].name` / `custom_fields[i].value`, or `custom_fields` for the list as a whole.
 *
 * Where the values come from:
 * - `api`: the partner's server. Every enabled field may be sent; visibility flags are for the
 *   pages, not the API. Every enabled required field must be present.
 * - `virtualTerminal`, `hostedPaymentPage`: what a person typed on that form. Only fields
 *   `visible` there and not `readOnly` there may arrive (a read-only or hidden field in a payer's
 *   post is tampering, not input); required is demanded only of fields the form asks for
 *   (visible and editable). Values of hidden fields come through the API; a caller that merges
 *   such values with the form's validates the merged list with `api`.
 *
 * The rules, decided here:
 * - `custom_fields` absent or null is an empty list; otherwise an array of at most 500 entries
 *   (10 fields × 50 values), each exactly `{name: string, value: string}`.
 * - `name` refers to an enabled field of the merchant, ignoring case (names are unique ignoring
 *   case); normalizeCustomFieldValues stores the configured spelling.
 * - A field appears once, or up to `maxValues` times when `isMultiValue`. Repeated equal values
 *   of a multi-value field are allowed (two identical items are two items).
 * - Values are trimmed; a blank value counts as not sent (it is not checked further and is
 *   dropped on normalising), so a required field must have a non-blank value.
 * - Names and values are single-line plain text (platform plain-text.ts: no C0/C1 controls, no
 *   DEL, no bidi controls): values end up in reports, pages and gateway files. This is part of
 *   the list's form, so it is refused before any lookup.
 * - At most `maxLength` characters (code points), after trimming.
 * - Numeric fields: `-?digits[.digits]` (no exponent, no `+`, no separators), at most
 *   `decimalPlaces` digits after the point, within [numericMinValue, numericMaxValue] compared
 *   exactly (no float parsing).
 * - `regEx` must match the whole value, checked in linear time (a payer types the value); on a
 *   mismatch the message is `regExErrorMessage`, or a default. A stored pattern the linear-time
 *   matcher cannot run (backreferences or lookaround, allowed before that rule) cannot check
 *   anything, so a value for it is refused until the partner updates the configuration: a check
 *   the partner asked for is never skipped silently.
 */
export type CustomFieldValueSurface = 'api' | 'virtualTerminal' | 'hostedPaymentPage';

export interface CustomFieldValue {
  name: string;
  value: string;
}

export const CUSTOM_FIELD_VALUES_MAX = CUSTOM_FIELDS_MAX * MAX_VALUES_MAX;
export const DEFAULT_REGEX_ERROR_MESSAGE = 'does not match the required format';

const VALUE_KEYS: readonly string[] = ['name', 'value'];
export const UNCHECKABLE_REGEX_MESSAGE =
  "cannot be checked: this field's regEx uses a feature that is no longer supported (backreferences or lookaround); the partner must update the custom-field configuration";

const SURFACE_WORDS: Record<Exclude<CustomFieldValueSurface, 'api'>, string> = {
  virtualTerminal: 'the virtual terminal',
  hostedPaymentPage: 'the hosted payment page',
};

type Configuration = Pick<CustomFieldsState, 'fields'>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The configured field a value's name refers to, ignoring case; disabled ones included. */
export function findCustomField(state: Configuration, name: string): CustomFieldDefinition | undefined {
  const key = name.toLowerCase();
  return state.fields.find((field) => field.name.toLowerCase() === key);
}

/** Whether the form of `surface` asks for the field (so a required one must be filled there). */
function askedOn(field: CustomFieldDefinition, surface: CustomFieldValueSurface): boolean {
  if (!field.isEnabled) return false;
  if (surface === 'api') return true;
  return field[surface].visible && !field[surface].readOnly;
}

/**
 * The form of a `custom_fields` list, without a merchant's configuration: absent or null, or an
 * array of at most {@link CUSTOM_FIELD_VALUES_MAX} entries, each exactly `{name: string, value:
 * string}`. A request parser answers these as a malformed body (400) before any lookup; what
 * remains for {@link validateCustomFieldValues} is the configuration's rules (422).
 */
export function customFieldValuesFormErrors(values: unknown): FieldError[] {
  if (values == null) return [];
  if (!Array.isArray(values))
    return [{ field: 'custom_fields', message: 'must be an array of {name, value}' }];
  if (values.length > CUSTOM_FIELD_VALUES_MAX) {
    return [{ field: 'custom_fields', message: `must have at most ${CUSTOM_FIELD_VALUES_MAX} entries` }];
  }
  const errors: FieldError[] = [];
  values.forEach((entry, index) => {
    const path = `custom_fields[${index}]`;
    if (!isObject(entry)) {
      errors.push({ field: path, message: 'must be an object with name and value' });
      return;
    }
    for (const key of Object.keys(entry)) {
      if (!VALUE_KEYS.includes(key)) errors.push({ field: `${path}.${key}`, message: 'is not allowed' });
    }
    for (const key of VALUE_KEYS) {
      const value = entry[key];
      if (typeof value !== 'string') {
        errors.push({ field: `${path}.${key}`, message: value == null ? 'is required' : 'must be a string' });
        continue;
      }
      const unsafe = plainTextProblem(value);
      if (unsafe) errors.push({ field: `${path}.${key}`, message: unsafe });
    }
  });
  return errors;
}

export function validateCustomFieldValues(
  state: Configuration,
  values: unknown,
  surface: CustomFieldValueSurface,
): FieldError[] {
  const formErrors = customFieldValuesFormErrors(values);
  if (formErrors.length > 0) return formErrors;
  const entries = (values ?? []) as { name: string; value: string }[];
  const errors: FieldError[] = [];
  /** Indexes of the entries naming each field, and which of them are non-blank. */
  const seen = new Map<CustomFieldDefinition, { indexes: number[]; blank: number[]; filled: number }>();

  entries.forEach((entry, index) => {
    const path = `custom_fields[${index}]`;
    const fail = (key: 'name' | 'value', message: string) =>
      errors.push({ field: `${path}.${key}`, message });
    const { name, value } = entry;
    const field = findCustomField(state, name);
    if (!field) return fail('name', 'is not a custom field of this merchant');
    if (!field.isEnabled) return fail('name', 'is not enabled for this merchant');
    if (surface !== 'api') {
      const settings = field[surface];
      if (!settings.visible) return fail('name', `is not shown on ${SURFACE_WORDS[surface]}`);
      if (settings.readOnly) return fail('name', `is read-only on ${SURFACE_WORDS[surface]}`);
    }

    const record = seen.get(field) ?? { indexes: [], blank: [], filled: 0 };
    seen.set(field, record);
    record.indexes.push(index);
    const trimmed = value.trim();
    if (trimmed === '') {
      record.blank.push(index);
      return;
    }
    record.filled += 1;
    const problem = valueProblem(field, trimmed);
    if (problem) fail('value', problem);
  });

  for (const [field, { indexes }] of seen) {
    const allowed = field.isMultiValue ? (field.maxValues ?? 1) : 1;
    for (const index of indexes.slice(allowed)) {
      errors.push({
        field: `custom_fields[${index}].name`,
        message: field.isMultiValue
          ? `${field.name} takes at most ${allowed} values`
          : `${field.name} is given more than once`,
      });
    }
  }

  for (const field of state.fields) {
    if (!field.isRequired || !askedOn(field, surface)) continue;
    const record = seen.get(field);
    if (record && record.filled > 0) continue;
    if (record && record.blank.length > 0) {
      errors.push({
        field: `custom_fields[${record.blank[0]}].value`,
        message: 'is required and must not be blank',
      });
    } else if (!record) {
      errors.push({ field: 'custom_fields', message: `must include the required field ${field.name}` });
    }
  }
  return errors;
}

/** Why a trimmed, non-blank value does not fit its field, or null. */
function valueProblem(field: CustomFieldDefinition, value: string): string | null {
  if (characterCount(value) > field.maxLength) return `must be at most ${field.maxLength} characters`;
  if (field.isNumeric) return numericProblem(field, value);
  if (field.regEx !== null) {
    // Only after the length cap: the matcher is linear, and the text is bounded too.
    const matches = matchesRegEx(field.regEx, value);
    if (matches === null) return UNCHECKABLE_REGEX_MESSAGE;
    if (!matches) return field.regExErrorMessage ?? DEFAULT_REGEX_ERROR_MESSAGE;
  }
  return null;
}

function numericProblem(field: CustomFieldDefinition, value: string): string | null {
  const places = field.decimalPlaces ?? 0;
  const decimal = parseDecimal(value);
  if (!decimal) return places === 0 ? 'must be a whole number' : 'must be a decimal number such as 12.50';
  if (decimalPlacesOf(value) > places) {
    return places === 0 ? 'must be a whole number' : `must have at most ${places} decimal places`;
  }
  if (
    field.numericMinValue !== null &&
    compareDecimals(decimal, decimalFromNumber(field.numericMinValue)) < 0
  ) {
    return `must be at least ${field.numericMinValue}`;
  }
  if (
    field.numericMaxValue !== null &&
    compareDecimals(decimal, decimalFromNumber(field.numericMaxValue)) > 0
  ) {
    return `must be at most ${field.numericMaxValue}`;
  }
  return null;
}

/**
 * The stored form of values that passed validateCustomFieldValues: the configured spelling of
 * each name, values trimmed, blank ones dropped, the sender's order kept (it matters for
 * multi-value fields). Entries that would not validate are dropped too.
 */
export function normalizeCustomFieldValues(state: Configuration, values: unknown): CustomFieldValue[] {
  if (!Array.isArray(values)) return [];
  const normalized: CustomFieldValue[] = [];
  for (const entry of values) {
    if (!isObject(entry) || typeof entry.name !== 'string' || typeof entry.value !== 'string') continue;
    const field = findCustomField(state, entry.name);
    const value = entry.value.trim();
    if (field && value !== '') normalized.push({ name: field.name, value });
  }
  return normalized;
}
