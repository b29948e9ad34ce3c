import type { ContractFrequency } from './contract-calendar';

/**
 * Stored contract events (stream `contract-{id}`, CONTRACT §2). Stored types are never renamed
 * or reshaped; add new ones instead. Amounts are minor-unit integer strings next to the
 * contract's `currency`; dates `YYYY-MM-DD`, times ISO-8601. The payment method is the vault
 * token and its display data (brand and last fours), never a card or account number.
 */
export const contractStream = (contractId: string): string => `contract-${contractId}`;
export const CONTRACT_STREAM_PREFIX = 'contract-';

export const CONTRACT_RAILS = ['CARD', 'ACH'] as const;
export type ContractRail = (typeof CONTRACT_RAILS)[number];
export const CONTRACT_USE_TYPES = ['RECURRING', 'INSTALLMENT'] as const;
export type ContractUseType = (typeof CONTRACT_USE_TYPES)[number];
export type ContractOrigin = 'api' | 'hpp';
/** Who moved the contract: the partner (its API key) or the platform (the scheduler). */
export const CONTRACT_ACTORS = ['partner', 'system'] as const;
export type ContractActor = (typeof CONTRACT_ACTORS)[number];

/**
 * Why the platform paused a contract (`hold`): the merchant cannot transact, or a feature flag
 * the contract's charges need is off. Lifted (`release`) when the cause is gone.
 */
export const HOLD_REASONS = [
  'merchant_suspended',
  'merchant_closed',
  'merchant_not_transactable',
  'feature_not_enabled',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface ContractPaymentMethod {
  vaultToken: string;
  storedCredentialId: string;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  bank: { accountType: 'CHECKING' | 'SAVINGS'; accountLast4: string; routingLast4: string } | null;
}

interface Ids {
  contractId: string;
  partnerId: string;
  merchantId: string;
}

/**
 * The terms a contract is created with, as the create command, its event and its state share
 * them (the amount per period is apart: a bigint in the command, a minor-unit string after).
 */
export interface ContractTerms {
  customerId: string | null;
  /** `api`: POST /contracts (born ACTIVE); `hpp`: a hosted page's plan (born PENDING_ACTIVATION). */
  origin: ContractOrigin;
  hppSessionId: string | null;
  paymentMethodType: ContractRail;
  /** null until a hosted page's first payment activates the plan. */
  paymentMethod: ContractPaymentMethod | null;
  useType: ContractUseType;
  currency: string;
  frequency: ContractFrequency;
  interval: number;
  startDate: string;
  endDate: string | null;
  numberOfPayments: number | null;
  maxRetries: number;
  customFields: { name: string; value: string }[];
  level2Data: Record<string, unknown> | null;
  level3Data: Record<string, unknown> | null;
  /** A hosted page's plan not activated by then is cancelled (its session's `expires_at`). */
  activationDeadline: string | null;
}

export interface ContractCreated {
  type: 'ContractCreated';
  data: Ids &
    ContractTerms & {
      /** Per period. */
      amountMinor: string;
      createdAt: string;
    };
}

/** A hosted page's first payment was approved: installment 1, and the schedule starts. */
export interface ContractActivated {
  type: 'ContractActivated';
  data: Ids & {
    paymentMethod: ContractPaymentMethod;
    initialTransactionId: string;
    /** The base amount the page charged (its fees are not the contract's). */
    initialAmountMinor: string;
    /** The date of the first payment, the schedule's anchor. */
    startDate: string;
    activatedAt: string;
  };
}

/** PATCH: `nextChargeDate` re-anchors the schedule (or moves a pending retry); `endDate` null removes it. */
export interface ContractUpdated {
  type: 'ContractUpdated';
  data: Ids & { nextChargeDate?: string; endDate?: string | null; reason: string | null; updatedAt: string };
}

export interface ContractPaused {
  type: 'ContractPaused';
  data: Ids & { by: ContractActor; reasonCode: HoldReason | null; reason: string | null; pausedAt: string };
}

export interface ContractResumed {
  type: 'ContractResumed';
  data: Ids & { by: ContractActor; reason: string | null; resumedAt: string };
}

export interface ContractCancelled {
  type: 'ContractCancelled';
  data: Ids & {
    by: ContractActor;
    /** `activation_expired` when the scheduler cancels a plan its page never paid for. */
    reasonCode: string | null;
    reason: string | null;
    cancelledAt: string;
  };
}

/** A charge starts: from here until its outcome is recorded the installment is in flight. */
export interface ContractInstallmentAttempted {
  type: 'ContractInstallmentAttempted';
  data: Ids & {
    installment: number;
    /** 0 for the first try, then the retry's number. */
    attempt: number;
    transactionId: string;
    /** The platform's reserved key the charge runs under: `recurring:{contract}:{installment}`. */
    idempotencyKey: string;
    amountMinor: string;
    dueDate: string;
    attemptedAt: string;
  };
}

/**
 * The charge never reached the gateway, and will not now: a hold applies (`merchant_suspended`,
 * `feature_not_enabled`, ...), or the contract was paused (`contract_paused`) or cancelled
 * (`contract_cancelled`) before its transaction was recorded. Nothing was charged.
 */
export interface ContractInstallmentAttemptWithdrawn {
  type: 'ContractInstallmentAttemptWithdrawn';
  data: Ids & { installment: number; attempt: number; reasonCode: string; withdrawnAt: string };
}

export interface ContractInstallmentCharged {
  type: 'ContractInstallmentCharged';
  data: Ids & {
    installment: number;
    attempt: number;
    transactionId: string;
    amountMinor: string;
    rail: ContractRail;
    chargedAt: string;
  };
}

export interface ContractInstallmentFailed {
  type: 'ContractInstallmentFailed';
  data: Ids & {
    installment: number;
    attempt: number;
    /** null when the charge was refused before a transaction was recorded (a revoked credential). */
    transactionId: string | null;
    /** The gateway's decline code, or the refusal's code. */
    declineCode: string;
    soft: boolean;
    failedAt: string;
  };
}

export interface ContractRetryScheduled {
  type: 'ContractRetryScheduled';
  data: Ids & {
    installment: number;
    /** The retry's number (1 for the first retry). */
    attempt: number;
    amountMinor: string;
    retryDate: string;
    scheduledAt: string;
  };
}

/** An ACH installment came back: it counts as unpaid again. */
export interface ContractInstallmentReturned {
  type: 'ContractInstallmentReturned';
  data: Ids & {
    installment: number;
    attempt: number;
    transactionId: string;
    amountMinor: string;
    returnCode: string;
    returnedAt: string;
  };
}

export interface ContractCompleted {
  type: 'ContractCompleted';
  data: Ids & { completedAt: string };
}

export interface ContractFailed {
  type: 'ContractFailed';
  data: Ids & { reasonCode: string; reason: string; failedAt: string };
}

export type ContractEvent =
  | ContractCreated
  | ContractActivated
  | ContractUpdated
  | ContractPaused
  | ContractResumed
  | ContractCancelled
  | ContractInstallmentAttempted
  | ContractInstallmentAttemptWithdrawn
  | ContractInstallmentCharged
  | ContractInstallmentFailed
  | ContractRetryScheduled
  | ContractInstallmentReturned
  | ContractCompleted
  | ContractFailed;

export type ContractEventType = ContractEvent['type'];

const ALL: Record<ContractEventType, true> = {
  ContractCreated: true,
  ContractActivated: true,
  ContractUpdated: true,
  ContractPaused: true,
  ContractResumed: true,
  ContractCancelled: true,
  ContractInstallmentAttempted: true,
  ContractInstallmentAttemptWithdrawn: true,
  ContractInstallmentCharged: true,
  ContractInstallmentFailed: true,
  ContractRetryScheduled: true,
  ContractInstallmentReturned: true,
  ContractCompleted: true,
  ContractFailed: true,
};

export const CONTRACT_EVENT_TYPES = Object.keys(ALL) as ContractEventType[];
