import { SnapshotListProjector } from '../../libs/projections/src';
import {
  evolveException,
  RECONCILIATION_EXCEPTION_EVENT_TYPES,
  RECONCILIATION_EXCEPTION_STREAM_PREFIX,
  type ReconciliationException,
  type ReconciliationExceptionEvent,
} from '../../libs/settlement/src';

/** `reconciliation_exception_list`: one row per exception, the exception's own `evolve` over a snapshot. */
export class ReconciliationExceptionListProjector extends SnapshotListProjector<ReconciliationException> {
  constructor() {
    super({
      name: 'reconciliation-exception-list',
      table: 'reconciliation_exception_list',
      eventTypes: RECONCILIATION_EXCEPTION_EVENT_TYPES,
      streamPrefix: RECONCILIATION_EXCEPTION_STREAM_PREFIX,
      evolve: (state, event) => evolveException(state, event as ReconciliationExceptionEvent),
      columns: (e) => ({
        partner_id: e.partnerId,
        merchant_id: e.merchantId,
        batch_id: e.batchId,
        transaction_id: e.transactionId,
        type: e.type,
        state: e.state,
        severity: e.severity,
        currency: e.currency,
        expected_amount_minor: e.expectedAmountMinor,
        observed_amount_minor: e.observedAmountMinor,
        created_at: e.createdAt,
        resolved_at: e.resolvedAt,
        version: e.version,
      }),
    });
  }
}
