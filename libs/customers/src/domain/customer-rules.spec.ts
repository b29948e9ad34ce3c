import { ISO_COUNTRY_CODES, isIsoCountryCode } from '../../../configuration/src/domain/countries';
import {
  checkAddress,
  checkDisplayName,
  checkEmail,
  checkPhone,
  sameAddress,
  type CustomerAddressInput,
} from './customer-rules';

const ADDRESS: CustomerAddressInput = {
  line1: '1 Market St',
  line2: 'Suite 200',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  country: 'US',
};

describe('email', () => {
  it.each([
    'ada@example.com',
    'Ada.Lovelace+receipts@mail.example.co.uk',
    "o'brien@example.ie",
    'x@sub-domain.example.io',
    'user@xn--80ak6aa92e.com',
    `${'a'.repeat(64)}@example.com`,
    `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}`, // 254 characters
  ])('accepts %s', (value) => expect(checkEmail(value)).toEqual({ ok: true, value }));

  it.each([
    ['', 'must not be blank'],
    ['   ', 'must not be blank'],
    ['nope', 'must be an email address'],
    ['a@b', 'must be an email address'],
    ['a@localhost', 'must be an email address'],
    ['@example.com', 'must be an email address'],
    ['a@@example.com', 'must be an email address'],
    ['.a@example.com', 'must be an email address'],
    ['a.@example.com', 'must be an email address'],
    ['a..b@example.com', 'must be an email address'],
    ['a b@example.com', 'must be an email address'],
    [' ada@example.com', 'must be an email address'],
    ['ada@example.com ', 'must be an email address'],
    ['ada@-example.com', 'must be an email address'],
    ['ada@example..com', 'must be an email address'],
    ['ada@example.c', 'must be an email address'],
    ['ada@example.123', 'must be an email address'],
    ['adä@example.com', 'must be an email address'],
    [`${'a'.repeat(65)}@example.com`, 'must be an email address'],
    [
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(61)}`,
      'must be at most 254 characters',
    ],
  ])('refuses %j: %s', (value, message) => expect(checkEmail(value)).toEqual({ ok: false, message }));
});

describe('display_name', () => {
  it.each([
    ['Al', 'Al'],
    ['Ada Lovelace', 'Ada Lovelace'],
    ['  Ada Lovelace  ', 'Ada Lovelace'],
    ['李雷', '李雷'],
    ['😀😀', '😀😀'], // two characters, four UTF-16 units
    ['x'.repeat(100), 'x'.repeat(100)],
    [` ${'x'.repeat(100)} `, 'x'.repeat(100)],
  ])('accepts %j as %j', (value, stored) =>
    expect(checkDisplayName(value)).toEqual({ ok: true, value: stored }),
  );

  it.each(['', ' ', '\t  '])('a blank value %j clears it', (value) =>
    expect(checkDisplayName(value)).toEqual({ ok: true, value: null }),
  );

  it.each([
    ['A', 'must be 2 to 100 characters'],
    [' A ', 'must be 2 to 100 characters'],
    ['😀', 'must be 2 to 100 characters'],
    ['x'.repeat(101), 'must be 2 to 100 characters'],
    ['Ada\u0000Lovelace', expect.stringMatching(/control.*U\+0000/)],
    ['Ada\nLovelace', expect.stringMatching(/control.*U\+000A/)],
    ['Ada\u202eLovelace', expect.stringMatching(/bidirectional.*U\+202E/)],
    ['Ada\u009bLovelace', expect.stringMatching(/control.*U\+009B/)],
  ])('refuses %j: %s', (value, message) => expect(checkDisplayName(value)).toEqual({ ok: false, message }));
});

describe('phone', () => {
  it.each(['+14155550123', '+442071838750', '+1234567', '+123456789012345'])('accepts %s', (value) =>
    expect(checkPhone(value)).toEqual({ ok: true, value }),
  );

  it('"" clears it', () => expect(checkPhone('')).toEqual({ ok: true, value: null }));

  it.each([
    ' ',
    '4155550123',
    '+04155550123',
    '+123456',
    '+1234567890123456',
    '+1 415 555 0123',
    '+1-415-555-0123',
    '(415) 555-0123',
    '+1415555012a',
    '++14155550123',
  ])('refuses %j', (value) =>
    expect(checkPhone(value)).toEqual({
      ok: false,
      message: 'must be an E.164 phone number such as +14155550123',
    }),
  );
});

describe('address', () => {
  const errorsOf = (changes: Partial<CustomerAddressInput>) =>
    checkAddress({ ...ADDRESS, ...changes }).errors;

  it('accepts a complete US address and maps it field for field', () =>
    expect(checkAddress(ADDRESS)).toEqual({
      address: {
        line1: '1 Market St',
        line2: 'Suite 200',
        city: 'San Francisco',
        state: 'CA',
        postalCode: '94105',
        country: 'US',
      },
      errors: [],
    }));

  it.each<[string, Partial<CustomerAddressInput>]>([
    ['no line2', { line2: undefined }],
    ['null line2', { line2: null }],
    ['ZIP+4', { postalCode: '94105-1420' }],
    ['a territory', { state: 'PR', postalCode: '00901' }],
    ['a UK address', { state: 'Greater London', postalCode: 'SW1A 1AA', country: 'GB' }],
    ['a Canadian address', { state: 'ON', postalCode: 'K1A 0B1', country: 'CA' }],
    ['a Portuguese address', { state: 'Lisboa', postalCode: '1010-001', country: 'PT' }],
    ['100-character lines', { line1: 'x'.repeat(100), line2: 'y'.repeat(100), city: 'z'.repeat(100) }],
    ['a 16-character postal code', { postalCode: 'A'.repeat(16), country: 'DE', state: 'Berlin' }],
  ])('accepts %s', (_, changes) => expect(errorsOf(changes)).toEqual([]));

  it.each(['', '  '])('line2 %j reads as none', (line2) =>
    expect(checkAddress({ ...ADDRESS, line2 }).address.line2).toBeNull(),
  );

  it.each<[string, Partial<CustomerAddressInput>, string, string]>([
    ['blank line1', { line1: ' ' }, 'address.line1', 'must not be blank'],
    ['long line1', { line1: 'x'.repeat(101) }, 'address.line1', 'must be at most 100 characters'],
    ['control in line1', { line1: 'a\nb' }, 'address.line1', expect.stringMatching(/U\+000A/)],
    ['bidi override in city', { city: 'a\u202eb' }, 'address.city', expect.stringMatching(/U\+202E/)],
    ['long line2', { line2: 'x'.repeat(101) }, 'address.line2', 'must be at most 100 characters'],
    ['blank city', { city: '' }, 'address.city', 'must not be blank'],
    ['long city', { city: 'x'.repeat(101) }, 'address.city', 'must be at most 100 characters'],
    ['blank state', { state: '' }, 'address.state', 'must not be blank'],
    [
      'a US state name',
      { state: 'California' },
      'address.state',
      'must be a US state code from GET /config/us-states (e.g. CA)',
    ],
    [
      'a lower-case US state',
      { state: 'ca' },
      'address.state',
      'must be a US state code from GET /config/us-states (e.g. CA)',
    ],
    [
      'a long non-US state',
      { state: 'x'.repeat(101), country: 'FR', postalCode: '75001' },
      'address.state',
      'must be at most 100 characters',
    ],
    ['blank postal_code', { postalCode: ' ' }, 'address.postal_code', 'must not be blank'],
    [
      'a US postal code that is not a ZIP',
      { postalCode: '9410' },
      'address.postal_code',
      'must be a US ZIP code (12345 or 12345-6789)',
    ],
    [
      'a long postal code',
      { postalCode: 'A'.repeat(17), country: 'DE', state: 'Berlin' },
      'address.postal_code',
      'must be at most 16 characters',
    ],
    [
      'a postal code with punctuation',
      { postalCode: '75001!', country: 'FR', state: 'Paris' },
      'address.postal_code',
      'must be letters and digits, with inner spaces or hyphens',
    ],
    ['blank country', { country: '' }, 'address.country', 'must not be blank'],
    ...['us', 'USA', 'U', 'UK', 'EU', 'XK', 'ZZ', '12'].map(
      (country): [string, Partial<CustomerAddressInput>, string, string] => [
        `country ${country}`,
        { country },
        'address.country',
        'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)',
      ],
    ),
  ])('refuses %s', (_, changes, field, message) => expect(errorsOf(changes)).toEqual([{ field, message }]));

  it('names every broken field at once', () =>
    expect(
      checkAddress({ line1: '', city: '', state: '', postalCode: '', country: '' }).errors.map(
        (e) => e.field,
      ),
    ).toEqual(['address.line1', 'address.city', 'address.country', 'address.state', 'address.postal_code']));

  it('compares addresses field for field', () => {
    const a = checkAddress(ADDRESS).address;
    expect(sameAddress(a, { ...a })).toBe(true);
    expect(sameAddress(a, { ...a, line2: null })).toBe(false);
    expect(sameAddress(null, null)).toBe(true);
    expect(sameAddress(a, null)).toBe(false);
  });
});

describe('country codes', () => {
  it('lists the 249 assigned ISO 3166-1 alpha-2 codes, each once, upper case', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
    for (const code of ISO_COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect([...ISO_COUNTRY_CODES].sort()).toEqual(ISO_COUNTRY_CODES);
  });

  it.each(['US', 'GB', 'DE', 'PR', 'AX', 'SS'])('%s is assigned', (code) =>
    expect(isIsoCountryCode(code)).toBe(true),
  );
  it.each(['UK', 'EU', 'XK', 'AN', 'us', ''])('%j is not', (code) =>
    expect(isIsoCountryCode(code)).toBe(false),
  );
});
