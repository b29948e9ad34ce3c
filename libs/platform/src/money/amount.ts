import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * Amounts on the wire are decimal strings (spec "What the service does" rule 7: "a string of
 * digits with a decimal point, never integer cents"): digits, and for a currency with minor units
 * a point and one up to that many decimals ("10.5", "10.50"). "10" is refused on the write
 * surface: it reads exactly like integer cents, the mistake the rule is there to catch. Never a
 * JSON number, never exponent notation, no sign, no spaces. Inside, an amount is an integer count
 * of minor units (a bigint here; dinero.js does the arithmetic on them).
 *
 * Two places take whole units without a point (`pointOptional`): the list filters
 * `amount_min`/`amount_max`, and the amount a payer types on a hosted page.
 */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = { USD: 2 };

const DECIMAL = /^(0|[1-9][0-9]{0,14})(?:\.([0-9]+))?$/;

export type AmountProblem =
  'not_a_string' | 'malformed' | 'no_decimal_point' | 'too_many_decimals' | 'unknown_currency';

export function parseAmount(
  value: unknown,
  currency = 'USD',
  options: { pointOptional?: boolean } = {},
): { ok: true; minor: bigint } | { ok: false; problem: AmountProblem } {
  if (typeof value !== 'string') return { ok: false, problem: 'not_a_string' };
  const exponent = CURRENCY_EXPONENTS[currency];
  if (exponent === undefined) return { ok: false, problem: 'unknown_currency' };
  const match = DECIMAL.exec(value);
  if (!match) return { ok: false, problem: 'malformed' };
  const decimals = match[2];
  if (decimals === undefined && exponent > 0 && !options.pointOptional) {
    return { ok: false, problem: 'no_decimal_point' };
  }
  if ((decimals ?? '').length > exponent) return { ok: false, problem: 'too_many_decimals' };
  return { ok: true, minor: BigInt(match[1] + (decimals ?? '').padEnd(exponent, '0')) };
}

/**
 * A signed amount (`"-10.50"`, `"10.50"`): money moving either way, as settlement reports it (a
 * refund is negative). The same form as {@link parseAmount} after an optional leading `-`.
 */
export function parseSignedAmount(
  value: unknown,
  currency = 'USD',
): { ok: true; minor: bigint } | { ok: false; problem: AmountProblem } {
  if (typeof value !== 'string') return { ok: false, problem: 'not_a_string' };
  const negative = value.startsWith('-');
  const parsed = parseAmount(negative ? value.slice(1) : value, currency);
  return parsed.ok && negative ? { ok: true, minor: -parsed.minor } : parsed;
}

/** Minor units back to the wire form with exactly the currency's decimals ("1050" → "10.50"). */
export function formatAmount(minor: bigint, currency = 'USD'): string {
  const exponent = CURRENCY_EXPONENTS[currency] ?? 2;
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** What to say about an amount that does not parse (one wording for every endpoint). */
export function amountProblemMessage(problem: AmountProblem): string {
  return MESSAGES[problem];
}

const MESSAGES: Record<AmountProblem, string> = {
  not_a_string: 'must be a decimal string such as "10.00", not a number',
  malformed: 'must be a decimal string such as "10.00"',
  no_decimal_point: 'must be a decimal string with a decimal point, such as "10.00" (never integer cents)',
  too_many_decimals: 'has more decimals than the currency allows',
  unknown_currency: 'has an unsupported currency',
};

/** A DTO field holding a signed amount in USD (settlement reports: a refund is negative). */
export function IsSignedDecimalAmount(options: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSignedDecimalAmount',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => parseSignedAmount(value).ok,
        defaultMessage(args) {
          const result = parseSignedAmount(args?.value);
          return result.ok ? 'is valid' : `${MESSAGES[result.problem]}, with a leading - when negative`;
        },
      },
    });
}

/** A DTO field holding an amount; `currencyField` names the sibling field with the currency. */
export function IsDecimalAmount(currencyField?: string, options: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isDecimalAmount',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate(value: unknown, args) {
          const currency = currencyField
            ? String((args?.object as Record<string, unknown>)[currencyField] ?? 'USD')
            : 'USD';
          return parseAmount(value, currency).ok;
        },
        defaultMessage(args) {
          const currency = currencyField
            ? String((args?.object as Record<string, unknown>)[currencyField] ?? 'USD')
            : 'USD';
          const result = parseAmount(args?.value, currency);
          return result.ok ? 'is valid' : MESSAGES[result.problem];
        },
      },
    });
}
