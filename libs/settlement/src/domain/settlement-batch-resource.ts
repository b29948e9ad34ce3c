import { formatAmount } from '../../../platform/src/money/amount';
import type { BatchMember, SettlementBatch } from './settlement-batch';

/**
 * The spec's Settlement batch resource, every field (docs/settlement.md gives each one's meaning
 * and when it is null). Money is a decimal string in the batch's currency, signed as money moving
 * to the merchant. Extension beyond the spec's list: `currency`.
 */
export function toBatchResource(b: Omit<SettlementBatch, 'members'>) {
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
export function toBatchMemberResource(member: BatchMember, currency: string) {
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
