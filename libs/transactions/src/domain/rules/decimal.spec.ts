import { formatScaledDecimal, parseScaledDecimal } from './decimal';

describe('scaled decimals', () => {
  it.each([
    ['2', 20000n],
    ['2.5', 25000n],
    ['0.0001', 1n],
    ['12345678.9999', 123456789999n],
  ])('reads %p exactly', (value, scaled) => {
    expect(parseScaledDecimal(value, 4, 8)).toEqual({ ok: true, scaled });
  });

  it.each([
    [2.5, 'not_a_string'],
    ['2.', 'malformed'],
    ['.5', 'malformed'],
    ['-1', 'malformed'],
    ['1e3', 'malformed'],
    ['01', 'malformed'],
    [' 1', 'malformed'],
    ['1.00001', 'too_many_decimals'],
    ['123456789', 'too_many_digits'],
  ])('refuses %p (%s)', (value, problem) => {
    expect(parseScaledDecimal(value, 4, 8)).toEqual({ ok: false, problem });
  });

  it.each([
    [25000n, '2.5'],
    [20000n, '2'],
    [1n, '0.0001'],
    [0n, '0'],
    [123456789999n, '12345678.9999'],
  ])('writes %p as %p', (scaled, text) => {
    expect(formatScaledDecimal(scaled, 4)).toBe(text);
  });
});
