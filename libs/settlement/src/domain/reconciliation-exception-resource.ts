import { z } from 'zod';
import { formatAmount } from '../../../platform/src/money/amount';
import { Money, Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { ReconciliationException } from './reconciliation-exception';
import { EXCEPTION_STATES, EXCEPTION_TYPES, SEVERITIES } from './reconciliation-exception-rules';

export const ReconciliationExceptionSchema = z
  .strictObject({
    id: Uuid,
    batch_id: Uuid.nullable(),
    merchant_id: Uuid,
    transaction_id: Uuid.nullable(),
    type: z.enum(EXCEPTION_TYPES),
    state: z.enum(EXCEPTION_STATES),
    severity: z.enum(SEVERITIES).nullable(),
    description: z.string(),
    expected_by: Timestamp.nullable(),
    observed_at: Timestamp,
    resolved_by: z.string().nullable(),
    resolved_at: Timestamp.nullable(),
    resolution: z.string().nullable(),
    created_at: Timestamp,
    currency: z.string(),
    expected_amount: Money.nullable(),
    observed_amount: Money.nullable(),
  })
  .meta({ id: 'ReconciliationException' });

/**
 * The spec's Reconciliation exception, every field (docs/reconciliation.md). Extensions:
 * `currency`, `expected_amount` and `observed_amount` (the two sides of the difference as decimal
 * strings, signed as money to the merchant; null when a side has no amount: a missing line, a
 * count).
 */
export function toReconciliationExceptionResource(
  e: ReconciliationException,
): z.infer<typeof ReconciliationExceptionSchema> {
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
