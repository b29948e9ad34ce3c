import type { FeeProfileTerms } from '../../../merchants/src/domain';
import { expectedBatchFeesMinor, feeScheduleOf, memberFeeMinor } from './settlement-fees';

const profile = (fields: Partial<FeeProfileTerms> = {}): FeeProfileTerms => ({
  pricingModel: 'FLAT_RATE',
  currency: 'USD',
  cardRateBps: 290,
  cardFixedFeeMinor: '30',
  tieredRates: null,
  costOfAcceptanceBps: null,
  achRateBps: 80,
  achFixedFeeMinor: '25',
  achFeeCapMinor: '500',
  monthlyFeeMinor: '0',
  effectiveDate: '2026-01-01',
  ...fields,
});

describe('the fees a batch should carry (the merchant’s fee profile)', () => {
  const schedule = feeScheduleOf(profile())!;

  it('a card charge: rate of the gross, half-up to the cent, plus the fixed fee', () => {
    // 2.90% of $25.75 = 74.675 cents → 75, + 30.
    expect(memberFeeMinor(schedule, { rail: 'CARD', type: 'SALE', amountMinor: 2575n }, 'USD')).toBe(105n);
  });

  it('an ACH debit: rate plus fixed fee, capped', () => {
    expect(memberFeeMinor(schedule, { rail: 'ACH', type: 'ACH_DEBIT', amountMinor: 5000n }, 'USD')).toBe(65n);
    expect(
      memberFeeMinor(schedule, { rail: 'ACH', type: 'ACH_DEBIT', amountMinor: 10_000_000n }, 'USD'),
    ).toBe(500n);
  });

  it('money going back carries no fee', () => {
    expect(
      memberFeeMinor(schedule, { rail: 'CARD', type: 'PARTIAL_REFUND', amountMinor: -1000n }, 'USD'),
    ).toBe(0n);
    expect(memberFeeMinor(schedule, { rail: 'ACH', type: 'ACH_REVERSAL', amountMinor: -1000n }, 'USD')).toBe(
      0n,
    );
  });

  it('sums the members; a merchant without a profile owes nothing', () => {
    const members = [
      { rail: 'CARD' as const, type: 'SALE' as const, amountMinor: 2575n },
      { rail: 'ACH' as const, type: 'ACH_DEBIT' as const, amountMinor: 5000n },
      { rail: 'CARD' as const, type: 'REFUND' as const, amountMinor: -500n },
    ];
    expect(expectedBatchFeesMinor(schedule, members, 'USD')).toBe(170n);
    expect(expectedBatchFeesMinor(feeScheduleOf(null), members, 'USD')).toBe(0n);
  });

  it('interchange-plus uses the stated all-in cost of acceptance, tiered the qualified rate', () => {
    expect(
      feeScheduleOf(profile({ pricingModel: 'INTERCHANGE_PLUS', cardRateBps: 40, costOfAcceptanceBps: 260 }))!
        .cardRateBps,
    ).toBe(260);
    expect(feeScheduleOf(profile({ pricingModel: 'INTERCHANGE_PLUS', cardRateBps: 40 }))!.cardRateBps).toBe(
      40,
    );
    expect(
      feeScheduleOf(
        profile({
          pricingModel: 'TIERED',
          cardRateBps: 190,
          tieredRates: { midQualifiedBps: 250, nonQualifiedBps: 350 },
        }),
      )!.cardRateBps,
    ).toBe(190);
  });
});
