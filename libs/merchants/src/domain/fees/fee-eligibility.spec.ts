import { MERCHANT_STATES, type MerchantChannel, type MerchantState } from '../merchant-states';
import {
  feeEligibility,
  FEE_INELIGIBILITY_REASONS,
  SURCHARGE_NETWORK_CAP_BPS,
  US_STATE_SURCHARGE_RULES,
  type FeeEligibilityInput,
} from './fee-eligibility';

const ID = '5b0b6a43-8f0e-4f57-9c43-0c1ad8a7e0b1';

const input = (overrides: Partial<FeeEligibilityInput> = {}): FeeEligibilityInput => ({
  merchantId: ID,
  merchantState: 'LIVE',
  merchantCategoryCode: '5812',
  channel: 'CARD_PRESENT',
  enabledFeatures: ['surcharging', 'convenience_fees', 'stored_credentials'],
  usState: 'TX',
  feeProfile: { cardRateBps: 290, costOfAcceptanceBps: null },
  ...overrides,
});

describe('fee eligibility', () => {
  it('makes a card-present Texas restaurant with both flags and a profile eligible for both', () => {
    expect(feeEligibility(input())).toEqual({
      merchant_id: ID,
      surcharge: { eligible: true, reasons: [], max_percent_bps: 290 },
      convenience_fee: { eligible: true, reasons: [], channels: ['CARD_NOT_PRESENT'] },
      fee_profile_required: false,
    });
  });

  describe('surcharge', () => {
    it.each<[string, Partial<FeeEligibilityInput>, string[]]>([
      [
        'without the surcharging flag',
        { enabledFeatures: ['convenience_fees'] },
        ['surcharging_not_enabled'],
      ],
      ['with no flags at all', { enabledFeatures: [] }, ['surcharging_not_enabled']],
      ['in an unknown US state (null)', { usState: null }, ['us_state_unknown']],
      ['in an unknown US state (absent)', { usState: undefined }, ['us_state_unknown']],
      ['in an unknown US state (blank)', { usState: '  ' }, ['us_state_unknown']],
      ['in Connecticut', { usState: 'CT' }, ['us_state_prohibits_surcharge']],
      ['in Massachusetts', { usState: 'MA' }, ['us_state_prohibits_surcharge']],
      ['in Maine', { usState: 'ME' }, ['us_state_prohibits_surcharge']],
      ['in Puerto Rico', { usState: 'PR' }, ['us_state_prohibits_surcharge']],
      ['in Connecticut, written " ct "', { usState: ' ct ' }, ['us_state_prohibits_surcharge']],
      ['for court costs (MCC 9211)', { merchantCategoryCode: '9211' }, ['mcc_not_eligible']],
      ['for fines (MCC 9222)', { merchantCategoryCode: '9222' }, ['mcc_not_eligible']],
      ['for tax payments (MCC 9311)', { merchantCategoryCode: '9311' }, ['mcc_not_eligible']],
      ['for government services (MCC 9399)', { merchantCategoryCode: '9399' }, ['mcc_not_eligible']],
      ['without a fee profile', { feeProfile: null }, ['fee_profile_required']],
      ['when CLOSED', { merchantState: 'CLOSED' }, ['merchant_closed']],
      [
        'for every reason at once, in order',
        {
          merchantState: 'CLOSED',
          enabledFeatures: [],
          usState: 'MA',
          merchantCategoryCode: '9399',
          feeProfile: null,
        },
        [
          'merchant_closed',
          'surcharging_not_enabled',
          'us_state_prohibits_surcharge',
          'mcc_not_eligible',
          'fee_profile_required',
        ],
      ],
    ])('is not eligible %s', (_case, overrides, reasons) => {
      const { surcharge } = feeEligibility(input(overrides));
      expect(surcharge).toEqual({ eligible: false, reasons, max_percent_bps: null });
    });

    it.each<[string, Partial<FeeEligibilityInput>, number]>([
      [
        'the card rate as the cost of acceptance',
        { feeProfile: { cardRateBps: 250, costOfAcceptanceBps: null } },
        250,
      ],
      [
        'the stated cost of acceptance over the card rate',
        { feeProfile: { cardRateBps: 20, costOfAcceptanceBps: 240 } },
        240,
      ],
      [
        'the network cap above a high cost',
        { feeProfile: { cardRateBps: 400, costOfAcceptanceBps: null } },
        300,
      ],
      [
        'the network cap above a high stated cost',
        { feeProfile: { cardRateBps: 100, costOfAcceptanceBps: 350 } },
        300,
      ],
      [
        'zero for a zero cost of acceptance',
        { feeProfile: { cardRateBps: 0, costOfAcceptanceBps: null } },
        0,
      ],
      ['Colorado’s 2%', { usState: 'CO' }, 200],
      ['Oklahoma’s 2%', { usState: 'ok' }, 200],
      [
        'the cost of acceptance below Colorado’s 2%',
        { usState: 'CO', feeProfile: { cardRateBps: 150, costOfAcceptanceBps: null } },
        150,
      ],
      [
        'the network cap in a state without a rule',
        { usState: 'NY', feeProfile: { cardRateBps: 500, costOfAcceptanceBps: null } },
        300,
      ],
      [
        'the network cap for a non-government MCC starting with 8',
        { merchantCategoryCode: '8999', feeProfile: { cardRateBps: 999, costOfAcceptanceBps: null } },
        300,
      ],
    ])('caps at %s', (_case, overrides, max) => {
      expect(feeEligibility(input(overrides)).surcharge).toEqual({
        eligible: true,
        reasons: [],
        max_percent_bps: max,
      });
    });

    it('never caps above the network maximum of 300 bps', () => {
      expect(SURCHARGE_NETWORK_CAP_BPS).toBe(300);
    });

    it('lists each US jurisdiction once, with a citation', () => {
      const codes = US_STATE_SURCHARGE_RULES.map((rule) => rule.code);
      expect(new Set(codes).size).toBe(codes.length);
      expect(
        codes.filter((code) => US_STATE_SURCHARGE_RULES.find((r) => r.code === code)?.capBps === 0).sort(),
      ).toEqual(['CT', 'MA', 'ME', 'PR']);
      for (const rule of US_STATE_SURCHARGE_RULES) expect(rule.citation).not.toBe('');
    });
  });

  describe('convenience fee', () => {
    it.each<[string, Partial<FeeEligibilityInput>, string[]]>([
      [
        'for a card-not-present-only merchant (no alternative channel)',
        { channel: 'CNP_ONLY' },
        ['no_alternative_payment_channel'],
      ],
      [
        'for an omnichannel merchant (both channels are customary)',
        { channel: 'OMNICHANNEL' },
        ['no_alternative_payment_channel'],
      ],
      ['for an unknown channel', { channel: 'KIOSK' as MerchantChannel }, ['no_alternative_payment_channel']],
      [
        'without the convenience_fees flag',
        { enabledFeatures: ['surcharging'] },
        ['convenience_fees_not_enabled'],
      ],
      ['when CLOSED', { merchantState: 'CLOSED' }, ['merchant_closed']],
      [
        'for every reason at once, in order',
        { merchantState: 'CLOSED', enabledFeatures: [], channel: 'CNP_ONLY' },
        ['merchant_closed', 'convenience_fees_not_enabled', 'no_alternative_payment_channel'],
      ],
    ])('is not eligible %s', (_case, overrides, reasons) => {
      expect(feeEligibility(input(overrides)).convenience_fee).toEqual({
        eligible: false,
        reasons,
        channels: [],
      });
    });

    it.each<[string, Partial<FeeEligibilityInput>]>([
      ['in a state that prohibits surcharges', { usState: 'CT' }],
      ['for a government MCC', { merchantCategoryCode: '9311' }],
      ['without a fee profile', { feeProfile: null }],
      ['in an unknown state', { usState: null }],
      ['without the surcharging flag', { enabledFeatures: ['convenience_fees'] }],
    ])('does not depend on the surcharge rules: eligible %s', (_case, overrides) => {
      expect(feeEligibility(input(overrides)).convenience_fee).toEqual({
        eligible: true,
        reasons: [],
        channels: ['CARD_NOT_PRESENT'],
      });
    });
  });

  describe('merchant states', () => {
    const open = MERCHANT_STATES.filter((state) => state !== 'CLOSED');

    it.each(open)('%s does not by itself stop either program', (merchantState: MerchantState) => {
      const result = feeEligibility(input({ merchantState }));
      expect(result.surcharge.eligible).toBe(true);
      expect(result.convenience_fee.eligible).toBe(true);
    });

    it('a CLOSED merchant is eligible for nothing and needs no fee profile', () => {
      expect(feeEligibility(input({ merchantState: 'CLOSED', feeProfile: null }))).toEqual({
        merchant_id: ID,
        surcharge: {
          eligible: false,
          reasons: ['merchant_closed', 'fee_profile_required'],
          max_percent_bps: null,
        },
        convenience_fee: { eligible: false, reasons: ['merchant_closed'], channels: [] },
        fee_profile_required: false,
      });
    });
  });

  it('asks for a fee profile when an open merchant has none', () => {
    expect(feeEligibility(input({ feeProfile: null })).fee_profile_required).toBe(true);
    expect(
      feeEligibility(input({ feeProfile: undefined, merchantState: 'DRAFT' })).fee_profile_required,
    ).toBe(true);
  });

  it('describes every reason code', () => {
    for (const [code, text] of Object.entries(FEE_INELIGIBILITY_REASONS)) {
      expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(text.length).toBeGreaterThan(0);
    }
  });
});
