import type { SettlementBatchEvent, SettlementBatchMember } from './settlement-batch-events';
import type { ReportingBasis, SettlementBatchState, TriggerType } from './settlement-batch-states';

/**
 * The settlement batch as its events make it: plain JSON. Fields the processor's report and
 * reconciliation fill (processor and vendor ids, fees, net amount, `reconciled_at`) are null until
 * then.
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
  vendorStatus: string | null;
  gatewayBatchId: string;
  processorBatchId: string | null;
  closedSettlementBatchId: string | null;
  vendorSettlementBatchId: string | null;
  members: SettlementBatchMember[];
  transactionCount: number;
  totalAmountMinor: string;
  feesMinor: string | null;
  netAmountMinor: string | null;
  /** How many members the gateway reported as settled: the processor should report as many. */
  expectedSettledCount: number;
  /** Members seen so far (gateway notifications now, the processor's lines later). */
  observedMemberCount: number;
  observedMemberAmountMinor: string;
  runDateUtc: string;
  completedAtUtc: string;
  settlementDate: string;
  expectedBy: string;
  heldReason: string | null;
  reconciledAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Number of events applied. */
  version: number;
}

export type SettlementBatchOrNone = SettlementBatch | null;

export const initialState = (): SettlementBatchOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(batch: SettlementBatchOrNone, event: SettlementBatchEvent): SettlementBatchOrNone {
  switch (event.type) {
    case 'SettlementBatchOpened': {
      const d = event.data;
      return {
        id: d.batchId,
        merchantId: d.merchantId,
        partnerId: d.partnerId,
        state: 'PENDING',
        reportingBasis: d.reportingBasis,
        triggerType: d.triggerType,
        currency: d.currency,
        processorKey: d.processorKey,
        vendorStatus: null,
        gatewayBatchId: d.gatewayBatchId,
        processorBatchId: null,
        closedSettlementBatchId: null,
        vendorSettlementBatchId: null,
        members: d.members,
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
        createdAt: d.openedAt,
        updatedAt: d.openedAt,
        version: (batch?.version ?? 0) + 1,
      };
    }
    default:
      return batch;
  }
}

export const settlementBatchEvolver = { initialState, evolve };
