import type { UseType } from '../../../vault/src/domain';
import type { Rail, ThreeDsFailureReason, TransactionType } from './transaction-states';

/**
 * Stored transaction events (stream `transaction-{id}`). Stored types are never renamed or
 * reshaped; add new ones instead. Amounts are minor-unit integer strings (`"1050"` is $10.50) next
 * to the transaction's `currency`; times are ISO-8601 strings. No card number, CVC or account
 * number is ever in an event: only brand, last four, expiry and bank last fours.
 */
export const transactionStream = (transactionId: string): string => `transaction-${transactionId}`;
export const TRANSACTION_STREAM_PREFIX = 'transaction-';

export interface CardSnapshot {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** credit, debit, prepaid or unknown: from the gateway's BIN data. */
  funding: string;
}

export interface BankSnapshot {
  accountType: 'CHECKING' | 'SAVINGS';
  accountLast4: string;
  routingLast4: string;
}

export interface Disclosure {
  acknowledgedAt: string;
  channel: string;
}

export interface CustomFieldValue {
  name: string;
  value: string;
}

export interface TransactionInitiated {
  type: 'TransactionInitiated';
  data: {
    transactionId: string;
    partnerId: string;
    merchantId: string;
    type: TransactionType;
    rail: Rail;
    /** The base amount the partner sent (a REFUND: the remainder it refunds). */
    amountMinor: string;
    currency: string;
    surchargeMinor: string;
    convenienceFeeMinor: string;
    taxMinor: string | null;
    entryMode: string;
    useType: UseType | null;
    storedCredentialId: string | null;
    /** The vault entry charged (opaque, partner-scoped; never a card number). */
    vaultToken: string | null;
    customerId: string | null;
    parentTransactionId: string | null;
    card: CardSnapshot | null;
    bank: BankSnapshot | null;
    secCode: string | null;
    customFields: CustomFieldValue[];
    level2Data: Record<string, unknown> | null;
    level3Data: Record<string, unknown> | null;
    refundReason: string | null;
    reversalReason: { code: string; description: string | null } | null;
    convenienceFeeDisclosure: Disclosure | null;
    surchargeDisclosure: Disclosure | null;
    /**
     * Where the request came from: `api` (POST /transactions), `hpp` (a hosted page) or
     * `recurring` (a contract's installment, charged by the scheduler).
     */
    source: 'api' | 'hpp' | 'recurring';
    initiatedAt: string;
  };
}

/** The gateway did not answer definitely; the transaction stays INITIATED until resolved. */
export interface TransactionOutcomeUnknown {
  type: 'TransactionOutcomeUnknown';
  data: { transactionId: string; at: string };
}

/** The gateway approved; the state follows from the type (APPROVED_STATE). */
export interface TransactionApproved {
  type: 'TransactionApproved';
  data: {
    transactionId: string;
    approvalCode: string | null;
    gatewayTransactionId: string | null;
    avsResponseCode: string | null;
    cvResponseCode: string | null;
    /**
     * ACH: the entry's submission day, the banking day on or after the gateway accepted it. It
     * clears 1 to 3 banking days later (the settlement run's rules, libs/settlement).
     */
    effectiveDate: string | null;
    at: string;
  };
}

export interface TransactionDeclined {
  type: 'TransactionDeclined';
  data: {
    transactionId: string;
    declineCode: string;
    declineReason: string;
    avsResponseCode: string | null;
    cvResponseCode: string | null;
    at: string;
  };
}

/** On the parent: a VOID or ACH_VOID child cancelled it. */
export interface TransactionVoided {
  type: 'TransactionVoided';
  data: { transactionId: string; voidTransactionId: string; at: string };
}

/** On the parent: an AUTH_REVERSAL or ACH_REVERSAL child reversed it. */
export interface TransactionReversed {
  type: 'TransactionReversed';
  data: {
    transactionId: string;
    reversalTransactionId: string;
    reversalReason: { code: string; description: string | null } | null;
    at: string;
  };
}

/** On the parent: a refund child took `amountMinor` of it (and reversed its surcharge share). */
export interface TransactionRefunded {
  type: 'TransactionRefunded';
  data: {
    transactionId: string;
    refundTransactionId: string;
    amountMinor: string;
    surchargeReversedMinor: string;
    at: string;
  };
}

/** On the parent: the gateway refused a refund the parent had granted; the amount is back. */
export interface TransactionRefundFailed {
  type: 'TransactionRefundFailed';
  data: {
    transactionId: string;
    refundTransactionId: string;
    amountMinor: string;
    surchargeReversedMinor: string;
    at: string;
  };
}

export interface TransactionSettled {
  type: 'TransactionSettled';
  data: { transactionId: string; batchId: string; settledAt: string };
}

export interface TransactionReturned {
  type: 'TransactionReturned';
  data: {
    transactionId: string;
    returnCode: string;
    description: string;
    severity: 'soft' | 'hard';
    at: string;
  };
}

export interface TransactionDisputed {
  type: 'TransactionDisputed';
  data: { transactionId: string; disputeId: string; reason: string | null; amountMinor: string; at: string };
}

export interface ChargebackResolved {
  type: 'ChargebackResolved';
  data: { transactionId: string; disputeId: string; outcome: 'won' | 'lost'; at: string };
}

export interface ThreeDsChallengeIssued {
  type: 'ThreeDsChallengeIssued';
  data: {
    transactionId: string;
    challengeUrl: string;
    acsTransactionId: string;
    version: string;
    expiresAt: string;
    at: string;
  };
}

/** The challenge ended: `authenticated` leads on to the charge; a failure ends the transaction. */
export interface ThreeDsCompleted {
  type: 'ThreeDsCompleted';
  data: {
    transactionId: string;
    outcome: 'authenticated' | ThreeDsFailureReason;
    at: string;
  };
}

export type TransactionEvent =
  | TransactionInitiated
  | TransactionOutcomeUnknown
  | TransactionApproved
  | TransactionDeclined
  | TransactionVoided
  | TransactionReversed
  | TransactionRefunded
  | TransactionRefundFailed
  | TransactionSettled
  | TransactionReturned
  | TransactionDisputed
  | ChargebackResolved
  | ThreeDsChallengeIssued
  | ThreeDsCompleted;

export const TRANSACTION_EVENT_TYPES: readonly TransactionEvent['type'][] = [
  'TransactionInitiated',
  'TransactionOutcomeUnknown',
  'TransactionApproved',
  'TransactionDeclined',
  'TransactionVoided',
  'TransactionReversed',
  'TransactionRefunded',
  'TransactionRefundFailed',
  'TransactionSettled',
  'TransactionReturned',
  'TransactionDisputed',
  'ChargebackResolved',
  'ThreeDsChallengeIssued',
  'ThreeDsCompleted',
];

/**
 * Event type → the webhook kinds a partner sees (spec "Events"; `GET /webhook-event-types`);
 * empty: internal. One fact can be two kinds: a chargeback opened is both `transaction.disputed`
 * and `chargeback.received`. A follow-up's fact on its parent (voided, reversed, refunded) is
 * about the parent. The record makes the compiler check that every event type is mapped.
 */
export const TRANSACTION_WEBHOOK_EVENT_TYPES: Readonly<Record<TransactionEvent['type'], readonly string[]>> =
  {
    TransactionInitiated: ['transaction.created'],
    // No outcome yet: transaction.approved or transaction.declined follows when the gateway answers.
    TransactionOutcomeUnknown: [],
    TransactionApproved: ['transaction.approved'],
    TransactionDeclined: ['transaction.declined'],
    TransactionVoided: ['transaction.voided'],
    TransactionReversed: ['transaction.reversed'],
    TransactionRefunded: ['transaction.refunded'],
    TransactionRefundFailed: ['transaction.refund_failed'],
    TransactionSettled: ['transaction.settled'],
    TransactionReturned: ['transaction.returned'],
    TransactionDisputed: ['transaction.disputed', 'chargeback.received'],
    ChargebackResolved: ['chargeback.resolved'],
    ThreeDsChallengeIssued: ['three_ds.challenge_issued'],
    ThreeDsCompleted: ['three_ds.completed'],
  };
