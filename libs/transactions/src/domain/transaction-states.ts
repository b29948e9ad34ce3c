import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The transaction state machine (stream `transaction-{id}`), as data. The spec's table is here
 * row for row; the moves it leaves open are decided below and in docs/transactions.md.
 *
 * Decisions:
 * 1. Every transaction is born INITIATED and leaves it on the gateway's answer: `approve` takes
 *    it to the state its type's approval means ({@link APPROVED_STATE}: a card SALE is CAPTURED,
 *    an ACH_DEBIT SUBMITTED), `decline` to FAILED. An unknown answer keeps it INITIATED with the
 *    outcome pending until a retry or the sweep resolves it.
 * 2. A follow-up (VOID, AUTH_REVERSAL, REFUND, PARTIAL_REFUND, ACH_VOID, ACH_REFUND, ACH_REVERSAL)
 *    is its own transaction with `parent_transaction_id` (CONTRACT §8); the parent moves by the
 *    action of the same name. Follow-ups apply only to an original (SALE, ACH_DEBIT,
 *    AUTHORIZATION): a refund of a refund is 409.
 * 3. A follow-up child's own approval: VOID and ACH_VOID are VOIDED, AUTH_REVERSAL is REVERSED (they
 *    move no money); REFUND and PARTIAL_REFUND are CAPTURED and ACH_REFUND and ACH_REVERSAL
 *    SUBMITTED, and settle at the next settlement run like any other money movement.
 * 4. AUTH_REVERSAL is allowed from AUTHORIZED only, as the spec's table says; a captured SALE is
 *    cancelled with VOID. Card refunds and disputes are card-only; ACH_* actions ACH-only.
 * 5. A full REFUND is allowed from PARTIALLY_REFUNDED too: it refunds the remainder (CONTRACT
 *    §5a). A PARTIAL_REFUND that reaches the original amount makes the parent REFUNDED.
 * 6. A chargeback won puts the transaction back to SETTLED; ACH disputes come back as returns
 *    (R05, R07, R10…), so `open_dispute` is card-only.
 */
export const TRANSACTION_STATES = [
  'INITIATED',
  'THREE_DS_PENDING',
  'THREE_DS_FAILED',
  'AUTHORIZED',
  'CAPTURED',
  'SUBMITTED',
  'SETTLED',
  'VOIDED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
  'REVERSED',
  'RETURNED',
  'FAILED',
  'DISPUTED',
  'CHARGED_BACK',
  'VERIFIED',
] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

export const TRANSACTION_TYPES = [
  'AUTHORIZATION',
  'SALE',
  'CAPTURE',
  'PARTIAL_CAPTURE',
  'CAPTURE_ALL',
  'AUTH_REVERSAL',
  'PARTIAL_AUTH_REVERSAL',
  'VOID',
  'REFUND',
  'PARTIAL_REFUND',
  'CARD_VERIFICATION',
  'SURCHARGE',
  'ACH_DEBIT',
  'ACH_REFUND',
  'ACH_REVERSAL',
  'ACH_VOID',
  'ACH_RETURN',
  'RECURRING_CREATE',
  'RECURRING_UPDATE',
  'RECURRING_CANCEL',
  'RECURRING_RETRY',
  'RECURRING_PAUSE',
  'RECURRING_RESUME',
  'RECURRING_COMPLETION',
  'REPEAT_SALE',
  'ADJUSTMENT',
  'BATCH_CLOSE',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const RAILS = ['CARD', 'ACH'] as const;
export type Rail = (typeof RAILS)[number];

/** Types that start a money movement of their own; only these take follow-ups. */
export const ORIGINAL_TYPES: readonly TransactionType[] = ['SALE', 'ACH_DEBIT', 'AUTHORIZATION'];

/** The follow-up types POST /transactions accepts, and the parent action each one is. */
export const FOLLOW_UP_ACTIONS = {
  VOID: 'void',
  AUTH_REVERSAL: 'auth_reversal',
  REFUND: 'refund',
  PARTIAL_REFUND: 'partial_refund',
  ACH_VOID: 'ach_void',
  ACH_REFUND: 'ach_refund',
  ACH_REVERSAL: 'ach_reversal',
} as const satisfies Partial<Record<TransactionType, TransactionAction>>;
export type FollowUpType = keyof typeof FOLLOW_UP_ACTIONS;

export function isFollowUpType(type: string): type is FollowUpType {
  return Object.prototype.hasOwnProperty.call(FOLLOW_UP_ACTIONS, type);
}

/** Where an approval takes a transaction of each type that can be approved (decision 1 and 3). */
export const APPROVED_STATE: Readonly<Partial<Record<TransactionType, TransactionState>>> = {
  SALE: 'CAPTURED',
  AUTHORIZATION: 'AUTHORIZED',
  CARD_VERIFICATION: 'VERIFIED',
  ACH_DEBIT: 'SUBMITTED',
  VOID: 'VOIDED',
  ACH_VOID: 'VOIDED',
  AUTH_REVERSAL: 'REVERSED',
  REFUND: 'CAPTURED',
  PARTIAL_REFUND: 'CAPTURED',
  ACH_REFUND: 'SUBMITTED',
  ACH_REVERSAL: 'SUBMITTED',
};

interface Rule {
  /** The rails the action exists on. */
  rails: readonly Rail[];
  from: readonly TransactionState[];
  /** `null`: the target depends on the type or amount (approve; partial_refund; three_ds). */
  to: TransactionState | null;
  /** Only an original (SALE, ACH_DEBIT, AUTHORIZATION) takes it (decision 2). */
  originalOnly?: true;
}

const BOTH: readonly Rail[] = ['CARD', 'ACH'];

/** action → rails → the states it is allowed from → where it goes. */
export const TRANSACTION_TRANSITIONS = {
  // The gateway's answer to the create (decision 1).
  approve: { rails: BOTH, from: ['INITIATED'], to: null },
  decline: { rails: BOTH, from: ['INITIATED'], to: 'FAILED' },
  record_outcome_unknown: { rails: BOTH, from: ['INITIATED'], to: 'INITIATED' },
  // 3DS (spec table rows 1 and 2).
  request_three_ds: { rails: ['CARD'], from: ['INITIATED'], to: 'THREE_DS_PENDING' },
  complete_three_ds: { rails: ['CARD'], from: ['THREE_DS_PENDING'], to: null },
  time_out_three_ds: { rails: ['CARD'], from: ['THREE_DS_PENDING'], to: 'THREE_DS_FAILED' },
  // Open in the spec: AUTHORIZED → CAPTURED, CAPTURED / SUBMITTED → SETTLED.
  capture: { rails: ['CARD'], from: ['AUTHORIZED'], to: 'CAPTURED', originalOnly: true },
  settle: { rails: ['CARD'], from: ['CAPTURED'], to: 'SETTLED' },
  settle_ach: { rails: ['ACH'], from: ['SUBMITTED'], to: 'SETTLED' },
  // Follow-ups (spec table).
  void: { rails: ['CARD'], from: ['AUTHORIZED', 'CAPTURED'], to: 'VOIDED', originalOnly: true },
  auth_reversal: { rails: ['CARD'], from: ['AUTHORIZED'], to: 'REVERSED', originalOnly: true },
  refund: { rails: ['CARD'], from: ['SETTLED', 'PARTIALLY_REFUNDED'], to: 'REFUNDED', originalOnly: true },
  partial_refund: { rails: ['CARD'], from: ['SETTLED', 'PARTIALLY_REFUNDED'], to: null, originalOnly: true },
  ach_void: { rails: ['ACH'], from: ['SUBMITTED'], to: 'VOIDED', originalOnly: true },
  ach_refund: { rails: ['ACH'], from: ['SETTLED'], to: 'REFUNDED', originalOnly: true },
  ach_reversal: { rails: ['ACH'], from: ['SETTLED'], to: 'REVERSED', originalOnly: true },
  // Bank-side events (operator sandbox).
  ach_return: { rails: ['ACH'], from: ['SUBMITTED', 'SETTLED'], to: 'RETURNED', originalOnly: true },
  open_dispute: { rails: ['CARD'], from: ['SETTLED'], to: 'DISPUTED', originalOnly: true },
  chargeback_lost: { rails: ['CARD'], from: ['DISPUTED'], to: 'CHARGED_BACK', originalOnly: true },
  chargeback_won: { rails: ['CARD'], from: ['DISPUTED'], to: 'SETTLED', originalOnly: true },
} as const satisfies Record<string, Rule>;

export type TransactionAction = keyof typeof TRANSACTION_TRANSITIONS;
export const TRANSACTION_ACTIONS = Object.keys(TRANSACTION_TRANSITIONS) as TransactionAction[];

export interface TransitionSubject {
  state: TransactionState;
  rail: Rail;
  type: TransactionType;
}

export function canTransition(subject: TransitionSubject, action: TransactionAction): boolean {
  const rule: Rule = TRANSACTION_TRANSITIONS[action];
  return (
    rule.rails.includes(subject.rail) &&
    rule.from.includes(subject.state) &&
    (!rule.originalOnly || ORIGINAL_TYPES.includes(subject.type))
  );
}

/** Refuses a move the table does not allow (409 `invalid_state_transition`). */
export function assertTransition(subject: TransitionSubject, action: TransactionAction): void {
  if (!canTransition(subject, action)) {
    throw new InvalidStateTransition(`${subject.rail} ${subject.type} transaction`, subject.state, action);
  }
}

/** The 3DS challenge lives 15 minutes (spec state table). */
export const THREE_DS_TTL_MS = 15 * 60 * 1000;

export const THREE_DS_FAILURE_REASONS = [
  'challenge_failed',
  'challenge_abandoned',
  'callback_timeout',
  'signature_invalid',
  'unsupported_card',
  'issuer_declined',
] as const;
export type ThreeDsFailureReason = (typeof THREE_DS_FAILURE_REASONS)[number];
