import { normalizeFields, type CustomFieldDefinitionInput } from './custom-field-definition';
import {
  CUSTOM_FIELD_VALUES_MAX,
  DEFAULT_REGEX_ERROR_MESSAGE,
  UNCHECKABLE_REGEX_MESSAGE,
  findCustomField,
  normalizeCustomFieldValues,
  validateCustomFieldValues,
  type CustomFieldValueSurface,
} from './custom-field-values';

const config = (...fields: CustomFieldDefinitionInput[]) => ({ fields: normalizeFields(fields) });
const v = (name: string, value: string) => ({ name, value });
const paths = (errors: { field: string }[]) => errors.map((error) => error.field).sort();

describe('the shape of custom_fields', () => {
  const state = config({ name: 'Ref' });
  it.each<[string, unknown, string[]]>([
    ['absent', undefined, []],
    ['null', null, []],
    ['empty', [], []],
    ['one value', [v('Ref', 'A1')], []],
    ['an object', { Ref: 'A1' }, ['custom_fields']],
    ['a string', 'Ref=A1', ['custom_fields']],
    [
      'an entry that is not an object',
      ['Ref', null, [v('Ref', 'x')]],
      ['custom_fields[0]', 'custom_fields[1]', 'custom_fields[2]'],
    ],
    ['an extra key', [{ name: 'Ref', value: 'A1', label: 'x' }], ['custom_fields[0].label']],
    ['no name', [{ value: 'A1' }], ['custom_fields[0].name']],
    ['no value', [{ name: 'Ref' }], ['custom_fields[0].value']],
    ['a null value', [{ name: 'Ref', value: null }], ['custom_fields[0].value']],
    ['a numeric value', [{ name: 'Ref', value: 12 }], ['custom_fields[0].value']],
    ['a numeric name', [{ name: 12, value: 'x' }], ['custom_fields[0].name']],
  ])('%s', (_case, values, expected) =>
    expect(paths(validateCustomFieldValues(state, values, 'api'))).toEqual(expected),
  );

  it('refuses more entries than any configuration can take, once', () => {
    const values = Array.from({ length: CUSTOM_FIELD_VALUES_MAX + 1 }, () => v('Nope', 'x'));
    expect(paths(validateCustomFieldValues(state, values, 'api'))).toEqual(['custom_fields']);
  });
});

describe('names, repetitions and required fields', () => {
  const state = config(
    { name: 'Ref', isRequired: true },
    { name: 'Note' },
    { name: 'Old', isEnabled: false },
    { name: 'Sku', isMultiValue: true, maxValues: 3 },
    { name: 'Tag', isMultiValue: true },
  );
  const ref = v('Ref', 'A1');
  it.each<[string, unknown[], string[]]>([
    ['the required field only', [ref], []],
    ['all of them', [ref, v('Note', 'n'), v('Sku', '1'), v('Tag', 't')], []],
    ['a name in another case', [v('REF', 'A1'), v('note', 'n')], []],
    ['an unknown name', [ref, v('Colour', 'red')], ['custom_fields[1].name']],
    ['a disabled field', [ref, v('Old', 'x')], ['custom_fields[1].name']],
    ['the required field missing', [v('Note', 'n')], ['custom_fields']],
    ['nothing at all', [], ['custom_fields']],
    ['the required field blank', [v('Ref', '   ')], ['custom_fields[0].value']],
    ['the required field empty', [v('Ref', '')], ['custom_fields[0].value']],
    ['the required field blank and then filled', [v('Ref', ''), v('Ref', 'A1')], ['custom_fields[1].name']],
    ['an optional field blank', [ref, v('Note', ' ')], []],
    ['a single-value field twice', [ref, v('Note', 'a'), v('Note', 'b')], ['custom_fields[2].name']],
    [
      'a single-value field twice in two cases',
      [ref, v('Note', 'a'), v('NOTE', 'a')],
      ['custom_fields[2].name'],
    ],
    ['a multi-value field up to maxValues', [ref, v('Sku', '1'), v('Sku', '2'), v('Sku', '2')], []],
    [
      'a multi-value field beyond maxValues',
      [ref, v('Sku', '1'), v('Sku', '2'), v('Sku', '3'), v('Sku', '4')],
      ['custom_fields[4].name'],
    ],
    [
      'a multi-value field at its default of 10',
      [ref, ...Array.from({ length: 10 }, (_, i) => v('Tag', `${i}`))],
      [],
    ],
    [
      'a multi-value field beyond its default of 10',
      [ref, ...Array.from({ length: 11 }, (_, i) => v('Tag', `${i}`))],
      ['custom_fields[11].name'],
    ],
  ])('%s', (_case, values, expected) =>
    expect(paths(validateCustomFieldValues(state, values, 'api'))).toEqual(expected),
  );

  it('refuses every value when nothing is configured', () =>
    expect(paths(validateCustomFieldValues({ fields: [] }, [v('Ref', 'x')], 'api'))).toEqual([
      'custom_fields[0].name',
    ]));
});

describe('the values themselves', () => {
  const state = config(
    { name: 'Code', maxLength: 5 },
    { name: 'Emoji', maxLength: 2 },
    { name: 'Po', regEx: '[A-Z]{2}-\\d{4}', regExErrorMessage: 'use AB-1234' },
    { name: 'Alt', regEx: 'a|b' },
    { name: 'Qty', isNumeric: true },
    { name: 'Rate', isNumeric: true, decimalPlaces: 2, numericMinValue: 0.1, numericMaxValue: 99.99 },
    { name: 'Temp', isNumeric: true, decimalPlaces: 1, numericMinValue: -40 },
    { name: 'Huge', isNumeric: true, numericMaxValue: Number('9007199254740993') }, // not a double: it is ...992
  );
  // [name, value, accepted]
  it.each<[string, string, boolean]>([
    ['Code', 'ABCDE', true],
    ['Code', 'ABCDEF', false],
    ['Code', '  ABCDE  ', true], // trimmed first
    ['Code', 'AB\u0000C', false],
    ['Code', 'A\tB', false],
    ['Code', 'A\u007fB', false],
    ['Code', 'A\u001bB', false], // ESC
    ['Code', 'A\u0007B', false], // BEL
    ['Code', 'A\rB', false],
    ['Code', 'A\nB', false],
    ['Code', 'A\u009bB', false], // C1 CSI
    ['Code', 'A\u202eB', false], // right-to-left override
    ['Code', 'A\u2066B', false], // left-to-right isolate
    ['Code', 'A\u200fB', false], // right-to-left mark
    ['Code', 'A\u061cB', false], // Arabic letter mark
    ['Code', 'Zoë', true],
    ['Emoji', '😀😀', true], // two characters, four UTF-16 units
    ['Emoji', '😀😀😀', false],
    ['Po', 'AB-1234', true],
    ['Po', ' AB-1234 ', true],
    ['Po', 'xAB-1234', false], // anchored at the start
    ['Po', 'AB-12345', false], // and at the end
    ['Po', 'ab-1234', false],
    ['Alt', 'a', true],
    ['Alt', 'b', true],
    ['Alt', 'ab', false], // the whole alternation is anchored, not just its ends
    ['Alt', 'xb', false],
    ['Qty', '0', true],
    ['Qty', '42', true],
    ['Qty', '-3', true],
    ['Qty', '007', true],
    ['Qty', '1.0', false], // 0 decimal places by default
    ['Qty', '1.5', false],
    ['Qty', '1e3', false],
    ['Qty', '+1', false],
    ['Qty', '1,000', false],
    ['Qty', 'abc', false],
    ['Qty', '.5', false],
    ['Qty', '5.', false],
    ['Qty', '١٢', false], // not ASCII digits
    ['Rate', '0.1', true], // exactly the minimum, no float drift
    ['Rate', '0.10', true],
    ['Rate', '0.09', false],
    ['Rate', '99.99', true], // exactly the maximum
    ['Rate', '99.990', false], // three decimal places
    ['Rate', '100', false],
    ['Rate', '-0', false],
    ['Rate', '12.345', false],
    ['Rate', '12.34', true],
    ['Temp', '-40', true],
    ['Temp', '-40.0', true],
    ['Temp', '-40.1', false],
    ['Temp', '1000000000000000000000000', true], // no maximum
    ['Huge', '9007199254740992', true],
    ['Huge', '9007199254740993', false], // the configured number is the double 9007199254740992
  ])('%s = %j accepted: %p', (name, value, accepted) =>
    expect(paths(validateCustomFieldValues(state, [v(name, value)], 'api'))).toEqual(
      accepted ? [] : ['custom_fields[0].value'],
    ),
  );

  it('gives the configured regEx message, or a default', () => {
    expect(validateCustomFieldValues(state, [v('Po', 'nope')], 'api')).toEqual([
      { field: 'custom_fields[0].value', message: 'use AB-1234' },
    ]);
    expect(validateCustomFieldValues(state, [v('Alt', 'c')], 'api')).toEqual([
      { field: 'custom_fields[0].value', message: DEFAULT_REGEX_ERROR_MESSAGE },
    ]);
  });

  it('refuses a control or bidi character in a name, naming it', () =>
    expect(paths(validateCustomFieldValues(state, [v('Code\u202e', 'A')], 'api'))).toEqual([
      'custom_fields[0].name',
    ]));

  it('refuses a value for a stored pattern the linear matcher cannot run, saying why', () => {
    const legacy = config({ name: 'Twice', regEx: '(a)\\1' });
    expect(validateCustomFieldValues(legacy, [v('Twice', 'aa')], 'api')).toEqual([
      { field: 'custom_fields[0].value', message: UNCHECKABLE_REGEX_MESSAGE },
    ]);
  });

  // Patterns stored before the analyser (or written to hurt): every known ReDoS family, each
  // against its hostile input of the longest value a field takes. A backtracking engine needs
  // seconds to forever on these; the bound is generous on purpose (a slow, shared machine).
  it.each([
    ['(a+)+$', 'a'.repeat(999) + '!'],
    ['(a|a)*$', 'a'.repeat(999) + '!'],
    ['(a|aa)+$', 'a'.repeat(999) + '!'],
    ['\\d*\\d*\\d*\\d*x', '1'.repeat(1000)],
    ['(.*a){12}', 'a'.repeat(1000)],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', 'a'.repeat(1000)],
  ])('matches %s against a hostile 1,000-character value in bounded time', (regEx, value) => {
    const hostile = config({ name: 'Ref', regEx, maxLength: 1000 });
    const started = process.hrtime.bigint();
    const errors = validateCustomFieldValues(hostile, [v('Ref', value)], 'api');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(ms).toBeLessThan(500);
    expect(errors.length).toBeLessThanOrEqual(1);
  });

  it('reports every broken entry', () =>
    expect(
      paths(
        validateCustomFieldValues(state, [v('Code', 'TOOLONG'), v('Qty', 'x'), v('Po', 'AB-1234')], 'api'),
      ),
    ).toEqual(['custom_fields[0].value', 'custom_fields[1].value']));
});

describe('surfaces', () => {
  const state = config(
    { name: 'Open', hostedPaymentPage: { visible: true }, virtualTerminal: { visible: true } },
    {
      name: 'Locked',
      hostedPaymentPage: { visible: true, readOnly: true },
      virtualTerminal: { visible: true, readOnly: true },
    },
    { name: 'Hidden' },
    {
      name: 'AskedRequired',
      isRequired: true,
      hostedPaymentPage: { visible: true },
      virtualTerminal: { visible: true },
    },
    { name: 'HiddenRequired', isRequired: true },
  );
  const required = [v('AskedRequired', 'x')];
  // [surface, values, error paths]
  it.each<[CustomFieldValueSurface, unknown[], string[]]>([
    ['api', [...required, v('HiddenRequired', 'x'), v('Open', 'o'), v('Locked', 'l'), v('Hidden', 'h')], []],
    ['api', required, ['custom_fields']], // HiddenRequired is required through the API
    ['hostedPaymentPage', required, []], // HiddenRequired is not the payer's to fill
    ['hostedPaymentPage', [...required, v('Open', 'o')], []],
    ['hostedPaymentPage', [...required, v('Locked', 'l')], ['custom_fields[1].name']],
    ['hostedPaymentPage', [...required, v('Hidden', 'h')], ['custom_fields[1].name']],
    ['hostedPaymentPage', [...required, v('HiddenRequired', 'x')], ['custom_fields[1].name']],
    ['hostedPaymentPage', [], ['custom_fields']],
    ['hostedPaymentPage', [v('AskedRequired', ' ')], ['custom_fields[0].value']],
    ['virtualTerminal', required, []],
    ['virtualTerminal', [...required, v('Open', 'o')], []],
    ['virtualTerminal', [...required, v('Locked', 'l')], ['custom_fields[1].name']],
    ['virtualTerminal', [...required, v('Hidden', 'h')], ['custom_fields[1].name']],
    ['virtualTerminal', [], ['custom_fields']],
  ])('%s with %j', (surface, values, expected) =>
    expect(paths(validateCustomFieldValues(state, values, surface))).toEqual(expected),
  );

  it('keeps the surfaces apart', () => {
    const hppOnly = config({ name: 'PageOnly', hostedPaymentPage: { visible: true } });
    expect(validateCustomFieldValues(hppOnly, [v('PageOnly', 'x')], 'hostedPaymentPage')).toEqual([]);
    expect(paths(validateCustomFieldValues(hppOnly, [v('PageOnly', 'x')], 'virtualTerminal'))).toEqual([
      'custom_fields[0].name',
    ]);
  });
});

describe('normalizeCustomFieldValues', () => {
  const state = config({ name: 'Ref' }, { name: 'Sku', isMultiValue: true });

  it.each<[string, unknown, { name: string; value: string }[]]>([
    ['absent', undefined, []],
    ['null', null, []],
    ['values trimmed, configured spelling', [v('ref', '  A1 ')], [v('Ref', 'A1')]],
    ['blank values dropped', [v('Ref', '  '), v('Sku', '1')], [v('Sku', '1')]],
    [
      'order kept',
      [v('Sku', '2'), v('Ref', 'r'), v('Sku', '1')],
      [v('Sku', '2'), v('Ref', 'r'), v('Sku', '1')],
    ],
    ['unknown names dropped', [v('Nope', 'x')], []],
    ['bad entries dropped', [null, { name: 'Ref' }, { name: 'Ref', value: 3 }], []],
  ])('%s', (_case, values, expected) => expect(normalizeCustomFieldValues(state, values)).toEqual(expected));
});

describe('findCustomField', () => {
  const state = config({ name: 'InvoiceRef', isEnabled: false });
  it.each([
    ['InvoiceRef', true],
    ['invoiceref', true],
    ['Invoice', false],
  ])('%s found: %p', (name, found) => expect(findCustomField(state, name) !== undefined).toBe(found));
});
