import type { Dinero, DineroCurrency } from 'dinero.js/dist/esm/bigint/index.js';
import { CURRENCY_EXPONENTS } from './amount';

/*
 * Money arithmetic goes through dinero.js on integer minor units (its bigint calculator), so an
 * amount is never a JavaScript float. The package is ESM-only: Node 20.19+ loads it with
 * `require`, and jest maps the specifier to the package's own UMD build (jest.config.js). The
 * types come from the ESM build's declarations, which `moduleResolution: node` only finds by path.
 */
const dinero: typeof import('dinero.js/dist/esm/bigint/index.js') = require('dinero.js/bigint');

export type Money = Dinero<bigint>;

const currencies = new Map<string, DineroCurrency<bigint>>(
  Object.entries(CURRENCY_EXPONENTS).map(([code, exponent]) => [
    code,
    { code, base: 10n, exponent: BigInt(exponent) },
  ]),
);

function currencyOf(code: string): DineroCurrency<bigint> {
  const currency = currencies.get(code);
  if (!currency) throw new RangeError(`unsupported currency ${code}`);
  return currency;
}

/** An amount of `minor` units (cents for USD) in `currency`. */
export function money(minor: bigint, currency = 'USD'): Money {
  return dinero.dinero({ amount: minor, currency: currencyOf(currency) });
}

/** Back to integer minor units at the currency's exponent (rounding half-up if a scale is finer). */
export function minorUnits(amount: Money): bigint {
  const { currency } = dinero.toSnapshot(amount);
  return dinero.toSnapshot(dinero.transformScale(amount, currency.exponent, dinero.halfUp)).amount;
}

/** Sum of minor-unit amounts in one currency. */
export function sumMinor(amounts: readonly bigint[], currency = 'USD'): bigint {
  return minorUnits(amounts.reduce((total, a) => dinero.add(total, money(a, currency)), money(0n, currency)));
}

/** `a − b` in minor units. */
export function subtractMinor(a: bigint, b: bigint, currency = 'USD'): bigint {
  return minorUnits(dinero.subtract(money(a, currency), money(b, currency)));
}

/**
 * `bps` basis points of `amountMinor`, rounded half-up to the minor unit: multiplying by
 * `{amount: bps, scale: 4}` keeps the exact product at a finer scale, and one rounding brings it
 * back, so $0.50 at 1% is $0.01 and $0.49 at 1% is $0.00.
 */
export function percentOfMinor(amountMinor: bigint, bps: number, currency = 'USD'): bigint {
  if (amountMinor < 0n) throw new RangeError('amount must not be negative');
  if (!Number.isInteger(bps) || bps < 0) throw new RangeError('basis points must be a non-negative integer');
  return minorUnits(dinero.multiply(money(amountMinor, currency), { amount: BigInt(bps), scale: 4n }));
}

/** -1, 0 or 1. */
export function compareMinor(a: bigint, b: bigint, currency = 'USD'): -1 | 0 | 1 {
  return dinero.compare(money(a, currency), money(b, currency)) as -1 | 0 | 1;
}

/**
 * Splits `totalMinor` in proportion to `ratios` without losing a minor unit (dinero.js
 * `allocate`: spare minor units go to the largest ratios first), e.g. a refund's share of a surcharge.
 */
export function allocateMinor(totalMinor: bigint, ratios: readonly bigint[], currency = 'USD'): bigint[] {
  if (ratios.every((r) => r === 0n)) return ratios.map(() => 0n);
  return dinero.allocate(money(totalMinor, currency), [...ratios]).map(minorUnits);
}
