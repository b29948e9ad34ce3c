import { sumMinor } from '../../../platform/src/money/money';
import type { Rail, TransactionType } from '../../../transactions/src/domain';
import type { SettlementBatchOrNone } from './settlement-batch';
import { SettlementBatchInvalid } from './settlement-batch-errors';
import type { SettlementBatchEvent, SettlementBatchMember } from './settlement-batch-events';
import { nextBatchState } from './settlement-batch-states';
import { expectedByOf, gatewayBatchIdOf, settlementDateOf, SETTLEMENT_DIRECTION } from './settlement-rules';

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

/**
 * The run settled `members` (first) and now opens the batch that holds them. `runAt` is when the
 * run started; `at` (the command's time) when the batch is opened.
 */
export interface OpenSettlementBatch {
  type: 'OpenSettlementBatch';
  batchId: string;
  merchantId: string;
  partnerId: string;
  currency: string;
  processorKey: string;
  runAt: Date;
  members: readonly SettledMemberInput[];
  at: Date;
}

export type SettlementBatchCommand = OpenSettlementBatch;

/** The pure decision: the events a command produces on the batch, or the error. */
export function decide(
  command: SettlementBatchCommand,
  state: SettlementBatchOrNone,
): SettlementBatchEvent[] {
  switch (command.type) {
    case 'OpenSettlementBatch':
      return open(command, state);
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
