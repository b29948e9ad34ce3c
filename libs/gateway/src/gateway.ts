import { DomainError } from '../../platform/src/problem';
import type { CardFunding } from './card';

/**
 * The payment gateway PORT (ARCHITECTURE: ports and adapters). The platform calls it before
 * `handleCommand`, keyed by the request's `Idempotency-Key`; the result enters the pure `decide`
 * as data. `abstract class` so it doubles as the DI token. Adapters: `sandbox/` (CONTRACT §5);
 * a processor adapter later. Tokenisation is NOT here: the vault is ours, the gateway only ever
 * receives a card at the moment it is charged.
 *
 * Rules every adapter keeps:
 * - **Idempotent by `reference`.** `reference` is the platform's idempotency-derived id of one
 *   request. Sending the same reference again (a retry after a timeout, a replay, a second
 *   worker) never has a second effect: it answers the outcome the gateway holds for it. The same
 *   reference with a different operation or different parameters is a bug upstream and throws
 *   {@link GatewayReferenceReused}; it never creates a second effect either.
 * - **UNKNOWN means "maybe".** A network failure, a timeout, or an earlier request with the same
 *   reference still in flight answer `UNKNOWN`, never a guess. The platform records the
 *   transaction pending (502 `gateway_outcome_unknown`) and resolves it by retrying with the SAME
 *   reference or by {@link PaymentGateway.lookup}. A new reference risks a double charge.
 * - **Declines are data, not exceptions** (spec "Errors": a decline is 200 FAILED with
 *   `decline_code`). Adapters throw only for programming errors (e.g. a reused reference).
 * - **No raw PAN, CVC or account number is ever logged**, put in an error message, kept in a
 *   result or handed to {@link PaymentGateway.lookup}. Only `lastFour` (see card.ts) may leave.
 * - Amounts are bigint minor units (platform/money), never floats.
 */
export abstract class PaymentGateway {
  /**
   * A card SALE: authorise and capture in one step (CONTRACT §8: approved → CAPTURED, declined →
   * FAILED). The card has been validated by the platform (card.ts `validateCard`); an adapter still
   * refuses a card it cannot route (`invalid_card_number`, `expired_card`) rather than sending it.
   */
  abstract authorizeAndCapture(request: AuthorizeAndCaptureRequest): Promise<ChargeResult>;

  /**
   * Returns money to the payer of an earlier capture or ACH debit (REFUND, PARTIAL_REFUND,
   * ACH_REFUND). `amountMinor` is this refund's amount; the gateway refuses more than the
   * remainder (`amount_exceeds_refundable`) and unknown ids (`transaction_not_found`).
   */
  abstract refund(request: RefundRequest): Promise<RefundResult>;

  /**
   * Cancels an earlier capture or ACH debit before settlement (ACH_VOID pulls the entry from the
   * origination batch). A card VOID is ledger-only in the spec ("no processor message"); the
   * platform may still call this so the gateway's own record stays consistent.
   */
  abstract void(request: VoidRequest): Promise<VoidResult>;

  /** An ACH_DEBIT: the entry is accepted into the origination batch (SUBMITTED) or refused. */
  abstract achDebit(request: AchDebitRequest): Promise<AchDebitResult>;

  /**
   * The outcome the gateway holds for a reference, used to resolve UNKNOWN. Has no effect of its
   * own. `NOT_FOUND`: the gateway never received the request, so it is safe to send it again with
   * the same reference. `UNKNOWN`: the gateway cannot answer now; ask again later.
   */
  abstract lookup(reference: string): Promise<GatewayLookup>;

  /**
   * Whether a card is credit, debit or prepaid: the processor's BIN data decides (surcharges never
   * apply to debit or prepaid cards). No effect; the PAN is neither kept nor logged.
   */
  abstract cardFunding(pan: string): Promise<CardFunding>;
}

/** The decline codes adapters answer with; spelled as the spec's `decline_code`. */
export const DECLINE_CODES = [
  'insufficient_funds',
  'card_declined',
  'expired_card',
  'invalid_card_number',
  'invalid_expiry_date',
  'invalid_routing_number',
  'invalid_account_number',
  'invalid_amount',
  'currency_not_supported',
  'transaction_not_found',
  'transaction_not_refundable',
  'transaction_not_voidable',
  'amount_exceeds_refundable',
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

export interface GatewayCard {
  /** Digits only. Never log it. */
  pan: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /**
   * Never log it; never stored by the gateway. null for a card on file: the vault never keeps a
   * CVC, so a charge on a `vault_token` goes without one.
   */
  cvc: string | null;
  /** The payer's billing postal code, for address verification (AVS); null when not collected. */
  postalCode?: string | null;
}

/**
 * The fees inside a charge's `amountMinor`, sent apart as card networks ask a surcharge to be
 * (and as the sandbox needs: its outcome follows the cents of the base amount, CONTRACT §5).
 */
export interface ChargeFees {
  surchargeMinor: bigint;
  convenienceFeeMinor: bigint;
}

export interface AuthorizeAndCaptureRequest {
  reference: string;
  /** The merchant's id at the gateway (MID). */
  merchantGatewayId: string;
  /** What the payer is charged: the base amount plus `fees`. */
  amountMinor: bigint;
  fees: ChargeFees;
  currency: string;
  card: GatewayCard;
}

export type ChargeResult =
  | {
      outcome: 'APPROVED';
      authorizationCode: string;
      gatewayTransactionId: string;
      /** The issuer's address-verification answer (Visa/Mastercard letters: Y, Z, A, N, U…). */
      avsResponseCode: string;
      /** The card-security-code answer: M match, N no match, P not processed (no CVC sent). */
      cvResponseCode: string;
    }
  | { outcome: 'DECLINED'; declineCode: DeclineCode }
  | { outcome: 'UNKNOWN' };

export interface RefundRequest {
  reference: string;
  gatewayTransactionId: string;
  amountMinor: bigint;
}

export type RefundResult =
  | { outcome: 'APPROVED'; gatewayTransactionId: string }
  | { outcome: 'DECLINED'; declineCode: DeclineCode }
  | { outcome: 'UNKNOWN' };

export interface VoidRequest {
  reference: string;
  gatewayTransactionId: string;
}

export type VoidResult =
  { outcome: 'APPROVED' } | { outcome: 'DECLINED'; declineCode: DeclineCode } | { outcome: 'UNKNOWN' };

export type AchAccountType = 'CHECKING' | 'SAVINGS';
/** CONTRACT §5a: `WEB` default, `PPD`, `CCD`, `TEL`. */
export type AchSecCode = 'WEB' | 'PPD' | 'CCD' | 'TEL';

export interface AchDebitRequest {
  reference: string;
  /** Nine digits passing the ABA checksum. */
  routingNumber: string;
  /** Never log it. */
  accountNumber: string;
  accountType: AchAccountType;
  /** What the account is debited: the base amount plus `fees`. */
  amountMinor: bigint;
  fees: ChargeFees;
  secCode: AchSecCode;
}

export type AchDebitResult =
  | { outcome: 'SUBMITTED'; gatewayTransactionId: string }
  | { outcome: 'DECLINED'; declineCode: DeclineCode }
  | { outcome: 'UNKNOWN' };

export type GatewayOperation = 'authorizeAndCapture' | 'refund' | 'void' | 'achDebit';

/** What {@link PaymentGateway.lookup} answers; `result` is never UNKNOWN when FOUND. */
export type GatewayLookup =
  | { status: 'FOUND'; operation: 'authorizeAndCapture'; result: ChargeResult }
  | { status: 'FOUND'; operation: 'refund'; result: RefundResult }
  | { status: 'FOUND'; operation: 'void'; result: VoidResult }
  | { status: 'FOUND'; operation: 'achDebit'; result: AchDebitResult }
  | { status: 'NOT_FOUND' }
  | { status: 'UNKNOWN' };

/**
 * One reference sent twice with a different operation or different parameters. The platform
 * already refuses a reused Idempotency-Key with a different body (422 `idempotency_key_reused`);
 * reaching the gateway with one is a bug, and nothing is sent.
 */
export class GatewayReferenceReused extends DomainError {
  readonly code = 'idempotency_key_reused';

  constructor(
    readonly reference: string,
    readonly operation: GatewayOperation,
  ) {
    super(`gateway reference ${reference} was already used for a different ${operation} request`);
  }
}
