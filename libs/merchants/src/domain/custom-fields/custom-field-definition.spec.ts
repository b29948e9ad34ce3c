import {
  CUSTOM_FIELDS_MAX,
  isEmptyFieldsInput,
  matchesRegEx,
  normalizeFields,
  regExPatternsToAnalyse,
  regExProblem,
  sameFields,
  validateFieldDefinitions,
  type CustomFieldDefinition,
  type CustomFieldDefinitionInput,
} from './custom-field-definition';
import type { RegexVerdict } from '../../../../platform/src/validation/safe-regex';

const fieldsOf = (errors: { field: string }[]) => errors.map((error) => error.field);
const one = (extra: Record<string, unknown> = {}) => [{ name: 'InvoiceRef', ...extra }];

/**
 * The analyser's verdicts as the handler would pass them: the platform's analyser is proven on
 * the ReDoS families in platform/src/validation/safe-regex.spec.ts; here its answer is an input.
 */
const ANALYSED: Record<string, RegexVerdict> = { '(a+)+': 'vulnerable', '(x|x)*y': 'unknown' };
const verdictsFor = (fields: unknown): Record<string, RegexVerdict> =>
  Object.fromEntries(regExPatternsToAnalyse(fields).map((p) => [p, ANALYSED[p] ?? 'safe']));
const validate = (fields: unknown) => validateFieldDefinitions(fields, verdictsFor(fields));

describe('validateFieldDefinitions', () => {
  // [case, fields, the paths of the errors expected]
  const cases: [string, unknown, string[]][] = [
    ['absent (clears)', undefined, []],
    ['null (clears)', null, []],
    ['empty (clears)', [], []],
    ['a name only', one(), []],
    ['not an array', { name: 'x' }, ['fields']],
    ['a string', 'InvoiceRef', ['fields']],
    ['ten fields', Array.from({ length: 10 }, (_, i) => ({ name: `f${i}` })), []],
    ['eleven fields', Array.from({ length: 11 }, (_, i) => ({ name: `f${i}` })), ['fields']],
    [
      'an entry that is not an object',
      [{ name: 'a' }, 'b', null, []],
      ['fields[1]', 'fields[2]', 'fields[3]'],
    ],
    ['an unknown property', one({ label: 'x' }), ['fields[0].label']],
    ['a snake_case property', one({ is_required: true }), ['fields[0].is_required']],

    ['name missing', [{ description: 'x' }], ['fields[0].name']],
    ['name null', [{ name: null }], ['fields[0].name']],
    ['name a number', [{ name: 12 }], ['fields[0].name']],
    ['name empty', [{ name: '' }], ['fields[0].name']],
    ['name of 50', [{ name: 'a'.repeat(50) }], []],
    ['name of 51', [{ name: 'a'.repeat(51) }], ['fields[0].name']],
    ['name with digits and underscore', [{ name: 'po_Number_2' }], []],
    ['name starting with a digit', [{ name: '2nd' }], ['fields[0].name']],
    ['name starting with underscore', [{ name: '_x' }], ['fields[0].name']],
    ['name with a space', [{ name: 'po number' }], ['fields[0].name']],
    ['name with a hyphen', [{ name: 'po-number' }], ['fields[0].name']],
    ['name not ASCII', [{ name: 'référence' }], ['fields[0].name']],
    ['names equal ignoring case', [{ name: 'Ref' }, { name: 'other' }, { name: 'REF' }], ['fields[2].name']],

    ['description of 255', one({ description: 'd'.repeat(255) }), []],
    ['description of 256', one({ description: 'd'.repeat(256) }), ['fields[0].description']],
    ['description of 255 emoji (code points)', one({ description: '😀'.repeat(255) }), []],
    ['description a number', one({ description: 5 }), ['fields[0].description']],
    ['description null', one({ description: null }), []],

    [
      'positions all given',
      [
        { name: 'a', position: 2 },
        { name: 'b', position: 1 },
      ],
      [],
    ],
    [
      'sparse positions',
      [
        { name: 'a', position: 10 },
        { name: 'b', position: 20 },
      ],
      [],
    ],
    ['position 0', one({ position: 0 }), ['fields[0].position']],
    ['position negative', one({ position: -1 }), ['fields[0].position']],
    ['position fractional', one({ position: 1.5 }), ['fields[0].position']],
    ['position a string', one({ position: '1' }), ['fields[0].position']],
    [
      'positions repeated',
      [
        { name: 'a', position: 1 },
        { name: 'b', position: 1 },
      ],
      ['fields[1].position'],
    ],
    ['positions on some only', [{ name: 'a', position: 1 }, { name: 'b' }], ['fields[1].position']],

    ...(['isRequired', 'isEnabled', 'isNumeric', 'isMultiValue'] as const).flatMap(
      (key): [string, unknown, string[]][] => [
        [`${key} true`, one({ [key]: true }), []],
        [`${key} false`, one({ [key]: false }), []],
        [`${key} null`, one({ [key]: null }), []],
        [`${key} "true"`, one({ [key]: 'true' }), [`fields[0].${key}`]],
        [`${key} 1`, one({ [key]: 1 }), [`fields[0].${key}`]],
      ],
    ),

    ['maxLength 1', one({ maxLength: 1 }), []],
    ['maxLength 1000', one({ maxLength: 1000 }), []],
    ['maxLength 0', one({ maxLength: 0 }), ['fields[0].maxLength']],
    ['maxLength 1001', one({ maxLength: 1001 }), ['fields[0].maxLength']],
    ['maxLength fractional', one({ maxLength: 10.5 }), ['fields[0].maxLength']],
    ['maxLength on a numeric field', one({ isNumeric: true, maxLength: 12 }), []],

    ['decimalPlaces on a numeric field', one({ isNumeric: true, decimalPlaces: 2 }), []],
    ['decimalPlaces 0', one({ isNumeric: true, decimalPlaces: 0 }), []],
    ['decimalPlaces 6', one({ isNumeric: true, decimalPlaces: 6 }), []],
    ['decimalPlaces 7', one({ isNumeric: true, decimalPlaces: 7 }), ['fields[0].decimalPlaces']],
    ['decimalPlaces -1', one({ isNumeric: true, decimalPlaces: -1 }), ['fields[0].decimalPlaces']],
    ['decimalPlaces on a text field', one({ decimalPlaces: 2 }), ['fields[0].decimalPlaces']],
    [
      'decimalPlaces with isNumeric false',
      one({ isNumeric: false, decimalPlaces: 2 }),
      ['fields[0].decimalPlaces'],
    ],

    ['a numeric range', one({ isNumeric: true, numericMinValue: -10.5, numericMaxValue: 99.99 }), []],
    ['min equal to max', one({ isNumeric: true, numericMinValue: 5, numericMaxValue: 5 }), []],
    ['min only', one({ isNumeric: true, numericMinValue: 0 }), []],
    [
      'min above max',
      one({ isNumeric: true, numericMinValue: 6, numericMaxValue: 5 }),
      ['fields[0].numericMaxValue'],
    ],
    ['min a string', one({ isNumeric: true, numericMinValue: '1' }), ['fields[0].numericMinValue']],
    ['max not finite', one({ isNumeric: true, numericMaxValue: Infinity }), ['fields[0].numericMaxValue']],
    ['max NaN', one({ isNumeric: true, numericMaxValue: NaN }), ['fields[0].numericMaxValue']],
    ['min on a text field', one({ numericMinValue: 1 }), ['fields[0].numericMinValue']],
    ['max on a text field', one({ numericMaxValue: 1 }), ['fields[0].numericMaxValue']],

    ['maxValues on a multi-value field', one({ isMultiValue: true, maxValues: 5 }), []],
    ['maxValues 2', one({ isMultiValue: true, maxValues: 2 }), []],
    ['maxValues 50', one({ isMultiValue: true, maxValues: 50 }), []],
    ['maxValues 1', one({ isMultiValue: true, maxValues: 1 }), ['fields[0].maxValues']],
    ['maxValues 51', one({ isMultiValue: true, maxValues: 51 }), ['fields[0].maxValues']],
    ['maxValues on a single-value field', one({ maxValues: 3 }), ['fields[0].maxValues']],

    ['a regEx', one({ regEx: '[A-Z]{2}-\\d{4}' }), []],
    ['a regEx with its message', one({ regEx: '\\d+', regExErrorMessage: 'digits only' }), []],
    ['an empty regEx (none)', one({ regEx: '' }), []],
    ['a regEx of 500', one({ regEx: 'a'.repeat(500) }), []],
    ['a regEx of 501', one({ regEx: 'a'.repeat(501) }), ['fields[0].regEx']],
    ['a regEx that does not compile', one({ regEx: '[a-z' }), ['fields[0].regEx']],
    ['an unbalanced group', one({ regEx: 'a)|(?:b' }), ['fields[0].regEx']],
    ['an inline flag (not JavaScript)', one({ regEx: '(?i)abc' }), ['fields[0].regEx']],
    ['a regEx the analyser finds vulnerable', one({ regEx: '(a+)+' }), ['fields[0].regEx']],
    ['a regEx the analyser cannot decide', one({ regEx: '(x|x)*y' }), ['fields[0].regEx']],
    ['a backreference (no linear matcher)', one({ regEx: '(a)\\1' }), ['fields[0].regEx']],
    ['a named backreference', one({ regEx: '(?<c>[A-Z]+)-\\k<c>' }), ['fields[0].regEx']],
    ['a lookahead', one({ regEx: '(?=a+)b' }), ['fields[0].regEx']],
    ['a lookbehind', one({ regEx: '(?<=a)b' }), ['fields[0].regEx']],
    ['\\z (a letter to JavaScript, an anchor elsewhere)', one({ regEx: 'a\\z' }), ['fields[0].regEx']],
    ['\\p{L} (a letter to JavaScript without u)', one({ regEx: '\\p{L}+' }), ['fields[0].regEx']],
    ['a POSIX class', one({ regEx: '[[:alpha:]]+' }), ['fields[0].regEx']],
    ['a description with ESC', one({ description: 'Invoice \u001b[31m' }), ['fields[0].description']],
    ['a description with LF', one({ description: 'two\nlines' }), ['fields[0].description']],
    ['a description with U+202E', one({ description: 'ref \u202Efdp.exe' }), ['fields[0].description']],
    ['a description with accents and emoji', one({ description: 'Référence 🧾' }), []],
    [
      'a message with BEL',
      one({ regEx: 'x', regExErrorMessage: 'wrong\u0007' }),
      ['fields[0].regExErrorMessage'],
    ],
    ['a regEx a number', one({ regEx: 5 }), ['fields[0].regEx']],
    ['a regEx on a numeric field', one({ isNumeric: true, regEx: '\\d+' }), ['fields[0].regEx']],
    ['a message without regEx', one({ regExErrorMessage: 'x' }), ['fields[0].regExErrorMessage']],
    ['an empty message without regEx', one({ regExErrorMessage: '' }), []],
    [
      'a message of 256',
      one({ regEx: 'x', regExErrorMessage: 'm'.repeat(256) }),
      ['fields[0].regExErrorMessage'],
    ],
    ['a message a number', one({ regEx: 'x', regExErrorMessage: 1 }), ['fields[0].regExErrorMessage']],

    ['required and enabled', one({ isRequired: true, isEnabled: true }), []],
    ['required and disabled', one({ isRequired: true, isEnabled: false }), ['fields[0].isRequired']],
    ['optional and disabled', one({ isEnabled: false }), []],

    [
      'surfaces set',
      one({ virtualTerminal: { visible: true }, hostedPaymentPage: { visible: true, readOnly: true } }),
      [],
    ],
    ['a surface null', one({ transactionReports: null }), []],
    ['a surface empty', one({ transactionReports: {} }), []],
    ['a surface not an object', one({ virtualTerminal: true }), ['fields[0].virtualTerminal']],
    ['a surface an array', one({ virtualTerminal: [] }), ['fields[0].virtualTerminal']],
    [
      'a surface with an unknown key',
      one({ hostedPaymentPage: { editable: true } }),
      ['fields[0].hostedPaymentPage.editable'],
    ],
    [
      'visible a string',
      one({ transactionReports: { visible: 'yes' } }),
      ['fields[0].transactionReports.visible'],
    ],
    ['readOnly a number', one({ virtualTerminal: { readOnly: 0 } }), ['fields[0].virtualTerminal.readOnly']],
    [
      'required, shown read-only on the hosted page',
      one({ isRequired: true, hostedPaymentPage: { visible: true, readOnly: true } }),
      ['fields[0].hostedPaymentPage.readOnly'],
    ],
    [
      'required, shown read-only on the virtual terminal',
      one({ isRequired: true, virtualTerminal: { visible: true, readOnly: true } }),
      ['fields[0].virtualTerminal.readOnly'],
    ],
    [
      'required, read-only but hidden there',
      one({ isRequired: true, hostedPaymentPage: { readOnly: true } }),
      [],
    ],
    [
      'required, read-only in reports',
      one({ isRequired: true, transactionReports: { visible: true, readOnly: true } }),
      [],
    ],
    ['required, editable on the page', one({ isRequired: true, hostedPaymentPage: { visible: true } }), []],

    [
      'several errors at once, each named',
      [
        { name: 'a', isNumeric: true, regEx: 'x', maxValues: 2 },
        { name: 'A', position: 1 },
      ],
      ['fields[0].maxValues', 'fields[0].regEx', 'fields[1].name', 'fields[0].position'],
    ],
  ];

  it.each(cases)('%s', (_case, fields, expected) =>
    expect(fieldsOf(validate(fields)).sort()).toEqual([...expected].sort()),
  );

  it('gives every error a message', () => {
    for (const [, fields] of cases) {
      for (const error of validate(fields)) expect(error.message).toEqual(expect.any(String));
    }
  });

  it('refuses a pattern the analyser was not asked about (fail closed)', () =>
    expect(fieldsOf(validateFieldDefinitions(one({ regEx: '[A-Z]{2}-\\d{4}' })))).toEqual([
      'fields[0].regEx',
    ]));

  it('allows exactly the limit', () => expect(CUSTOM_FIELDS_MAX).toBe(10));
});

describe('regExProblem', () => {
  it('takes only a safe verdict', () => {
    expect(regExProblem('\\d{4}', 'safe')).toBeNull();
    expect(regExProblem('\\d{4}', 'vulnerable')).toMatch(/super-linear/);
    expect(regExProblem('\\d{4}', 'unknown')).not.toBeNull();
    expect(regExProblem('\\d{4}', undefined)).not.toBeNull();
  });

  it('refuses what does not compile whatever the verdict', () =>
    expect(regExProblem('(', 'safe')).not.toBeNull());

  it('lists for analysis only well-formed patterns of text fields, each once, within the limit', () => {
    expect(
      regExPatternsToAnalyse([
        { name: 'a', regEx: '\\d+' },
        { name: 'b', regEx: '\\d+' },
        { name: 'c', regEx: '(' },
        { name: 'd', regEx: '(a)\\1' },
        { name: 'e', regEx: '' },
        { name: 'f', isNumeric: true, regEx: 'x' },
        { name: 'g', regEx: 7 },
      ]),
    ).toEqual(['\\d+']);
    expect(
      regExPatternsToAnalyse(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, regEx: `${i}` }))),
    ).toEqual([]);
  });
});

describe('matchesRegEx', () => {
  it('matches the whole value, as ^(?:regEx)$ would', () => {
    expect(matchesRegEx('[A-Z]{2}-\\d{4}', 'AB-1234')).toBe(true);
    expect(matchesRegEx('[A-Z]{2}-\\d{4}', 'xAB-1234')).toBe(false);
    expect(matchesRegEx('a|ab', 'ab')).toBe(true);
    expect(matchesRegEx('^INV-[0-9]+$', 'INV-42')).toBe(true);
  });

  it('still matches, in linear time, a stored pattern the analyser would now refuse', () => {
    expect(matchesRegEx('\\d*\\d*\\d*\\d*x', '1'.repeat(1000))).toBe(false);
    expect(matchesRegEx('(a+)+$', 'a'.repeat(1000))).toBe(true);
  });

  it('cannot check a stored pattern the linear matcher cannot run (null)', () =>
    expect(matchesRegEx('(a)\\1', 'aa')).toBeNull());
});

describe('normalizeFields', () => {
  const defaults = (name: string, position: number): CustomFieldDefinition => ({
    name,
    description: null,
    position,
    isRequired: false,
    isEnabled: true,
    isNumeric: false,
    decimalPlaces: null,
    maxLength: 255,
    isMultiValue: false,
    maxValues: null,
    regEx: null,
    regExErrorMessage: null,
    numericMinValue: null,
    numericMaxValue: null,
    virtualTerminal: { visible: false, readOnly: false },
    hostedPaymentPage: { visible: false, readOnly: false },
    transactionReports: { visible: false, readOnly: false },
  });

  it('applies the spec defaults and gives array order as positions', () =>
    expect(normalizeFields([{ name: 'a' }, { name: 'b' }])).toEqual([defaults('a', 1), defaults('b', 2)]));

  it('treats absent and null as empty', () => {
    expect(normalizeFields(undefined)).toEqual([]);
    expect(normalizeFields(null)).toEqual([]);
  });

  it('orders by the positions given', () =>
    expect(
      normalizeFields([
        { name: 'a', position: 20 },
        { name: 'b', position: 10 },
      ]).map((f) => f.name),
    ).toEqual(['b', 'a']));

  it.each<[string, CustomFieldDefinitionInput, Partial<CustomFieldDefinition>]>([
    ['numeric: 0 decimal places by default', { name: 'n', isNumeric: true }, { decimalPlaces: 0 }],
    [
      'numeric: range kept',
      { name: 'n', isNumeric: true, numericMinValue: -0, numericMaxValue: 9.5 },
      { numericMinValue: 0, numericMaxValue: 9.5 },
    ],
    ['multi-value: 10 values by default', { name: 'm', isMultiValue: true }, { maxValues: 10 }],
    ['multi-value: maxValues kept', { name: 'm', isMultiValue: true, maxValues: 3 }, { maxValues: 3 }],
    ['empty description is null', { name: 'd', description: '' }, { description: null }],
    [
      'empty regEx is none, and so is its message',
      { name: 'r', regEx: '', regExErrorMessage: '' },
      { regEx: null, regExErrorMessage: null },
    ],
    [
      'regEx and message kept',
      { name: 'r', regEx: '\\d+', regExErrorMessage: 'digits' },
      { regEx: '\\d+', regExErrorMessage: 'digits' },
    ],
    [
      'nulls are defaults',
      { name: 'x', isEnabled: null, maxLength: null, hostedPaymentPage: null },
      { isEnabled: true, maxLength: 255 },
    ],
    [
      'partial surface',
      { name: 's', virtualTerminal: { visible: true } },
      { virtualTerminal: { visible: true, readOnly: false } },
    ],
    [
      'explicit values kept',
      { name: 'e', isRequired: true, isEnabled: false, maxLength: 20 },
      { isRequired: true, isEnabled: false, maxLength: 20 },
    ],
  ])('%s', (_case, input, expected) => expect(normalizeFields([input])[0]).toMatchObject(expected));
});

describe('sameFields', () => {
  const base = normalizeFields([
    { name: 'a', hostedPaymentPage: { visible: true } },
    { name: 'b', isNumeric: true },
  ]);

  it('is true for the same set read back with its keys in another order', () => {
    const reordered = JSON.parse(JSON.stringify(base), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as CustomFieldDefinition[];
    expect(sameFields(base, reordered)).toBe(true);
  });

  it.each<[string, (fields: CustomFieldDefinition[]) => void]>([
    ['a property', (f) => (f[1].decimalPlaces = 2)],
    ['a surface flag', (f) => (f[0].hostedPaymentPage.readOnly = true)],
    ['a name case', (f) => (f[0].name = 'A')],
    ['a removed field', (f) => f.pop()],
  ])('is false after changing %s', (_case, change) => {
    const changed = structuredClone(base);
    change(changed);
    expect(sameFields(base, changed)).toBe(false);
  });
});

describe('isEmptyFieldsInput', () => {
  it.each([
    [undefined, true],
    [null, true],
    [[], true],
    [[{ name: 'a' }], false],
    ['', false],
  ])('%p → %p', (input, expected) => expect(isEmptyFieldsInput(input)).toBe(expected));
});
