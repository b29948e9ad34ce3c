import { formatAmount } from '../../../platform/src/money/amount';

/** Symbols for the currencies the platform takes; any other shows its code after the amount. */
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { USD: '$' };

/**
 * An amount as a payer reads it: "$1,234.50". Minor units arrive as a bigint or as the
 * minor-unit string the session events hold ("1050"); never a float.
 */
export function displayMoney(minor: bigint | string, currency: string): string {
  const plain = formatAmount(BigInt(minor), currency);
  const negative = plain.startsWith('-');
  const [whole, fraction] = (negative ? plain.slice(1) : plain).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const number = fraction === undefined ? grouped : `${grouped}.${fraction}`;
  const symbol = CURRENCY_SYMBOLS[currency];
  const signed = `${negative ? '-' : ''}${symbol ?? ''}${number}`;
  return symbol === undefined ? `${signed} ${currency}` : signed;
}

/** Whether a minor-unit amount is present and not zero (fee lines show only then). */
export function isNonZero(minor: bigint | string | null | undefined): boolean {
  return minor !== null && minor !== undefined && BigInt(minor) !== 0n;
}
