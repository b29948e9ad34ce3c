import type { ExceptionType, OperatorResolution, Severity } from './reconciliation-exception-rules';

/**
 * Stored reconciliation exception events (stream `reconciliation_exception-{id}`). Stored types
 * are never renamed or reshaped; add new ones instead. Amounts are minor-unit integer strings next
 * to `currency`, signed as money moving to the merchant; times are ISO-8601 strings.
 *
 * Why a stream per exception, not events on the batch stream: an exception is resolved, escalated
 * and audited on its own (its stream is its audit trail), two operators working on two
 * exceptions of one batch never race on one stream, and the sweep's exceptions about a single
 * transaction (UNSETTLED_TRANSACTION, LATE_PRESENTMENT) belong to no batch at all. The batch keeps
 * only which of its differences are outstanding (docs/reconciliation.md).
 */
export const reconciliationExceptionStream = (exceptionId: string): string =>
  `reconciliation_exception-${exceptionId}`;
export const RECONCILIATION_EXCEPTION_STREAM_PREFIX = 'reconciliation_exception-';

export interface ReconciliationExceptionOpened {
  type: 'ReconciliationExceptionOpened';
  data: {
    exceptionId: string;
    /** The batch it is about (null: an exception about a transaction outside any batch). */
    batchId: string | null;
    merchantId: string;
    partnerId: string;
    transactionId: string | null;
    type: ExceptionType;
    /** The difference's identity on its batch (`MISSING_TRANSACTION:<transaction id>`) or transaction. */
    key: string;
    /** 1 for the first exception of this key, 2 when the same difference came back after an auto-resolve, … */
    occurrence: number;
    severity: Severity | null;
    description: string;
    /** When the platform expected the thing that is missing or different (a deadline). */
    expectedBy: string | null;
    /** When the difference was observed (the report's arrival, the sweep's time). */
    observedAt: string;
    currency: string;
    expectedAmountMinor: string | null;
    observedAmountMinor: string | null;
    openedAt: string;
  };
}

/** An operator handed it on (to the processor, to finance): still outstanding. */
export interface ReconciliationExceptionEscalated {
  type: 'ReconciliationExceptionEscalated';
  data: { exceptionId: string; resolvedBy: string; resolution: string; at: string };
}

/** An operator closed it: corrected (MANUAL_RESOLVED) or accepted as a difference (WRITTEN_OFF). */
export interface ReconciliationExceptionResolved {
  type: 'ReconciliationExceptionResolved';
  data: {
    exceptionId: string;
    state: Exclude<OperatorResolution, 'ESCALATED'>;
    resolvedBy: string;
    resolution: string;
    at: string;
  };
}

/** The difference went away by itself (a later report, the money moved). */
export interface ReconciliationExceptionAutoResolved {
  type: 'ReconciliationExceptionAutoResolved';
  data: { exceptionId: string; resolvedBy: string; resolution: string; at: string };
}

export type ReconciliationExceptionEvent =
  | ReconciliationExceptionOpened
  | ReconciliationExceptionEscalated
  | ReconciliationExceptionResolved
  | ReconciliationExceptionAutoResolved;

export const RECONCILIATION_EXCEPTION_EVENT_TYPES: readonly ReconciliationExceptionEvent['type'][] = [
  'ReconciliationExceptionOpened',
  'ReconciliationExceptionEscalated',
  'ReconciliationExceptionResolved',
  'ReconciliationExceptionAutoResolved',
];
