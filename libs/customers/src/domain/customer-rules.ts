import { isIsoCountryCode, isUsStateCode } from '../../../configuration/src/domain';
import { plainTextProblem } from '../../../platform/src/validation/plain-text';
import type { CustomerAddress } from './customer-events';
import type { FieldError } from './customer-errors';

/**
 * The customer's field rules (spec "Customers" PATCH rules and "Limits"; the choices the spec
 * leaves open are in docs/customers.md). Pure: each check takes what the partner sent and gives
 * either the value to store or the message of the broken rule. Lengths count Unicode code points.
 */
export const CUSTOMER_LIMITS = {
  emailMax: 254,
  emailLocalMax: 64,
  displayNameMin: 2,
  displayNameMax: 100,
  addressLineMax: 100,
  cityMax: 100,
  stateMax: 100,
  postalCodeMax: 16,
} as const;

/** E.164: `+`, a country code that does not start with 0, 7 to 15 digits in all; no formatting. */
export const E164_PHONE = /^\+[1-9][0-9]{6,14}$/;

const LOCAL_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TOP_LABEL = '[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])';
/**
 * An address mail can be sent to: dot-atom local part (no leading, trailing or doubled dot), a
 * domain of at least two labels whose last starts with a letter; ASCII only.
 */
export const EMAIL_PATTERN = new RegExp(`^${LOCAL_ATOM}(?:\\.${LOCAL_ATOM})*@(?:${LABEL}\\.)+${TOP_LABEL}$`);

/** Five digits, optionally ZIP+4. */
export const US_ZIP = /^[0-9]{5}(?:-[0-9]{4})?$/;
/** Letters and digits, inner spaces and hyphens (`SW1A 1AA`, `10115`, `K1A 0B1`, `1010-001`). */
export const POSTAL_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;
/** Upper-case ISO 3166-1 alpha-2 shape; the code must also be assigned (configuration/src/countries.ts). */
export const COUNTRY_CODE = /^[A-Z]{2}$/;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const refused = <T>(message: string): Checked<T> => ({ ok: false, message });

const length = (value: string): number => [...value].length;
const isBlank = (value: string): boolean => value.trim() === '';

/** `email`: required on create; when present on PATCH it must not be blank either. */
export function checkEmail(value: string): Checked<string> {
  if (isBlank(value)) return refused('must not be blank');
  if (length(value) > CUSTOMER_LIMITS.emailMax) {
    return refused(`must be at most ${CUSTOMER_LIMITS.emailMax} characters`);
  }
  const local = value.slice(0, value.lastIndexOf('@'));
  if (!EMAIL_PATTERN.test(value) || local.length > CUSTOMER_LIMITS.emailLocalMax) {
    return refused('must be an email address');
  }
  return ok(value);
}

/**
 * `display_name`: blank (`""` or only spaces) clears it (null); otherwise it is stored without
 * surrounding whitespace and must then be 2 to 100 characters, with no control characters.
 */
export function checkDisplayName(value: string): Checked<string | null> {
  const trimmed = value.trim();
  if (trimmed === '') return ok(null);
  const { displayNameMin: min, displayNameMax: max } = CUSTOMER_LIMITS;
  if (length(trimmed) < min || length(trimmed) > max) return refused(`must be ${min} to ${max} characters`);
  const unsafe = plainTextProblem(trimmed);
  if (unsafe) return refused(unsafe);
  return ok(trimmed);
}

/** `phone`: `""` clears it (null); anything else must be E.164 (`+14155550123`). */
export function checkPhone(value: string): Checked<string | null> {
  if (value === '') return ok(null);
  if (!E164_PHONE.test(value)) return refused('must be an E.164 phone number such as +14155550123');
  return ok(value);
}

/** An address as the partner sends it (camelCase); the HTTP layer has checked the types. */
export interface CustomerAddressInput {
  line1: string;
  line2?: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

function text(value: string, max: number, required: boolean): Checked<string | null> {
  if (isBlank(value)) return required ? refused('must not be blank') : ok(null);
  if (length(value) > max) return refused(`must be at most ${max} characters`);
  const unsafe = plainTextProblem(value);
  if (unsafe) return refused(unsafe);
  return ok(value);
}

/**
 * A complete address: `line1`, `city`, `state`, `postal_code` and `country` required and not
 * blank, `line2` optional (blank reads as none). `country` is an assigned ISO 3166-1 alpha-2
 * code in upper case; a US address has a USPS state code and a ZIP or ZIP+4. Errors name
 * `<field>.<key>` on the wire (`address.postal_code`).
 */
export function checkAddress(
  value: CustomerAddressInput,
  field = 'address',
): { address: CustomerAddress; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const take = <T>(key: string, checked: Checked<T>): T => {
    if (!checked.ok) errors.push({ field: `${field}.${key}`, message: checked.message });
    return checked.ok ? checked.value : (undefined as T);
  };
  const { addressLineMax, cityMax, stateMax, postalCodeMax } = CUSTOMER_LIMITS;
  const line1 = take('line1', text(value.line1, addressLineMax, true));
  const line2 = take('line2', value.line2 == null ? ok(null) : text(value.line2, addressLineMax, false));
  const city = take('city', text(value.city, cityMax, true));
  const country = take('country', checkCountry(value.country));
  const us = country === 'US';
  const state = take(
    'state',
    us && !isBlank(value.state)
      ? isUsStateCode(value.state)
        ? ok(value.state)
        : refused<string>('must be a US state code from GET /config/us-states (e.g. CA)')
      : text(value.state, stateMax, true),
  );
  const postalCode = take('postal_code', checkPostalCode(value.postalCode, us, postalCodeMax));
  const address = {
    line1: line1 as string,
    line2: line2 ?? null,
    city: city as string,
    state: state as string,
    postalCode: postalCode,
    country: country,
  };
  return { address, errors };
}

function checkCountry(value: string): Checked<string> {
  if (isBlank(value)) return refused('must not be blank');
  if (!COUNTRY_CODE.test(value) || !isIsoCountryCode(value)) {
    return refused('must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)');
  }
  return ok(value);
}

function checkPostalCode(value: string, us: boolean, max: number): Checked<string> {
  if (isBlank(value)) return refused('must not be blank');
  if (us) return US_ZIP.test(value) ? ok(value) : refused('must be a US ZIP code (12345 or 12345-6789)');
  if (length(value) > max) return refused(`must be at most ${max} characters`);
  if (!POSTAL_CODE.test(value)) return refused('must be letters and digits, with inner spaces or hyphens');
  return ok(value);
}

/** Same address, field for field (keys in one order, so a re-sent address records nothing). */
export function sameAddress(a: CustomerAddress | null, b: CustomerAddress | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.line1 === b.line1 &&
    a.line2 === b.line2 &&
    a.city === b.city &&
    a.state === b.state &&
    a.postalCode === b.postalCode &&
    a.country === b.country
  );
}
