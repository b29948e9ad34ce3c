import { z } from 'zod';
import { DateOnly, Money, Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
/**
 * A merchant's fees: its pricing with the platform (fee profile) and the fee programs it passes
 * on to payers (convenience fee, surcharge). Events live on `merchant-{id}`. This block is the
 * HTTP contract of the five operations the spec lists without bodies (copy it to docs/fees.md).
 *
 * Conventions: JSON snake_case; amounts are decimal strings in USD ("0.30"; a JSON number is a
 * 400), rates are JSON integers in basis points (250 = 2.50%; a string is a 400); unknown fields
 * are 400 `validation_error` with `errors: [{field, message}]` naming each field by its path
 * (`tiered_rates.mid_qualified_bps`, `applies_to[1]`). Every PUT takes `Idempotency-Key` and
 * replaces the whole sub-resource; a PUT that changes nothing records nothing and answers the
 * current state. A CLOSED merchant: every PUT is 409 `invalid_state_transition`. Another
 * partner's merchant: 404 `merchant_not_found`.
 *
 * GET /merchants/{merchantId}/fee-eligibility → 200
 *   { "merchant_id": uuid,
 *     "surcharge":       { "eligible": bool, "reasons": [code], "max_percent_bps": int | null },
 *     "convenience_fee": { "eligible": bool, "reasons": [code], "channels": ["CARD_NOT_PRESENT"] },
 *     "fee_profile_required": bool }
 *   Reason codes and rules: fee-eligibility.ts (merchant_closed, surcharging_not_enabled,
 *   us_state_unknown, us_state_prohibits_surcharge, mcc_not_eligible, fee_profile_required,
 *   convenience_fees_not_enabled, no_alternative_payment_channel).
 *
 * PUT /merchants/{merchantId}/fee-profile → 201 the first time, 200 after; body = FeeProfile
 *   { "pricing_model": "INTERCHANGE_PLUS" | "FLAT_RATE" | "TIERED",            required
 *     "currency": "USD",                                                         optional, USD only
 *     "card_rate_bps": 0..1000,        required; FLAT_RATE all-in, TIERED qualified, IC+ markup
 *     "card_fixed_fee": "0.00".."10.00",                                         required
 *     "tiered_rates": { "mid_qualified_bps": int, "non_qualified_bps": int },    TIERED only, required
 *                     (0..1000, card_rate_bps <= mid <= non)
 *     "cost_of_acceptance_bps": 0..1000 | null,   optional: the all-in card cost (interchange,
 *                     network fees, markup) that caps a surcharge; default card_rate_bps (send it
 *                     for INTERCHANGE_PLUS, where card_rate_bps is only the markup)
 *     "ach_rate_bps": 0..1000,                                                   required
 *     "ach_fixed_fee": "0.00".."10.00",                                          required
 *     "ach_fee_cap": "0.01".."1000.00" | null,   optional: per-payment ceiling of the ACH fee, >= ach_fixed_fee
 *     "monthly_fee": "0.00".."1000.00",                                          required
 *     "effective_date": "YYYY-MM-DD" }                                           required, a real date
 *   Response: the same fields (tiered_rates null unless TIERED, cost_of_acceptance_bps and
 *   ach_fee_cap null when not sent) plus "merchant_id", "updated_at" (ts), "version" (int).
 *   422 `surcharge_exceeds_cap` when an enabled surcharge would be above the new profile's cap.
 *
 * GET /merchants/{merchantId}/fee-settings → 200 FeeSettings; also the answer of both PUTs below
 *   { "merchant_id": uuid,
 *     "fee_profile": FeeProfile without merchant_id/version | null,
 *     "convenience_fee": { "enabled", "amount_type": "FIXED"|"PERCENT"|null, "currency": "USD",
 *                          "fixed_amount": money|null, "percent_bps": int|null,
 *                          "min_amount": money|null, "max_amount": money|null,
 *                          "applies_to": ["card","ach"], "channels": ["CARD_NOT_PRESENT"],
 *                          "updated_at": ts } | null,
 *     "surcharge": { "enabled", "percent_bps": int|null, "card_types": ["credit"], "updated_at": ts } | null,
 *     "version": int }                                   (null: never set)
 *
 * PUT /merchants/{merchantId}/fee-settings/convenience-fee → 200 FeeSettings
 *   { "enabled": bool,                                                           required
 *     "amount_type": "FIXED" | "PERCENT",                                        required when enabled
 *     "fixed_amount": "0.01".."100.00",                                          FIXED only, required
 *     "percent_bps": 1..1000,                                                    PERCENT only, required
 *     "min_amount", "max_amount": "0.01".."100.00", max >= min                   PERCENT only, optional
 *     "applies_to": ["card" | "ach", ...] (a non-empty set),                     required when enabled
 *     "currency": "USD" }                                                        optional
 *   `{"enabled": false}` alone disables and clears the terms; a disabled body may also carry full
 *   terms (checked as if enabled). 422 `convenience_fee_must_be_flat`: PERCENT with "card" in
 *   applies_to (Visa: a card convenience fee is a flat amount whatever the payment's amount;
 *   a percentage is allowed for ACH-only programs). Enabling: 422 `convenience_fee_not_eligible`
 *   (errors name the reasons). The fee is charged only on the channels eligibility gives
 *   (recorded as "channels"); disabling is always allowed.
 *
 * PUT /merchants/{merchantId}/fee-settings/surcharge → 200 FeeSettings
 *   { "enabled": bool,                                                           required
 *     "percent_bps": 1..10000,                                                   required when enabled
 *     "card_types": ["credit"] }                                                 optional, the default
 *   422 `surcharge_not_allowed_on_debit`: card_types names debit or prepaid (never surcharged);
 *   enabling: 422 `surcharge_not_eligible` (reasons in errors), then 422 `surcharge_exceeds_cap`
 *   when percent_bps > the eligibility's max_percent_bps (errors: percent_bps "must be at most N").
 *
 * Pricing (fee-pricing.ts) turns these settings into `surcharge_amount` and
 * `convenience_fee_amount` of cardholder-initiated payments.
 */
import { formatAmount } from '../../../../platform/src/money/amount';
import {
  CONVENIENCE_FEE_AMOUNT_TYPES,
  FEE_PAYMENT_METHODS,
  PAYMENT_CHANNELS,
  PRICING_MODELS,
  isFeesEvent,
  type ConvenienceFeeTerms,
  type FeeProfileTerms,
  type SurchargeTerms,
} from './fee-events';

export interface FeeProfile extends FeeProfileTerms {
  updatedAt: string;
}

export interface ConvenienceFeeProgram extends ConvenienceFeeTerms {
  updatedAt: string;
}

export interface SurchargeProgram extends SurchargeTerms {
  updatedAt: string;
}

/** The fee slice of the merchant: plain JSON (amounts as minor-unit strings), null until set. */
export interface FeesState {
  feeProfile: FeeProfile | null;
  convenienceFee: ConvenienceFeeProgram | null;
  surcharge: SurchargeProgram | null;
}

export const initialFeesState = (): FeesState => ({
  feeProfile: null,
  convenienceFee: null,
  surcharge: null,
});

/** Folds one event of the merchant stream. Events are facts: never throws; other types are ignored. */
export function evolveFees(state: FeesState, event: { type: string }): FeesState {
  if (!isFeesEvent(event)) return state;
  switch (event.type) {
    case 'MerchantFeeProfileSet': {
      const { merchantId: _m, partnerId: _p, setAt, tieredRates, ...terms } = event.data;
      return {
        ...state,
        feeProfile: { ...terms, tieredRates: tieredRates && { ...tieredRates }, updatedAt: setAt },
      };
    }
    case 'MerchantConvenienceFeeSet': {
      const { merchantId: _m, partnerId: _p, setAt, appliesTo, channels, ...terms } = event.data;
      return {
        ...state,
        convenienceFee: {
          ...terms,
          appliesTo: [...(appliesTo ?? [])],
          channels: [...(channels ?? [])],
          updatedAt: setAt,
        },
      };
    }
    case 'MerchantSurchargeSet': {
      const { merchantId: _m, partnerId: _p, setAt, ...terms } = event.data;
      return { ...state, surcharge: { ...terms, cardTypes: ['credit'], updatedAt: setAt } };
    }
    default:
      return state;
  }
}

export const feesEvolver = { initialState: initialFeesState, evolve: evolveFees };

// ---------------------------------------------------------------------------------------------
// Read forms (snake_case, as on the wire)
// ---------------------------------------------------------------------------------------------

const FeeProfileBodyShape = {
  pricing_model: z.enum(PRICING_MODELS),
  currency: z.literal('USD'),
  card_rate_bps: z.int(),
  card_fixed_fee: Money,
  tiered_rates: z.strictObject({ mid_qualified_bps: z.int(), non_qualified_bps: z.int() }).nullable(),
  cost_of_acceptance_bps: z.int().nullable(),
  ach_rate_bps: z.int(),
  ach_fixed_fee: Money,
  ach_fee_cap: Money.nullable(),
  monthly_fee: Money,
  effective_date: DateOnly,
  updated_at: Timestamp,
};
const FeeProfileBodySchema = z.strictObject(FeeProfileBodyShape).meta({ id: 'FeeProfile' });
export type FeeProfileBody = z.infer<typeof FeeProfileBodySchema>;

/** The answer of `PUT /merchants/{merchantId}/fee-profile`. */
export const FeeProfileResourceSchema = z
  .strictObject({ merchant_id: Uuid, ...FeeProfileBodyShape, version: z.int() })
  .meta({ id: 'MerchantFeeProfile' });
export type FeeProfileResource = z.infer<typeof FeeProfileResourceSchema>;

const ConvenienceFeeResourceSchema = z.strictObject({
  enabled: z.boolean(),
  amount_type: z.enum(CONVENIENCE_FEE_AMOUNT_TYPES).nullable(),
  currency: z.literal('USD'),
  fixed_amount: Money.nullable(),
  percent_bps: z.int().nullable(),
  min_amount: Money.nullable(),
  max_amount: Money.nullable(),
  applies_to: z.array(z.enum(FEE_PAYMENT_METHODS)),
  channels: z.array(z.enum(PAYMENT_CHANNELS)),
  updated_at: Timestamp,
});
export type ConvenienceFeeResource = z.infer<typeof ConvenienceFeeResourceSchema>;

const SurchargeResourceSchema = z.strictObject({
  enabled: z.boolean(),
  percent_bps: z.int().nullable(),
  card_types: z.tuple([z.literal('credit')]),
  updated_at: Timestamp,
});
export type SurchargeResource = z.infer<typeof SurchargeResourceSchema>;

/** `GET /merchants/{merchantId}/fee-settings`, and the answer of both fee-settings PUTs. */
export const FeeSettingsSchema = z
  .strictObject({
    merchant_id: Uuid,
    fee_profile: FeeProfileBodySchema.nullable(),
    convenience_fee: ConvenienceFeeResourceSchema.nullable(),
    surcharge: SurchargeResourceSchema.nullable(),
    version: z.int().meta({ description: 'The merchant’s `version` (events applied to its stream).' }),
  })
  .meta({ id: 'FeeSettings' });
export type FeeSettings = z.infer<typeof FeeSettingsSchema>;

const money = (minor: string): string => formatAmount(BigInt(minor), 'USD');
const maybeMoney = (minor: string | null): string | null => (minor === null ? null : money(minor));

function feeProfileBody(profile: FeeProfile): FeeProfileBody {
  return {
    pricing_model: profile.pricingModel,
    currency: profile.currency,
    card_rate_bps: profile.cardRateBps,
    card_fixed_fee: money(profile.cardFixedFeeMinor),
    tiered_rates: profile.tieredRates && {
      mid_qualified_bps: profile.tieredRates.midQualifiedBps,
      non_qualified_bps: profile.tieredRates.nonQualifiedBps,
    },
    cost_of_acceptance_bps: profile.costOfAcceptanceBps,
    ach_rate_bps: profile.achRateBps,
    ach_fixed_fee: money(profile.achFixedFeeMinor),
    ach_fee_cap: maybeMoney(profile.achFeeCapMinor),
    monthly_fee: money(profile.monthlyFeeMinor),
    effective_date: profile.effectiveDate,
    updated_at: profile.updatedAt,
  };
}

export function toFeeProfile(
  merchant: { id: string; version: number },
  profile: FeeProfile,
): FeeProfileResource {
  return { merchant_id: merchant.id, ...feeProfileBody(profile), version: merchant.version };
}

export function toFeeSettings(merchant: { id: string; version: number }, state: FeesState): FeeSettings {
  const fee = state.convenienceFee;
  const surcharge = state.surcharge;
  return {
    merchant_id: merchant.id,
    fee_profile: state.feeProfile && feeProfileBody(state.feeProfile),
    convenience_fee: fee && {
      enabled: fee.enabled,
      amount_type: fee.amountType,
      currency: fee.currency,
      fixed_amount: maybeMoney(fee.fixedAmountMinor),
      percent_bps: fee.percentBps,
      min_amount: maybeMoney(fee.minAmountMinor),
      max_amount: maybeMoney(fee.maxAmountMinor),
      applies_to: [...fee.appliesTo],
      channels: [...fee.channels],
      updated_at: fee.updatedAt,
    },
    surcharge: surcharge && {
      enabled: surcharge.enabled,
      percent_bps: surcharge.percentBps,
      card_types: ['credit'],
      updated_at: surcharge.updatedAt,
    },
    version: merchant.version,
  };
}
