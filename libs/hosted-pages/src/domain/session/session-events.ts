import type { UseType } from '../../../../vault/src/domain';
import type { HppCustomField } from './session-request';
import type {
  AmountMode,
  CaptureMode,
  HppPaymentMethod,
  HppRecurringFrequency,
  PagePurpose,
  RenderingMode,
  TokenizationOutcome,
} from './session-states';

/**
 * Stored HPP session events (stream `hpp_session-{id}`). Stored types are never renamed or
 * reshaped; add new ones instead. Amounts are minor-unit integer strings (`"1050"` is $10.50) next
 * to their `currency`; times are ISO-8601 strings. No card number, CVC or account number is ever
 * in an event: only brand, last four, expiry and bank last fours.
 */
export const hppSessionStream = (sessionId: string): string => `hpp_session-${sessionId}`;
export const HPP_SESSION_STREAM_PREFIX = 'hpp_session-';

interface Ids {
  sessionId: string;
  merchantId: string;
  partnerId: string;
}

/** An amount and its price (`priceTransaction`), minor-unit strings. */
export interface HppPriceData {
  amountMinor: string;
  surchargeMinor: string;
  convenienceFeeMinor: string;
  totalMinor: string;
}

export interface HppRecurringPlanData {
  recurringAmountMinor: string;
  frequency: HppRecurringFrequency;
  interval: number;
  numberOfPayments: number | null;
  initialChargeAmountMinor: string | null;
}

export interface HppSessionCreated {
  type: 'HppSessionCreated';
  data: Ids & {
    paymentMethod: HppPaymentMethod;
    renderingMode: RenderingMode;
    pagePurpose: PagePurpose;
    captureMode: CaptureMode | null;
    amountMode: AmountMode | null;
    savesPaymentMethod: boolean;
    credentialUsages: UseType[];
    customerId: string | null;
    recurringPlan: HppRecurringPlanData | null;
    customFields: HppCustomField[];
    currency: string;
    /** The fixed amount and its price from the merchant's fee settings; all null otherwise. */
    amountMinor: string | null;
    surchargeMinor: string | null;
    convenienceFeeMinor: string | null;
    totalMinor: string | null;
    expiresAt: string;
    createdAt: string;
  };
}

export interface HppSessionCancelled {
  type: 'HppSessionCancelled';
  data: Ids & { cancelledAt: string };
}

export interface HppSessionExpired {
  type: 'HppSessionExpired';
  data: Ids & { expiredAt: string };
}

/** One failed payer attempt (decline, invalid entry); `count` is the session's total so far. */
export interface HppSessionAttemptFailed {
  type: 'HppSessionAttemptFailed';
  data: Ids & { count: number; reason: string; failedAt: string };
}

/** The card-testing lockout: recorded right after the attempt that reached the limit. */
export interface HppSessionLocked {
  type: 'HppSessionLocked';
  data: Ids & { failedAttempts: number; lockedAt: string };
}

/**
 * The session's `recurring_plan` has its contract (created PENDING_ACTIVATION at the payer's first
 * submit, activated by the page's approved payment): the read form and `hpp_session.completed`
 * name it as `contract_id`.
 */
export interface HppSessionContractLinked {
  type: 'HppSessionContractLinked';
  data: Ids & { contractId: string; linkedAt: string };
}

export interface HppCardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface HppBankSummary {
  routingLast4: string;
  accountLast4: string;
  accountType: 'CHECKING' | 'SAVINGS';
}

export interface HppSessionCompleted {
  type: 'HppSessionCompleted';
  data: Ids & {
    /** The minted vault entry's token; null when nothing was saved (or saving failed). */
    vaultToken: string | null;
    storedCredentialId: string | null;
    /** The charge of a payment page; null on a save_payment_method page. */
    transactionId: string | null;
    card: HppCardSummary | null;
    bank: HppBankSummary | null;
    tokenizationOutcome: Exclude<TokenizationOutcome, 'pending'>;
    /** Set when `tokenizationOutcome` is failed. */
    tokenCaptureFailure: { at: string; reason: string } | null;
    /** The amount the payer typed on a customer_entered page, priced at submit; else null. */
    enteredPrice: HppPriceData | null;
    completedAt: string;
  };
}

export type HppSessionEvent =
  | HppSessionCreated
  | HppSessionCancelled
  | HppSessionExpired
  | HppSessionAttemptFailed
  | HppSessionLocked
  | HppSessionContractLinked
  | HppSessionCompleted;

export type HppSessionEventType = HppSessionEvent['type'];

/**
 * Event type → the webhook a partner sees (`GET /webhook-event-types`; the spec lists
 * `hpp_session.completed`); null: internal. A session the card-testing lockout ends is CANCELLED,
 * so it is `hpp_session.cancelled` too. The record makes the compiler check every type is mapped.
 */
export const HPP_SESSION_WEBHOOK_EVENT_TYPES: Readonly<Record<HppSessionEventType, string | null>> = {
  HppSessionCreated: 'hpp_session.created',
  HppSessionCancelled: 'hpp_session.cancelled',
  HppSessionExpired: 'hpp_session.expired',
  // A payer's failed try on an open page: the session stays PENDING (the lockout ends it).
  HppSessionAttemptFailed: null,
  HppSessionLocked: 'hpp_session.cancelled',
  // Internal: the read form's contract_id and hpp_session.completed name the contract.
  HppSessionContractLinked: null,
  HppSessionCompleted: 'hpp_session.completed',
};

export const HPP_SESSION_EVENT_TYPES = Object.keys(HPP_SESSION_WEBHOOK_EVENT_TYPES) as HppSessionEventType[];
