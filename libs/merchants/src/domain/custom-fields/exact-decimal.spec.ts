import { compareDecimals, decimalFromNumber, decimalPlacesOf, parseDecimal } from './exact-decimal';

describe('parseDecimal', () => {
  it.each([
    ['0', 0n, 0],
    ['12', 12n, 0],
    ['12.50', 1250n, 2],
    ['-0.001', -1n, 3],
    ['007', 7n, 0],
    ['123456789012345678901234567890.1', 1234567890123456789012345678901n, 1],
  ])('reads %s', (text, units, scale) => expect(parseDecimal(text)).toEqual({ units, scale }));

  it.each(['', '-', '.5', '5.', '+5', '1e3', '1,000', ' 1', '0x10', 'NaN', 'Infinity', '1.2.3', '--1'])(
    'refuses %j',
    (text) => expect(parseDecimal(text)).toBeNull(),
  );
});

describe('decimalPlacesOf', () => {
  it.each([
    ['1', 0],
    ['1.5', 1],
    ['1.50', 2],
    ['-0.000001', 6],
  ])('%s has %i', (text, places) => expect(decimalPlacesOf(text)).toBe(places));
});

describe('decimalFromNumber', () => {
  it.each([
    [0, 0n, 0],
    [-0, 0n, 0],
    [0.1, 1n, 1],
    [-2.5, -25n, 1],
    [100, 100n, 0],
    [1e21, 10n ** 21n, 0],
    [1.5e-7, 15n, 8],
    [-1e-7, -1n, 7],
  ])('reads %p as written', (value, units, scale) =>
    expect(decimalFromNumber(value)).toEqual({ units, scale }),
  );

  it.each([NaN, Infinity, -Infinity])('refuses %p', (value) =>
    expect(() => decimalFromNumber(value)).toThrow(RangeError),
  );
});

describe('compareDecimals', () => {
  const d = (text: string) => parseDecimal(text)!;
  it.each([
    ['1', '1.00', 0],
    ['0.3', '0.30', 0],
    ['-0', '0', 0],
    ['0.1', '0.2', -1],
    ['10', '9.999999', 1],
    ['-1.5', '-1.49', -1],
    ['99999999999999999999.01', '99999999999999999999.02', -1], // beyond double precision
  ])('%s vs %s is %i', (a, b, expected) => {
    expect(compareDecimals(d(a), d(b))).toBe(expected);
    expect(compareDecimals(d(b), d(a))).toBe(-expected || 0);
  });

  it('compares a value with the decimal a partner wrote, not its binary approximation', () => {
    // 0.1 + 0.2 !== 0.3 in floats; "0.3" equals the configured 0.3 exactly.
    expect(compareDecimals(d('0.3'), decimalFromNumber(0.3))).toBe(0);
    expect(compareDecimals(d('0.30000000000000001'), decimalFromNumber(0.3))).toBe(1);
  });
});
