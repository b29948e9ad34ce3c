import { z } from 'zod';
import { Uuid } from '../../../../platform/src/openapi/wire-schemas';
import type { MerchantChannel, MerchantState } from '../merchant-states';
import { PAYMENT_CHANNELS, type FeeProfileTerms, type PaymentChannel } from './fee-events';

/**
 * Fee eligibility (`GET /merchants/{merchantId}/fee-eligibility`): which fee programs a merchant
 * may enable, and why not. Pure; the caller supplies the merchant, the partner's enabled feature
 * flags, the merchant's US state (its business location from the application) and its fee profile.
 * The rules are data below; the reasons are stable snake_case codes.
 *
 * Surcharge (a percentage added to credit-card payments to recover the cost of acceptance):
 *  - the partner flag `surcharging` must be enabled (operator-managed: the networks require the
 *    merchant to be registered with them 30 days before it starts surcharging);
 *  - the merchant's US state must be known (fail closed: the rule is a legal one) and must not
 *    prohibit surcharging: Connecticut, Maine, Massachusetts and Puerto Rico do (table below);
 *    Colorado and Oklahoma allow it up to 2%;
 *  - government MCCs (9xxx) are excluded: government bodies recover card costs through the
 *    networks' government service-fee programs, which this platform does not run;
 *  - a fee profile must be on record, because the surcharge may not exceed the merchant's cost of
 *    acceptance, which comes from it;
 *  - the cap (`max_percent_bps`) is the lowest of 300 bps (the Visa maximum since 2023, the lower
 *    of the Visa 3% and Mastercard 4% maxima, so one program fits every credit brand), the
 *    merchant's cost of acceptance (fee profile `cost_of_acceptance_bps`, else its
 *    `card_rate_bps`; fixed per-item fees are not counted) and the state's cap.
 *  - never on debit or prepaid cards, ACH, or merchant-initiated payments (pricing, not eligibility).
 * Convenience fee (a flat fee for paying through a channel outside the merchant's usual one):
 *  - the partner flag `convenience_fees` must be enabled;
 *  - the merchant needs an alternative channel: a CARD_PRESENT merchant may charge it on
 *    CARD_NOT_PRESENT payments (online, virtual terminal, phone); a CNP_ONLY merchant's only
 *    channel, and both of an OMNICHANNEL merchant's channels, are its customary ones, so neither
 *    has an alternative channel (network rule: a convenience fee applies only to a bona fide
 *    alternative payment channel).
 * Both: a CLOSED merchant is eligible for nothing (`merchant_closed`). Other states (DRAFT to
 * LIVE, SUSPENDED) may set their programs up ahead of processing.
 */

/** The highest surcharge any credit brand allows, in basis points (Visa: 3% since April 2023). */
export const SURCHARGE_NETWORK_CAP_BPS = 300;

export interface UsStateSurchargeRule {
  code: string;
  name: string;
  /** 0: prohibited. */
  capBps: number;
  citation: string;
}

/** US jurisdictions that prohibit or cap credit-card surcharges, as of 2026. */
export const US_STATE_SURCHARGE_RULES: readonly UsStateSurchargeRule[] = [
  { code: 'CT', name: 'Connecticut', capBps: 0, citation: 'Conn. Gen. Stat. § 42-133ff(a)' },
  {
    code: 'ME',
    name: 'Maine',
    capBps: 0,
    // § 8-509(2) lets governmental entities surcharge; government MCCs are not surcharged here.
    citation: 'Me. Rev. Stat. tit. 9-A, § 8-509(1)',
  },
  { code: 'MA', name: 'Massachusetts', capBps: 0, citation: 'Mass. Gen. Laws ch. 140D, § 28A(a)(2)' },
  {
    code: 'PR',
    name: 'Puerto Rico',
    capBps: 0,
    citation: 'Puerto Rico law; listed as a no-surcharge jurisdiction in the networks’ U.S. surcharge rules',
  },
  // Read conservatively: 2%, and the cost-of-acceptance cap applies on top.
  { code: 'CO', name: 'Colorado', capBps: 200, citation: 'Colo. Rev. Stat. § 5-2-212' },
  {
    code: 'OK',
    name: 'Oklahoma',
    capBps: 200,
    citation: 'Okla. SB 677 (2025), in force 2025-11-01: the lesser of 2% and the processing cost',
  },
];

/** Government services, fines, taxes, postal and intra-government purchases. */
export const isSurchargeExcludedMcc = (mcc: string): boolean => /^9[0-9]{3}$/.test(mcc);

/** Where a merchant whose customary channel is `channel` may charge a convenience fee. */
export const CONVENIENCE_FEE_CHANNELS: Readonly<Record<MerchantChannel, readonly PaymentChannel[]>> = {
  CARD_PRESENT: ['CARD_NOT_PRESENT'],
  CNP_ONLY: [],
  OMNICHANNEL: [],
};

export const FEE_INELIGIBILITY_REASONS = {
  merchant_closed: 'the merchant is CLOSED',
  surcharging_not_enabled: 'the partner feature flag surcharging is not enabled',
  us_state_unknown: 'the merchant’s US state is not known',
  us_state_prohibits_surcharge: 'the merchant’s US state prohibits credit-card surcharges',
  mcc_not_eligible: 'government merchant category codes (9xxx) are not surcharged',
  fee_profile_required: 'a fee profile (the cost of acceptance) must be set first',
  convenience_fees_not_enabled: 'the partner feature flag convenience_fees is not enabled',
  no_alternative_payment_channel: 'the merchant has no payment channel outside its customary one',
} as const;
export type FeeIneligibilityReason = keyof typeof FEE_INELIGIBILITY_REASONS;

export interface FeeEligibilityInput {
  merchantId: string;
  merchantState: MerchantState;
  merchantCategoryCode: string;
  channel: MerchantChannel;
  /** The partner's enabled feature flags. */
  enabledFeatures: readonly string[];
  /** Two-letter USPS code of the merchant's business location; null or absent: unknown. */
  usState?: string | null;
  feeProfile?: Pick<FeeProfileTerms, 'cardRateBps' | 'costOfAcceptanceBps'> | null;
}

/** The response body of `GET /merchants/{merchantId}/fee-eligibility` (snake_case, as on the wire). */
export const FeeEligibilitySchema = z
  .strictObject({
    merchant_id: Uuid,
    surcharge: z.strictObject({
      eligible: z.boolean(),
      reasons: z.array(z.enum(Object.keys(FEE_INELIGIBILITY_REASONS) as [FeeIneligibilityReason])),
      max_percent_bps: z
        .int()
        .nullable()
        .meta({ description: 'The highest surcharge the merchant may set, when eligible.' }),
    }),
    convenience_fee: z.strictObject({
      eligible: z.boolean(),
      reasons: z.array(z.enum(Object.keys(FEE_INELIGIBILITY_REASONS) as [FeeIneligibilityReason])),
      channels: z.array(z.enum(PAYMENT_CHANNELS)),
    }),
    fee_profile_required: z
      .boolean()
      .meta({ description: 'A fee profile must be set before a surcharge program can be enabled.' }),
  })
  .meta({ id: 'FeeEligibility' });
export type FeeEligibility = z.infer<typeof FeeEligibilitySchema>;

export function usStateSurchargeRule(usState: string | null | undefined): UsStateSurchargeRule | null {
  const code = usState?.trim().toUpperCase();
  return US_STATE_SURCHARGE_RULES.find((rule) => rule.code === code) ?? null;
}

/** The cost of acceptance a surcharge may recover: the stated one, else the platform's card rate. */
export function costOfAcceptanceBps(
  profile: Pick<FeeProfileTerms, 'cardRateBps' | 'costOfAcceptanceBps'>,
): number {
  return profile.costOfAcceptanceBps ?? profile.cardRateBps;
}

/** The surcharge cap from the network maximum and the fee profile (the state's cap comes on top). */
export function profileSurchargeCapBps(
  profile: Pick<FeeProfileTerms, 'cardRateBps' | 'costOfAcceptanceBps'>,
): number {
  return Math.min(SURCHARGE_NETWORK_CAP_BPS, costOfAcceptanceBps(profile));
}

export function feeEligibility(input: FeeEligibilityInput): FeeEligibility {
  const closed = input.merchantState === 'CLOSED';
  const profile = input.feeProfile ?? null;
  const knownState = input.usState != null && input.usState.trim() !== '';
  const stateRule = usStateSurchargeRule(input.usState);

  const surchargeReasons: FeeIneligibilityReason[] = [];
  if (closed) surchargeReasons.push('merchant_closed');
  if (!input.enabledFeatures.includes('surcharging')) surchargeReasons.push('surcharging_not_enabled');
  if (!knownState) surchargeReasons.push('us_state_unknown');
  if (stateRule?.capBps === 0) surchargeReasons.push('us_state_prohibits_surcharge');
  if (isSurchargeExcludedMcc(input.merchantCategoryCode)) surchargeReasons.push('mcc_not_eligible');
  if (!profile) surchargeReasons.push('fee_profile_required');
  const surchargeEligible = surchargeReasons.length === 0 && profile !== null;

  const channels = CONVENIENCE_FEE_CHANNELS[input.channel] ?? [];
  const convenienceReasons: FeeIneligibilityReason[] = [];
  if (closed) convenienceReasons.push('merchant_closed');
  if (!input.enabledFeatures.includes('convenience_fees'))
    convenienceReasons.push('convenience_fees_not_enabled');
  if (channels.length === 0) convenienceReasons.push('no_alternative_payment_channel');
  const convenienceEligible = convenienceReasons.length === 0;

  return {
    merchant_id: input.merchantId,
    surcharge: {
      eligible: surchargeEligible,
      reasons: surchargeReasons,
      max_percent_bps: surchargeEligible
        ? Math.min(profileSurchargeCapBps(profile), stateRule?.capBps ?? SURCHARGE_NETWORK_CAP_BPS)
        : null,
    },
    convenience_fee: {
      eligible: convenienceEligible,
      reasons: convenienceReasons,
      channels: convenienceEligible ? [...channels] : [],
    },
    fee_profile_required: !closed && !profile,
  };
}
