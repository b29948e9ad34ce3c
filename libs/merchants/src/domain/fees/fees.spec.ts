import { FEES_EVENT_TYPES, isFeesEvent, type FeesEvent } from './fee-events';
import {
  evolveFees,
  feesEvolver,
  initialFeesState,
  toFeeProfile,
  toFeeSettings,
  type FeesState,
} from './fees';

const ids = {
  merchantId: '5b0b6a43-8f0e-4f57-9c43-0c1ad8a7e0b1',
  partnerId: '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10',
};
const MERCHANT = { id: ids.merchantId, version: 12 };
const AT = '2026-10-01T09:00:00.000Z';

const profileSet: FeesEvent = {
  type: 'MerchantFeeProfileSet',
  data: {
    ...ids,
    pricingModel: 'TIERED',
    currency: 'USD',
    cardRateBps: 190,
    cardFixedFeeMinor: '5',
    tieredRates: { midQualifiedBps: 290, nonQualifiedBps: 350 },
    costOfAcceptanceBps: 260,
    achRateBps: 0,
    achFixedFeeMinor: '0',
    achFeeCapMinor: null,
    monthlyFeeMinor: '100000',
    effectiveDate: '2026-10-01',
    setAt: AT,
  },
};

const convenienceSet: FeesEvent = {
  type: 'MerchantConvenienceFeeSet',
  data: {
    ...ids,
    enabled: true,
    amountType: 'PERCENT',
    currency: 'USD',
    fixedAmountMinor: null,
    percentBps: 150,
    minAmountMinor: '100',
    maxAmountMinor: '1000',
    appliesTo: ['ach'],
    channels: ['CARD_NOT_PRESENT'],
    setAt: AT,
  },
};

const surchargeSet: FeesEvent = {
  type: 'MerchantSurchargeSet',
  data: { ...ids, enabled: true, percentBps: 250, cardTypes: ['credit'], setAt: AT },
};

const fold = (events: { type: string }[]): FeesState => events.reduce(evolveFees, initialFeesState());

describe('fees state', () => {
  it('starts with nothing set', () => {
    expect(initialFeesState()).toEqual({ feeProfile: null, convenienceFee: null, surcharge: null });
    expect(toFeeSettings(MERCHANT, initialFeesState())).toEqual({
      merchant_id: ids.merchantId,
      fee_profile: null,
      convenience_fee: null,
      surcharge: null,
      version: 12,
    });
  });

  it('folds each event into its part, the last one winning', () => {
    const later: FeesEvent = {
      type: 'MerchantSurchargeSet',
      data: {
        ...ids,
        enabled: false,
        percentBps: null,
        cardTypes: ['credit'],
        setAt: '2026-10-03T00:00:00.000Z',
      },
    };
    const state = fold([profileSet, convenienceSet, surchargeSet, later]);
    expect(state.feeProfile).toMatchObject({ cardRateBps: 190, updatedAt: AT });
    expect(state.convenienceFee).toMatchObject({ percentBps: 150, updatedAt: AT });
    expect(state.surcharge).toEqual({
      enabled: false,
      percentBps: null,
      cardTypes: ['credit'],
      updatedAt: '2026-10-03T00:00:00.000Z',
    });
  });

  it('ignores the other events of the merchant stream, and unknown ones, without throwing', () => {
    const state = fold([profileSet]);
    for (const event of [
      { type: 'MerchantSubmitted', data: { ...ids, submittedAt: AT } },
      { type: 'MerchantSaqTypeRecorded', data: {} },
      { type: 'SomethingFromTheFuture' },
    ]) {
      expect(evolveFees(state, event)).toBe(state);
    }
  });

  it('does not share arrays or objects with the events it folds', () => {
    const state = fold([profileSet, convenienceSet]);
    if (convenienceSet.type !== 'MerchantConvenienceFeeSet' || profileSet.type !== 'MerchantFeeProfileSet')
      throw new Error();
    expect(state.convenienceFee?.appliesTo).not.toBe(convenienceSet.data.appliesTo);
    expect(state.convenienceFee?.channels).not.toBe(convenienceSet.data.channels);
    expect(state.feeProfile?.tieredRates).not.toBe(profileSet.data.tieredRates);
  });

  it('never mutates the state it is given', () => {
    const before = fold([profileSet]);
    const copy = JSON.parse(JSON.stringify(before));
    evolveFees(before, surchargeSet);
    expect(before).toEqual(copy);
  });

  it('is plain JSON (the merchant snapshot holds it)', () => {
    const state = fold([profileSet, convenienceSet, surchargeSet]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('has an evolver for handleCommand', () => {
    expect(feesEvolver.initialState()).toEqual(initialFeesState());
    expect(feesEvolver.evolve(initialFeesState(), surchargeSet).surcharge?.percentBps).toBe(250);
  });
});

describe('read forms', () => {
  it('renders the fee settings with decimal-string amounts', () => {
    expect(toFeeSettings(MERCHANT, fold([profileSet, convenienceSet, surchargeSet]))).toEqual({
      merchant_id: ids.merchantId,
      fee_profile: {
        pricing_model: 'TIERED',
        currency: 'USD',
        card_rate_bps: 190,
        card_fixed_fee: '0.05',
        tiered_rates: { mid_qualified_bps: 290, non_qualified_bps: 350 },
        cost_of_acceptance_bps: 260,
        ach_rate_bps: 0,
        ach_fixed_fee: '0.00',
        ach_fee_cap: null,
        monthly_fee: '1000.00',
        effective_date: '2026-10-01',
        updated_at: AT,
      },
      convenience_fee: {
        enabled: true,
        amount_type: 'PERCENT',
        currency: 'USD',
        fixed_amount: null,
        percent_bps: 150,
        min_amount: '1.00',
        max_amount: '10.00',
        applies_to: ['ach'],
        channels: ['CARD_NOT_PRESENT'],
        updated_at: AT,
      },
      surcharge: { enabled: true, percent_bps: 250, card_types: ['credit'], updated_at: AT },
      version: 12,
    });
  });

  it('renders the fee profile resource', () => {
    const state = fold([profileSet]);
    if (!state.feeProfile) throw new Error('no profile');
    expect(toFeeProfile(MERCHANT, state.feeProfile)).toMatchObject({
      merchant_id: ids.merchantId,
      card_fixed_fee: '0.05',
      monthly_fee: '1000.00',
      version: 12,
    });
  });
});

describe('fee events', () => {
  it('lists every event type once', () => {
    const all: Record<FeesEvent['type'], true> = {
      MerchantFeeProfileSet: true,
      MerchantConvenienceFeeSet: true,
      MerchantSurchargeSet: true,
    };
    expect([...FEES_EVENT_TYPES].sort()).toEqual(Object.keys(all).sort());
  });

  it.each([
    ['MerchantFeeProfileSet', true],
    ['MerchantConvenienceFeeSet', true],
    ['MerchantSurchargeSet', true],
    ['MerchantSubmitted', false],
    ['FeatureFlagChanged', false],
    ['merchantSurchargeSet', false],
  ])('%s is a fees event: %p', (type, expected) => {
    expect(isFeesEvent({ type })).toBe(expected);
  });
});
