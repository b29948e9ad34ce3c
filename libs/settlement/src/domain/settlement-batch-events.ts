import type { Rail, TransactionType } from '../../../transactions/src/domain';
import type { BatchDifference, MemberMatchState } from './processor-report';
import type { ExceptionState } from './reconciliation-exception-rules';
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

/** A difference the batch decided to open as an exception (its `occurrence` names it among same-key ones). */
export type OpenedDifference = BatchDifference & { occurrence: number };

/** A key and occurrence: one exception of the batch. */
export interface BatchExceptionRef {
  key: string;
  occurrence: number;
}

/**
 * A processor report was ingested and verified (state RECONCILING, `report_verified`): every line
 * matched to a member or not, the control total and the fees checked. `opened` are the
 * differences that become exceptions now; `autoResolved` the outstanding ones the report no
 * longer shows.
 */
export interface SettlementReportIngested {
  type: 'SettlementReportIngested';
  data: {
    batchId: string;
    reportId: string;
    processorBatchId: string | null;
    vendorSettlementBatchId: string | null;
    lineCount: number;
    reportTotalMinor: string;
    feesMinor: string;
    expectedFeesMinor: string;
    /** `total_amount` − `fees`: what is paid out once the batch is final. */
    netAmountMinor: string;
    observedMemberCount: number;
    observedMemberAmountMinor: string;
    memberMatches: { memberId: string; matchState: MemberMatchState; reportedAmountMinor: string | null }[];
    opened: OpenedDifference[];
    autoResolved: BatchExceptionRef[];
    receivedAt: string;
  };
}

/** The sweep found no report by `expected_by` (state EXCEPTION, a MISSING_BATCH exception). */
export interface SettlementBatchReportMissing {
  type: 'SettlementBatchReportMissing';
  data: { batchId: string; key: string; occurrence: number; expectedBy: string; at: string };
}

/** Reconciliation ended with outstanding exceptions: the payout is held (state EXCEPTION). */
export interface SettlementBatchHeld {
  type: 'SettlementBatchHeld';
  data: { batchId: string; outstanding: BatchExceptionRef[]; at: string };
}

/** One of the batch's exceptions changed state (an operator, or the difference went away). */
export interface SettlementBatchExceptionOutcomeRecorded {
  type: 'SettlementBatchExceptionOutcomeRecorded';
  data: { batchId: string; key: string; occurrence: number; state: ExceptionState; at: string };
}

/** An operator resolved the missing report without writing it off: the batch waits for it again (PENDING). */
export interface SettlementBatchAwaitingReport {
  type: 'SettlementBatchAwaitingReport';
  data: { batchId: string; at: string };
}

/** Final, nothing outstanding, nothing written off: the net amount is paid out (state RECONCILED). */
export interface SettlementBatchReconciled {
  type: 'SettlementBatchReconciled';
  data: {
    batchId: string;
    closedSettlementBatchId: string;
    feesMinor: string;
    netAmountMinor: string;
    reconciledAt: string;
  };
}

/** Final with a difference written off: the net amount is paid out (state CLOSED_WITH_EXCEPTIONS). */
export interface SettlementBatchClosedWithExceptions {
  type: 'SettlementBatchClosedWithExceptions';
  data: {
    batchId: string;
    closedSettlementBatchId: string;
    /** null: closed on the gateway's figures, without a processor report (a written-off MISSING_BATCH). */
    feesMinor: string | null;
    netAmountMinor: string;
    writtenOff: BatchExceptionRef[];
    reconciledAt: string;
  };
}

export type SettlementBatchEvent =
  | SettlementBatchOpened
  | SettlementReportIngested
  | SettlementBatchReportMissing
  | SettlementBatchHeld
  | SettlementBatchExceptionOutcomeRecorded
  | SettlementBatchAwaitingReport
  | SettlementBatchReconciled
  | SettlementBatchClosedWithExceptions;

export const SETTLEMENT_BATCH_EVENT_TYPES: readonly SettlementBatchEvent['type'][] = [
  'SettlementBatchOpened',
  'SettlementReportIngested',
  'SettlementBatchReportMissing',
  'SettlementBatchHeld',
  'SettlementBatchExceptionOutcomeRecorded',
  'SettlementBatchAwaitingReport',
  'SettlementBatchReconciled',
  'SettlementBatchClosedWithExceptions',
];
