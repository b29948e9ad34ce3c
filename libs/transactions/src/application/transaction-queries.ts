import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { Pool, type PoolClient } from 'pg';
import { CURRENCY_EXPONENTS, formatAmount, parseAmount } from '../../../platform/src/money/amount';
import type { PageRequest } from '../../../platform/src/pagination/pagination';
import { plainTextProblem } from '../../../platform/src/validation/plain-text';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import {
  RAILS,
  TRANSACTION_STATES,
  TRANSACTION_TYPES,
  type Rail,
  type TransactionState,
  type TransactionType,
} from '../domain/transaction-states';
import { UUID } from '../../../platform/src/validation/uuid';

/**
 * The read side of transactions: `GET /transactions` (list and search), `/transactions/summary`
 * and `/transactions/export`, all on the `transaction_list` read model, all under the same filters
 * (CONTRACT §3 names them). Money is summed in SQL on bigint minor units and formatted from
 * bigints; no amount ever goes through a float.
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

/** Spec Limits: transaction search text, at most 200 characters (after trimming). */
export const MAX_SEARCH_LENGTH = 200;

/** Filter amounts are dollars: the list's currency is the only one the platform takes (USD). */
const FILTER_CURRENCY = 'USD';

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

/**
 * The SQL conditions of the filters over `transaction_list t`, with their parameters from `$1`.
 * The partner comes first: every query is one partner's (tenancy), and every index leads with it.
 */
export function filterConditions(
  partnerId: string,
  filters: TransactionFilters,
): { where: string[]; params: unknown[] } {
  const params: unknown[] = [partnerId];
  const p = (value: unknown) => `$${params.push(value)}`;
  const where = ['t.partner_id = $1'];
  if (filters.merchantId) where.push(`t.merchant_id = ${p(filters.merchantId)}`);
  if (filters.state) where.push(`t.state = ${p(filters.state)}`);
  if (filters.type) where.push(`t.type = ${p(filters.type)}`);
  if (filters.rail) where.push(`t.rail = ${p(filters.rail)}`);
  if (filters.createdFrom) where.push(`t.created_at >= ${p(filters.createdFrom.iso)}::timestamptz`);
  if (filters.createdTo) where.push(`t.created_at <= ${p(filters.createdTo.iso)}::timestamptz`);
  if (filters.amountMinMinor !== null) {
    where.push(`t.amount_minor >= ${p(filters.amountMinMinor.toString())}::bigint`);
  }
  if (filters.amountMaxMinor !== null) {
    where.push(`t.amount_minor <= ${p(filters.amountMaxMinor.toString())}::bigint`);
  }
  if (filters.search) {
    const s = filters.search;
    const pattern = `%${s.text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    const any = [`t.gateway_transaction_id ilike ${p(pattern)} escape '!'`];
    if (s.uuid) {
      const uuid = p(s.uuid);
      any.push(`t.id = ${uuid}::uuid`, `t.merchant_id = ${uuid}::uuid`);
    }
    if (s.lastFour) {
      const lastFour = p(s.lastFour);
      any.push(`t.routing_last4 = ${lastFour}`, `t.account_last4 = ${lastFour}`);
    }
    where.push(`(${any.join(' or ')})`);
  }
  return { where, params };
}

/**
 * `transaction_list_counts.merchant_id` of a partner's count over all its merchants: the nil UUID,
 * which no merchant has (the transaction-list projector writes it under the same value).
 */
export const ALL_MERCHANTS = '00000000-0000-0000-0000-000000000000';

/**
 * Whether the list's `total_count` is the transaction-list projector's counter: for the
 * unfiltered list and a merchant alone. The projector adds one to the partner's and to the
 * merchant's count when it inserts a transaction's row, in the transaction of the row, so the
 * counter is exactly `count(*)` of those rows. Any other filter is counted on the rows.
 */
export function countedByProjector(filters: TransactionFilters): boolean {
  return (
    filters.search === null &&
    filters.state === null &&
    filters.type === null &&
    filters.rail === null &&
    filters.createdFrom === null &&
    filters.createdTo === null &&
    filters.amountMinMinor === null &&
    filters.amountMaxMinor === null
  );
}

/**
 * For a created range: a `with` clause computing the lowest and highest `created_position` of the
 * partner's rows in the range, and page conditions keeping `t.created_position` between them
 * (parameters appended to `params`). Every row in the range lies between the two, so the page is
 * exactly what the range alone gives; but the page can now be read off a newest-first index from
 * the range's newest position, where the range alone makes the planner walk that index from the
 * partner's newest row and filter out everything created after the range.
 *
 * The two positions come from an index-only scan of `(partner_id, created_at) include
 * (created_position)` over the range: about what counting the range costs. `count(*)` is in the
 * same select on purpose: with only `min` and `max`, PostgreSQL would take each from one end of the
 * position index instead, filtering on `created_at` (that same walk). None without a created
 * bound, nor with a search (`q`): its own indexes narrow the rows better, where the bound would
 * cost a scan of the whole range.
 */
export function createdSpan(
  filters: TransactionFilters,
  params: unknown[],
): { with: string; where: string[] } | null {
  if ((!filters.createdFrom && !filters.createdTo) || filters.search) return null;
  const p = (value: unknown) => `$${params.push(value)}`;
  const range = ['s.partner_id = $1'];
  if (filters.createdFrom) range.push(`s.created_at >= ${p(filters.createdFrom.iso)}::timestamptz`);
  if (filters.createdTo) range.push(`s.created_at <= ${p(filters.createdTo.iso)}::timestamptz`);
  return {
    with: `with created_span as materialized (
      select min(s.created_position) as low, max(s.created_position) as high, count(*) as matching
        from transaction_list s where ${range.join(' and ')})`,
    where: [
      't.created_position >= (select low from created_span)',
      't.created_position <= (select high from created_span)',
    ],
  };
}

/** The list item's columns (spec "Transaction list item"), the merchant's name joined in. */
const ITEM_COLUMNS = `t.id, t.merchant_id, m.business_name as merchant_name, t.type, t.rail,
  t.amount_minor::text as amount_minor, t.currency, t.state, t.approval_code, t.decline_code, t.decline_reason,
  t.card_last4, t.routing_last4, t.account_last4, t.account_type, t.customer_id,
  to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;
const LIST_COLUMNS = `${ITEM_COLUMNS}, t.created_position::text as position_key`;
const FROM = `transaction_list t left join merchant_list m on m.id = t.merchant_id and m.partner_id = t.partner_id`;

export interface TransactionListRow {
  id: string;
  merchant_id: string;
  merchant_name: string | null;
  type: string;
  rail: string;
  amount_minor: string;
  currency: string;
  state: string;
  approval_code: string | null;
  decline_code: string | null;
  decline_reason: string | null;
  card_last4: string | null;
  routing_last4: string | null;
  account_last4: string | null;
  account_type: string | null;
  customer_id: string | null;
  /** ISO 8601 in UTC with milliseconds, as the transaction's own `created_at` (formatted in SQL). */
  created_at: string;
}

export interface TransactionPageRow extends TransactionListRow {
  position_key: string;
}

/**
 * The spec's list item from a row. The projector wrote the columns from the domain's
 * `toTransactionListItem`, so this is a one-to-one mapping back; `amount` is integer minor units.
 */
export function toListItem(row: TransactionListRow) {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    merchant_name: row.merchant_name,
    type: row.type,
    rail: row.rail,
    amount: Number(row.amount_minor),
    currency: row.currency,
    state: row.state,
    approval_code: row.approval_code,
    decline_code: row.decline_code,
    decline_reason: row.decline_reason,
    card_last4: row.card_last4,
    routing_last4: row.routing_last4,
    account_last4: row.account_last4,
    account_type: row.account_type,
    customer_id: row.customer_id,
    created_at: row.created_at,
  };
}

export type TransactionListItemRow = ReturnType<typeof toListItem>;

/** The export's columns: the list item's fields, in its order. */
export const CSV_COLUMNS = [
  'id',
  'merchant_id',
  'merchant_name',
  'type',
  'rail',
  'amount',
  'currency',
  'state',
  'approval_code',
  'decline_code',
  'decline_reason',
  'card_last4',
  'routing_last4',
  'account_last4',
  'account_type',
  'customer_id',
  'created_at',
] as const satisfies readonly (keyof TransactionListItemRow)[];

/** Characters that make a spreadsheet read a cell as a formula (or hide what precedes one). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * One RFC 4180 field. A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) gets a leading `'` and is quoted, so it reads as text; a cell with a comma, quote, CR or
 * LF is quoted with inner quotes doubled. `null` is an empty field.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  // One test for the common case (nothing to do), as exports run it for every cell.
  if (!NEEDS_CARE.test(text)) return text;
  return `"${FORMULA_START.test(text) ? "'" : ''}${text.replace(/"/g, '""')}"`;
}

/** One CSV record with its CRLF. */
export function csvRecord(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const CSV_HEADER = csvRecord(CSV_COLUMNS);

/** A row as its CSV record: the list item, except `amount` as a decimal string (dollars). */
export function csvRowOf(row: TransactionListRow): string {
  const item = toListItem(row);
  let line = '';
  for (let i = 0; i < CSV_COLUMNS.length; i += 1) {
    const column = CSV_COLUMNS[i];
    const value = column === 'amount' ? formatAmount(BigInt(row.amount_minor), row.currency) : item[column];
    line += i === 0 ? csvCell(value) : `,${csvCell(value)}`;
  }
  return `${line}\r\n`;
}

/** Rows fetched per round trip while exporting (and so the most held in memory at once). */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * The summary's definitions (docs/transactions.md, "Summary"). An attempt is an original money
 * movement (SALE, ACH_DEBIT) the gateway has answered; approved ones are in any state past the
 * answer, declined ones FAILED (or THREE_DS_FAILED). Refunds are REFUND, PARTIAL_REFUND and
 * ACH_REFUND children the gateway accepted.
 */
export const SUMMARY_ORIGINAL_TYPES: readonly TransactionType[] = ['SALE', 'ACH_DEBIT'];
export const SUMMARY_REFUND_TYPES: readonly TransactionType[] = ['REFUND', 'PARTIAL_REFUND', 'ACH_REFUND'];
const UNANSWERED_STATES: readonly TransactionState[] = ['INITIATED', 'THREE_DS_PENDING'];
const DECLINED_STATES: readonly TransactionState[] = ['FAILED', 'THREE_DS_FAILED'];

export type SummaryOutcome = 'approved' | 'declined' | 'refund' | null;

/** Which summary figure a transaction of this type in this state counts towards. */
export function summaryOutcome(type: string, state: string): SummaryOutcome {
  const unanswered = (UNANSWERED_STATES as readonly string[]).includes(state);
  const declined = (DECLINED_STATES as readonly string[]).includes(state);
  if ((SUMMARY_ORIGINAL_TYPES as readonly string[]).includes(type)) {
    return declined ? 'declined' : unanswered ? null : 'approved';
  }
  if ((SUMMARY_REFUND_TYPES as readonly string[]).includes(type)) {
    return declined || unanswered ? null : 'refund';
  }
  return null;
}

/** `numerator / denominator` rounded half up to four decimals, exactly ("0.9500"); null for 0/0. */
export function ratio4(numerator: bigint, denominator: bigint): string | null {
  if (denominator === 0n) return null;
  const scaled = (numerator * 20000n + denominator) / (2n * denominator);
  return `${scaled / 10000n}.${String(scaled % 10000n).padStart(4, '0')}`;
}

export interface AmountBucket {
  count: number;
  amount: string;
}

export interface TransactionSummary {
  currency: string;
  count: number;
  approved_count: number;
  declined_count: number;
  approval_rate: string | null;
  volume: string;
  refunds: AmountBucket;
  net: string;
  by_state: Record<TransactionState, AmountBucket>;
  by_type: Record<TransactionType, AmountBucket>;
  by_rail: Record<Rail, AmountBucket>;
}

/** Counts and minor-unit sums, exact. */
class Tally {
  count = 0n;
  minor = 0n;

  add(count: bigint, minor: bigint): void {
    this.count += count;
    this.minor += minor;
  }
}

@Injectable()
export class TransactionQueries {
  constructor(private readonly pool: Pool) {}

  /**
   * One page, newest first, and the total under the same filters, side by side on two
   * connections. The total is the true count: the projector's counter for the unfiltered and
   * merchant-only lists ({@link countedByProjector}), `count(*)` of the matching rows otherwise.
   * A created range also bounds the page by position ({@link createdSpan}).
   */
  async list(
    partnerId: string,
    filters: TransactionFilters,
    page: PageRequest,
  ): Promise<{ rows: TransactionPageRow[]; total: number }> {
    const { where, params } = filterConditions(partnerId, filters);
    const pageParams = [...params];
    const pageWhere = [...where];
    const span = createdSpan(filters, pageParams);
    if (span) pageWhere.push(...span.where);
    if (page.after !== null) pageWhere.push(`t.created_position < $${pageParams.push(page.after)}::bigint`);
    const limit = `$${pageParams.push(page.pageSize + 1)}`;
    const total = countedByProjector(filters)
      ? this.pool.query<{ count: string }>(
          `select coalesce((select c.count from transaction_list_counts c
                             where c.partner_id = $1 and c.merchant_id = $2), 0)::text as count`,
          [partnerId, filters.merchantId ?? ALL_MERCHANTS],
        )
      : this.pool.query<{ count: string }>(
          `select count(*)::text as count from transaction_list t where ${where.join(' and ')}`,
          params,
        );
    const [{ rows }, counted] = await Promise.all([
      this.pool.query<TransactionPageRow>(
        `${span?.with ?? ''} select ${LIST_COLUMNS} from ${FROM} where ${pageWhere.join(' and ')}
          order by t.created_position desc limit ${limit}`,
        pageParams,
      ),
      total,
    ]);
    return { rows, total: Number(counted.rows[0].count) };
  }

  /**
   * The KPI summary (definitions in docs/transactions.md, "Summary"). PostgreSQL does the one pass
   * over the filtered rows: a count and a bigint sum per (currency, state, type, rail), at most a
   * few hundred groups. Every figure is then an exact bigint sum of those groups; the sums leave
   * the database as text and no amount or ratio goes through a float.
   */
  async summary(partnerId: string, filters: TransactionFilters): Promise<TransactionSummary> {
    const { where, params } = filterConditions(partnerId, filters);
    const { rows } = await this.pool.query<{
      currency: string;
      state: string;
      type: string;
      rail: string;
      count: string;
      minor: string;
    }>(
      `select t.currency, t.state, t.type, t.rail, count(*)::text as count, sum(t.amount_minor)::text as minor
         from transaction_list t
        where ${where.join(' and ')}
        group by t.currency, t.state, t.type, t.rail`,
      params,
    );
    const currencies = [...new Set(rows.map((r) => r.currency))];
    if (currencies.length > 1) {
      // Unreachable while the platform takes USD only; summing across currencies would be wrong.
      throw new Error(
        `a transaction summary over several currencies (${currencies.join(', ')}) is not defined`,
      );
    }
    const currency = currencies[0] ?? FILTER_CURRENCY;
    const all = new Tally();
    const outcomes = { approved: new Tally(), declined: new Tally(), refund: new Tally() };
    const byState = new Map(TRANSACTION_STATES.map((k) => [k as string, new Tally()]));
    const byType = new Map(TRANSACTION_TYPES.map((k) => [k as string, new Tally()]));
    const byRail = new Map(RAILS.map((k) => [k as string, new Tally()]));
    for (const r of rows) {
      const count = BigInt(r.count);
      const minor = BigInt(r.minor);
      all.add(count, minor);
      const outcome = summaryOutcome(r.type, r.state);
      if (outcome) outcomes[outcome].add(count, minor);
      byState.get(r.state)?.add(count, minor);
      byType.get(r.type)?.add(count, minor);
      byRail.get(r.rail)?.add(count, minor);
    }
    const money = (minor: bigint) => formatAmount(minor, currency);
    const bucket = (t: Tally): AmountBucket => ({ count: Number(t.count), amount: money(t.minor) });
    const buckets = <K extends string>(tallies: Map<string, Tally>) =>
      Object.fromEntries([...tallies].map(([key, t]) => [key, bucket(t)])) as Record<K, AmountBucket>;
    const { approved, declined, refund } = outcomes;
    return {
      currency,
      count: Number(all.count),
      approved_count: Number(approved.count),
      declined_count: Number(declined.count),
      approval_rate: ratio4(approved.count, approved.count + declined.count),
      volume: money(approved.minor),
      refunds: bucket(refund),
      net: money(approved.minor - refund.minor),
      by_state: buckets<TransactionState>(byState),
      by_type: buckets<TransactionType>(byType),
      by_rail: buckets<Rail>(byRail),
    };
  }

  /**
   * The CSV export as a byte stream: the header, then the rows newest first. The rows come from a
   * server-side cursor (`DECLARE … CURSOR` in a read-only transaction on one pooled connection),
   * {@link EXPORT_BATCH_SIZE} at a time, and the next batch is fetched only when the HTTP response
   * has taken the previous one (the stream is pulled), so memory stays flat however many rows
   * match. The cursor is opened and its first batch read before this returns, so a database
   * failure is still an ordinary error answer; the connection goes back to the pool when the
   * stream ends, fails or is abandoned by the client.
   */
  async export(partnerId: string, filters: TransactionFilters): Promise<Readable> {
    const { where, params } = filterConditions(partnerId, filters);
    const client = await this.pool.connect();
    let first: TransactionListRow[];
    try {
      await client.query('begin transaction isolation level repeatable read, read only');
      await client.query(
        `declare transaction_export no scroll cursor for
           select ${ITEM_COLUMNS} from ${FROM} where ${where.join(' and ')} order by t.created_position desc`,
        params,
      );
      first = (await client.query<TransactionListRow>(`fetch ${EXPORT_BATCH_SIZE} from transaction_export`))
        .rows;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      client.release(error as Error);
      throw error;
    }
    return new CsvExportStream(client, first);
  }
}

/**
 * The export's bytes, pulled: `_read` (called only when the consumer wants more) formats one
 * batch, or fetches the next one from the open cursor. The transaction ends exactly once, by
 * COMMIT after the last row or by ROLLBACK when the stream is destroyed first (a client that went
 * away, a failed fetch); only then is the connection given back.
 */
class CsvExportStream extends Readable {
  private pending: TransactionListRow[] | null;
  private started = false;
  private ending: Promise<boolean> | null = null;

  constructor(
    private readonly client: PoolClient,
    first: TransactionListRow[],
  ) {
    super();
    this.pending = first;
  }

  override _read(): void {
    if (this.pending) {
      const rows = this.pending;
      this.pending = null;
      this.emitRows(rows);
      return;
    }
    this.client.query<TransactionListRow>(`fetch ${EXPORT_BATCH_SIZE} from transaction_export`).then(
      (result) => this.emitRows(result.rows),
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.end(false).then(() => callback(error));
  }

  private emitRows(rows: TransactionListRow[]): void {
    if (this.destroyed) return;
    const header = this.started ? '' : CSV_HEADER;
    this.started = true;
    const last = rows.length < EXPORT_BATCH_SIZE;
    if (header || rows.length > 0) this.push(header + rows.map(csvRowOf).join(''));
    if (last) {
      void this.end(true).then((ok) => {
        if (ok) this.push(null);
        else if (!this.destroyed) this.destroy(new Error('the export transaction did not commit'));
      });
    }
  }

  /** Ends the transaction once (later calls wait for the first) and gives the connection back. */
  private end(commit: boolean): Promise<boolean> {
    this.ending ??= this.client.query(commit ? 'commit' : 'rollback').then(
      () => {
        this.client.release();
        return true;
      },
      (error: Error) => {
        this.client.release(error);
        return false;
      },
    );
    return this.ending;
  }
}
