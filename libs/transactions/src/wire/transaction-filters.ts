import { createHash } from 'node:crypto';
import { CURRENCY_EXPONENTS, parseAmount } from '../../../platform/src/money/amount';
import { plainTextProblem } from '../../../platform/src/validation/plain-text';
import { UUID } from '../../../platform/src/validation/uuid';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import type { QueryParamDoc } from '../../../platform/src/http/strict-query';
import {
  RAILS,
  TRANSACTION_STATES,
  TRANSACTION_TYPES,
  type Rail,
  type TransactionState,
  type TransactionType,
} from '../domain/transaction-states';

/**
 * The query string of `GET /transactions`, `/transactions/summary` and `/transactions/export`
 * (CONTRACT §3 names the parameters), parsed strictly into {@link TransactionFilters}.
 */

/** The filter parameters, as CONTRACT §3 names them. */
export const FILTER_PARAMETERS = [
  'merchant_id',
  'q',
  'state',
  'type',
  'rail',
  'created_from',
  'created_to',
  'amount_min',
  'amount_max',
] as const;
export const PAGE_PARAMETERS = ['cursor', 'page_size'] as const;

/** What the OpenAPI document says of each filter (every filter must be here: the type says so). */
export const TRANSACTION_FILTER_DOCS: Record<(typeof FILTER_PARAMETERS)[number], QueryParamDoc> = {
  merchant_id: {
    schema: { type: 'string', format: 'uuid' },
    description: 'Another partner’s merchant is 404.',
  },
  q: {
    schema: { type: 'string', maxLength: 200 },
    description:
      'Search: a substring of the gateway transaction id; a UUID matches the transaction or merchant id; four digits match an ACH routing or account last four.',
  },
  state: { schema: { type: 'string', enum: [...TRANSACTION_STATES] } },
  type: { schema: { type: 'string', enum: [...TRANSACTION_TYPES] } },
  rail: { schema: { type: 'string', enum: [...RAILS] } },
  created_from: { schema: { type: 'string', format: 'date-time' }, description: 'Inclusive.' },
  created_to: { schema: { type: 'string', format: 'date-time' }, description: 'Inclusive.' },
  amount_min: {
    schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,2})?$' },
    description: 'Inclusive, in dollars (a decimal point is optional here).',
  },
  amount_max: {
    schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,2})?$' },
    description: 'Inclusive, in dollars.',
  },
};

/** Spec Limits: transaction search text, at most 200 characters (after trimming). */
export const MAX_SEARCH_LENGTH = 200;

/** Filter amounts are dollars: the list's currency is the only one the platform takes (USD). */
export const FILTER_CURRENCY = 'USD';

const LAST_FOUR = /^[0-9]{4}$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

export interface TransactionSearch {
  /** The trimmed text: a case-insensitive substring of the gateway transaction id. */
  text: string;
  /** Lower-cased when the text is a UUID: the transaction id or the merchant id, exactly. */
  uuid: string | null;
  /** When the text is exactly four digits: the ACH routing or account last four, exactly. */
  lastFour: string | null;
}

/** An inclusive instant bound: `iso` is what PostgreSQL compares (microseconds, UTC). */
export interface InstantBound {
  iso: string;
  /** Nanoseconds since the epoch, as given (for ordering the two bounds). */
  epochNs: bigint;
}

export interface TransactionFilters {
  merchantId: string | null;
  search: TransactionSearch | null;
  state: TransactionState | null;
  type: TransactionType | null;
  rail: Rail | null;
  createdFrom: InstantBound | null;
  createdTo: InstantBound | null;
  /** Inclusive, in minor units of the transaction's currency. */
  amountMinMinor: bigint | null;
  amountMaxMinor: bigint | null;
}

export type TransactionQueryKind = 'list' | 'summary' | 'export';

type FieldError = { field: string; message: string };

/**
 * The query string of a transaction read, strictly: every problem is a 400 `validation_error`
 * naming each bad parameter, and the unfiltered list is never returned instead. Unknown
 * parameters and repeated ones are refused too (a typo must not silently widen an export).
 * `cursor` and `page_size` belong to the list only; the caller reads them (`pageRequest`).
 */
export function parseTransactionFilters(
  query: Record<string, unknown>,
  kind: TransactionQueryKind,
): TransactionFilters {
  const errors: FieldError[] = [];
  const allowed: readonly string[] =
    kind === 'list' ? [...FILTER_PARAMETERS, ...PAGE_PARAMETERS] : FILTER_PARAMETERS;
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name)) {
      const field = name.length > 100 ? `${name.slice(0, 100)}…` : name;
      errors.push({ field, message: 'is not a known parameter' });
    }
  }
  const filters: TransactionFilters = {
    merchantId: null,
    search: null,
    state: null,
    type: null,
    rail: null,
    createdFrom: null,
    createdTo: null,
    amountMinMinor: null,
    amountMaxMinor: null,
  };
  /** The single string value of a parameter, or undefined (absent, or reported). */
  const single = (name: (typeof FILTER_PARAMETERS)[number]): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) {
      errors.push({ field: name, message: 'must be given once' });
      return undefined;
    }
    if (typeof value !== 'string') {
      errors.push({ field: name, message: 'must be a single value' });
      return undefined;
    }
    if (value.trim() === '') {
      errors.push({ field: name, message: 'must not be blank' });
      return undefined;
    }
    return value;
  };

  const merchantId = single('merchant_id');
  if (merchantId !== undefined) {
    if (UUID.test(merchantId)) filters.merchantId = merchantId.toLowerCase();
    else errors.push({ field: 'merchant_id', message: 'must be a UUID' });
  }

  const q = single('q');
  if (q !== undefined) {
    const text = q.trim();
    if ([...text].length > MAX_SEARCH_LENGTH) {
      errors.push({ field: 'q', message: `must be at most ${MAX_SEARCH_LENGTH} characters` });
    } else if (plainTextProblem(text)) {
      errors.push({ field: 'q', message: plainTextProblem(text) as string });
    } else {
      filters.search = {
        text,
        uuid: UUID.test(text) ? text.toLowerCase() : null,
        lastFour: LAST_FOUR.test(text) ? text : null,
      };
    }
  }

  const oneOf = <T extends string>(name: 'state' | 'type' | 'rail', values: readonly T[]): T | null => {
    const value = single(name);
    if (value === undefined) return null;
    if ((values as readonly string[]).includes(value)) return value as T;
    errors.push({ field: name, message: `must be one of ${values.join(', ')}` });
    return null;
  };
  filters.state = oneOf('state', TRANSACTION_STATES);
  filters.type = oneOf('type', TRANSACTION_TYPES);
  filters.rail = oneOf('rail', RAILS);

  const instant = (name: 'created_from' | 'created_to', round: 'up' | 'down'): InstantBound | null => {
    const value = single(name);
    if (value === undefined) return null;
    const parsed = parseInstant(value, round);
    if (!parsed) {
      errors.push({
        field: name,
        message: 'must be an ISO 8601 date-time with a time zone, such as 2026-11-01T00:00:00Z',
      });
    }
    return parsed;
  };
  // Bounds are inclusive; stored times have microseconds at most, so a finer lower bound rounds up
  // and a finer upper bound rounds down, and neither lets in a row outside what was asked.
  filters.createdFrom = instant('created_from', 'up');
  filters.createdTo = instant('created_to', 'down');
  if (filters.createdFrom && filters.createdTo && filters.createdFrom.epochNs > filters.createdTo.epochNs) {
    errors.push({ field: 'created_from', message: 'must not be later than created_to' });
  }

  const amount = (name: 'amount_min' | 'amount_max'): bigint | null => {
    const value = single(name);
    if (value === undefined) return null;
    const parsed = parseAmount(value, FILTER_CURRENCY, { pointOptional: true });
    if (parsed.ok) return parsed.minor;
    errors.push({
      field: name,
      message: `must be a non-negative amount in dollars with at most ${CURRENCY_EXPONENTS[FILTER_CURRENCY]} decimals, such as 10 or 10.50`,
    });
    return null;
  };
  filters.amountMinMinor = amount('amount_min');
  filters.amountMaxMinor = amount('amount_max');
  if (
    filters.amountMinMinor !== null &&
    filters.amountMaxMinor !== null &&
    filters.amountMinMinor > filters.amountMaxMinor
  ) {
    errors.push({ field: 'amount_min', message: 'must not be greater than amount_max' });
  }

  if (errors.length) throw validationProblem(errors);
  return filters;
}

/**
 * What a list cursor is bound to: the partner and the exact filters (hashed, so the cursor stays
 * well under the 256-character limit however long the search text is). A cursor used with other
 * filters, or by another partner, is 400.
 */
export function filterScope(partnerId: string, filters: TransactionFilters): string {
  const canonical = JSON.stringify([
    filters.merchantId,
    filters.search?.text ?? null,
    filters.state,
    filters.type,
    filters.rail,
    filters.createdFrom?.iso ?? null,
    filters.createdTo?.iso ?? null,
    filters.amountMinMinor?.toString() ?? null,
    filters.amountMaxMinor?.toString() ?? null,
  ]);
  const digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
  return `partner:${partnerId}:${digest}`;
}

/** `2026-11-01T10:00:00+02:00` → an inclusive bound, or null when it is not a valid date-time. */
export function parseInstant(value: string, round: 'up' | 'down'): InstantBound | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const fractionNs = BigInt((m[7] ?? '').padEnd(9, '0') || '0');
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
  const daysInMonth =
    new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    return null;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const offsetMs = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const epochNs = BigInt(date.getTime() - offsetMs) * 1_000_000n + fractionNs;
  const micros = round === 'up' ? -floorDiv(-epochNs, 1000n) : floorDiv(epochNs, 1000n);
  const millis = floorDiv(micros, 1000n);
  const iso = new Date(Number(millis)).toISOString();
  // Beyond what a four-digit year can say once the offset is applied (year 0000 or 10000).
  if (!/^\d{4}-/.test(iso) || iso.startsWith('0000')) return null;
  const subMillis = String(micros - millis * 1000n).padStart(3, '0');
  return { iso: `${iso.slice(0, -1)}${subMillis}Z`, epochNs };
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
