import {
  allocateMinor,
  compareMinor,
  minorUnits,
  money,
  percentOfMinor,
  subtractMinor,
  sumMinor,
} from './money';

describe('money (dinero.js on integer minor units)', () => {
  it('adds and subtracts exactly where floats would drift', () => {
    // 0.1 + 0.2 in dollars is 0.30000000000000004 as floats; in cents it is 30.
    expect(sumMinor([10n, 20n])).toBe(30n);
    expect(sumMinor([])).toBe(0n);
    expect(subtractMinor(1000n, 333n)).toBe(667n);
    expect(subtractMinor(100n, 250n)).toBe(-150n);
  });

  it('keeps amounts far beyond the float-exact range', () => {
    const big = 2n ** 60n;
    expect(sumMinor([big, 1n])).toBe(big + 1n);
  });

  it('rounds a percentage half-up to the cent', () => {
    expect(percentOfMinor(50n, 100)).toBe(1n); // $0.50 at 1% = 0.5 cent → 1 cent
    expect(percentOfMinor(49n, 100)).toBe(0n);
    expect(percentOfMinor(10000n, 350)).toBe(350n);
    expect(percentOfMinor(12345n, 299)).toBe(369n); // 369.1155 → 369
    expect(percentOfMinor(0n, 300)).toBe(0n);
    expect(() => percentOfMinor(-1n, 100)).toThrow(RangeError);
    expect(() => percentOfMinor(1n, 1.5)).toThrow(RangeError);
  });

  it('compares', () => {
    expect(compareMinor(1n, 2n)).toBe(-1);
    expect(compareMinor(2n, 2n)).toBe(0);
    expect(compareMinor(3n, 2n)).toBe(1);
  });

  it('refuses currencies it does not know', () => {
    expect(() => money(1n, 'XXX')).toThrow(RangeError);
    expect(minorUnits(money(1234n))).toBe(1234n);
  });
});

describe('allocateMinor', () => {
  it('splits without losing a cent', () => {
    expect(allocateMinor(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(allocateMinor(30n, [250n, 750n])).toEqual([7n, 23n]); // 7.5 and 22.5: the spare cent goes to the larger share
    expect(allocateMinor(0n, [1n, 2n])).toEqual([0n, 0n]);
    expect(allocateMinor(10n, [0n, 0n])).toEqual([0n, 0n]);
  });
});
