import { deciderSpec } from '../../../../../test/support/decider-spec';
import { InvalidStateTransition, statusForCode } from '../../../../platform/src/problem';
import { feeEligibility, type FeeEligibility, type FeeEligibilityInput } from './fee-eligibility';
import {
  ConvenienceFeeMustBeFlat,
  ConvenienceFeeNotEligible,
  FEES_PROBLEM_STATUS,
  FeeRequestInvalid,
  SurchargeExceedsCap,
  SurchargeNotAllowedOnDebit,
  SurchargeNotEligible,
} from './fee-errors';
import type { FeesEvent } from './fee-events';
import { evolveFees, initialFeesState, toFeeSettings, type FeesState } from './fees';
import { decideFees, type FeesCommand, type FeesContext } from './fees-decide';

const MERCHANT = '5b0b6a43-8f0e-4f57-9c43-0c1ad8a7e0b1';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-10-01T09:00:00.000Z');
const T1 = new Date('2026-10-02T09:00:00.000Z');
const ids = { merchantId: MERCHANT, partnerId: PARTNER };

const eligibility = (overrides: Partial<FeeEligibilityInput> = {}): FeeEligibility =>
  feeEligibility({
    merchantId: MERCHANT,
    merchantState: 'LIVE',
    merchantCategoryCode: '5812',
    channel: 'CARD_PRESENT',
    enabledFeatures: ['surcharging', 'convenience_fees'],
    usState: 'TX',
    feeProfile: { cardRateBps: 290, costOfAcceptanceBps: null },
    ...overrides,
  });

const context = (overrides: Partial<FeesContext> = {}): FeesContext => ({
  merchantState: 'LIVE',
  eligibility: eligibility(),
  ...overrides,
});

const given = (history: FeesEvent[], ctx: FeesContext = context()) =>
  deciderSpec<FeesCommand, FeesState, FeesEvent>({
    decide: (command, state) => decideFees(command, state, ctx),
    evolve: evolveFees,
    initialState: initialFeesState,
  })(history);

const PROFILE_BODY = {
  pricing_model: 'FLAT_RATE',
  card_rate_bps: 290,
  card_fixed_fee: '0.30',
  ach_rate_bps: 80,
  ach_fixed_fee: '0.25',
  ach_fee_cap: '5.00',
  monthly_fee: '9.95',
  effective_date: '2026-10-01',
};

const setProfile = (body: unknown = PROFILE_BODY, at = T1): FeesCommand => ({
  type: 'SetFeeProfile',
  ...ids,
  body,
  at,
});
const setConvenience = (body: unknown, at = T1): FeesCommand => ({
  type: 'SetConvenienceFee',
  ...ids,
  body,
  at,
});
const setSurcharge = (body: unknown, at = T1): FeesCommand => ({ type: 'SetSurcharge', ...ids, body, at });

const profileSet = (
  overrides: Partial<Extract<FeesEvent, { type: 'MerchantFeeProfileSet' }>['data']> = {},
  at = T0,
): FeesEvent => ({
  type: 'MerchantFeeProfileSet',
  data: {
    ...ids,
    pricingModel: 'FLAT_RATE',
    currency: 'USD',
    cardRateBps: 290,
    cardFixedFeeMinor: '30',
    tieredRates: null,
    costOfAcceptanceBps: null,
    achRateBps: 80,
    achFixedFeeMinor: '25',
    achFeeCapMinor: '500',
    monthlyFeeMinor: '995',
    effectiveDate: '2026-10-01',
    setAt: at.toISOString(),
    ...overrides,
  },
});

const surchargeSet = (enabled: boolean, percentBps: number | null, at = T0): FeesEvent => ({
  type: 'MerchantSurchargeSet',
  data: { ...ids, enabled, percentBps, cardTypes: ['credit'], setAt: at.toISOString() },
});

const FIXED_BODY = { enabled: true, amount_type: 'FIXED', fixed_amount: '2.50', applies_to: ['card', 'ach'] };
const convenienceSet = (at = T0): FeesEvent => ({
  type: 'MerchantConvenienceFeeSet',
  data: {
    ...ids,
    enabled: true,
    amountType: 'FIXED',
    currency: 'USD',
    fixedAmountMinor: '250',
    percentBps: null,
    minAmountMinor: null,
    maxAmountMinor: null,
    appliesTo: ['card', 'ach'],
    channels: ['CARD_NOT_PRESENT'],
    setAt: at.toISOString(),
  },
});

describe('a CLOSED merchant', () => {
  const closed = context({ merchantState: 'CLOSED', eligibility: eligibility({ merchantState: 'CLOSED' }) });

  it.each<[string, FeesCommand, string]>([
    ['its fee profile', setProfile(), 'set_fee_profile'],
    ['a convenience fee', setConvenience({ enabled: false }), 'set_convenience_fee'],
    ['a surcharge', setSurcharge({ enabled: false }), 'set_surcharge'],
    ['anything, even with a malformed body', setSurcharge('nonsense'), 'set_surcharge'],
  ])('cannot set %s (409)', (_case, command, action) => {
    given([profileSet()], closed)
      .when(command)
      .thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: 'CLOSED', action });
  });
});

describe('fee profile', () => {
  it('records the whole profile in minor units and USD', () =>
    given([])
      .when(setProfile())
      .then([profileSet({}, T1)]));

  it('records a change', () =>
    given([profileSet()])
      .when(setProfile({ ...PROFILE_BODY, card_rate_bps: 275, ach_fee_cap: null }))
      .then([profileSet({ cardRateBps: 275, achFeeCapMinor: null }, T1)]));

  it('records nothing when the same profile is put again, however the amounts are written', () =>
    given([profileSet()])
      .when(
        setProfile({
          effective_date: '2026-10-01',
          monthly_fee: '9.95',
          ach_fee_cap: '5.0',
          ach_fixed_fee: '0.25',
          ach_rate_bps: 80,
          card_fixed_fee: '0.3',
          card_rate_bps: 290,
          pricing_model: 'FLAT_RATE',
          currency: 'USD',
          cost_of_acceptance_bps: null,
        }),
      )
      .then([]));

  it('refuses a malformed body with every broken field (400)', () =>
    given([])
      .when(setProfile({ ...PROFILE_BODY, card_rate_bps: '290', card_fixed_fee: 0.3 }))
      .thenThrows(FeeRequestInvalid, {
        code: 'validation_error',
        errors: [
          expect.objectContaining({ field: 'card_rate_bps' }),
          expect.objectContaining({ field: 'card_fixed_fee' }),
        ],
      }));

  it('refuses a profile whose cost of acceptance is below an enabled surcharge (422)', () =>
    given([profileSet(), surchargeSet(true, 250)])
      .when(setProfile({ ...PROFILE_BODY, card_rate_bps: 200 }))
      .thenThrows(SurchargeExceedsCap, {
        code: 'surcharge_exceeds_cap',
        percentBps: 250,
        maxPercentBps: 200,
      }));

  it('accepts that profile when it states a cost of acceptance covering the surcharge', () =>
    given([profileSet(), surchargeSet(true, 250)])
      .when(setProfile({ ...PROFILE_BODY, card_rate_bps: 200, cost_of_acceptance_bps: 250 }))
      .then([profileSet({ cardRateBps: 200, costOfAcceptanceBps: 250 }, T1)]));

  it('accepts it when the surcharge is disabled', () =>
    given([profileSet(), surchargeSet(false, 250)])
      .when(setProfile({ ...PROFILE_BODY, card_rate_bps: 200 }))
      .then([profileSet({ cardRateBps: 200 }, T1)]));

  it('may be set before the merchant is live (DRAFT)', () =>
    given([], context({ merchantState: 'DRAFT' }))
      .when(setProfile())
      .then([profileSet({}, T1)]));
});

describe('convenience fee', () => {
  it('enables a flat fee on the channels eligibility gives', () =>
    given([])
      .when(setConvenience(FIXED_BODY))
      .then([convenienceSet(T1)]));

  it('records nothing when the same program is put again', () =>
    given([convenienceSet()])
      .when(setConvenience({ ...FIXED_BODY, applies_to: ['ach', 'card'] }))
      .then([]));

  it('enables a percentage fee for ACH only', () =>
    given([])
      .when(
        setConvenience({
          enabled: true,
          amount_type: 'PERCENT',
          percent_bps: 150,
          min_amount: '1.00',
          applies_to: ['ach'],
        }),
      )
      .then([
        {
          type: 'MerchantConvenienceFeeSet',
          data: {
            ...ids,
            enabled: true,
            amountType: 'PERCENT',
            currency: 'USD',
            fixedAmountMinor: null,
            percentBps: 150,
            minAmountMinor: '100',
            maxAmountMinor: null,
            appliesTo: ['ach'],
            channels: ['CARD_NOT_PRESENT'],
            setAt: T1.toISOString(),
          },
        },
      ]));

  it.each([[['card']], [['card', 'ach']]])('refuses a percentage fee on cards %j (422)', (appliesTo) =>
    given([])
      .when(
        setConvenience({ enabled: true, amount_type: 'PERCENT', percent_bps: 150, applies_to: appliesTo }),
      )
      .thenThrows(ConvenienceFeeMustBeFlat, {
        code: 'convenience_fee_must_be_flat',
        errors: [expect.objectContaining({ field: 'amount_type' })],
      }),
  );

  it.each<[string, Partial<FeeEligibilityInput>, string[]]>([
    ['a card-not-present-only merchant', { channel: 'CNP_ONLY' }, ['no_alternative_payment_channel']],
    ['a partner without the flag', { enabledFeatures: ['surcharging'] }, ['convenience_fees_not_enabled']],
  ])('refuses to enable it for %s (422)', (_case, overrides, reasons) =>
    given([], context({ eligibility: eligibility(overrides) }))
      .when(setConvenience(FIXED_BODY))
      .thenThrows(ConvenienceFeeNotEligible, { code: 'convenience_fee_not_eligible', reasons }),
  );

  it('disables it whatever the eligibility, clearing its channels', () =>
    given([convenienceSet()], context({ eligibility: eligibility({ channel: 'CNP_ONLY' }) }))
      .when(setConvenience({ enabled: false }))
      .then([
        {
          type: 'MerchantConvenienceFeeSet',
          data: {
            ...ids,
            enabled: false,
            amountType: null,
            currency: 'USD',
            fixedAmountMinor: null,
            percentBps: null,
            minAmountMinor: null,
            maxAmountMinor: null,
            appliesTo: [],
            channels: [],
            setAt: T1.toISOString(),
          },
        },
      ]));

  it('refuses a malformed body before looking at eligibility (400)', () =>
    given([], context({ eligibility: eligibility({ channel: 'CNP_ONLY' }) }))
      .when(setConvenience({ ...FIXED_BODY, fixed_amount: 2.5 }))
      .thenThrows(FeeRequestInvalid, { errors: [expect.objectContaining({ field: 'fixed_amount' })] }));
});

describe('surcharge', () => {
  const enabled = (percentBps: number, at = T1) => surchargeSet(true, percentBps, at);

  it('enables a surcharge within the cap', () =>
    given([profileSet()])
      .when(setSurcharge({ enabled: true, percent_bps: 250 }))
      .then([enabled(250)]));

  it('enables a surcharge at exactly the cap', () =>
    given([profileSet()])
      .when(setSurcharge({ enabled: true, percent_bps: 290, card_types: ['credit'] }))
      .then([enabled(290)]));

  it('refuses one basis point above the cost of acceptance (422)', () =>
    given([profileSet()])
      .when(setSurcharge({ enabled: true, percent_bps: 291 }))
      .thenThrows(SurchargeExceedsCap, {
        code: 'surcharge_exceeds_cap',
        percentBps: 291,
        maxPercentBps: 290,
        errors: [expect.objectContaining({ field: 'percent_bps' })],
      }));

  it('refuses more than the network maximum whatever the cost of acceptance (422)', () => {
    const ctx = context({
      eligibility: eligibility({ feeProfile: { cardRateBps: 400, costOfAcceptanceBps: null } }),
    });
    given([profileSet({ cardRateBps: 400 })], ctx)
      .when(setSurcharge({ enabled: true, percent_bps: 301 }))
      .thenThrows(SurchargeExceedsCap, { percentBps: 301, maxPercentBps: 300 });
  });

  it('holds to the state cap from eligibility (Colorado, 2%)', () =>
    given([profileSet()], context({ eligibility: eligibility({ usState: 'CO' }) }))
      .when(setSurcharge({ enabled: true, percent_bps: 201 }))
      .thenThrows(SurchargeExceedsCap, { percentBps: 201, maxPercentBps: 200 }));

  it('holds to the profile in the state even when eligibility saw a higher one', () =>
    given(
      [profileSet({ cardRateBps: 150 })],
      context({ eligibility: eligibility({ feeProfile: { cardRateBps: 290, costOfAcceptanceBps: null } }) }),
    )
      .when(setSurcharge({ enabled: true, percent_bps: 200 }))
      .thenThrows(SurchargeExceedsCap, { percentBps: 200, maxPercentBps: 150 }));

  it.each([
    [['credit', 'debit'], ['debit']],
    [['prepaid'], ['prepaid']],
    [
      ['debit', 'prepaid'],
      ['debit', 'prepaid'],
    ],
  ])('refuses card types %j (422)', (cardTypes, refused) =>
    given([profileSet()])
      .when(setSurcharge({ enabled: true, percent_bps: 250, card_types: cardTypes }))
      .thenThrows(SurchargeNotAllowedOnDebit, {
        code: 'surcharge_not_allowed_on_debit',
        cardTypes: refused,
        errors: [expect.objectContaining({ field: 'card_types' })],
      }),
  );

  it('refuses debit even on a disabled program', () =>
    given([])
      .when(setSurcharge({ enabled: false, card_types: ['debit'] }))
      .thenThrows(SurchargeNotAllowedOnDebit));

  it.each<[string, Partial<FeeEligibilityInput>, string[]]>([
    ['in Massachusetts', { usState: 'MA' }, ['us_state_prohibits_surcharge']],
    ['without the flag', { enabledFeatures: ['convenience_fees'] }, ['surcharging_not_enabled']],
    ['for a government MCC', { merchantCategoryCode: '9311' }, ['mcc_not_eligible']],
    ['without a known state', { usState: null }, ['us_state_unknown']],
  ])('refuses to enable it %s (422)', (_case, overrides, reasons) =>
    given([profileSet()], context({ eligibility: eligibility(overrides) }))
      .when(setSurcharge({ enabled: true, percent_bps: 100 }))
      .thenThrows(SurchargeNotEligible, {
        code: 'surcharge_not_eligible',
        reasons,
        errors: reasons.map(() => expect.objectContaining({ field: 'enabled' })),
      }),
  );

  it('refuses to enable it without a fee profile', () =>
    given([], context({ eligibility: eligibility({ feeProfile: null }) }))
      .when(setSurcharge({ enabled: true, percent_bps: 100 }))
      .thenThrows(SurchargeNotEligible, { reasons: ['fee_profile_required'] }));

  it('refuses to enable it when the state has no profile, whatever eligibility says', () =>
    given([])
      .when(setSurcharge({ enabled: true, percent_bps: 100 }))
      .thenThrows(SurchargeNotEligible, { reasons: ['fee_profile_required'] }));

  it('disables it whatever the eligibility', () =>
    given([profileSet(), surchargeSet(true, 250)], context({ eligibility: eligibility({ usState: 'CT' }) }))
      .when(setSurcharge({ enabled: false }))
      .then([surchargeSet(false, null, T1)]));

  it('records nothing when the same program is put again', () =>
    given([profileSet(), surchargeSet(true, 250)])
      .when(setSurcharge({ enabled: true, percent_bps: 250 }))
      .then([]));

  it('refuses a rate sent as a string (400)', () =>
    given([profileSet()])
      .when(setSurcharge({ enabled: true, percent_bps: '250' }))
      .thenThrows(FeeRequestInvalid, {
        code: 'validation_error',
        errors: [expect.objectContaining({ field: 'percent_bps' })],
      }));

  it('shows in the fee settings once enabled', () =>
    given([profileSet(), convenienceSet()])
      .when(setSurcharge({ enabled: true, percent_bps: 250 }))
      .thenState((state) => {
        const settings = toFeeSettings({ id: MERCHANT, version: 7 }, state);
        expect(settings.surcharge).toEqual({
          enabled: true,
          percent_bps: 250,
          card_types: ['credit'],
          updated_at: T1.toISOString(),
        });
        expect(settings.convenience_fee?.fixed_amount).toBe('2.50');
        expect(settings.fee_profile?.card_fixed_fee).toBe('0.30');
      }));
});

describe('problem statuses', () => {
  it.each(Object.entries(FEES_PROBLEM_STATUS))(
    '%s answers %i through the one status table',
    (code, status) => {
      expect(statusForCode(code)).toBe(status);
    },
  );

  it.each<[string, { code: string }]>([
    ['FeeRequestInvalid', new FeeRequestInvalid([{ field: 'enabled', message: 'is required' }])],
    ['SurchargeNotEligible', new SurchargeNotEligible(MERCHANT, ['surcharging_not_enabled'])],
    ['ConvenienceFeeNotEligible', new ConvenienceFeeNotEligible(MERCHANT, ['merchant_closed'])],
    ['SurchargeNotAllowedOnDebit', new SurchargeNotAllowedOnDebit(['debit'])],
    ['SurchargeExceedsCap', new SurchargeExceedsCap(301, 300)],
    ['ConvenienceFeeMustBeFlat', new ConvenienceFeeMustBeFlat()],
  ])('%s has a code in the table', (_name, error) => {
    expect(FEES_PROBLEM_STATUS[error.code]).toBeDefined();
  });
});
