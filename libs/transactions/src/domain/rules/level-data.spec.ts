import {
  expectedLineTotalMinor,
  extendedAmountMinor,
  type Level3DataInput,
  toLevel2Data,
  toLevel3Data,
  validateLevel2,
  validateLevel3,
} from './level-data';

describe('validateLevel2', () => {
  const valid = { po_number: 'PO-2026-0042', merchant_zip: '94105' };

  it('accepts a PO number and a ZIP or ZIP+4', () => {
    expect(validateLevel2(valid)).toEqual([]);
    expect(validateLevel2({ po_number: 'x'.repeat(25), merchant_zip: '94105-1234' })).toEqual([]);
  });

  it('is optional', () => {
    expect(validateLevel2(undefined)).toEqual([]);
    expect(validateLevel2(null)).toEqual([]);
  });

  it('must be an object', () => {
    expect(validateLevel2('PO-1')).toEqual([{ field: 'level2_data', message: 'must be an object' }]);
    expect(validateLevel2([valid])).toEqual([{ field: 'level2_data', message: 'must be an object' }]);
  });

  it('requires both fields', () => {
    expect(validateLevel2({})).toEqual([
      { field: 'level2_data.po_number', message: 'is required' },
      { field: 'level2_data.merchant_zip', message: 'is required' },
    ]);
  });

  it.each([
    ['x'.repeat(26), 'must be at most 25 characters'],
    ['', 'must not be blank'],
    ['   ', 'must not be blank'],
    [42, 'must be a string'],
    ['PO–1', 'must contain printable ASCII characters only'],
  ])('refuses po_number %p', (po_number, message) => {
    expect(validateLevel2({ ...valid, po_number })).toEqual([{ field: 'level2_data.po_number', message }]);
  });

  it.each(['1234', '123456', '12345-678', '12345 6789', 'ABCDE', 94105])('refuses merchant_zip %p', (zip) => {
    expect(validateLevel2({ ...valid, merchant_zip: zip })).toEqual([
      {
        field: 'level2_data.merchant_zip',
        message: typeof zip === 'string' ? 'must be a US ZIP code (12345 or 12345-6789)' : 'must be a string',
      },
    ]);
  });

  it('refuses unknown keys, under the given path', () => {
    expect(validateLevel2({ ...valid, tax_amount: '1.00' }, 'body.level2_data')).toEqual([
      { field: 'body.level2_data.tax_amount', message: 'is not a known field' },
    ]);
  });

  it('normalises to the stored form', () => {
    expect(toLevel2Data(valid)).toEqual(valid);
    expect(() => toLevel2Data({ po_number: '', merchant_zip: '1' })).toThrow(RangeError);
  });
});

/** 10.05 × 2.5 = 25.125 → 25.13; total 25.13 − 1.00 + 2.01 + 0.50 + 0.25 = 26.89. */
function line(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    product_code: 'SKU-1001',
    commodity_code: '44121600',
    description: 'Copy paper, A4, 500 sheets',
    upc: '012345678905',
    invoice_number: 'INV-1',
    tax_type: 'ST',
    quantity: '2.5',
    unit_of_measure: 'BOX',
    unit_price: '10.05',
    discount_amount: '1.00',
    total_amount: '26.89',
    tax_amount: '2.01',
    tax_rate: '8.25',
    extended_amount: '25.13',
    freight_amount: '0.50',
    duty_amount: '0.25',
    tax_included: false,
    ...over,
  };
}

/** 26.89 + freight 5.00 + duty 1.00 − discount 2.00 = 30.89. */
function level3(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ship_from_zip: '94105',
    destination_zip: 'SW1A 1AA',
    destination_country_code: 'GBR',
    invoice_number: 'INV-1',
    order_number: 'ORD-77',
    duty_amount: '1.00',
    freight_amount: '5.00',
    discount_amount: '2.00',
    line_items: [line()],
    ...over,
  };
}

const at = (field: string, message: string) => ({ field, message });
const item = (field: string) => `level3_data.line_items[0].${field}`;
const checkLine = (over: Record<string, unknown>, amount: bigint | null = null) =>
  validateLevel3(level3({ line_items: [line(over)] }), 'USD', amount);

describe('validateLevel3 fields', () => {
  it('accepts a complete example', () => {
    expect(validateLevel3(level3(), 'USD', 3089n)).toEqual([]);
  });

  it('accepts a minimal line, missing money counting as zero', () => {
    const minimal = { description: 'Widget', quantity: '3', unit_price: '1.10', total_amount: '3.30' };
    expect(validateLevel3({ line_items: [minimal] }, 'USD', 330n)).toEqual([]);
  });

  it('is optional', () => {
    expect(validateLevel3(undefined, 'USD', 100n)).toEqual([]);
    expect(validateLevel3(null, 'USD', 100n)).toEqual([]);
  });

  it('must be an object', () => {
    expect(validateLevel3([], 'USD', null)).toEqual([at('level3_data', 'must be an object')]);
  });

  it('refuses unknown keys on the object and on a line', () => {
    expect(validateLevel3(level3({ shipping: 'x' }), 'USD', null)).toEqual([
      at('level3_data.shipping', 'is not a known field'),
    ]);
    expect(checkLine({ sku: 'x' })).toEqual([at(item('sku'), 'is not a known field')]);
  });

  it('requires 1 to 99 line items', () => {
    const { line_items: _omitted, ...rest } = level3();
    expect(validateLevel3(rest, 'USD', null)).toEqual([at('level3_data.line_items', 'is required')]);
    expect(validateLevel3(level3({ line_items: {} }), 'USD', null)).toEqual([
      at('level3_data.line_items', 'must be an array of line items'),
    ]);
    for (const count of [0, 100]) {
      const items = Array.from({ length: count }, () => line());
      expect(validateLevel3(level3({ line_items: items }), 'USD', null)).toEqual([
        at('level3_data.line_items', 'must have 1 to 99 items'),
      ]);
    }
    const most = Array.from({ length: 99 }, () => line());
    expect(validateLevel3(level3({ line_items: most }), 'USD', null)).toEqual([]);
  });

  it('wants each line to be an object', () => {
    expect(validateLevel3(level3({ line_items: [line(), 'x'] }), 'USD', null)).toEqual([
      at('level3_data.line_items[1]', 'must be an object'),
    ]);
  });

  it('requires description, quantity, unit_price and total_amount', () => {
    const required = ['description', 'quantity', 'unit_price', 'total_amount'];
    const over = Object.fromEntries(required.map((key) => [key, undefined]));
    expect(checkLine(over)).toEqual(required.map((key) => at(item(key), 'is required')));
  });

  it('treats null as not given', () => {
    expect(checkLine({ upc: null, tax_rate: null, extended_amount: null })).toEqual([]);
    expect(validateLevel3(level3({ destination_zip: null }), 'USD', null)).toEqual([]);
  });

  it.each([
    ['product_code', 12],
    ['commodity_code', 12],
    ['description', 35],
    ['invoice_number', 25],
    ['tax_type', 4],
    ['unit_of_measure', 12],
  ])('limits line %s to %i characters', (field, max) => {
    expect(checkLine({ [field]: 'A'.repeat(max) })).toEqual([]);
    expect(checkLine({ [field]: 'A'.repeat(max + 1) })).toEqual([
      at(item(field), `must be at most ${max} characters`),
    ]);
  });

  it.each([
    ['invoice_number', 25],
    ['order_number', 25],
  ])('limits %s to %i characters', (field, max) => {
    expect(validateLevel3(level3({ [field]: 'A'.repeat(max + 1) }), 'USD', null)).toEqual([
      at(`level3_data.${field}`, `must be at most ${max} characters`),
    ]);
  });

  it('wants text to be non-blank printable ASCII strings', () => {
    expect(checkLine({ description: ' ' })).toEqual([at(item('description'), 'must not be blank')]);
    expect(checkLine({ description: 'Café au lait' })).toEqual([
      at(item('description'), 'must contain printable ASCII characters only'),
    ]);
    expect(checkLine({ product_code: 7 })).toEqual([at(item('product_code'), 'must be a string')]);
  });

  it.each(['0123456789012', 'ABC', '12 34', ''])('refuses upc %p', (upc) => {
    expect(checkLine({ upc })).toEqual([at(item('upc'), 'must be 1 to 12 digits')]);
  });

  it.each(['ship_from_zip', 'destination_zip'])('checks %s as a postal code of at most 10', (field) => {
    const message = 'must be a postal code of at most 10 letters and digits, with inner spaces or hyphens';
    expect(validateLevel3(level3({ [field]: '94105-1234' }), 'USD', null)).toEqual([]);
    expect(validateLevel3(level3({ [field]: 'K1A 0B1' }), 'USD', null)).toEqual([]);
    for (const bad of ['94105-12345', '-94105', '941#05', '']) {
      expect(validateLevel3(level3({ [field]: bad }), 'USD', null)).toEqual([
        at(`level3_data.${field}`, message),
      ]);
    }
  });

  it.each(['US', 'usa', 'XXX', 840])('refuses destination_country_code %p', (code) => {
    expect(validateLevel3(level3({ destination_country_code: code }), 'USD', null)).toEqual([
      at(
        'level3_data.destination_country_code',
        'must be an ISO 3166-1 alpha-3 country code in upper case (e.g. USA)',
      ),
    ]);
  });

  it.each([
    [10.5, 'must be a decimal string such as "10.00", not a number'],
    ['10.505', 'has more decimals than the currency allows'],
    ['-1.00', 'must be a decimal string such as "10.00"'],
    ['1e3', 'must be a decimal string such as "10.00"'],
  ])('refuses money %p on every money field', (value, message) => {
    const lineFields = ['unit_price', 'discount_amount', 'total_amount', 'tax_amount', 'extended_amount'];
    for (const field of [...lineFields, 'freight_amount', 'duty_amount']) {
      expect(checkLine({ [field]: value })).toEqual([at(item(field), message)]);
    }
    for (const field of ['duty_amount', 'freight_amount', 'discount_amount']) {
      expect(validateLevel3(level3({ [field]: value }), 'USD', null)).toEqual([
        at(`level3_data.${field}`, message),
      ]);
    }
  });

  it('refuses every amount in an unsupported currency', () => {
    const minimal = { description: 'Widget', quantity: '1', unit_price: '1.00', total_amount: '1.00' };
    expect(validateLevel3({ line_items: [minimal] }, 'XTS', 100n)).toEqual([
      at(item('unit_price'), 'has an unsupported currency'),
      at(item('total_amount'), 'has an unsupported currency'),
    ]);
  });

  it.each([
    [2.5, 'must be a decimal string such as "2.5", not a number'],
    ['2.', 'must be a decimal string such as "2.5"'],
    ['-1', 'must be a decimal string such as "2.5"'],
    ['0.00001', 'must have at most 4 decimals'],
    ['100000000', 'must be less than 100000000'],
    ['0', 'must be greater than 0'],
    ['0.0000', 'must be greater than 0'],
  ])('refuses quantity %p', (quantity, message) => {
    expect(checkLine({ quantity })).toEqual([at(item('quantity'), message)]);
  });

  it.each(['0', '100', '100.0000', '7.1234'])('accepts tax_rate %p', (tax_rate) => {
    expect(checkLine({ tax_rate })).toEqual([]);
  });

  it.each([
    [8.25, 'must be a decimal string such as "8.25", not a number'],
    ['8.25%', 'must be a decimal string such as "8.25"'],
    ['8.12345', 'must have at most 4 decimals'],
    ['100.0001', 'must be a percentage from 0 to 100'],
    ['1000', 'must be a percentage from 0 to 100'],
  ])('refuses tax_rate %p', (tax_rate, message) => {
    expect(checkLine({ tax_rate })).toEqual([at(item('tax_rate'), message)]);
  });

  it('wants tax_included to be a boolean', () => {
    expect(checkLine({ tax_included: 'false' })).toEqual([at(item('tax_included'), 'must be true or false')]);
  });
});

describe('validateLevel3 arithmetic', () => {
  it('checks extended_amount = unit_price × quantity, rounded half-up', () => {
    expect(checkLine({ extended_amount: '25.12' })).toEqual([
      at(
        item('extended_amount'),
        'must equal unit_price × quantity rounded half-up to the minor unit: expected "25.13"',
      ),
    ]);
  });

  it('computes exactly where a float would round the wrong way', () => {
    // 1.15 × 1.5 = 1.725 exactly; as floats it is 1.7249999…, which would round to 1.72.
    expect(extendedAmountMinor(115n, '1.5')).toBe(173n);
    expect(extendedAmountMinor(1n, '0.5')).toBe(1n);
    expect(extendedAmountMinor(1n, '0.4999')).toBe(0n);
    // (10^17 − 1) × (10^8 − 10^-4) = 10^25 − 10^13 − 10^8 + 10^-4, far past a float's 53 bits.
    expect(extendedAmountMinor(10n ** 17n - 1n, '99999999.9999')).toBe(10n ** 25n - 10n ** 13n - 10n ** 8n);
    const simple = { description: 'x', quantity: '1.5', unit_price: '1.15', extended_amount: '1.73' };
    expect(validateLevel3({ line_items: [{ ...simple, total_amount: '1.73' }] }, 'USD', null)).toEqual([]);
  });

  it('checks total_amount against the formula, and says what it expected', () => {
    expect(checkLine({ total_amount: '26.88' })).toEqual([
      at(
        item('total_amount'),
        'must equal extended_amount − discount_amount + tax_amount + freight_amount + duty_amount: expected "26.89"',
      ),
    ]);
  });

  it('leaves tax out of the total when it is included in the price', () => {
    expect(checkLine({ tax_included: true, total_amount: '24.88' })).toEqual([]);
    expect(checkLine({ tax_included: true })).toEqual([
      at(
        item('total_amount'),
        'must equal extended_amount − discount_amount + freight_amount + duty_amount (tax_amount is included): expected "24.88"',
      ),
    ]);
  });

  it('computes the total from unit_price × quantity when extended_amount is left out', () => {
    expect(checkLine({ extended_amount: undefined })).toEqual([]);
    expect(checkLine({ extended_amount: undefined, total_amount: '26.90' })).toEqual([
      at(
        item('total_amount'),
        'must equal extended_amount − discount_amount + tax_amount + freight_amount + duty_amount: expected "26.89"',
      ),
    ]);
  });

  it('reports a wrong extended_amount once, not again on the total', () => {
    expect(checkLine({ extended_amount: '25.00', total_amount: '26.76' })).toHaveLength(1);
  });

  it('refuses a discount larger than the line', () => {
    const over = { quantity: '1', unit_price: '1.00', extended_amount: '1.00', tax_amount: '0.00' };
    expect(
      checkLine({ ...over, freight_amount: undefined, duty_amount: undefined, discount_amount: '1.01' }),
    ).toEqual([
      at(
        item('discount_amount'),
        'must not exceed extended_amount plus tax_amount, freight_amount and duty_amount',
      ),
    ]);
  });

  it('skips arithmetic on a line with a malformed value', () => {
    expect(checkLine({ tax_amount: '2.011' })).toEqual([
      at(item('tax_amount'), 'has more decimals than the currency allows'),
    ]);
  });

  it('numbers errors by line', () => {
    const items = [line(), line({ total_amount: '1.00' })];
    expect(validateLevel3(level3({ line_items: items }), 'USD', null)).toEqual([
      expect.objectContaining({ field: 'level3_data.line_items[1].total_amount' }),
    ]);
  });
});

describe('validateLevel3 against the transaction amount', () => {
  const message = (net: string, amount: string) =>
    `line-item total_amount values plus freight_amount and duty_amount less discount_amount come to "${net}", more than the transaction amount "${amount}"`;

  it('allows the level 3 total up to the amount', () => {
    expect(validateLevel3(level3(), 'USD', 3089n)).toEqual([]);
    expect(validateLevel3(level3(), 'USD', 5000n)).toEqual([]);
  });

  it('refuses a level 3 total above the amount', () => {
    expect(validateLevel3(level3(), 'USD', 3088n)).toEqual([
      at('level3_data.line_items', message('30.89', '30.88')),
    ]);
    expect(validateLevel3(level3(), 'USD', 3088n, 'body.level3_data')).toEqual([
      at('body.level3_data.line_items', message('30.89', '30.88')),
    ]);
  });

  it('adds every line', () => {
    const items = [line(), line(), line()];
    expect(validateLevel3(level3({ line_items: items }), 'USD', 8467n)).toEqual([]);
    expect(validateLevel3(level3({ line_items: items }), 'USD', 8466n)).toEqual([
      at('level3_data.line_items', message('84.67', '84.66')),
    ]);
  });

  it('is skipped without an amount or with a malformed total', () => {
    expect(validateLevel3(level3(), 'USD', null)).toEqual([]);
    expect(validateLevel3(level3({ freight_amount: 'x' }), 'USD', 1n)).toEqual([
      at('level3_data.freight_amount', 'must be a decimal string such as "10.00"'),
    ]);
  });
});

describe('expectedLineTotalMinor', () => {
  it('follows the formula', () => {
    const line = { extended: 2513n, discount: 100n, tax: 201n, taxIncluded: false, freight: 50n, duty: 25n };
    expect(expectedLineTotalMinor(line)).toBe(2689n);
    expect(expectedLineTotalMinor({ ...line, taxIncluded: true })).toBe(2488n);
  });
});

describe('toLevel3Data', () => {
  it('gives the canonical stored form', () => {
    const input = {
      destination_zip: '10001',
      destination_country_code: 'USA',
      ship_from_zip: null,
      freight_amount: '5.0',
      line_items: [
        {
          tax_rate: '8.2500',
          description: 'Widget',
          quantity: '2.50',
          unit_price: '10.05',
          total_amount: '25.130',
          upc: null,
        },
      ],
    };
    // '25.130' has three decimals: it must be refused first, so fix it and read the result.
    expect(() => toLevel3Data(input)).toThrow(RangeError);
    input.line_items[0].total_amount = '25.13';
    const stored = toLevel3Data(input);
    expect(stored).toEqual({
      destination_zip: '10001',
      destination_country_code: 'USA',
      freight_amount: '5.00',
      line_items: [
        {
          description: 'Widget',
          quantity: '2.5',
          unit_price: '10.05',
          total_amount: '25.13',
          tax_rate: '8.25',
          extended_amount: '25.13',
          tax_included: false,
        },
      ],
    });
    expect(Object.keys(stored.line_items[0])).toEqual([
      'description',
      'quantity',
      'unit_price',
      'total_amount',
      'tax_rate',
      'extended_amount',
      'tax_included',
    ]);
    expect(Object.keys(stored)).toEqual([
      'destination_zip',
      'destination_country_code',
      'freight_amount',
      'line_items',
    ]);
  });

  it('keeps every given field, amounts with two decimals', () => {
    const stored = toLevel3Data(
      level3({ line_items: [line({ discount_amount: '1.0' })] }) as unknown as Level3DataInput,
    );
    expect(stored.line_items[0]).toEqual({ ...line(), discount_amount: '1.00' });
    expect(stored.duty_amount).toBe('1.00');
  });
});
