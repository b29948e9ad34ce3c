import type { TransactionFilters } from '../wire/transaction-filters';
import type { TransactionListItem } from '../domain/transaction-resource';

/**
 * The SQL every transaction read shares, over the `transaction_list` read model joined to
 * `merchant_list`: the filters as conditions, the list item's columns and its row type.
 */

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
export const ITEM_COLUMNS = `t.id, t.merchant_id, m.business_name as merchant_name, t.type, t.rail,
  t.amount_minor::text as amount_minor, t.currency, t.state, t.approval_code, t.decline_code, t.decline_reason,
  t.card_last4, t.routing_last4, t.account_last4, t.account_type, t.customer_id,
  to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;
export const LIST_COLUMNS = `${ITEM_COLUMNS}, t.created_position::text as position_key`;
export const FROM = `transaction_list t left join merchant_list m on m.id = t.merchant_id and m.partner_id = t.partner_id`;

export interface TransactionListRow {
  id: string;
  merchant_id: string;
  merchant_name: string | null;
  /** Written by the projector from the transaction's own state, so typed as it. */
  type: TransactionListItem['type'];
  rail: TransactionListItem['rail'];
  amount_minor: string;
  currency: string;
  state: TransactionListItem['state'];
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
export function toListItem(row: TransactionListRow): TransactionListItem {
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

export type TransactionListItemRow = TransactionListItem;
