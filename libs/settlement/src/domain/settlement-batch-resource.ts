import { z } from 'zod';
import { formatAmount } from '../../../platform/src/money/amount';
import { DateOnly, Money, Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { MEMBER_MATCH_STATES } from './processor-report';
import type { BatchMember, SettlementBatch } from './settlement-batch';
import {
  REPORTING_BASES,
  SETTLEMENT_BATCH_STATES,
  TRIGGER_TYPES,
  VENDOR_STATUSES,
} from './settlement-batch-states';

export const SettlementBatchSchema = z
  .strictObject({
    id: Uuid,
    merchant_id: Uuid,
    state: z.enum(SETTLEMENT_BATCH_STATES),
    reporting_basis: z.enum(REPORTING_BASES),
    processing_account: z.strictObject({ merchant_id: Uuid, processor_key: z.string() }),
    vendor_status: z.enum(VENDOR_STATUSES).nullable(),
    gateway_batch_id: z.string(),
    processor_batch_id: z.string().nullable(),
    closed_settlement_batch_id: z.string().nullable(),
    vendor_settlement_batch_id: z.string().nullable(),
    transaction_count: z.int().min(0),
    total_amount: Money.nullable(),
    fees: Money.nullable(),
    net_amount: Money.nullable(),
    currency: z.string(),
    expected_settled_count: z.int().min(0),
    observed_member_count: z.int().min(0),
    observed_member_amount: Money.nullable(),
    run_date_utc: Timestamp,
    completed_at_utc: Timestamp.nullable(),
    trigger_type: z.enum(TRIGGER_TYPES),
    settlement_date: DateOnly,
    expected_by: Timestamp.nullable(),
    held_reason: z.string().nullable(),
    reconciled_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'SettlementBatch' });

export const BatchMemberSchema = z
  .strictObject({
    id: z.string(),
    transaction_id: Uuid,
    gateway_transaction_id: z.string().nullable(),
    rail: z.enum(['CARD', 'ACH']),
    type: z.string().meta({ description: 'The transaction’s type, which gives the sign.' }),
    amount: Money,
    settled_at: Timestamp,
    match_state: z.enum(MEMBER_MATCH_STATES),
    reported_amount: Money.nullable(),
  })
  .meta({ id: 'SettlementBatchMember' });

/**
 * The spec's Settlement batch resource, every field (docs/settlement.md gives each one's meaning
 * and when it is null). Money is a decimal string in the batch's currency, signed as money moving
 * to the merchant. Extension beyond the spec's list: `currency`.
 */
export function toBatchResource(b: Omit<SettlementBatch, 'members'>): z.infer<typeof SettlementBatchSchema> {
  const money = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), b.currency));
  return {
    id: b.id,
    merchant_id: b.merchantId,
    state: b.state,
    reporting_basis: b.reportingBasis,
    processing_account: { merchant_id: b.merchantId, processor_key: b.processorKey },
    vendor_status: b.vendorStatus,
    gateway_batch_id: b.gatewayBatchId,
    processor_batch_id: b.processorBatchId,
    closed_settlement_batch_id: b.closedSettlementBatchId,
    vendor_settlement_batch_id: b.vendorSettlementBatchId,
    transaction_count: b.transactionCount,
    total_amount: money(b.totalAmountMinor),
    fees: money(b.feesMinor),
    net_amount: money(b.netAmountMinor),
    currency: b.currency,
    expected_settled_count: b.expectedSettledCount,
    observed_member_count: b.observedMemberCount,
    observed_member_amount: money(b.observedMemberAmountMinor),
    run_date_utc: b.runDateUtc,
    completed_at_utc: b.completedAtUtc,
    trigger_type: b.triggerType,
    settlement_date: b.settlementDate,
    expected_by: b.expectedBy,
    held_reason: b.heldReason,
    reconciled_at: b.reconciledAt,
    created_at: b.createdAt,
  };
}

export type BatchResource = ReturnType<typeof toBatchResource>;

/**
 * The spec's Batch member. `match_state`: RECORDED (only the gateway has reported it), then as the
 * last processor report found it: MATCHED, MISMATCHED (a line with a difference, or several lines)
 * or MISSING (no line). Extensions: `type` (the transaction's type, which gives the sign) and
 * `reported_amount` (its line's amount in the last report; null before one, or when missing).
 */
export function toBatchMemberResource(
  member: BatchMember,
  currency: string,
): z.infer<typeof BatchMemberSchema> {
  return {
    id: member.memberId,
    transaction_id: member.transactionId,
    gateway_transaction_id: member.gatewayTransactionId,
    rail: member.rail,
    type: member.type,
    amount: formatAmount(BigInt(member.amountMinor), currency),
    settled_at: member.settledAt,
    match_state: member.matchState,
    reported_amount:
      member.reportedAmountMinor === null ? null : formatAmount(BigInt(member.reportedAmountMinor), currency),
  };
}
