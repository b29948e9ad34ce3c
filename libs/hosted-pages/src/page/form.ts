import { forbiddenCharacter } from '../../../platform/src/validation/plain-text';
import {
  detectBrand,
  lastFour,
  MAX_EXPIRY_YEARS_AHEAD,
  normalizePan,
  parseExpMonth,
  parseExpYear,
  validateCard,
  type CardBrand,
} from '../../../gateway/src';
import { isAbaRoutingNumber } from '../../../platform/src/banking/aba';
import { CURRENCY_EXPONENTS, parseAmount } from '../../../platform/src/money/amount';
import {
  ACCOUNT_TYPES,
  AMOUNT_FIELD,
  CSRF_FIELD,
  FORM_ERROR_KEY,
  NEVER_REFILLED,
  payerFields,
  type AccountType,
  type FormSession,
  type PayerField,
} from './fields';
import { displayMoney } from './money';

/**
 * The hosted form as posted (CONTRACT §4), checked field by field. Messages are written for the
 * payer, not for a developer: they say what to do.
 *
 * Decisions:
 * 1. Postal code: required; 3 to 10 letters, digits, inner spaces or hyphens, starting and ending
 *    with a letter or digit. That takes US ZIP and ZIP+4 as well as Canadian and UK codes: the
 *    payer of a US merchant may live anywhere, and the issuer's address check, not this form,
 *    knows the card's country. (card.ts's `validateCard` is US-only for postal codes, so the
 *    card is checked without it and the postal code here.) Stored upper-cased, spaces collapsed.
 * 2. Card number: spaces and dashes allowed (normalised away); `validateCard` decides, the
 *    helpers of card.ts only pick the sentence.
 * 3. Account number: spaces and dashes allowed too, then 4 to 17 digits (the NACHA field width).
 * 4. Any field this session does not show, a field sent twice (an array) or a value that is not
 *    text is refused: the browser never sends those, so they are tampering or a broken client.
 *    `csrf_token` is accepted and ignored here (csrf.ts checks it).
 * 5. No value longer than 200 characters is read or echoed back.
 */
export interface HostedCardInput {
  /** Digits only. Never log it, never store it, never put it in a message. */
  pan: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /** Never log it, never store it. */
  cvc: string;
  postalCode: string;
}

export interface HostedBankInput {
  routingNumber: string;
  /** Digits only. Never log it; only its last four may be kept. */
  accountNumber: string;
  accountType: AccountType;
  nameOnAccount: string;
}

export type HostedFormInput =
  | { paymentMethod: 'card'; card: HostedCardInput; amountMinor: bigint | null }
  | { paymentMethod: 'ach'; bank: HostedBankInput; amountMinor: bigint | null };

export type HostedFormResult =
  | { ok: true; input: HostedFormInput }
  | { ok: false; errors: Record<string, string>; values: Record<string, string> };

export const MAX_FIELD_LENGTH = 200;
export const NAME_ON_ACCOUNT_MAX_LENGTH = 100;
export const MAX_ENTERED_AMOUNT_MAJOR = 999_999;

const POSTAL_CODE = /^[A-Z0-9](?:[A-Z0-9 -]{1,8}[A-Z0-9])$/i;
const DIGITS = /^[0-9]+$/;
/** One rule for every text field (platform plain-text.ts): controls, separators, bidi. */
const CONTROL = { test: (value: string): boolean => forbiddenCharacter(value) !== null };

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const refuse = <T>(message: string): Checked<T> => ({ ok: false, message });

/** Checks a hosted-page post against the session it was posted to; `now` decides card expiry. */
export function parseHostedForm(
  session: FormSession,
  body: Readonly<Record<string, unknown>>,
  now: Date,
): HostedFormResult {
  const fields = payerFields(session);
  const errors: Record<string, string> = {};
  const text = readFields(body, fields, errors);
  const values = refillValues(text);

  const amount =
    session.amountMode === 'customer_entered'
      ? parseEnteredAmount(text.amount ?? '', session.currency)
      : ok(null);
  if (!amount.ok) errors[AMOUNT_FIELD] ??= amount.message;

  if (session.paymentMethod === 'ach') {
    const bank = parseBank(text);
    for (const [field, message] of Object.entries(bank.errors)) errors[field] ??= message;
    if (Object.keys(errors).length > 0 || !amount.ok || !bank.value) return { ok: false, errors, values };
    return { ok: true, input: { paymentMethod: 'ach', bank: bank.value, amountMinor: amount.value } };
  }
  const card = parseCard(text, now);
  for (const [field, message] of Object.entries(card.errors)) errors[field] ??= message;
  if (Object.keys(errors).length > 0 || !amount.ok || !card.value) return { ok: false, errors, values };
  return { ok: true, input: { paymentMethod: 'card', card: card.value, amountMinor: amount.value } };
}

/**
 * Each expected field as trimmed text ('' when absent); a field that cannot be read gets its
 * error here and no text, so later checks leave it alone.
 */
function readFields(
  body: Readonly<Record<string, unknown>>,
  fields: readonly PayerField[],
  errors: Record<string, string>,
): Partial<Record<PayerField, string>> {
  const text: Partial<Record<PayerField, string>> = {};
  const expected = new Set<string>([...fields, CSRF_FIELD]);
  if (Object.keys(body).some((key) => !expected.has(key))) {
    errors[FORM_ERROR_KEY] =
      'The form contained fields this page does not use. Reload the page and try again.';
  }
  for (const field of fields) {
    const raw = Object.prototype.hasOwnProperty.call(body, field) ? body[field] : undefined;
    if (Array.isArray(raw)) errors[field] = 'This field was sent more than once. Enter it again.';
    else if (raw !== undefined && typeof raw !== 'string') errors[field] = 'Enter this field again.';
    else if (raw !== undefined && raw.length > MAX_FIELD_LENGTH) errors[field] = 'This entry is too long.';
    else text[field] = (raw ?? '').trim();
  }
  return text;
}

/** What the page may show again: never the card number, CVC or account number. */
function refillValues(text: Partial<Record<PayerField, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [field, value] of Object.entries(text)) {
    if (!NEVER_REFILLED.has(field) && value !== undefined) values[field] = value;
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Card

interface Parsed<T> {
  value: T | null;
  errors: Record<string, string>;
}

function parseCard(text: Partial<Record<PayerField, string>>, now: Date): Parsed<HostedCardInput> {
  const errors: Record<string, string> = {};
  // A field that could not be read already has its error; it is checked as blank, not reported twice.
  const number = text.card_number ?? '';
  const month = text.exp_month ?? '';
  const year = text.exp_year ?? '';
  const cvc = text.cvc ?? '';
  for (const { field } of validateCard(
    { number, expMonth: month, expYear: year, cvc, postalCode: null },
    now,
  )) {
    errors[field] ??= cardMessage(field, { number, month, year }, now);
  }
  const postal = parsePostalCode(text.postal_code ?? '');
  if (!postal.ok) errors.postal_code = postal.message;

  const expMonth = parseExpMonth(month);
  const expYear = parseExpYear(year);
  if (Object.keys(errors).length > 0 || expMonth === null || expYear === null || !postal.ok) {
    return { value: null, errors };
  }
  const pan = normalizePan(number);
  return {
    value: {
      pan,
      brand: detectBrand(pan),
      last4: lastFour(pan),
      expMonth,
      expYear,
      cvc,
      postalCode: postal.value,
    },
    errors,
  };
}

/** The sentence for a field `validateCard` refused; the card.ts helpers tell which rule broke. */
function cardMessage(
  field: string,
  typed: { number: string; month: string; year: string },
  now: Date,
): string {
  switch (field) {
    case 'card_number':
      return cardNumberMessage(typed.number);
    case 'exp_month':
      if (typed.month === '') return 'Enter the expiry month.';
      return parseExpMonth(typed.month) === null
        ? 'Enter the expiry month as a number from 1 to 12.'
        : 'This card has expired. Use another card.';
    case 'exp_year': {
      if (typed.year === '') return 'Enter the expiry year.';
      const year = parseExpYear(typed.year);
      if (year === null) return 'Enter the expiry year as 2 or 4 digits, for example 2030.';
      return year > now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD
        ? 'Check the expiry year: it is too far in the future.'
        : 'This card has expired. Use another card.';
    }
    case 'cvc':
      return cvcMessage(detectBrand(typed.number));
    default:
      return 'Check this field.';
  }
}

function cardNumberMessage(typed: string): string {
  const digits = normalizePan(typed);
  if (digits === '') return 'Enter your card number.';
  if (!DIGITS.test(digits)) return 'Enter the card number using digits only.';
  if (digits.length < 12 || digits.length > 19) return 'Enter the card number: it has 12 to 19 digits.';
  if (detectBrand(digits) === 'UNKNOWN') return 'This type of card is not accepted. Use another card.';
  // A length the network does not issue, or a failed Luhn check: most likely a typo.
  return 'This card number is not valid. Check it and try again.';
}

function cvcMessage(brand: CardBrand): string {
  if (brand === 'AMEX') return 'Enter the 4-digit security code from the front of the card.';
  if (brand === 'UNKNOWN') return 'Enter the 3 or 4-digit security code.';
  return 'Enter the 3-digit security code from the back of the card.';
}

/** Decision 1 (file header). */
export function parsePostalCode(typed: string): Checked<string> {
  const value = typed.trim().replace(/\s+/g, ' ');
  if (value === '') return refuse('Enter your billing postal code.');
  if (!POSTAL_CODE.test(value)) return refuse('Enter a valid postal code, for example 94105.');
  return ok(value.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// ACH

function parseBank(text: Partial<Record<PayerField, string>>): Parsed<HostedBankInput> {
  const routing = parseRoutingNumber(text.routing_number ?? '');
  const account = parseAccountNumber(text.account_number ?? '');
  const type = parseAccountType(text.account_type ?? '');
  const name = parseNameOnAccount(text.name_on_account ?? '');
  const errors: Record<string, string> = {};
  if (!routing.ok) errors.routing_number = routing.message;
  if (!account.ok) errors.account_number = account.message;
  if (!type.ok) errors.account_type = type.message;
  if (!name.ok) errors.name_on_account = name.message;
  if (!routing.ok || !account.ok || !type.ok || !name.ok) return { value: null, errors };
  return {
    value: {
      routingNumber: routing.value,
      accountNumber: account.value,
      accountType: type.value,
      nameOnAccount: name.value,
    },
    errors,
  };
}

export function parseRoutingNumber(typed: string): Checked<string> {
  const value = typed.trim();
  if (value === '') return refuse('Enter the routing number.');
  if (!/^[0-9]{9}$/.test(value)) return refuse('Enter the routing number: it has 9 digits.');
  if (!isAbaRoutingNumber(value)) return refuse('This routing number is not valid. Check it and try again.');
  return ok(value);
}

/** Decision 3 (file header). */
export function parseAccountNumber(typed: string): Checked<string> {
  const value = typed.replace(/[\s-]/g, '');
  if (value === '') return refuse('Enter the account number.');
  if (!DIGITS.test(value)) return refuse('Enter the account number using digits only.');
  if (value.length < 4 || value.length > 17)
    return refuse('Enter the account number: it has 4 to 17 digits.');
  return ok(value);
}

export function parseAccountType(typed: string): Checked<AccountType> {
  return (ACCOUNT_TYPES as readonly string[]).includes(typed)
    ? ok(typed as AccountType)
    : refuse('Choose checking or savings.');
}

export function parseNameOnAccount(typed: string): Checked<string> {
  const value = typed.trim();
  if (value === '') return refuse('Enter the name on the account.');
  if ([...value].length > NAME_ON_ACCOUNT_MAX_LENGTH) {
    return refuse(`Enter the name in ${NAME_ON_ACCOUNT_MAX_LENGTH} characters or fewer.`);
  }
  if (CONTROL.test(value)) return refuse('Enter the name without special characters.');
  return ok(value);
}

// ---------------------------------------------------------------------------------------------
// Amount

/** The largest amount a payer may type: 999,999 and every minor unit below the next million. */
export function maxEnteredAmountMinor(currency: string): bigint | null {
  const exponent = CURRENCY_EXPONENTS[currency];
  if (exponent === undefined) return null;
  return (BigInt(MAX_ENTERED_AMOUNT_MAJOR) + 1n) * 10n ** BigInt(exponent) - 1n;
}

/** A customer-entered amount: a decimal string in the session currency, above zero, at most the cap. */
export function parseEnteredAmount(typed: string, currency: string): Checked<bigint> {
  const value = typed.trim();
  if (value === '') return refuse('Enter the amount to pay.');
  const max = maxEnteredAmountMinor(currency);
  if (max === null) return refuse(`Payments in ${currency} cannot be taken on this page.`);
  // A payer types "25": whole units are fine here (the API's write surface wants the point).
  const parsed = parseAmount(value, currency, { pointOptional: true });
  if (!parsed.ok) {
    return refuse(
      parsed.problem === 'too_many_decimals'
        ? `Enter the amount with at most ${CURRENCY_EXPONENTS[currency]} decimal places.`
        : 'Enter the amount as a number, for example 25.00.',
    );
  }
  if (parsed.minor <= 0n) return refuse('Enter an amount greater than zero.');
  if (parsed.minor > max) return refuse(`Enter an amount of ${displayMoney(max, currency)} or less.`);
  return ok(parsed.minor);
}
