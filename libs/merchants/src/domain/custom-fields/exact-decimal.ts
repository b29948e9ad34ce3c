/**
 * Exact decimal arithmetic for custom-field values: a value is `units / 10^scale` with `units` a
 * bigint, so `"0.3"` compared with a configured `0.3` is equal (no binary float in between).
 */
export interface ExactDecimal {
  units: bigint;
  scale: number;
}

/** What a numeric custom-field value must look like: optional minus, digits, optional fraction. */
export const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/** `"12.50"` → 1250 at scale 2; null unless the text matches DECIMAL_TEXT. */
export function parseDecimal(text: string): ExactDecimal | null {
  if (!DECIMAL_TEXT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return {
    units: BigInt(whole.replace('-', '') + fraction) * (whole.startsWith('-') ? -1n : 1n),
    scale: fraction.length,
  };
}

/** Digits after the decimal point as written (`"1.50"` has 2). */
export function decimalPlacesOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * The decimal a JSON number was written as: JavaScript prints the shortest text that reads back
 * as the same double (`0.1` → `"0.1"`, `1e21` → `"1e+21"`), which is what the partner sent.
 */
export function decimalFromNumber(value: number): ExactDecimal {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) throw new RangeError(`cannot read ${value} as a decimal`); // String() never does this
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let units = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareDecimals(a: ExactDecimal, b: ExactDecimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}
