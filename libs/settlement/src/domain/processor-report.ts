import { formatAmount } from '../../../platform/src/money/amount';
import { subtractMinor, sumMinor } from '../../../platform/src/money/money';
import { EXCEPTION_RULES, type ExceptionType, type Severity } from './reconciliation-exception-rules';
import type { BatchMember, SettlementBatch } from './settlement-batch';
import { SETTLEMENT_DIRECTION } from './settlement-rules';

/**
 * Reconciling a processor's settlement report against the batch the platform recorded
 * (docs/reconciliation.md), pure. The report comes in as data; so do the facts the platform
 * holds elsewhere (the members' surcharge and convenience fee, the transactions the report names
 * that are not members, the fees the merchant's fee profile gives).
 */
export interface ProcessorReportLine {
  transactionId: string;
  /** Signed as money to the merchant, like a member's amount (a refund is negative). */
  amountMinor: bigint;
  settledAt: string;
  /** The surcharge the processor assessed (a charge) or reversed (a refund), unsigned; null: not broken down. */
  surchargeMinor: bigint | null;
}

export interface ProcessorReport {
  /** The report's own id (derived from the request), kept in the batch's history. */
  reportId: string;
  processorBatchId: string | null;
  vendorSettlementBatchId: string | null;
  lines: readonly ProcessorReportLine[];
  /** The report's control total: signed, like the batch's total. */
  totalAmountMinor: bigint;
  feesMinor: bigint;
}

/** What the platform knows beside the batch, looked up by the caller. */
export interface ReportFacts {
  /** Each member transaction's surcharge, unsigned, as its program assessed it (or a refund reversed it). */
  members: Readonly<Record<string, { surchargeMinor: bigint }>>;
  /** Transactions the report names that are not members: their merchant and batch, when the platform has them. */
  others: Readonly<Record<string, { merchantId: string; batchId: string | null }>>;
  /** The fees the merchant's fee profile gives for the batch's members (settlement-fees.ts). */
  expectedFeesMinor: bigint;
}

/** A member's state against the last report (spec "Batch member" `match_state`). */
export const MEMBER_MATCH_STATES = ['RECORDED', 'MATCHED', 'MISMATCHED', 'MISSING'] as const;
export type MemberMatchState = (typeof MEMBER_MATCH_STATES)[number];

/** One difference: one exception, unless the same one is already outstanding. */
export interface BatchDifference {
  /** Its identity on the batch: the type, and the transaction for a transaction's difference. */
  key: string;
  type: ExceptionType;
  severity: Severity | null;
  transactionId: string | null;
  description: string;
  expectedAmountMinor: string | null;
  observedAmountMinor: string | null;
}

export interface ReportReconciliation {
  memberMatches: { memberId: string; matchState: MemberMatchState; reportedAmountMinor: string | null }[];
  /** Members the report has a line for. */
  observedMemberCount: number;
  /** The sum of those members' reported amounts (their first line). */
  observedMemberAmountMinor: bigint;
  differences: BatchDifference[];
}

export const differenceKey = (type: ExceptionType, transactionId: string | null): string =>
  transactionId === null ? type : `${type}:${transactionId}`;

/**
 * Matches the lines to the members by transaction id and verifies every amount, the control
 * total and the fees. Each rule of docs/reconciliation.md is one `difference(...)` below.
 */
export function reconcileReport(
  batch: Pick<SettlementBatch, 'merchantId' | 'currency' | 'members'>,
  report: ProcessorReport,
  facts: ReportFacts,
): ReportReconciliation {
  const { currency } = batch;
  const money = (minor: bigint) => formatAmount(minor, currency);
  const differences: BatchDifference[] = [];
  const difference = (
    type: ExceptionType,
    transactionId: string | null,
    description: string,
    expected: bigint | null,
    observed: bigint | null,
    severity: Severity | null = EXCEPTION_RULES[type].severity,
  ) =>
    differences.push({
      key: differenceKey(type, transactionId),
      type,
      severity,
      transactionId,
      description,
      expectedAmountMinor: expected === null ? null : expected.toString(),
      observedAmountMinor: observed === null ? null : observed.toString(),
    });

  const linesOf = new Map<string, ProcessorReportLine[]>();
  for (const line of report.lines) {
    const same = linesOf.get(line.transactionId);
    if (same) same.push(line);
    else linesOf.set(line.transactionId, [line]);
  }
  for (const [transactionId, lines] of linesOf) {
    if (lines.length > 1) {
      difference(
        'DUPLICATE_TRANSACTION',
        transactionId,
        `the report has ${lines.length} lines for transaction ${transactionId}`,
        null,
        sumMinor(
          lines.map((l) => l.amountMinor),
          currency,
        ),
      );
    }
  }

  const memberIds = new Set(batch.members.map((m) => m.transactionId));
  const memberMatches: ReportReconciliation['memberMatches'] = [];
  const observed: bigint[] = [];
  for (const member of batch.members) {
    const line = linesOf.get(member.transactionId)?.[0];
    if (!line) {
      difference(
        'MISSING_TRANSACTION',
        member.transactionId,
        `member ${member.transactionId} (${money(BigInt(member.amountMinor))}) is not in the processor report`,
        BigInt(member.amountMinor),
        null,
      );
      memberMatches.push({ memberId: member.memberId, matchState: 'MISSING', reportedAmountMinor: null });
      continue;
    }
    observed.push(line.amountMinor);
    const before = differences.length;
    compareLine(member, line, facts.members[member.transactionId], currency, difference);
    const duplicated = (linesOf.get(member.transactionId)?.length ?? 0) > 1;
    memberMatches.push({
      memberId: member.memberId,
      matchState: differences.length > before || duplicated ? 'MISMATCHED' : 'MATCHED',
      reportedAmountMinor: line.amountMinor.toString(),
    });
  }

  for (const [transactionId, lines] of linesOf) {
    if (memberIds.has(transactionId)) continue;
    const known = facts.others[transactionId];
    const amount = lines[0].amountMinor;
    if (known && known.merchantId === batch.merchantId) {
      const settledElsewhere = known.batchId !== null;
      difference(
        'EXTRA_TRANSACTION',
        transactionId,
        settledElsewhere
          ? `transaction ${transactionId} (${money(amount)}) is reported here but settled in batch ${known.batchId}`
          : `transaction ${transactionId} (${money(amount)}) is reported but not a member of this batch`,
        null,
        amount,
        settledElsewhere ? 'HIGH' : EXCEPTION_RULES.EXTRA_TRANSACTION.severity,
      );
    } else {
      difference(
        'UNMATCHED_PLATFORM',
        transactionId,
        `the report names ${transactionId} (${money(amount)}), which is no transaction of merchant ${batch.merchantId}`,
        null,
        amount,
      );
    }
  }

  const footed = sumMinor(
    report.lines.map((l) => l.amountMinor),
    currency,
  );
  if (report.totalAmountMinor !== footed) {
    difference(
      'BATCH_TOTAL_MISMATCH',
      null,
      `the report's total_amount ${money(report.totalAmountMinor)} is not the sum of its lines ${money(footed)} (${money(subtractMinor(report.totalAmountMinor, footed, currency))} unexplained)`,
      footed,
      report.totalAmountMinor,
    );
  }
  if (report.feesMinor !== facts.expectedFeesMinor) {
    difference(
      'FEE_MISMATCH',
      null,
      `the report's fees ${money(report.feesMinor)} are not the ${money(facts.expectedFeesMinor)} the merchant's fee profile gives`,
      facts.expectedFeesMinor,
      report.feesMinor,
    );
  }

  return {
    memberMatches,
    observedMemberCount: observed.length,
    observedMemberAmountMinor: sumMinor(observed, currency),
    differences,
  };
}

/**
 * A member and its (first) line. Without a surcharge breakdown only the amount is compared
 * (AMOUNT_MISMATCH). With one, the two parts are compared on their own: the surcharge against
 * what the merchant's surcharge program assessed (or the refund's share it reversed), and the
 * captured amount (the line's amount without its surcharge) against the member's base +
 * convenience fee.
 */
function compareLine(
  member: BatchMember,
  line: ProcessorReportLine,
  fees: { surchargeMinor: bigint } | undefined,
  currency: string,
  difference: (
    type: ExceptionType,
    transactionId: string,
    description: string,
    expected: bigint,
    observed: bigint,
  ) => void,
): void {
  const money = (minor: bigint) => formatAmount(minor, currency);
  const expected = BigInt(member.amountMinor);
  const id = member.transactionId;
  if (line.surchargeMinor === null) {
    if (line.amountMinor !== expected) {
      difference(
        'AMOUNT_MISMATCH',
        id,
        `member ${id} is ${money(expected)}; the report says ${money(line.amountMinor)}`,
        expected,
        line.amountMinor,
      );
    }
    return;
  }
  const sign = BigInt(SETTLEMENT_DIRECTION[member.type] ?? 1);
  const surchargeExpected = sign * (fees?.surchargeMinor ?? 0n);
  const surchargeObserved = sign * line.surchargeMinor;
  if (surchargeObserved !== surchargeExpected) {
    const charge = sign > 0n;
    difference(
      charge ? 'ASSESSED_SURCHARGE_MISMATCH' : 'SURCHARGE_REVERSAL_MISMATCH',
      id,
      charge
        ? `the surcharge program assessed ${money(surchargeExpected)} on ${id}; the report says ${money(surchargeObserved)}`
        : `refund ${id} reversed ${money(-surchargeExpected)} of surcharge; the report says ${money(-surchargeObserved)}`,
      surchargeExpected,
      surchargeObserved,
    );
  }
  const capturedExpected = subtractMinor(expected, surchargeExpected, currency);
  const capturedObserved = subtractMinor(line.amountMinor, surchargeObserved, currency);
  if (capturedObserved !== capturedExpected) {
    difference(
      'CAPTURED_AMOUNT_MISMATCH',
      id,
      `${id} captured ${money(capturedExpected)} without its surcharge; the report says ${money(capturedObserved)}`,
      capturedExpected,
      capturedObserved,
    );
  }
}
