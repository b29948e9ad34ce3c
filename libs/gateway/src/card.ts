/**
 * Card-number rules: Luhn, network (brand) by IIN range, lengths per network, expiry, CVC and
 * postal code. Pure: no I/O, no clock (`now` arrives as an argument). Every function accepts a
 * card number as typed by a payer: spaces and dashes are stripped first, anything else that is
 * not a digit makes the number invalid.
 *
 * A raw PAN must never be logged or put in an error message; only {@link lastFour} may leave.
 */

import { luhnDigitsValid } from '../../platform/src/banking/luhn';

export const CARD_BRANDS = [
  'VISA',
  'MASTERCARD',
  'AMEX',
  'DISCOVER',
  'JCB',
  'DINERS',
  'UNIONPAY',
  'UNKNOWN',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export type CardFunding = 'credit' | 'debit' | 'prepaid';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/** Strips the separators a payer may type (spaces, dashes); keeps everything else as typed. */
export function normalizePan(pan: string): string {
  return pan.replace(/[\s-]/g, '');
}

const DIGITS = /^[0-9]+$/;

/** The Luhn (mod 10) check. False for anything that is not at least two digits after stripping. */
export function luhnValid(pan: string): boolean {
  const digits = normalizePan(pan);
  if (digits.length < 2 || !DIGITS.test(digits)) return false;
  return luhnDigitsValid(digits);
}

/** IIN ranges, checked in order: Discover's 622126–622925 must win over UnionPay's 62. */
const IIN_RANGES: readonly { brand: Exclude<CardBrand, 'UNKNOWN'>; from: string; to: string }[] = [
  { brand: 'VISA', from: '4', to: '4' },
  { brand: 'MASTERCARD', from: '51', to: '55' },
  { brand: 'MASTERCARD', from: '2221', to: '2720' },
  { brand: 'AMEX', from: '34', to: '34' },
  { brand: 'AMEX', from: '37', to: '37' },
  { brand: 'DISCOVER', from: '6011', to: '6011' },
  { brand: 'DISCOVER', from: '644', to: '649' },
  { brand: 'DISCOVER', from: '65', to: '65' },
  { brand: 'DISCOVER', from: '622126', to: '622925' },
  { brand: 'JCB', from: '3528', to: '3589' },
  { brand: 'DINERS', from: '300', to: '305' },
  { brand: 'DINERS', from: '36', to: '36' },
  { brand: 'DINERS', from: '38', to: '39' },
  { brand: 'UNIONPAY', from: '62', to: '62' },
];

/** Allowed PAN lengths per network. */
export const CARD_LENGTHS: Readonly<Record<Exclude<CardBrand, 'UNKNOWN'>, readonly number[]>> = {
  VISA: [13, 16, 19],
  MASTERCARD: [16],
  AMEX: [15],
  DISCOVER: [16, 17, 18, 19],
  JCB: [16, 17, 18, 19],
  DINERS: [14, 15, 16, 17, 18, 19],
  UNIONPAY: [16, 17, 18, 19],
};

/** The card network by IIN range; UNKNOWN for anything else (or a number too short to tell). */
export function detectBrand(pan: string): CardBrand {
  const digits = normalizePan(pan);
  if (!DIGITS.test(digits)) return 'UNKNOWN';
  for (const { brand, from, to } of IIN_RANGES) {
    if (digits.length < from.length) continue;
    const prefix = Number(digits.slice(0, from.length));
    if (prefix >= Number(from) && prefix <= Number(to)) return brand;
  }
  return 'UNKNOWN';
}

/** The last four digits: the only part of a PAN that may be shown, stored in read models or logged. */
export function lastFour(pan: string): string {
  return normalizePan(pan).slice(-4);
}

/** Why a card number is not acceptable, or null when it is (digits, known network, length, Luhn). */
export function cardNumberProblem(pan: string): string | null {
  const digits = normalizePan(pan);
  if (digits.length === 0) return 'is required';
  if (!DIGITS.test(digits)) return 'must contain only digits, spaces or dashes';
  const brand = detectBrand(digits);
  if (brand === 'UNKNOWN') return 'is not a number of a supported card network';
  const lengths = CARD_LENGTHS[brand];
  if (!lengths.includes(digits.length)) return `must be ${lengths.join(', ')} digits long for ${brand}`;
  if (!luhnValid(digits)) return 'is not a valid card number';
  return null;
}

/** How far ahead an expiry year may lie. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

/** "1", "01", 1 → 1; anything else (13, "1.5", "") → null. */
export function parseExpMonth(value: number | string): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^[0-9]{1,2}$/.test(text)) return null;
  const month = Number(text);
  return month >= 1 && month <= 12 ? month : null;
}

/** A four-digit year, or two digits meaning 20YY; anything else → null. */
export function parseExpYear(value: number | string): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (/^[0-9]{4}$/.test(text)) return Number(text);
  if (/^[0-9]{2}$/.test(text)) return 2000 + Number(text);
  return null;
}

/**
 * A card is valid through the last day of its expiry month (UTC): expired once that day is
 * before `now`, i.e. from the first instant of the following month.
 */
export function cardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const firstInstantAfterExpiry = Date.UTC(expYear, expMonth, 1); // month is 0-based: this is month + 1
  return now.getTime() >= firstInstantAfterExpiry;
}

/** Amex has a four-digit CID; the other networks three digits. Unknown network: either. */
export function cvcLengths(brand: CardBrand): readonly number[] {
  if (brand === 'AMEX') return [4];
  if (brand === 'UNKNOWN') return [3, 4];
  return [3];
}

const US_ZIP = /^[0-9]{5}(?:-[0-9]{4})?$/;

export interface CardInput {
  number: string;
  expMonth: number | string;
  expYear: number | string;
  cvc: string;
  /** US ZIP, `12345` or `12345-6789`; optional (absent, null or blank). */
  postalCode?: string | null;
}

/**
 * Every broken rule of a card as typed by a payer, one entry per field (first problem only).
 * `now` decides expiry. An empty array means the card may be sent to the gateway.
 */
export function validateCard(card: CardInput, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  const numberProblem = cardNumberProblem(card.number);
  if (numberProblem) errors.push({ field: 'card_number', message: numberProblem });

  const month = parseExpMonth(card.expMonth);
  const year = parseExpYear(card.expYear);
  if (month === null) errors.push({ field: 'exp_month', message: 'must be a month from 1 to 12' });
  if (year === null) {
    errors.push({ field: 'exp_year', message: 'must be a four-digit year' });
  } else if (year > now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD) {
    errors.push({ field: 'exp_year', message: `must be at most ${MAX_EXPIRY_YEARS_AHEAD} years ahead` });
  } else if (year < now.getUTCFullYear()) {
    errors.push({ field: 'exp_year', message: 'the card has expired' });
  } else if (month !== null && cardExpired(month, year, now)) {
    errors.push({ field: 'exp_month', message: 'the card has expired' });
  }

  const brand = detectBrand(card.number);
  const cvc = card.cvc.trim();
  const lengths = cvcLengths(brand);
  if (!DIGITS.test(cvc) || !lengths.includes(cvc.length)) {
    const which = brand === 'UNKNOWN' ? '' : ` for ${brand}`;
    errors.push({ field: 'cvc', message: `must be ${lengths.join(' or ')} digits${which}` });
  }

  const postal = card.postalCode?.trim();
  if (postal && !US_ZIP.test(postal)) {
    errors.push({ field: 'postal_code', message: 'must be a US ZIP code, 12345 or 12345-6789' });
  }
  return errors;
}
