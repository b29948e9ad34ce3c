/**
 * Non-money decimal strings (a quantity, a percentage) read exactly: the value times 10^scale as
 * a bigint, so "2.5" at scale 4 is 25000n. Same wire shape as amounts: digits, an optional point
 * and decimals, no sign, no exponent, never a JSON number (a float cannot hold 0.1 exactly).
 */
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export type DecimalProblem = 'not_a_string' | 'malformed' | 'too_many_decimals' | 'too_many_digits';

export function parseScaledDecimal(
  value: unknown,
  scale: number,
  maxIntegerDigits: number,
): { ok: true; scaled: bigint } | { ok: false; problem: DecimalProblem } {
  if (typeof value !== 'string') return { ok: false, problem: 'not_a_string' };
  const match = DECIMAL.exec(value);
  if (!match) return { ok: false, problem: 'malformed' };
  const decimals = match[2] ?? '';
  if (decimals.length > scale) return { ok: false, problem: 'too_many_decimals' };
  if (match[1].length > maxIntegerDigits) return { ok: false, problem: 'too_many_digits' };
  return { ok: true, scaled: BigInt(match[1] + decimals.padEnd(scale, '0')) };
}

/** The shortest exact form: trailing zeros and a bare point dropped (25000n at scale 4 is "2.5"). */
export function formatScaledDecimal(scaled: bigint, scale: number): string {
  const digits = scaled.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
