import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { formatAmount, IsDecimalAmount, parseAmount } from './amount';

describe('decimal-string amounts', () => {
  it.each([
    ['0.00', 0n],
    ['0.5', 50n],
    ['10.0', 1000n],
    ['10.5', 1050n],
    ['10.05', 1005n],
    ['999999999999999.99', 99999999999999999n],
  ])('parses %p to %p minor units', (value, minor) => {
    expect(parseAmount(value)).toEqual({ ok: true, minor });
  });

  it.each([
    [10, 'not_a_string'],
    [10.5, 'not_a_string'],
    [null, 'not_a_string'],
    ['', 'malformed'],
    ['1e3', 'malformed'],
    ['-1.00', 'malformed'],
    ['+1.00', 'malformed'],
    [' 1.00', 'malformed'],
    ['01.00', 'malformed'],
    ['1.', 'malformed'],
    ['.5', 'malformed'],
    ['1,00', 'malformed'],
    ['1.005', 'too_many_decimals'],
    ['10', 'no_decimal_point'],
    ['1000', 'no_decimal_point'],
    ['0', 'no_decimal_point'],
  ])('refuses %p (%s)', (value, problem) => {
    expect(parseAmount(value)).toEqual({ ok: false, problem });
  });

  it('takes whole units without a point only where asked (list filters, a payer typing on the page)', () => {
    expect(parseAmount('10', 'USD', { pointOptional: true })).toEqual({ ok: true, minor: 1000n });
    expect(parseAmount('0', 'USD', { pointOptional: true })).toEqual({ ok: true, minor: 0n });
    expect(parseAmount('1.005', 'USD', { pointOptional: true })).toEqual({
      ok: false,
      problem: 'too_many_decimals',
    });
  });

  it('explains a string without a point: it reads like integer cents', () => {
    class Dto {
      @IsDecimalAmount('currency')
      amount!: unknown;
      currency!: string;
    }
    const [error] = validateSync(plainToInstance(Dto, { amount: '1000', currency: 'USD' }));
    expect(error.constraints).toEqual({
      isDecimalAmount: 'must be a decimal string with a decimal point, such as "10.00" (never integer cents)',
    });
  });

  it('refuses a currency it does not know', () => {
    expect(parseAmount('1.00', 'XXX')).toEqual({ ok: false, problem: 'unknown_currency' });
  });

  it.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [1050n, '10.50'],
    [-1050n, '-10.50'],
  ])('formats %p as %p', (minor, text) => {
    expect(formatAmount(minor)).toBe(text);
  });

  it('validates a DTO field and explains a number', () => {
    class Dto {
      @IsDecimalAmount('currency')
      amount!: unknown;
      currency!: string;
    }
    expect(validateSync(plainToInstance(Dto, { amount: '12.34', currency: 'USD' }))).toEqual([]);
    const [error] = validateSync(plainToInstance(Dto, { amount: 12.34, currency: 'USD' }));
    expect(error.constraints).toEqual({
      isDecimalAmount: 'must be a decimal string such as "10.00", not a number',
    });
  });
});
