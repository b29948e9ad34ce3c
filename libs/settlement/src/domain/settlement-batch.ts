import type { MemberMatchState } from './processor-report';
import { isOutstanding, type ExceptionState, type ExceptionType } from './reconciliation-exception-rules';
import type { SettlementBatchEvent, SettlementBatchMember } from './settlement-batch-events';
import {
  VENDOR_STATUS_OF,
  type ReportingBasis,
  type SettlementBatchState,
  type TriggerType,
  type VendorStatus,
} from './settlement-batch-states';

/** A member as the batch knows it: what the run recorded, and how the last report matched it. */
export type BatchMember = SettlementBatchMember & {
  matchState: MemberMatchState;
  /** The amount of its (first) line in the last report; null before a report or when missing. */
  reportedAmountMinor: string | null;
};

/** One exception of the batch: the latest occurrence of a difference, and its state. */
export interface BatchException {
  key: string;
  type: ExceptionType;
  occurrence: number;
  state: ExceptionState;
}

/**
 * The settlement batch as its events make it: plain JSON. Money is minor-unit strings, signed as
 * money moving to the merchant. docs/settlement.md gives every field's meaning and when it is null.
 */
export interface SettlementBatch {
  id: string;
  merchantId: string;
  partnerId: string;
  state: SettlementBatchState;
  reportingBasis: ReportingBasis;
  triggerType: TriggerType;
  currency: string;
  processorKey: string;
  vendorStatus: VendorStatus;
  gatewayBatchId: string;
  processorBatchId: string | null;
  closedSettlementBatchId: string | null;
  vendorSettlementBatchId: string | null;
  members: BatchMember[];
  transactionCount: number;
  totalAmountMinor: string;
  feesMinor: string | null;
  netAmountMinor: string | null;
  /** How many members the gateway reported as settled: the processor should report as many. */
  expectedSettledCount: number;
  /** Members seen: the gateway's notifications until a report, then the members the report has a line for. */
  observedMemberCount: number;
  observedMemberAmountMinor: string;
  runDateUtc: string;
  completedAtUtc: string;
  settlementDate: string;
  expectedBy: string;
  heldReason: string | null;
  reconciledAt: string | null;
  /** Processor reports ingested, the last one's id, control total and expected fees. */
  reportCount: number;
  lastReportId: string | null;
  lastReportAt: string | null;
  reportTotalMinor: string | null;
  expectedFeesMinor: string | null;
  /** Every exception the batch has had, by key (the latest occurrence of each). */
  exceptions: Record<string, BatchException>;
  createdAt: string;
  updatedAt: string;
  /** Number of events applied. */
  version: number;
}

export type SettlementBatchOrNone = SettlementBatch | null;

export const initialState = (): SettlementBatchOrNone => null;

/** The batch's exceptions that still need someone (OPEN, ESCALATED), oldest key first. */
export function outstandingExceptions(batch: Pick<SettlementBatch, 'exceptions'>): BatchException[] {
  return Object.values(batch.exceptions).filter((e) => isOutstanding(e.state));
}

/** Why the payout is held: the outstanding exceptions, counted and named by type. */
export function heldReasonOf(batch: Pick<SettlementBatch, 'exceptions'>): string {
  const outstanding = outstandingExceptions(batch);
  const types = [...new Set(outstanding.map((e) => e.type))].sort();
  const count = outstanding.length;
  return `payout held: ${count} outstanding reconciliation exception${count === 1 ? '' : 's'} (${types.join(', ')})`;
}

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(batch: SettlementBatchOrNone, event: SettlementBatchEvent): SettlementBatchOrNone {
  if (event.type === 'SettlementBatchOpened') {
    const d = event.data;
    return withState(
      {
        id: d.batchId,
        merchantId: d.merchantId,
        partnerId: d.partnerId,
        state: 'PENDING',
        reportingBasis: d.reportingBasis,
        triggerType: d.triggerType,
        currency: d.currency,
        processorKey: d.processorKey,
        vendorStatus: 'PENDING',
        gatewayBatchId: d.gatewayBatchId,
        processorBatchId: null,
        closedSettlementBatchId: null,
        vendorSettlementBatchId: null,
        members: d.members.map((m) => ({ ...m, matchState: 'RECORDED', reportedAmountMinor: null })),
        transactionCount: d.transactionCount,
        totalAmountMinor: d.totalAmountMinor,
        feesMinor: null,
        netAmountMinor: null,
        expectedSettledCount: d.transactionCount,
        observedMemberCount: d.members.length,
        observedMemberAmountMinor: d.totalAmountMinor,
        runDateUtc: d.runDateUtc,
        completedAtUtc: d.openedAt,
        settlementDate: d.settlementDate,
        expectedBy: d.expectedBy,
        heldReason: null,
        reconciledAt: null,
        reportCount: 0,
        lastReportId: null,
        lastReportAt: null,
        reportTotalMinor: null,
        expectedFeesMinor: null,
        exceptions: {},
        createdAt: d.openedAt,
        updatedAt: d.openedAt,
        version: (batch?.version ?? 0) + 1,
      },
      'PENDING',
    );
  }
  if (!batch) return batch;
  const b: SettlementBatch = { ...batch, version: batch.version + 1 };
  switch (event.type) {
    case 'SettlementReportIngested': {
      const d = event.data;
      const matches = new Map(d.memberMatches.map((m) => [m.memberId, m]));
      const exceptions = { ...b.exceptions };
      for (const ref of d.autoResolved) setException(exceptions, ref, 'AUTO_RESOLVED');
      for (const opened of d.opened) {
        exceptions[opened.key] = {
          key: opened.key,
          type: opened.type,
          occurrence: opened.occurrence,
          state: 'OPEN',
        };
      }
      return withState(
        {
          ...b,
          reportingBasis: 'report_verified',
          processorBatchId: d.processorBatchId ?? b.processorBatchId,
          vendorSettlementBatchId: d.vendorSettlementBatchId ?? b.vendorSettlementBatchId,
          members: b.members.map((m) => {
            const match = matches.get(m.memberId);
            return match
              ? { ...m, matchState: match.matchState, reportedAmountMinor: match.reportedAmountMinor }
              : m;
          }),
          feesMinor: d.feesMinor,
          netAmountMinor: d.netAmountMinor,
          observedMemberCount: d.observedMemberCount,
          observedMemberAmountMinor: d.observedMemberAmountMinor,
          reportCount: b.reportCount + 1,
          lastReportId: d.reportId,
          lastReportAt: d.receivedAt,
          reportTotalMinor: d.reportTotalMinor,
          expectedFeesMinor: d.expectedFeesMinor,
          exceptions,
          updatedAt: d.receivedAt,
        },
        'RECONCILING',
      );
    }
    case 'SettlementBatchReportMissing': {
      const d = event.data;
      const exceptions = {
        ...b.exceptions,
        [d.key]: {
          key: d.key,
          type: 'MISSING_BATCH' as const,
          occurrence: d.occurrence,
          state: 'OPEN' as const,
        },
      };
      return withState({ ...b, exceptions, updatedAt: d.at }, 'EXCEPTION');
    }
    case 'SettlementBatchHeld':
      return withState({ ...b, updatedAt: event.data.at }, 'EXCEPTION');
    case 'SettlementBatchAwaitingReport':
      return withState({ ...b, updatedAt: event.data.at }, 'PENDING');
    case 'SettlementBatchExceptionOutcomeRecorded': {
      const d = event.data;
      const exceptions = { ...b.exceptions };
      setException(exceptions, d, d.state);
      return withState({ ...b, exceptions, updatedAt: d.at }, b.state);
    }
    case 'SettlementBatchReconciled':
    case 'SettlementBatchClosedWithExceptions': {
      const d = event.data;
      return withState(
        {
          ...b,
          closedSettlementBatchId: d.closedSettlementBatchId,
          feesMinor: d.feesMinor,
          netAmountMinor: d.netAmountMinor,
          reconciledAt: d.reconciledAt,
          updatedAt: d.reconciledAt,
        },
        event.type === 'SettlementBatchReconciled' ? 'RECONCILED' : 'CLOSED_WITH_EXCEPTIONS',
      );
    }
    default:
      return b;
  }
}

/** The state and what follows from it: the payout's status and why it is held. */
function withState(batch: SettlementBatch, state: SettlementBatchState): SettlementBatch {
  return {
    ...batch,
    state,
    vendorStatus: VENDOR_STATUS_OF[state],
    heldReason: state === 'EXCEPTION' ? heldReasonOf(batch) : null,
  };
}

/** Moves the named occurrence of an exception; an older occurrence than the batch's latest changes nothing. */
function setException(
  exceptions: Record<string, BatchException>,
  ref: { key: string; occurrence: number },
  state: ExceptionState,
): void {
  const current = exceptions[ref.key];
  if (current && current.occurrence === ref.occurrence) exceptions[ref.key] = { ...current, state };
}

export const settlementBatchEvolver = { initialState, evolve };
