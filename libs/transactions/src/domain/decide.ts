import { allocateMinor, subtractMinor } from '../../../platform/src/money/money';
import { achReversalDeadline, isWithinAchReversalWindow, returnCode } from './rules';
import { refundableMinor, type Transaction, type TransactionOrNone } from './transaction';
import {
  AmountExceedsRefundable,
  NachaReversalWindowExpired,
  TransactionCommandInvalid,
  TransactionNotFound,
} from './transaction-errors';
import type { TransactionEvent, TransactionInitiated } from './transaction-events';
import {
  assertTransition,
  FOLLOW_UP_ACTIONS,
  THREE_DS_TTL_MS,
  type FollowUpType,
  type ThreeDsFailureReason,
  type TransactionAction,
} from './transaction-states';

interface Base {
  transactionId: string;
  at: Date;
}

/** The handler has resolved merchant, credential and price; the facts arrive as data. */
export interface InitiateTransaction extends Base {
  type: 'InitiateTransaction';
  data: Omit<TransactionInitiated['data'], 'transactionId' | 'initiatedAt'>;
}

/** The gateway's answer to the create. */
export interface RecordGatewayOutcome extends Base {
  type: 'RecordGatewayOutcome';
  outcome:
    | {
        kind: 'approved';
        approvalCode: string | null;
        gatewayTransactionId: string | null;
        avsResponseCode?: string | null;
        cvResponseCode?: string | null;
        effectiveDate?: string | null;
      }
    | {
        kind: 'declined';
        declineCode: string;
        declineReason: string;
        avsResponseCode?: string | null;
        cvResponseCode?: string | null;
      }
    | { kind: 'unknown' };
}

/** On the PARENT: a follow-up child (`childId`) of type `followUp` acts on it. */
export interface ApplyFollowUp extends Base {
  type: 'ApplyFollowUp';
  followUp: FollowUpType;
  childId: string;
  /** PARTIAL_REFUND only: the amount to refund. */
  amountMinor?: bigint;
  reversalReason?: { code: string; description: string | null } | null;
}

/** On the PARENT: the gateway refused a refund the parent had granted. */
export interface FailRefund extends Base {
  type: 'FailRefund';
  childId: string;
}

export interface Settle extends Base {
  type: 'Settle';
  batchId: string;
}

export interface ReturnAchEntry extends Base {
  type: 'ReturnAchEntry';
  returnCode: string;
}

export interface OpenDispute extends Base {
  type: 'OpenDispute';
  disputeId: string;
  reason: string | null;
}

export interface ResolveChargeback extends Base {
  type: 'ResolveChargeback';
  outcome: 'won' | 'lost';
}

export interface IssueThreeDsChallenge extends Base {
  type: 'IssueThreeDsChallenge';
  challengeUrl: string;
  acsTransactionId: string;
  version: string;
}

export interface CompleteThreeDs extends Base {
  type: 'CompleteThreeDs';
  outcome: 'authenticated' | ThreeDsFailureReason;
}

/** From the sweep: a challenge past its 15 minutes. */
export interface TimeOutThreeDs extends Base {
  type: 'TimeOutThreeDs';
}

export type TransactionCommand =
  | InitiateTransaction
  | RecordGatewayOutcome
  | ApplyFollowUp
  | FailRefund
  | Settle
  | ReturnAchEntry
  | OpenDispute
  | ResolveChargeback
  | IssueThreeDsChallenge
  | CompleteThreeDs
  | TimeOutThreeDs;

/** The pure decision: the events a command produces on the transaction, or the error. */
export function decide(command: TransactionCommand, state: TransactionOrNone): TransactionEvent[] {
  const at = command.at.toISOString();
  const transactionId = command.transactionId;
  if (command.type === 'InitiateTransaction') {
    if (state) throw new TransactionCommandInvalid(`transaction ${transactionId} already exists`);
    return [{ type: 'TransactionInitiated', data: { ...command.data, transactionId, initiatedAt: at } }];
  }
  if (!state) throw new TransactionNotFound(transactionId);
  const t = state;
  const move = (action: TransactionAction) => assertTransition(t, action);

  switch (command.type) {
    case 'RecordGatewayOutcome':
      return recordOutcome(t, command, at);
    case 'ApplyFollowUp':
      return applyFollowUp(t, command, at);
    case 'FailRefund': {
      const granted = refundOf(t, command.childId);
      return [
        {
          type: 'TransactionRefundFailed',
          data: { transactionId, refundTransactionId: command.childId, ...granted, at },
        },
      ];
    }
    case 'Settle':
      move(t.rail === 'ACH' ? 'settle_ach' : 'settle');
      return [
        { type: 'TransactionSettled', data: { transactionId, batchId: command.batchId, settledAt: at } },
      ];
    case 'ReturnAchEntry': {
      move('ach_return');
      const entry = returnCode(command.returnCode);
      if (!entry) throw new TransactionCommandInvalid(`${command.returnCode} is not a NACHA return code`);
      return [
        {
          type: 'TransactionReturned',
          data: {
            transactionId,
            returnCode: entry.code,
            description: entry.description,
            severity: entry.severity,
            at,
          },
        },
      ];
    }
    case 'OpenDispute':
      move('open_dispute');
      return [
        {
          type: 'TransactionDisputed',
          data: {
            transactionId,
            disputeId: command.disputeId,
            reason: command.reason,
            amountMinor: t.amountMinor,
            at,
          },
        },
      ];
    case 'ResolveChargeback':
      move(command.outcome === 'lost' ? 'chargeback_lost' : 'chargeback_won');
      return [
        {
          type: 'ChargebackResolved',
          data: { transactionId, disputeId: t.dispute!.id, outcome: command.outcome, at },
        },
      ];
    case 'IssueThreeDsChallenge': {
      move('request_three_ds');
      const expiresAt = new Date(command.at.getTime() + THREE_DS_TTL_MS).toISOString();
      const { challengeUrl, acsTransactionId, version } = command;
      return [
        {
          type: 'ThreeDsChallengeIssued',
          data: { transactionId, challengeUrl, acsTransactionId, version, expiresAt, at },
        },
      ];
    }
    case 'CompleteThreeDs': {
      move('complete_three_ds');
      // A completion that arrives after the challenge's time-to-live is the time-out, not a pass.
      const late = command.at.getTime() >= Date.parse(t.threeDs!.expiresAt);
      return [
        {
          type: 'ThreeDsCompleted',
          data: { transactionId, outcome: late ? 'callback_timeout' : command.outcome, at },
        },
      ];
    }
    case 'TimeOutThreeDs':
      move('time_out_three_ds');
      if (command.at.getTime() < Date.parse(t.threeDs!.expiresAt)) {
        throw new TransactionCommandInvalid(`the 3DS challenge of ${transactionId} has not expired yet`);
      }
      return [{ type: 'ThreeDsCompleted', data: { transactionId, outcome: 'callback_timeout', at } }];
  }
}

function recordOutcome(t: Transaction, command: RecordGatewayOutcome, at: string): TransactionEvent[] {
  const transactionId = t.id;
  const o = command.outcome;
  if (o.kind === 'unknown') {
    assertTransition(t, 'record_outcome_unknown');
    // Already pending: a second unknown answer adds nothing to the story.
    return t.outcomePending ? [] : [{ type: 'TransactionOutcomeUnknown', data: { transactionId, at } }];
  }
  if (o.kind === 'approved') {
    assertTransition(t, 'approve');
    return [
      {
        type: 'TransactionApproved',
        data: {
          transactionId,
          approvalCode: o.approvalCode,
          gatewayTransactionId: o.gatewayTransactionId,
          avsResponseCode: o.avsResponseCode ?? null,
          cvResponseCode: o.cvResponseCode ?? null,
          effectiveDate: o.effectiveDate ?? null,
          at,
        },
      },
    ];
  }
  assertTransition(t, 'decline');
  return [
    {
      type: 'TransactionDeclined',
      data: {
        transactionId,
        declineCode: o.declineCode,
        declineReason: o.declineReason,
        avsResponseCode: o.avsResponseCode ?? null,
        cvResponseCode: o.cvResponseCode ?? null,
        at,
      },
    },
  ];
}

function applyFollowUp(t: Transaction, command: ApplyFollowUp, at: string): TransactionEvent[] {
  const transactionId = t.id;
  const childId = command.childId;
  assertTransition(t, FOLLOW_UP_ACTIONS[command.followUp]);
  switch (command.followUp) {
    case 'VOID':
    case 'ACH_VOID':
      return [{ type: 'TransactionVoided', data: { transactionId, voidTransactionId: childId, at } }];
    case 'AUTH_REVERSAL':
      return [
        {
          type: 'TransactionReversed',
          data: { transactionId, reversalTransactionId: childId, reversalReason: null, at },
        },
      ];
    case 'ACH_REVERSAL': {
      const settledAt = new Date(t.settledAt!);
      if (!isWithinAchReversalWindow(settledAt, command.at)) {
        throw new NachaReversalWindowExpired(achReversalDeadline(settledAt).toISOString());
      }
      return [
        {
          type: 'TransactionReversed',
          data: {
            transactionId,
            reversalTransactionId: childId,
            reversalReason: command.reversalReason ?? null,
            at,
          },
        },
      ];
    }
    case 'REFUND':
    case 'ACH_REFUND':
      return [refunded(t, childId, refundableMinor(t), at)];
    case 'PARTIAL_REFUND': {
      const amount = command.amountMinor;
      if (amount === undefined || amount <= 0n) {
        throw new TransactionCommandInvalid('a PARTIAL_REFUND needs an amount above zero');
      }
      const left = refundableMinor(t);
      if (amount > left) throw new AmountExceedsRefundable(amount, left);
      return [refunded(t, childId, amount, at)];
    }
  }
}

/**
 * The refund event, with the refund's share of the surcharge: in proportion to the base amount
 * refunded, and whatever is left of it on the refund that empties the original, so the shares
 * always add up to the surcharge exactly. The convenience fee is a charge for the service of
 * paying by this channel and is not refunded (docs/transactions.md).
 */
function refunded(t: Transaction, childId: string, amountMinor: bigint, at: string): TransactionEvent {
  const left = refundableMinor(t);
  const surchargeLeft = subtractMinor(BigInt(t.surchargeMinor), BigInt(t.surchargeReversedMinor), t.currency);
  const share =
    amountMinor === left
      ? surchargeLeft
      : allocateMinor(
          surchargeLeft,
          [amountMinor, subtractMinor(left, amountMinor, t.currency)],
          t.currency,
        )[0];
  return {
    type: 'TransactionRefunded',
    data: {
      transactionId: t.id,
      refundTransactionId: childId,
      amountMinor: amountMinor.toString(),
      surchargeReversedMinor: share.toString(),
      at,
    },
  };
}

/** What a granted refund took, to give it back; refuses a child that was never granted. */
function refundOf(t: Transaction, childId: string) {
  const granted = t.refunds[childId];
  if (!granted) throw new TransactionCommandInvalid(`${childId} is not a pending refund of ${t.id}`);
  return granted;
}
