import type { Rail, TransactionType } from '../../../transactions/src/domain';
import type { ReportingBasis, TriggerType } from './settlement-batch-states';

/**
 * Stored settlement batch events (stream `batch-{id}`, CONTRACT §2). Stored types are never
 * renamed or reshaped; add new ones instead. Amounts are minor-unit integer strings next to the
 * batch's `currency`, signed as money moving to the merchant (a refund is negative); times are
 * ISO-8601 strings, dates `YYYY-MM-DD`.
 */
export const settlementBatchStream = (batchId: string): string => `batch-${batchId}`;
export const SETTLEMENT_BATCH_STREAM_PREFIX = 'batch-';

/** One transaction the run settled into the batch. */
export interface SettlementBatchMember {
  /** The member's own id (spec "Batch member" `id`). */
  memberId: string;
  transactionId: string;
  gatewayTransactionId: string | null;
  rail: Rail;
  type: TransactionType;
  /** Signed: positive to the merchant (SALE, ACH_DEBIT), negative back (refunds, reversals). */
  amountMinor: string;
  settledAt: string;
}

/** The run settled the members and opened the batch (state PENDING, `gateway_reported`). */
export interface SettlementBatchOpened {
  type: 'SettlementBatchOpened';
  data: {
    batchId: string;
    merchantId: string;
    partnerId: string;
    currency: string;
    processorKey: string;
    gatewayBatchId: string;
    reportingBasis: ReportingBasis;
    triggerType: TriggerType;
    /** When the run started. */
    runDateUtc: string;
    /** The run's banking date. */
    settlementDate: string;
    /** The processor's report is expected by then. */
    expectedBy: string;
    members: SettlementBatchMember[];
    transactionCount: number;
    totalAmountMinor: string;
    openedAt: string;
  };
}

export type SettlementBatchEvent = SettlementBatchOpened;

export const SETTLEMENT_BATCH_EVENT_TYPES: readonly SettlementBatchEvent['type'][] = [
  'SettlementBatchOpened',
];

/**
 * Event type → the webhook type a partner sees (`GET /webhook-event-types`). The record makes
 * the compiler check that every event type is mapped.
 */
export const SETTLEMENT_BATCH_WEBHOOK_EVENT_TYPES: Readonly<Record<SettlementBatchEvent['type'], string>> = {
  SettlementBatchOpened: 'settlement_batch.opened',
};
