import { formatAmount } from '../../../platform/src/money/amount';
import type { ReconciliationException } from './reconciliation-exception';

/**
 * The spec's Reconciliation exception, every field (docs/reconciliation.md). Extensions:
 * `currency`, `expected_amount` and `observed_amount` (the two sides of the difference as decimal
 * strings, signed as money to the merchant; null when a side has no amount: a missing line, a
 * count).
 */
export function toReconciliationExceptionResource(e: ReconciliationException) {
  const money = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), e.currency));
  return {
    id: e.id,
    batch_id: e.batchId,
    merchant_id: e.merchantId,
    transaction_id: e.transactionId,
    type: e.type,
    state: e.state,
    severity: e.severity,
    description: e.description,
    expected_by: e.expectedBy,
    observed_at: e.observedAt,
    resolved_by: e.resolvedBy,
    resolved_at: e.resolvedAt,
    resolution: e.resolution,
    created_at: e.createdAt,
    currency: e.currency,
    expected_amount: money(e.expectedAmountMinor),
    observed_amount: money(e.observedAmountMinor),
  };
}

export type ReconciliationExceptionResource = ReturnType<typeof toReconciliationExceptionResource>;
