import type { FeeProfileTerms } from '../../../merchants/src/domain';
import { percentOfMinor, sumMinor } from '../../../platform/src/money/money';
import type { Rail, TransactionType } from '../../../transactions/src/domain';
import { SETTLEMENT_DIRECTION } from './settlement-rules';

/**
 * The fees a batch should carry, from the merchant's fee profile (its pricing with the platform,
 * docs/fees.md): what a processor report's `fees` is verified against (FEE_MISMATCH). Exact
 * integer arithmetic on minor units (dinero.js), rounded half-up per member.
 *
 * 1. A charge (SALE, ACH_DEBIT) costs the rate of its gross amount (base + surcharge +
 *    convenience fee) plus the fixed fee of its rail; ACH is capped at `ach_fee_cap` when set.
 * 2. Money going back (refunds, ACH reversals) carries no fee, and the charge's fee is not
 *    returned: the processing happened.
 * 3. The card rate: FLAT_RATE its all-in `card_rate_bps`; TIERED the qualified rate
 *    (`card_rate_bps`: the platform does not learn a card's qualification, so a mid- or
 *    non-qualified downgrade shows as a FEE_MISMATCH for an operator to accept); INTERCHANGE_PLUS
 *    the merchant's stated all-in `cost_of_acceptance_bps`, or the markup alone when it stated none.
 * 4. A merchant without a fee profile owes no fees: the platform charges nothing it has not agreed.
 */
export interface FeeSchedule {
  cardRateBps: number;
  cardFixedFeeMinor: bigint;
  achRateBps: number;
  achFixedFeeMinor: bigint;
  achFeeCapMinor: bigint | null;
}

export function feeScheduleOf(profile: FeeProfileTerms | null): FeeSchedule | null {
  if (!profile) return null;
  const cardRateBps =
    profile.pricingModel === 'INTERCHANGE_PLUS'
      ? (profile.costOfAcceptanceBps ?? profile.cardRateBps)
      : profile.cardRateBps;
  return {
    cardRateBps,
    cardFixedFeeMinor: BigInt(profile.cardFixedFeeMinor),
    achRateBps: profile.achRateBps,
    achFixedFeeMinor: BigInt(profile.achFixedFeeMinor),
    achFeeCapMinor: profile.achFeeCapMinor === null ? null : BigInt(profile.achFeeCapMinor),
  };
}

export interface FeeSubject {
  rail: Rail;
  type: TransactionType;
  /** Signed as money to the merchant (a batch member's amount). */
  amountMinor: bigint;
}

/** Rules 1 and 2: one member's fee. */
export function memberFeeMinor(schedule: FeeSchedule, member: FeeSubject, currency: string): bigint {
  if (SETTLEMENT_DIRECTION[member.type] !== 1 || member.amountMinor <= 0n) return 0n;
  if (member.rail === 'CARD') {
    return sumMinor(
      [percentOfMinor(member.amountMinor, schedule.cardRateBps, currency), schedule.cardFixedFeeMinor],
      currency,
    );
  }
  const fee = sumMinor(
    [percentOfMinor(member.amountMinor, schedule.achRateBps, currency), schedule.achFixedFeeMinor],
    currency,
  );
  return schedule.achFeeCapMinor !== null && fee > schedule.achFeeCapMinor ? schedule.achFeeCapMinor : fee;
}

/** The batch's expected fees: the sum of its members' (rule 4: none without a schedule). */
export function expectedBatchFeesMinor(
  schedule: FeeSchedule | null,
  members: readonly FeeSubject[],
  currency: string,
): bigint {
  if (!schedule) return 0n;
  return sumMinor(
    members.map((m) => memberFeeMinor(schedule, m, currency)),
    currency,
  );
}
