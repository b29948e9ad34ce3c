/**
 * Stored fee events of a merchant, on `merchant-{id}` next to the lifecycle events. Stored types
 * are never renamed or reshaped; add new ones instead. Each event carries the whole resource it
 * sets (a PUT replaces it), amounts as minor-unit integer strings (`"30"` is $0.30) with their
 * `currency`, rates as integer basis points, times as ISO-8601 strings.
 */

/** Only USD is priced on the platform today. */
export type FeeCurrency = 'USD';

export const PRICING_MODELS = ['INTERCHANGE_PLUS', 'FLAT_RATE', 'TIERED'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** Payment methods a fee program can cover. */
export const FEE_PAYMENT_METHODS = ['card', 'ach'] as const;
export type FeePaymentMethod = (typeof FEE_PAYMENT_METHODS)[number];

/**
 * The channel a payment arrives through. Terminal payments are CARD_PRESENT; hosted pages,
 * the virtual terminal, mail/telephone orders and API sales are CARD_NOT_PRESENT (ACH is always
 * CARD_NOT_PRESENT).
 */
export const PAYMENT_CHANNELS = ['CARD_PRESENT', 'CARD_NOT_PRESENT'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

export const CARD_TYPES = ['credit', 'debit', 'prepaid'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const CONVENIENCE_FEE_AMOUNT_TYPES = ['FIXED', 'PERCENT'] as const;
export type ConvenienceFeeAmountType = (typeof CONVENIENCE_FEE_AMOUNT_TYPES)[number];

interface Ids {
  merchantId: string;
  partnerId: string;
}

/** The merchant's pricing with the platform (what the platform charges the merchant). */
export interface FeeProfileTerms {
  pricingModel: PricingModel;
  currency: FeeCurrency;
  /** FLAT_RATE: the all-in rate; TIERED: the qualified rate; INTERCHANGE_PLUS: the markup. */
  cardRateBps: number;
  cardFixedFeeMinor: string;
  /** TIERED only (null otherwise). */
  tieredRates: { midQualifiedBps: number; nonQualifiedBps: number } | null;
  /** The merchant's all-in card cost of acceptance, when stated; caps the surcharge. */
  costOfAcceptanceBps: number | null;
  achRateBps: number;
  achFixedFeeMinor: string;
  /** Per-transaction ceiling of the ACH fee (rate + fixed); null: uncapped. */
  achFeeCapMinor: string | null;
  monthlyFeeMinor: string;
  /** `YYYY-MM-DD`: the date this pricing applies from. */
  effectiveDate: string;
}

export interface MerchantFeeProfileSet {
  type: 'MerchantFeeProfileSet';
  data: Ids & FeeProfileTerms & { setAt: string };
}

/** A convenience-fee program; a disabled one may carry no terms (all null, empty lists). */
export interface ConvenienceFeeTerms {
  enabled: boolean;
  amountType: ConvenienceFeeAmountType | null;
  currency: FeeCurrency;
  /** FIXED only. */
  fixedAmountMinor: string | null;
  /** PERCENT only (ACH-only programs). */
  percentBps: number | null;
  /** PERCENT only: floor and ceiling of the computed fee. */
  minAmountMinor: string | null;
  maxAmountMinor: string | null;
  appliesTo: FeePaymentMethod[];
  /** The alternative channels the fee is charged on (fixed by eligibility when enabled). */
  channels: PaymentChannel[];
}

export interface MerchantConvenienceFeeSet {
  type: 'MerchantConvenienceFeeSet';
  data: Ids & ConvenienceFeeTerms & { setAt: string };
}

/** A surcharge program: credit cards only, ever. */
export interface SurchargeTerms {
  enabled: boolean;
  /** Null only when disabled without terms. */
  percentBps: number | null;
  cardTypes: ['credit'];
}

export interface MerchantSurchargeSet {
  type: 'MerchantSurchargeSet';
  data: Ids & SurchargeTerms & { setAt: string };
}

export type FeesEvent = MerchantFeeProfileSet | MerchantConvenienceFeeSet | MerchantSurchargeSet;

export const FEES_EVENT_TYPES: readonly FeesEvent['type'][] = [
  'MerchantFeeProfileSet',
  'MerchantConvenienceFeeSet',
  'MerchantSurchargeSet',
];

/** For folding a merchant stream that also holds the lifecycle and other configuration events. */
export function isFeesEvent(event: { type: string }): event is FeesEvent {
  return (FEES_EVENT_TYPES as readonly string[]).includes(event.type);
}
