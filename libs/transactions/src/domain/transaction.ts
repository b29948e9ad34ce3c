import { subtractMinor, sumMinor } from '../../../platform/src/money/money';
import type { TransactionEvent, TransactionInitiated } from './transaction-events';
import { APPROVED_STATE, type ThreeDsFailureReason, type TransactionState } from './transaction-states';

type Initiated = TransactionInitiated['data'];

/** The transaction as its events make it: plain JSON (the read model keeps it as a snapshot). */
export type Transaction = Omit<Initiated, 'transactionId' | 'initiatedAt'> & {
  id: string;
  state: TransactionState;
  /** True while the gateway's answer to the create is unknown (502 `gateway_outcome_unknown`). */
  outcomePending: boolean;
  approvalCode: string | null;
  gatewayTransactionId: string | null;
  declineCode: string | null;
  declineReason: string | null;
  avsResponseCode: string | null;
  cvResponseCode: string | null;
  effectiveDate: string | null;
  /** Cumulative refunds granted (base amount) and the surcharge share they reversed. */
  refundedMinor: string;
  surchargeReversedMinor: string;
  /** Follow-up children, oldest first. */
  followUps: string[];
  /** Each granted refund child's amount and surcharge share, to give back if the gateway refuses it. */
  refunds: Record<string, { amountMinor: string; surchargeReversedMinor: string }>;
  threeDs: { challengeUrl: string; acsTransactionId: string; version: string; expiresAt: string } | null;
  threeDsFailureReason: ThreeDsFailureReason | null;
  batchId: string | null;
  settledAt: string | null;
  returnCode: string | null;
  returnDescription: string | null;
  dispute: { id: string; reason: string | null; openedAt: string; outcome: 'won' | 'lost' | null } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type TransactionOrNone = Transaction | null;

export const initialState = (): TransactionOrNone => null;

/** The base amount still refundable (never negative). */
export function refundableMinor(t: Pick<Transaction, 'amountMinor' | 'refundedMinor' | 'currency'>): bigint {
  return subtractMinor(BigInt(t.amountMinor), BigInt(t.refundedMinor), t.currency);
}

/**
 * States whose money can still come back by a refund: now (SETTLED, PARTIALLY_REFUNDED) or once it
 * settles (CAPTURED, SUBMITTED). Voided, reversed, declined, returned, disputed, charged back and
 * fully refunded transactions have nothing left to refund, and neither has a follow-up itself.
 */
const REFUNDABLE_STATES: readonly string[] = ['CAPTURED', 'SUBMITTED', 'SETTLED', 'PARTIALLY_REFUNDED'];

/** The resource's `refundable_amount`, in minor units: the remainder where a refund can still come. */
export function refundableAmountMinor(t: Transaction): bigint {
  if (t.parentTransactionId !== null || !REFUNDABLE_STATES.includes(t.state)) return 0n;
  const left = refundableMinor(t);
  return left < 0n ? 0n : left;
}

/** What the payer was charged: base + surcharge + convenience fee. */
export function totalMinor(
  t: Pick<Transaction, 'amountMinor' | 'surchargeMinor' | 'convenienceFeeMinor' | 'currency'>,
): bigint {
  return sumMinor(
    [BigInt(t.amountMinor), BigInt(t.surchargeMinor), BigInt(t.convenienceFeeMinor)],
    t.currency,
  );
}

function created(data: Initiated): Transaction {
  const { transactionId, initiatedAt, ...rest } = data;
  return {
    ...rest,
    id: transactionId,
    state: 'INITIATED',
    outcomePending: false,
    approvalCode: null,
    gatewayTransactionId: null,
    declineCode: null,
    declineReason: null,
    avsResponseCode: null,
    cvResponseCode: null,
    effectiveDate: null,
    refundedMinor: '0',
    surchargeReversedMinor: '0',
    followUps: [],
    refunds: {},
    threeDs: null,
    threeDsFailureReason: null,
    batchId: null,
    settledAt: null,
    returnCode: null,
    returnDescription: null,
    dispute: null,
    createdAt: initiatedAt,
    updatedAt: initiatedAt,
    version: 1,
  };
}

function refundState(t: Transaction, refundedMinor: string): TransactionState {
  if (BigInt(refundedMinor) === 0n) return 'SETTLED';
  return BigInt(refundedMinor) >= BigInt(t.amountMinor) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
}

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(t: TransactionOrNone, event: TransactionEvent): TransactionOrNone {
  if (event.type === 'TransactionInitiated') return created(event.data);
  if (!t) return t;
  const at = 'at' in event.data ? event.data.at : t.updatedAt;
  const s: Transaction = { ...t, version: t.version + 1, updatedAt: at };
  switch (event.type) {
    case 'TransactionOutcomeUnknown':
      return { ...s, outcomePending: true };
    case 'TransactionApproved': {
      const d = event.data;
      return {
        ...s,
        state: APPROVED_STATE[t.type] ?? 'CAPTURED',
        outcomePending: false,
        approvalCode: d.approvalCode,
        gatewayTransactionId: d.gatewayTransactionId,
        avsResponseCode: d.avsResponseCode,
        cvResponseCode: d.cvResponseCode,
        effectiveDate: d.effectiveDate,
      };
    }
    case 'TransactionDeclined': {
      const d = event.data;
      return {
        ...s,
        state: 'FAILED',
        outcomePending: false,
        declineCode: d.declineCode,
        declineReason: d.declineReason,
        avsResponseCode: d.avsResponseCode,
        cvResponseCode: d.cvResponseCode,
      };
    }
    case 'TransactionVoided':
      return { ...s, state: 'VOIDED', followUps: [...t.followUps, event.data.voidTransactionId] };
    case 'TransactionReversed':
      return { ...s, state: 'REVERSED', followUps: [...t.followUps, event.data.reversalTransactionId] };
    case 'TransactionRefunded': {
      const d = event.data;
      const refunded = sumMinor([BigInt(t.refundedMinor), BigInt(d.amountMinor)], t.currency).toString();
      return {
        ...s,
        state: refundState(t, refunded),
        refundedMinor: refunded,
        surchargeReversedMinor: sumMinor(
          [BigInt(t.surchargeReversedMinor), BigInt(d.surchargeReversedMinor)],
          t.currency,
        ).toString(),
        followUps: [...t.followUps, d.refundTransactionId],
        refunds: {
          ...t.refunds,
          [d.refundTransactionId]: {
            amountMinor: d.amountMinor,
            surchargeReversedMinor: d.surchargeReversedMinor,
          },
        },
      };
    }
    case 'TransactionRefundFailed': {
      const d = event.data;
      const refunded = subtractMinor(BigInt(t.refundedMinor), BigInt(d.amountMinor), t.currency).toString();
      const refunds = { ...t.refunds };
      delete refunds[d.refundTransactionId];
      return {
        ...s,
        refunds,
        state: refundState(t, refunded),
        refundedMinor: refunded,
        surchargeReversedMinor: subtractMinor(
          BigInt(t.surchargeReversedMinor),
          BigInt(d.surchargeReversedMinor),
          t.currency,
        ).toString(),
      };
    }
    case 'TransactionSettled':
      return {
        ...s,
        state: 'SETTLED',
        batchId: event.data.batchId,
        settledAt: event.data.settledAt,
        updatedAt: event.data.settledAt,
      };
    case 'TransactionReturned':
      return {
        ...s,
        state: 'RETURNED',
        returnCode: event.data.returnCode,
        returnDescription: event.data.description,
      };
    case 'TransactionDisputed':
      return {
        ...s,
        state: 'DISPUTED',
        dispute: {
          id: event.data.disputeId,
          reason: event.data.reason,
          openedAt: event.data.at,
          outcome: null,
        },
      };
    case 'ChargebackResolved':
      return {
        ...s,
        state: event.data.outcome === 'lost' ? 'CHARGED_BACK' : 'SETTLED',
        dispute: t.dispute && { ...t.dispute, outcome: event.data.outcome },
      };
    case 'ThreeDsChallengeIssued': {
      const { challengeUrl, acsTransactionId, version, expiresAt } = event.data;
      return {
        ...s,
        state: 'THREE_DS_PENDING',
        threeDs: { challengeUrl, acsTransactionId, version, expiresAt },
      };
    }
    case 'ThreeDsCompleted':
      // Authenticated: back to INITIATED, ready for the charge the challenge was holding.
      return event.data.outcome === 'authenticated'
        ? { ...s, state: 'INITIATED' }
        : { ...s, state: 'THREE_DS_FAILED', threeDsFailureReason: event.data.outcome };
  }
}

export const transactionEvolver = { initialState, evolve };
