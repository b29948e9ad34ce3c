import { subtractMinor, sumMinor } from '../../../platform/src/money/money';
import type { Rail, TransactionType } from '../../../transactions/src/domain';
import { differenceKey, reconcileReport, type ProcessorReport, type ReportFacts } from './processor-report';
import type { ExceptionState } from './reconciliation-exception-rules';
import { outstandingExceptions, type SettlementBatch, type SettlementBatchOrNone } from './settlement-batch';
import { SettlementBatchInvalid, SettlementBatchNotFound } from './settlement-batch-errors';
import type {
  BatchExceptionRef,
  OpenedDifference,
  SettlementBatchEvent,
  SettlementBatchMember,
} from './settlement-batch-events';
import { canBatchTransition, nextBatchState } from './settlement-batch-states';
import {
  closedSettlementBatchIdOf,
  expectedByOf,
  gatewayBatchIdOf,
  settlementDateOf,
  SETTLEMENT_DIRECTION,
} from './settlement-rules';

/** A transaction the run has settled into the batch, as the run read it back from its stream. */
export interface SettledMemberInput {
  memberId: string;
  transactionId: string;
  gatewayTransactionId: string | null;
  rail: Rail;
  type: TransactionType;
  /** What moved, unsigned: base + surcharge + convenience fee (the sign follows from `type`). */
  grossAmountMinor: bigint;
  currency: string;
  settledAt: string;
}

interface Base {
  batchId: string;
  at: Date;
}

/**
 * The run settled `members` (first) and now opens the batch that holds them. `runAt` is when the
 * run started; `at` (the command's time) when the batch is opened.
 */
export interface OpenSettlementBatch extends Base {
  type: 'OpenSettlementBatch';
  merchantId: string;
  partnerId: string;
  currency: string;
  processorKey: string;
  runAt: Date;
  members: readonly SettledMemberInput[];
}

/** The processor's settlement report of the batch, with the facts the platform holds beside it. */
export interface IngestProcessorReport extends Base {
  type: 'IngestProcessorReport';
  report: ProcessorReport;
  facts: ReportFacts;
}

/** The sweep: no report by `expected_by`. */
export interface FlagMissingReport extends Base {
  type: 'FlagMissingReport';
}

/** The report's exceptions are recorded on their streams: hold the batch, or finish it. */
export interface CompleteReconciliation extends Base {
  type: 'CompleteReconciliation';
}

/** One of the batch's exceptions changed state (its own stream says so first). */
export interface RecordExceptionOutcome extends Base {
  type: 'RecordExceptionOutcome';
  key: string;
  occurrence: number;
  state: ExceptionState;
}

export type SettlementBatchCommand =
  | OpenSettlementBatch
  | IngestProcessorReport
  | FlagMissingReport
  | CompleteReconciliation
  | RecordExceptionOutcome;

/** The key of a batch's missing report. */
export const MISSING_BATCH_KEY = differenceKey('MISSING_BATCH', null);

/** The pure decision: the events a command produces on the batch, or the error. */
export function decide(
  command: SettlementBatchCommand,
  state: SettlementBatchOrNone,
): SettlementBatchEvent[] {
  if (command.type === 'OpenSettlementBatch') return open(command, state);
  if (!state) throw new SettlementBatchNotFound(command.batchId);
  const at = command.at.toISOString();
  switch (command.type) {
    case 'IngestProcessorReport':
      return ingest(command, state, at);
    case 'FlagMissingReport':
      return flagMissing(state, at);
    case 'CompleteReconciliation':
      if (state.state !== 'RECONCILING') nextBatchState('hold', state.state);
      return finish(state, at);
    case 'RecordExceptionOutcome':
      return recordOutcome(command, state, at);
  }
}

function open(command: OpenSettlementBatch, state: SettlementBatchOrNone): SettlementBatchEvent[] {
  nextBatchState('open', state?.state ?? null);
  if (command.members.length === 0) {
    throw new SettlementBatchInvalid(`batch ${command.batchId} has no members; a run opens no empty batch`);
  }
  const seen = new Set<string>();
  const members: SettlementBatchMember[] = command.members.map((m) => {
    if (seen.has(m.transactionId)) {
      throw new SettlementBatchInvalid(`transaction ${m.transactionId} is in batch ${command.batchId} twice`);
    }
    seen.add(m.transactionId);
    if (m.currency !== command.currency) {
      throw new SettlementBatchInvalid(
        `transaction ${m.transactionId} is in ${m.currency}; batch ${command.batchId} settles ${command.currency}`,
      );
    }
    const direction = SETTLEMENT_DIRECTION[m.type];
    if (direction === undefined) {
      throw new SettlementBatchInvalid(
        `a ${m.type} transaction (${m.transactionId}) does not settle in a run`,
      );
    }
    if (m.grossAmountMinor < 0n) {
      throw new SettlementBatchInvalid(`transaction ${m.transactionId} has a negative amount`);
    }
    return {
      memberId: m.memberId,
      transactionId: m.transactionId,
      gatewayTransactionId: m.gatewayTransactionId,
      rail: m.rail,
      type: m.type,
      amountMinor: (BigInt(direction) * m.grossAmountMinor).toString(),
      settledAt: m.settledAt,
    };
  });
  const total = sumMinor(
    members.map((m) => BigInt(m.amountMinor)),
    command.currency,
  );
  const settlementDate = settlementDateOf(command.runAt);
  return [
    {
      type: 'SettlementBatchOpened',
      data: {
        batchId: command.batchId,
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        currency: command.currency,
        processorKey: command.processorKey,
        gatewayBatchId: gatewayBatchIdOf(command.batchId),
        reportingBasis: 'gateway_reported',
        triggerType: 'operator_run',
        runDateUtc: command.runAt.toISOString(),
        settlementDate,
        expectedBy: expectedByOf(settlementDate),
        members,
        transactionCount: members.length,
        totalAmountMinor: total.toString(),
        openedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * A report: reconcile it (processor-report.ts), then compare its differences with the batch's
 * exceptions. Outstanding ones it still shows stay as they are; outstanding ones it no longer
 * shows are auto-resolved (a missing report always is: here it is); new ones are opened, unless
 * an operator already decided on that difference (MANUAL_RESOLVED or WRITTEN_OFF): their
 * decision stands. A difference that had been auto-resolved and comes back is a new occurrence.
 */
function ingest(command: IngestProcessorReport, batch: SettlementBatch, at: string): SettlementBatchEvent[] {
  nextBatchState('ingest_report', batch.state);
  const { report } = command;
  if (report.feesMinor < 0n) throw new SettlementBatchInvalid('a report’s fees are not negative');
  const result = reconcileReport(batch, report, command.facts);
  const shown = new Set(result.differences.map((d) => d.key));
  const outstanding = outstandingExceptions(batch);
  const outstandingKeys = new Set(outstanding.map((e) => e.key));
  const opened: OpenedDifference[] = result.differences
    .filter((d) => !outstandingKeys.has(d.key) && !decidedByOperator(batch, d.key))
    .map((d) => ({ ...d, occurrence: (batch.exceptions[d.key]?.occurrence ?? 0) + 1 }));
  const autoResolved: BatchExceptionRef[] = outstanding
    .filter((e) => !shown.has(e.key))
    .map(({ key, occurrence }) => ({ key, occurrence }));
  return [
    {
      type: 'SettlementReportIngested',
      data: {
        batchId: batch.id,
        reportId: report.reportId,
        processorBatchId: report.processorBatchId,
        vendorSettlementBatchId: report.vendorSettlementBatchId,
        lineCount: report.lines.length,
        reportTotalMinor: report.totalAmountMinor.toString(),
        feesMinor: report.feesMinor.toString(),
        expectedFeesMinor: command.facts.expectedFeesMinor.toString(),
        netAmountMinor: subtractMinor(
          BigInt(batch.totalAmountMinor),
          report.feesMinor,
          batch.currency,
        ).toString(),
        observedMemberCount: result.observedMemberCount,
        observedMemberAmountMinor: result.observedMemberAmountMinor.toString(),
        memberMatches: result.memberMatches,
        opened,
        autoResolved,
        receivedAt: at,
      },
    },
  ];
}

const decidedByOperator = (batch: SettlementBatch, key: string): boolean =>
  ['MANUAL_RESOLVED', 'WRITTEN_OFF'].includes(batch.exceptions[key]?.state ?? '');

/** An operator already decided on the batch's missing report: the sweep does not flag it again. */
export const isMissingReportDecided = (batch: SettlementBatch): boolean =>
  decidedByOperator(batch, MISSING_BATCH_KEY);

/** Rule: a PENDING batch past `expected_by` without a report gets a MISSING_BATCH (once per operator decision). */
function flagMissing(batch: SettlementBatch, at: string): SettlementBatchEvent[] {
  nextBatchState('report_missing', batch.state);
  if (at <= batch.expectedBy) {
    throw new SettlementBatchInvalid(`batch ${batch.id}'s report is expected by ${batch.expectedBy}`);
  }
  if (decidedByOperator(batch, MISSING_BATCH_KEY)) return [];
  const occurrence = (batch.exceptions[MISSING_BATCH_KEY]?.occurrence ?? 0) + 1;
  return [
    {
      type: 'SettlementBatchReportMissing',
      data: { batchId: batch.id, key: MISSING_BATCH_KEY, occurrence, expectedBy: batch.expectedBy, at },
    },
  ];
}

function recordOutcome(
  command: RecordExceptionOutcome,
  batch: SettlementBatch,
  at: string,
): SettlementBatchEvent[] {
  const current = batch.exceptions[command.key];
  // An outcome the batch already has (a re-run), or of an older occurrence, changes nothing.
  if (!current || current.occurrence !== command.occurrence || current.state === command.state) return [];
  nextBatchState('record_exception_outcome', batch.state);
  const recorded: SettlementBatchEvent = {
    type: 'SettlementBatchExceptionOutcomeRecorded',
    data: { batchId: batch.id, key: command.key, occurrence: command.occurrence, state: command.state, at },
  };
  if (batch.state !== 'EXCEPTION') return [recorded];
  const after: SettlementBatch = {
    ...batch,
    exceptions: { ...batch.exceptions, [command.key]: { ...current, state: command.state } },
  };
  return [recorded, ...finish(after, at)];
}

/**
 * Where a batch goes once its exceptions are known: EXCEPTION while one is outstanding; otherwise
 * final (RECONCILED, or CLOSED_WITH_EXCEPTIONS when one was written off), with the payout; a batch
 * never verified by a report and with nothing written off waits for its report again (PENDING).
 */
function finish(batch: SettlementBatch, at: string): SettlementBatchEvent[] {
  const outstanding = outstandingExceptions(batch);
  if (outstanding.length > 0) {
    if (batch.state === 'EXCEPTION') return [];
    nextBatchState('hold', batch.state);
    return [
      {
        type: 'SettlementBatchHeld',
        data: {
          batchId: batch.id,
          outstanding: outstanding.map(({ key, occurrence }) => ({ key, occurrence })),
          at,
        },
      },
    ];
  }
  const writtenOff = Object.values(batch.exceptions).filter((e) => e.state === 'WRITTEN_OFF');
  const fees = batch.reportCount > 0 ? batch.feesMinor : null;
  const payout = {
    batchId: batch.id,
    closedSettlementBatchId: closedSettlementBatchIdOf(batch.id),
    netAmountMinor: subtractMinor(
      BigInt(batch.totalAmountMinor),
      BigInt(fees ?? '0'),
      batch.currency,
    ).toString(),
    reconciledAt: at,
  };
  if (writtenOff.length > 0) {
    nextBatchState('close_with_exceptions', batch.state);
    return [
      {
        type: 'SettlementBatchClosedWithExceptions',
        data: {
          ...payout,
          feesMinor: fees,
          writtenOff: writtenOff.map(({ key, occurrence }) => ({ key, occurrence })),
        },
      },
    ];
  }
  if (batch.reportCount === 0) {
    nextBatchState('await_report', batch.state);
    return [{ type: 'SettlementBatchAwaitingReport', data: { batchId: batch.id, at } }];
  }
  nextBatchState('reconcile', batch.state);
  return [{ type: 'SettlementBatchReconciled', data: { ...payout, feesMinor: fees ?? '0' } }];
}

/** Whether a batch in this state can still take an exception outcome (the sweep and resolve use it). */
export const takesExceptionOutcomes = (batch: SettlementBatch): boolean =>
  canBatchTransition('record_exception_outcome', batch.state);
