import type { ReconciliationExceptionEvent } from './reconciliation-exception-events';
import type { SettlementBatchEvent } from './settlement-batch-events';
import { toReconciliationExceptionResource } from './reconciliation-exception-resource';
import { toBatchResource } from './settlement-batch-resource';

/** A partner-visible domain event and the webhook it becomes (for the webhook catalog). */
export interface WebhookEventSpec {
  eventType: string;
  /** `<resource>.<happened>`, the spec's form (`transaction.returned`). */
  webhookType: string;
  description: string;
  /** The resource whose API form is the envelope's `data.object`. */
  object: 'settlement_batch' | 'reconciliation_exception';
}

type Kind = Omit<WebhookEventSpec, 'eventType'>;

/**
 * Every settlement event, partner-visible or not: the record makes the compiler check that a new
 * event type is classified. Partners read batches and exceptions (spec: "read only for
 * partners"), so every state a batch or an exception reaches is a webhook; only the batch's copy of
 * an exception's outcome is internal (the exception's own event is the one partners get).
 */
const KINDS: Readonly<
  Record<SettlementBatchEvent['type'] | ReconciliationExceptionEvent['type'], Kind | null>
> = {
  SettlementBatchOpened: {
    webhookType: 'settlement_batch.opened',
    description: 'The end-of-day run settled transactions into a new batch (PENDING, gateway_reported).',
    object: 'settlement_batch',
  },
  SettlementReportIngested: {
    webhookType: 'settlement_batch.report_verified',
    description:
      "The processor's settlement report was ingested and its control totals verified (RECONCILING).",
    object: 'settlement_batch',
  },
  SettlementBatchReportMissing: {
    webhookType: 'settlement_batch.report_missing',
    description: "No processor report arrived by the batch's expected_by; its payout is held (EXCEPTION).",
    object: 'settlement_batch',
  },
  SettlementBatchHeld: {
    webhookType: 'settlement_batch.held',
    description: 'Reconciliation found differences; the payout is held until they are resolved (EXCEPTION).',
    object: 'settlement_batch',
  },
  SettlementBatchExceptionOutcomeRecorded: null,
  SettlementBatchAwaitingReport: {
    webhookType: 'settlement_batch.awaiting_report',
    description: 'The missing report was resolved by an operator; the batch waits for it again (PENDING).',
    object: 'settlement_batch',
  },
  SettlementBatchReconciled: {
    webhookType: 'settlement_batch.reconciled',
    description: 'Every difference is resolved; the net amount is released for payout (RECONCILED).',
    object: 'settlement_batch',
  },
  SettlementBatchClosedWithExceptions: {
    webhookType: 'settlement_batch.closed_with_exceptions',
    description:
      'The batch closed with a difference written off; the net amount is released for payout (CLOSED_WITH_EXCEPTIONS).',
    object: 'settlement_batch',
  },
  ReconciliationExceptionOpened: {
    webhookType: 'reconciliation_exception.opened',
    description: 'Reconciliation found a difference or a missed deadline (OPEN).',
    object: 'reconciliation_exception',
  },
  ReconciliationExceptionEscalated: {
    webhookType: 'reconciliation_exception.escalated',
    description: 'An operator escalated the exception; it is still outstanding (ESCALATED).',
    object: 'reconciliation_exception',
  },
  ReconciliationExceptionResolved: {
    webhookType: 'reconciliation_exception.resolved',
    description: 'An operator resolved the exception (MANUAL_RESOLVED) or wrote it off (WRITTEN_OFF).',
    object: 'reconciliation_exception',
  },
  ReconciliationExceptionAutoResolved: {
    webhookType: 'reconciliation_exception.auto_resolved',
    description: 'The difference went away: a later report, or the money moved (AUTO_RESOLVED).',
    object: 'reconciliation_exception',
  },
};

/** The partner-visible settlement events and their webhook types, for the webhook catalog. */
export const SETTLEMENT_WEBHOOK_EVENTS: readonly WebhookEventSpec[] = Object.entries(KINDS).flatMap(
  ([eventType, kind]) => (kind ? [{ eventType, ...kind }] : []),
);

/**
 * The envelope's `data.object` of each resource, from the aggregate's state after the event
 * (fold the stream with `settlementBatchEvolver` / `reconciliationExceptionEvolver`).
 */
export const SETTLEMENT_WEBHOOK_OBJECTS = {
  settlement_batch: toBatchResource,
  reconciliation_exception: toReconciliationExceptionResource,
} as const;
