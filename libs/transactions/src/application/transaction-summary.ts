import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { z } from 'zod';
import { Money } from '../../../platform/src/openapi/wire-schemas';
import { formatAmount } from '../../../platform/src/money/amount';
import {
  RAILS,
  TRANSACTION_STATES,
  TRANSACTION_TYPES,
  type Rail,
  type TransactionState,
  type TransactionType,
} from '../domain/transaction-states';
import { FILTER_CURRENCY, type TransactionFilters } from '../wire/transaction-filters';
import { filterConditions } from './transaction-list-sql';

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

const AmountBucketSchema = z.strictObject({ count: z.int().min(0), amount: Money });
export type AmountBucket = z.infer<typeof AmountBucketSchema>;

const bucketsOf = <K extends string>(keys: readonly K[]) =>
  z.strictObject(
    Object.fromEntries(keys.map((key) => [key, AmountBucketSchema])) as Record<K, typeof AmountBucketSchema>,
  );

export const TransactionSummarySchema = z
  .strictObject({
    currency: z.string(),
    count: z.int().min(0),
    approved_count: z.int().min(0),
    declined_count: z.int().min(0),
    approval_rate: z
      .string()
      .nullable()
      .meta({ description: 'approved / (approved + declined), 4 decimals; null with neither.' }),
    volume: Money,
    refunds: AmountBucketSchema,
    net: Money,
    by_state: bucketsOf(TRANSACTION_STATES),
    by_type: bucketsOf(TRANSACTION_TYPES),
    by_rail: bucketsOf(RAILS),
  })
  .meta({ id: 'TransactionSummary' });
export type TransactionSummary = z.infer<typeof TransactionSummarySchema>;

class Tally {
  count = 0n;
  minor = 0n;

  add(count: bigint, minor: bigint): void {
    this.count += count;
    this.minor += minor;
  }
}

/** `GET /transactions/summary`: the KPI summary under the list's filters. */
@Injectable()
export class TransactionSummaries {
  constructor(private readonly pool: Pool) {}

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
}
