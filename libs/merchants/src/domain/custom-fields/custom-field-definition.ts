import { z } from 'zod';
import { compileLinearRegex, linearFullMatch } from '../../../../platform/src/validation/linear-regex';
import { plainTextProblem } from '../../../../platform/src/validation/plain-text';
import { verdictProblem, type RegexVerdict } from '../../../../platform/src/validation/safe-regex';
import type { FieldError } from './custom-field-errors';

/**
 * A merchant's custom-field definitions (the spec's "Field definition"), their validation and
 * their stored, normalised form. Wire names are the spec's camelCase ones, so the HTTP layer
 * passes `body.fields` through unchanged. Pure: every function returns the broken rules as
 * `{field, message}` (e.g. `fields[2].regEx`), empty when the input is good.
 *
 * The rules, each decided here because the spec only lists the properties:
 * - `fields` absent, null or `[]` clears the set; anything else must be an array of at most
 *   CUSTOM_FIELDS_MAX (10, the spec's limit) objects with no property beyond the spec's.
 * - Null and omitted are the same for every optional property: the default applies.
 * - `name`: required, 1–50 characters, a letter then letters, digits or `_` (it becomes a column
 *   in transaction reports and a form key on the pages); unique ignoring case, so `Ref` and `ref`
 *   cannot be two columns. Values refer to a field by its name, ignoring case.
 * - `description`: at most 255 characters; `""` is stored as null.
 * - `position`: an integer ≥ 1, unique. Either every field gives one or none does; when none
 *   does, the array order gives 1, 2, 3… The set is stored ordered by position, so re-sending
 *   the same fields in another order with the same positions is not a change.
 * - `isRequired`, `isEnabled`, `isNumeric`, `isMultiValue` and each surface's `visible` and
 *   `readOnly`: booleans, defaults false, true, false, false, false, false (the spec's).
 * - `maxLength`: an integer 1–1000, default 255, allowed for numeric fields too (a value is a
 *   string either way; it caps the digits of a numeric field that has no range).
 * - `decimalPlaces`: an integer 0–6, numeric fields only, default 0 (whole numbers unless the
 *   partner allows decimals: the stricter reading).
 * - `numericMinValue`, `numericMaxValue`: finite numbers, numeric fields only, min ≤ max. They
 *   are compared with values exactly, as the decimals the partner wrote (see exact-decimal.ts).
 * - `isMultiValue` lets the field be sent several times; `maxValues` (multi-value fields only) is
 *   an integer 2–50, default 10.
 * - `regEx`: text fields only (a numeric field has its own format), at most 500 characters, a
 *   JavaScript regular expression without flags that must match the whole value (as
 *   `^(?:regEx)$` would; `""` is stored as null, i.e. no pattern). Payers type the values, so:
 *   the pattern must be proven to run in linear time by the analyser (platform safe-regex.ts;
 *   `(a+)+$`, `(a|a)*$`, `\d*\d*\d*\d*x` are refused), and must compile for the linear-time
 *   matcher values are checked with (platform linear-regex.ts: no backreferences, no lookaround,
 *   no escape that means different things in JavaScript and RE2).
 * - `description`, `regExErrorMessage`: single-line plain text (platform plain-text.ts).
 * - `regExErrorMessage`: at most 255 characters, only with a `regEx`.
 * - A required field must be enabled (a disabled field cannot be sent, so it could never be met).
 * - On `virtualTerminal` and `hostedPaymentPage` a required field must not be both `visible` and
 *   `readOnly`: the person filling the form would be shown a mandatory field they cannot enter.
 *   Hidden there (`visible: false`) is allowed: it is then supplied through the API (for
 *   instance by the partner's server) and not asked of that surface. `transactionReports` only
 *   displays values, so its flags have no rule beyond being booleans.
 */

export const CUSTOM_FIELDS_MAX = 10;
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const NAME_MAX_LENGTH = 50;
export const DESCRIPTION_MAX_LENGTH = 255;
export const MAX_LENGTH_MIN = 1;
export const MAX_LENGTH_MAX = 1000;
export const DEFAULT_MAX_LENGTH = 255;
export const DECIMAL_PLACES_MAX = 6;
export const DEFAULT_DECIMAL_PLACES = 0;
export const MAX_VALUES_MIN = 2;
export const MAX_VALUES_MAX = 50;
export const DEFAULT_MAX_VALUES = 10;
export const REGEX_MAX_LENGTH = 500;
export const REGEX_ERROR_MESSAGE_MAX_LENGTH = 255;

export const CUSTOM_FIELD_SURFACES = ['virtualTerminal', 'hostedPaymentPage', 'transactionReports'] as const;
export type CustomFieldSurface = (typeof CUSTOM_FIELD_SURFACES)[number];

/** The surfaces where a person types values, so a required field must be enterable there. */
const ENTRY_SURFACES: readonly CustomFieldSurface[] = ['virtualTerminal', 'hostedPaymentPage'];

const SurfaceSettingsSchema = z.strictObject({ visible: z.boolean(), readOnly: z.boolean() });
export type SurfaceSettings = z.infer<typeof SurfaceSettingsSchema>;

/** A definition as stored and shown (the spec's camelCase property names). */
export const CustomFieldDefinitionSchema = z
  .strictObject({
    name: z.string(),
    description: z.string().nullable(),
    position: z.int(),
    isRequired: z.boolean(),
    isEnabled: z.boolean(),
    isNumeric: z.boolean(),
    decimalPlaces: z.int().nullable().meta({ description: 'Numeric fields only.' }),
    maxLength: z.int(),
    isMultiValue: z.boolean(),
    maxValues: z.int().nullable().meta({ description: 'Multi-value fields only.' }),
    regEx: z.string().nullable().meta({ description: 'Text fields only.' }),
    regExErrorMessage: z.string().nullable(),
    numericMinValue: z.number().nullable(),
    numericMaxValue: z.number().nullable(),
    virtualTerminal: SurfaceSettingsSchema,
    hostedPaymentPage: SurfaceSettingsSchema,
    transactionReports: SurfaceSettingsSchema,
  })
  .meta({ id: 'CustomFieldDefinition' });
export type CustomFieldDefinition = z.infer<typeof CustomFieldDefinitionSchema>;

/** A definition as sent, once validateFieldDefinitions found nothing wrong with it. */
export interface CustomFieldDefinitionInput {
  name: string;
  description?: string | null;
  position?: number | null;
  isRequired?: boolean | null;
  isEnabled?: boolean | null;
  isNumeric?: boolean | null;
  decimalPlaces?: number | null;
  maxLength?: number | null;
  isMultiValue?: boolean | null;
  maxValues?: number | null;
  regEx?: string | null;
  regExErrorMessage?: string | null;
  numericMinValue?: number | null;
  numericMaxValue?: number | null;
  virtualTerminal?: { visible?: boolean | null; readOnly?: boolean | null } | null;
  hostedPaymentPage?: { visible?: boolean | null; readOnly?: boolean | null } | null;
  transactionReports?: { visible?: boolean | null; readOnly?: boolean | null } | null;
}

const DEFINITION_KEYS: readonly string[] = [
  'name',
  'description',
  'position',
  'isRequired',
  'isEnabled',
  'isNumeric',
  'decimalPlaces',
  'maxLength',
  'isMultiValue',
  'maxValues',
  'regEx',
  'regExErrorMessage',
  'numericMinValue',
  'numericMaxValue',
  ...CUSTOM_FIELD_SURFACES,
];
const SURFACE_KEYS: readonly string[] = ['visible', 'readOnly'];
const BOOLEAN_KEYS = ['isRequired', 'isEnabled', 'isNumeric', 'isMultiValue'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
/** Characters as a person counts them (code points), not UTF-16 units. */
export const characterCount = (text: string): number => [...text].length;

/** Whether `fields` asks for an empty set: absent, null or `[]`. */
export function isEmptyFieldsInput(input: unknown): boolean {
  return input == null || (Array.isArray(input) && input.length === 0);
}

/**
 * Every broken rule of a `fields` value (the whole set a PUT replaces the configuration with).
 * `regExVerdicts`: the analyser's verdict per pattern (see regExPatternsToAnalyse); a pattern
 * missing from it is not proven safe and is refused.
 */
export function validateFieldDefinitions(
  input: unknown,
  regExVerdicts: Readonly<Record<string, RegexVerdict>> = {},
): FieldError[] {
  if (input == null) return [];
  if (!Array.isArray(input)) return [{ field: 'fields', message: 'must be an array of field definitions' }];
  const errors: FieldError[] = [];
  if (input.length > CUSTOM_FIELDS_MAX) {
    errors.push({
      field: 'fields',
      message: `must have at most ${CUSTOM_FIELDS_MAX} custom fields per merchant`,
    });
  }
  input.forEach((definition, index) =>
    errors.push(...validateDefinition(definition, `fields[${index}]`, regExVerdicts)),
  );
  errors.push(...validateAcrossDefinitions(input));
  return errors;
}

function validateDefinition(
  definition: unknown,
  path: string,
  regExVerdicts: Readonly<Record<string, RegexVerdict>>,
): FieldError[] {
  if (!isObject(definition)) return [{ field: path, message: 'must be an object' }];
  const errors: FieldError[] = [];
  const fail = (key: string, message: string) => errors.push({ field: `${path}.${key}`, message });
  const given = (key: string): boolean => definition[key] != null;

  for (const key of Object.keys(definition)) {
    if (!DEFINITION_KEYS.includes(key)) fail(key, 'is not a property of a field definition');
  }

  const name = definition.name;
  if (name == null) fail('name', 'is required');
  else if (typeof name !== 'string') fail('name', 'must be a string');
  else if (name.length < 1 || name.length > NAME_MAX_LENGTH) {
    fail('name', `must be 1 to ${NAME_MAX_LENGTH} characters`);
  } else if (!NAME_PATTERN.test(name)) {
    fail('name', 'must start with a letter and hold only letters, digits and underscores');
  }

  checkText(definition.description, DESCRIPTION_MAX_LENGTH, (message) => fail('description', message));

  if (given('position') && (!isInteger(definition.position) || definition.position < 1)) {
    fail('position', 'must be an integer of at least 1');
  }
  for (const key of BOOLEAN_KEYS) {
    if (given(key) && typeof definition[key] !== 'boolean') fail(key, 'must be a boolean');
  }
  const isNumeric = definition.isNumeric === true;
  const isMultiValue = definition.isMultiValue === true;

  if (given('maxLength'))
    checkInteger(definition.maxLength, MAX_LENGTH_MIN, MAX_LENGTH_MAX, (m) => fail('maxLength', m));

  if (given('decimalPlaces')) {
    if (!isNumeric) fail('decimalPlaces', 'is only allowed when isNumeric is true');
    else checkInteger(definition.decimalPlaces, 0, DECIMAL_PLACES_MAX, (m) => fail('decimalPlaces', m));
  }

  const bounds: Record<string, boolean> = {};
  for (const key of ['numericMinValue', 'numericMaxValue']) {
    if (!given(key)) continue;
    const value = definition[key];
    if (!isNumeric) fail(key, 'is only allowed when isNumeric is true');
    else if (typeof value !== 'number' || !Number.isFinite(value)) fail(key, 'must be a finite number');
    else bounds[key] = true;
  }
  if (
    bounds.numericMinValue &&
    bounds.numericMaxValue &&
    (definition.numericMinValue as number) > (definition.numericMaxValue as number)
  ) {
    fail('numericMaxValue', 'must not be less than numericMinValue');
  }

  if (given('maxValues')) {
    if (!isMultiValue) fail('maxValues', 'is only allowed when isMultiValue is true');
    else checkInteger(definition.maxValues, MAX_VALUES_MIN, MAX_VALUES_MAX, (m) => fail('maxValues', m));
  }

  const regEx = definition.regEx;
  let hasRegEx = false;
  if (regEx != null) {
    if (typeof regEx !== 'string') fail('regEx', 'must be a string');
    else if (regEx !== '') {
      hasRegEx = true;
      if (isNumeric)
        fail('regEx', 'is not allowed on a numeric field; use decimalPlaces and the numeric range');
      else {
        const problem = regExProblem(
          regEx,
          Object.hasOwn(regExVerdicts, regEx) ? regExVerdicts[regEx] : undefined,
        );
        if (problem) fail('regEx', problem);
      }
    }
  }
  if (given('regExErrorMessage')) {
    checkText(definition.regExErrorMessage, REGEX_ERROR_MESSAGE_MAX_LENGTH, (m) =>
      fail('regExErrorMessage', m),
    );
    if (!hasRegEx && definition.regExErrorMessage !== '') {
      fail('regExErrorMessage', 'is only allowed with a regEx');
    }
  }

  if (definition.isRequired === true && definition.isEnabled === false) {
    fail('isRequired', 'a required field must be enabled');
  }

  for (const surface of CUSTOM_FIELD_SURFACES) {
    const settings = definition[surface];
    if (settings == null) continue;
    if (!isObject(settings)) {
      fail(surface, 'must be an object with visible and readOnly');
      continue;
    }
    for (const key of Object.keys(settings)) {
      if (!SURFACE_KEYS.includes(key)) fail(`${surface}.${key}`, 'is not a property of a surface setting');
    }
    for (const key of SURFACE_KEYS) {
      if (settings[key] != null && typeof settings[key] !== 'boolean')
        fail(`${surface}.${key}`, 'must be a boolean');
    }
    if (
      ENTRY_SURFACES.includes(surface) &&
      definition.isRequired === true &&
      settings.visible === true &&
      settings.readOnly === true
    ) {
      fail(`${surface}.readOnly`, 'a required field shown on this surface must be editable there');
    }
  }
  return errors;
}

/** Rules that need the whole set: unique names and positions, positions all given or none. */
function validateAcrossDefinitions(input: readonly unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Map<string, number>();
  const positions = new Map<number, number>();
  const withPosition = input.filter(
    (definition) => isObject(definition) && definition.position != null,
  ).length;
  input.forEach((definition, index) => {
    if (!isObject(definition)) return;
    const path = `fields[${index}]`;
    if (typeof definition.name === 'string' && definition.name !== '') {
      const key = definition.name.toLowerCase();
      const first = names.get(key);
      if (first === undefined) names.set(key, index);
      else
        errors.push({
          field: `${path}.name`,
          message: `is already used by fields[${first}] (names ignore case)`,
        });
    }
    const position = definition.position;
    if (position == null) {
      if (withPosition > 0) {
        errors.push({ field: `${path}.position`, message: 'is required when other fields give a position' });
      }
    } else if (isInteger(position)) {
      const first = positions.get(position);
      if (first === undefined) positions.set(position, index);
      else errors.push({ field: `${path}.position`, message: `is already used by fields[${first}]` });
    }
  });
  return errors;
}

function checkText(value: unknown, maxLength: number, fail: (message: string) => void): void {
  if (value == null) return;
  if (typeof value !== 'string') return fail('must be a string');
  if (characterCount(value) > maxLength) return fail(`must be at most ${maxLength} characters`);
  const unsafe = plainTextProblem(value);
  if (unsafe) fail(unsafe);
}

function checkInteger(value: unknown, min: number, max: number, fail: (message: string) => void): void {
  if (!isInteger(value) || value < min || value > max) fail(`must be an integer from ${min} to ${max}`);
}

/**
 * Why `regEx` cannot be used, or null. `verdict` is the analyser's (platform safe-regex.ts), run
 * by the caller before deciding because it takes time and runs outside the event loop; a pattern
 * without a `safe` verdict is refused (fail closed).
 */
export function regExProblem(regEx: string, verdict: RegexVerdict | undefined): string | null {
  const form = regExFormProblem(regEx);
  return form ?? verdictProblem(verdict);
}

/** The checks that need no analyser: length, JavaScript syntax, and linear-time matchability. */
function regExFormProblem(regEx: string): string | null {
  if (characterCount(regEx) > REGEX_MAX_LENGTH) return `must be at most ${REGEX_MAX_LENGTH} characters`;
  try {
    new RegExp(regEx);
  } catch {
    return 'must be a valid JavaScript regular expression (no flags, no inline modifiers)';
  }
  const linear = compileLinearRegex(regEx);
  return linear.ok ? null : linear.message;
}

/**
 * The patterns of a `fields` value worth sending to the analyser: well-formed ones of text
 * fields, each once. None when the set is over the limit (it is refused whatever the patterns),
 * so a body cannot queue unbounded analysis work.
 */
export function regExPatternsToAnalyse(input: unknown): string[] {
  if (!Array.isArray(input) || input.length > CUSTOM_FIELDS_MAX) return [];
  const patterns = new Set<string>();
  for (const definition of input) {
    if (!isObject(definition) || definition.isNumeric === true) continue;
    const regEx = definition.regEx;
    if (typeof regEx === 'string' && regEx !== '' && regExFormProblem(regEx) === null) patterns.add(regEx);
  }
  return [...patterns];
}

/**
 * Whether a stored value fits its field's `regEx`: the WHOLE value must match. Matched in linear
 * time (platform linear-regex.ts), so a stored pattern the analyser would now refuse is still
 * matched safely. Null when the stored pattern uses a feature the linear matcher cannot run
 * (configurations stored before that rule): the value cannot be checked.
 */
export function matchesRegEx(regEx: string, value: string): boolean | null {
  return linearFullMatch(regEx, value);
}

const surfaceSettings = (input: CustomFieldDefinitionInput[CustomFieldSurface]): SurfaceSettings => ({
  visible: input?.visible ?? false,
  readOnly: input?.readOnly ?? false,
});

/**
 * The stored set: defaults applied, properties that do not apply set to null, ordered by
 * position (array order gives the positions when none is sent). Validate first.
 */
export function normalizeFields(
  input: readonly CustomFieldDefinitionInput[] | null | undefined,
): CustomFieldDefinition[] {
  return (input ?? [])
    .map((field, index): CustomFieldDefinition => {
      const isNumeric = field.isNumeric ?? false;
      const isMultiValue = field.isMultiValue ?? false;
      const regEx = isNumeric || !field.regEx ? null : field.regEx;
      return {
        name: field.name,
        description: field.description || null,
        position: field.position ?? index + 1,
        isRequired: field.isRequired ?? false,
        isEnabled: field.isEnabled ?? true,
        isNumeric,
        decimalPlaces: isNumeric ? (field.decimalPlaces ?? DEFAULT_DECIMAL_PLACES) : null,
        maxLength: field.maxLength ?? DEFAULT_MAX_LENGTH,
        isMultiValue,
        maxValues: isMultiValue ? (field.maxValues ?? DEFAULT_MAX_VALUES) : null,
        regEx,
        regExErrorMessage: regEx === null ? null : field.regExErrorMessage || null,
        // `+ 0` turns -0 into 0: JSON cannot keep the difference anyway.
        numericMinValue: isNumeric && field.numericMinValue != null ? field.numericMinValue + 0 : null,
        numericMaxValue: isNumeric && field.numericMaxValue != null ? field.numericMaxValue + 0 : null,
        virtualTerminal: surfaceSettings(field.virtualTerminal),
        hostedPaymentPage: surfaceSettings(field.hostedPaymentPage),
        transactionReports: surfaceSettings(field.transactionReports),
      };
    })
    .sort((a, b) => a.position - b.position);
}

/**
 * Whether two stored sets are the same, property by property: stored events come back from JSON
 * storage with their keys in any order, so serialised text is not compared.
 */
export function sameFields(
  a: readonly CustomFieldDefinition[],
  b: readonly CustomFieldDefinition[],
): boolean {
  return a.length === b.length && a.every((field, index) => sameDefinition(field, b[index]));
}

function sameDefinition(a: CustomFieldDefinition, b: CustomFieldDefinition): boolean {
  const keys = Object.keys(a) as (keyof CustomFieldDefinition)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => {
      const left = a[key];
      const right = b[key];
      if (isObject(left) && isObject(right)) {
        return left.visible === right.visible && left.readOnly === right.readOnly;
      }
      return left === right;
    })
  );
}
