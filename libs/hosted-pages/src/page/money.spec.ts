import { displayMoney, isNonZero } from './money';

describe('displayMoney', () => {
  it.each([
    ['1050', '$10.50'],
    ['5', '$0.05'],
    ['0', '$0.00'],
    ['99999999', '$999,999.99'],
    ['123456789', '$1,234,567.89'],
  ])('shows %s minor units of USD as %s', (minor, shown) => {
    expect(displayMoney(minor, 'USD')).toBe(shown);
  });

  it('takes bigints without going through a float', () => {
    expect(displayMoney(900719925474099312n, 'USD')).toBe('$9,007,199,254,740,993.12');
  });

  it('writes the code after the amount for a currency without a symbol', () => {
    expect(displayMoney('1050', 'EUR')).toBe('10.50 EUR');
  });
});

describe('isNonZero', () => {
  it.each([
    ['30', true],
    [30n, true],
    ['0', false],
    [0n, false],
    [null, false],
    [undefined, false],
  ] as const)('%p → %p', (minor, expected) => {
    expect(isNonZero(minor)).toBe(expected);
  });
});
