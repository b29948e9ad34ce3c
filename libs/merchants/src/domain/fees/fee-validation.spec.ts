import {
  isCalendarDate,
  parseConvenienceFee,
  parseFeeProfile,
  parseSurcharge,
  validateConvenienceFee,
  validateFeeProfile,
  validateSurcharge,
} from './fee-validation';

const PROFILE = {
  pricing_model: 'FLAT_RATE',
  card_rate_bps: 290,
  card_fixed_fee: '0.30',
  ach_rate_bps: 80,
  ach_fixed_fee: '0.25',
  ach_fee_cap: '5.00',
  monthly_fee: '9.95',
  effective_date: '2026-10-01',
};

const fields = (errors: { field: string }[]) => errors.map((error) => error.field);

describe('fee profile', () => {
  it('reads a good profile into minor-unit strings and USD', () => {
    expect(parseFeeProfile(PROFILE)).toEqual({
      ok: true,
      value: {
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
      },
    });
  });

  it('reads a tiered profile with its tiers, a stated cost of acceptance and no ACH cap', () => {
    const parsed = parseFeeProfile({
      ...PROFILE,
      pricing_model: 'TIERED',
      currency: 'USD',
      tiered_rates: { mid_qualified_bps: 290, non_qualified_bps: 350 },
      card_rate_bps: 190,
      cost_of_acceptance_bps: 260,
      ach_fee_cap: null,
      card_fixed_fee: '0.0',
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        pricingModel: 'TIERED',
        tieredRates: { midQualifiedBps: 290, nonQualifiedBps: 350 },
        costOfAcceptanceBps: 260,
        achFeeCapMinor: null,
        cardFixedFeeMinor: '0',
      },
    });
  });

  it('accepts the bounds', () => {
    expect(
      validateFeeProfile({
        ...PROFILE,
        card_rate_bps: 1000,
        ach_rate_bps: 0,
        card_fixed_fee: '10.00',
        ach_fixed_fee: '0.00',
        ach_fee_cap: '1000.00',
        monthly_fee: '1000.0',
      }),
    ).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['a JSON array', [], ['body']],
    ['null', null, ['body']],
    ['a string', 'FLAT_RATE', ['body']],
    [
      'an empty object',
      {},
      [
        'pricing_model',
        'card_rate_bps',
        'card_fixed_fee',
        'ach_rate_bps',
        'ach_fixed_fee',
        'monthly_fee',
        'effective_date',
      ],
    ],
    ['an unknown field', { ...PROFILE, discount_rate: 3 }, ['discount_rate']],
    ['an unknown pricing model', { ...PROFILE, pricing_model: 'flat_rate' }, ['pricing_model']],
    ['a currency other than USD', { ...PROFILE, currency: 'EUR' }, ['currency']],
    ['a rate as a string', { ...PROFILE, card_rate_bps: '290' }, ['card_rate_bps']],
    ['a fractional rate', { ...PROFILE, card_rate_bps: 2.9 }, ['card_rate_bps']],
    ['a negative rate', { ...PROFILE, ach_rate_bps: -1 }, ['ach_rate_bps']],
    ['a rate above 10%', { ...PROFILE, card_rate_bps: 1001 }, ['card_rate_bps']],
    ['a rate as a boolean', { ...PROFILE, ach_rate_bps: true }, ['ach_rate_bps']],
    ['an amount as a number', { ...PROFILE, card_fixed_fee: 0.3 }, ['card_fixed_fee']],
    ['an amount with three decimals', { ...PROFILE, card_fixed_fee: '0.305' }, ['card_fixed_fee']],
    ['a negative amount', { ...PROFILE, ach_fixed_fee: '-0.25' }, ['ach_fixed_fee']],
    ['an amount in exponent notation', { ...PROFILE, monthly_fee: '1e2' }, ['monthly_fee']],
    ['an amount with spaces', { ...PROFILE, monthly_fee: ' 9.95' }, ['monthly_fee']],
    ['a fixed fee above $10', { ...PROFILE, card_fixed_fee: '10.01' }, ['card_fixed_fee']],
    ['a monthly fee above $1,000', { ...PROFILE, monthly_fee: '1000.01' }, ['monthly_fee']],
    ['an ACH cap of zero', { ...PROFILE, ach_fee_cap: '0.00' }, ['ach_fee_cap']],
    ['an ACH cap below the ACH fixed fee', { ...PROFILE, ach_fee_cap: '0.10' }, ['ach_fee_cap']],
    ['an ACH cap as a number', { ...PROFILE, ach_fee_cap: 5 }, ['ach_fee_cap']],
    [
      'a cost of acceptance as a string',
      { ...PROFILE, cost_of_acceptance_bps: '250' },
      ['cost_of_acceptance_bps'],
    ],
    [
      'a cost of acceptance above 10%',
      { ...PROFILE, cost_of_acceptance_bps: 1001 },
      ['cost_of_acceptance_bps'],
    ],
    [
      'tiers on a flat-rate profile',
      { ...PROFILE, tiered_rates: { mid_qualified_bps: 300, non_qualified_bps: 350 } },
      ['tiered_rates'],
    ],
    ['a tiered profile without tiers', { ...PROFILE, pricing_model: 'TIERED' }, ['tiered_rates']],
    [
      'tiers that are not an object',
      { ...PROFILE, pricing_model: 'TIERED', tiered_rates: [300, 350] },
      ['tiered_rates'],
    ],
    [
      'a mid-qualified rate below the qualified rate',
      {
        ...PROFILE,
        pricing_model: 'TIERED',
        tiered_rates: { mid_qualified_bps: 200, non_qualified_bps: 350 },
      },
      ['tiered_rates.mid_qualified_bps'],
    ],
    [
      'a non-qualified rate below the mid-qualified rate',
      {
        ...PROFILE,
        pricing_model: 'TIERED',
        tiered_rates: { mid_qualified_bps: 300, non_qualified_bps: 299 },
      },
      ['tiered_rates.non_qualified_bps'],
    ],
    [
      'tiers as strings, and an unknown tier',
      {
        ...PROFILE,
        pricing_model: 'TIERED',
        tiered_rates: { mid_qualified_bps: '300', non_qualified_bps: 350, premium_bps: 400 },
      },
      ['tiered_rates.premium_bps', 'tiered_rates.mid_qualified_bps'],
    ],
    ['an impossible date', { ...PROFILE, effective_date: '2026-02-29' }, ['effective_date']],
    ['a date-time', { ...PROFILE, effective_date: '2026-10-01T00:00:00Z' }, ['effective_date']],
    ['a date as a number', { ...PROFILE, effective_date: 20261001 }, ['effective_date']],
    [
      'several problems at once',
      { ...PROFILE, card_rate_bps: '2.9', monthly_fee: 9.95, effective_date: null },
      ['card_rate_bps', 'monthly_fee', 'effective_date'],
    ],
  ])('refuses %s', (_case, body, expected) => {
    const errors = validateFeeProfile(body);
    expect(fields(errors)).toEqual(expected);
    expect(parseFeeProfile(body).ok).toBe(false);
  });
});

describe('calendar dates', () => {
  it.each<[unknown, boolean]>([
    ['2026-10-01', true],
    ['2028-02-29', true],
    ['2000-02-29', true],
    ['2026-12-31', true],
    ['2026-02-29', false],
    ['1900-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-10-00', false],
    ['2026-1-01', false],
    ['2026-10-01 ', false],
    [null, false],
    [20261001, false],
  ])('%p is a date: %p', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });
});

describe('convenience fee', () => {
  const FIXED = { enabled: true, amount_type: 'FIXED', fixed_amount: '2.50', applies_to: ['card', 'ach'] };
  const PERCENT = { enabled: true, amount_type: 'PERCENT', percent_bps: 150, applies_to: ['ach'] };

  it('reads a fixed program', () => {
    expect(parseConvenienceFee(FIXED)).toEqual({
      ok: true,
      value: {
        enabled: true,
        amountType: 'FIXED',
        currency: 'USD',
        fixedAmountMinor: '250',
        percentBps: null,
        minAmountMinor: null,
        maxAmountMinor: null,
        appliesTo: ['card', 'ach'],
      },
    });
  });

  it('reads a percentage program with its floor and ceiling, applies_to in canonical order', () => {
    expect(
      parseConvenienceFee({
        ...PERCENT,
        applies_to: ['ach', 'card'],
        min_amount: '1.00',
        max_amount: '10.0',
        currency: 'USD',
      }),
    ).toMatchObject({
      ok: true,
      value: {
        amountType: 'PERCENT',
        percentBps: 150,
        minAmountMinor: '100',
        maxAmountMinor: '1000',
        appliesTo: ['card', 'ach'],
      },
    });
  });

  it('reads {enabled: false} as a disabled program without terms', () => {
    expect(parseConvenienceFee({ enabled: false })).toEqual({
      ok: true,
      value: {
        enabled: false,
        amountType: null,
        currency: 'USD',
        fixedAmountMinor: null,
        percentBps: null,
        minAmountMinor: null,
        maxAmountMinor: null,
        appliesTo: [],
      },
    });
  });

  it('keeps the terms of a disabled program that carries them', () => {
    expect(parseConvenienceFee({ ...FIXED, enabled: false })).toMatchObject({
      ok: true,
      value: { enabled: false, amountType: 'FIXED', fixedAmountMinor: '250' },
    });
  });

  it.each<[string, unknown, string[]]>([
    ['a non-object body', 'FIXED', ['body']],
    ['no enabled', { amount_type: 'FIXED', fixed_amount: '2.50', applies_to: ['card'] }, ['enabled']],
    ['enabled as a string', { ...FIXED, enabled: 'true' }, ['enabled']],
    ['enabled as 1', { enabled: 1 }, ['enabled']],
    ['an enabled program without terms', { enabled: true }, ['amount_type', 'applies_to']],
    ['an unknown amount type', { ...FIXED, amount_type: 'fixed' }, ['amount_type']],
    ['a fixed amount as a number', { ...FIXED, fixed_amount: 2.5 }, ['fixed_amount']],
    ['a fixed amount of zero', { ...FIXED, fixed_amount: '0.00' }, ['fixed_amount']],
    ['a fixed amount above $100', { ...FIXED, fixed_amount: '100.01' }, ['fixed_amount']],
    ['a FIXED program without its amount', { ...FIXED, fixed_amount: undefined }, ['fixed_amount']],
    [
      'a percentage on a FIXED program',
      { ...FIXED, percent_bps: 100, min_amount: '1.00' },
      ['percent_bps', 'min_amount'],
    ],
    ['a fixed amount on a PERCENT program', { ...PERCENT, fixed_amount: '2.50' }, ['fixed_amount']],
    ['a PERCENT program without its rate', { ...PERCENT, percent_bps: undefined }, ['percent_bps']],
    ['a rate as a string', { ...PERCENT, percent_bps: '150' }, ['percent_bps']],
    ['a rate of zero', { ...PERCENT, percent_bps: 0 }, ['percent_bps']],
    ['a rate above 10%', { ...PERCENT, percent_bps: 1001 }, ['percent_bps']],
    ['a ceiling below the floor', { ...PERCENT, min_amount: '5.00', max_amount: '4.99' }, ['max_amount']],
    ['a floor as a number', { ...PERCENT, min_amount: 1 }, ['min_amount']],
    ['applies_to as a string', { ...FIXED, applies_to: 'card' }, ['applies_to']],
    ['applies_to empty', { ...FIXED, applies_to: [] }, ['applies_to']],
    ['an unknown payment method', { ...FIXED, applies_to: ['card', 'wire'] }, ['applies_to[1]']],
    ['a payment method twice', { ...FIXED, applies_to: ['card', 'card'] }, ['applies_to[1]']],
    ['a currency other than USD', { ...FIXED, currency: 'CAD' }, ['currency']],
    ['an unknown field', { ...FIXED, channel: 'CARD_NOT_PRESENT' }, ['channel']],
    ['bad terms on a disabled program', { enabled: false, fixed_amount: 2.5 }, ['amount_type', 'applies_to']],
  ])('refuses %s', (_case, body, expected) => {
    expect(fields(validateConvenienceFee(body))).toEqual(expected);
  });
});

describe('surcharge', () => {
  it('reads an enabled program, credit by default', () => {
    expect(parseSurcharge({ enabled: true, percent_bps: 300 })).toEqual({
      ok: true,
      value: { enabled: true, percentBps: 300, cardTypes: ['credit'] },
    });
  });

  it('reads a disabled program with or without a rate', () => {
    expect(parseSurcharge({ enabled: false })).toEqual({
      ok: true,
      value: { enabled: false, percentBps: null, cardTypes: ['credit'] },
    });
    expect(parseSurcharge({ enabled: false, percent_bps: 250 })).toMatchObject({
      ok: true,
      value: { percentBps: 250 },
    });
  });

  it('reads debit and prepaid card types (the decision refuses them with 422, not 400)', () => {
    expect(
      parseSurcharge({ enabled: true, percent_bps: 300, card_types: ['debit', 'credit'] }),
    ).toMatchObject({
      ok: true,
      value: { cardTypes: ['credit', 'debit'] },
    });
  });

  it.each<[string, unknown, string[]]>([
    ['a non-object body', [], ['body']],
    ['no enabled', { percent_bps: 300 }, ['enabled']],
    ['enabled as a string', { enabled: 'false' }, ['enabled']],
    ['an enabled program without a rate', { enabled: true }, ['percent_bps']],
    ['a rate as a string', { enabled: true, percent_bps: '300' }, ['percent_bps']],
    ['a rate as a decimal percentage', { enabled: true, percent_bps: 2.5 }, ['percent_bps']],
    ['a rate of zero', { enabled: true, percent_bps: 0 }, ['percent_bps']],
    ['a rate above 100%', { enabled: true, percent_bps: 10001 }, ['percent_bps']],
    ['card types empty', { enabled: true, percent_bps: 300, card_types: [] }, ['card_types']],
    ['an unknown card type', { enabled: true, percent_bps: 300, card_types: ['amex'] }, ['card_types[0]']],
    [
      'a card type twice',
      { enabled: true, percent_bps: 300, card_types: ['credit', 'credit'] },
      ['card_types[1]'],
    ],
    ['card types as a string', { enabled: true, percent_bps: 300, card_types: 'credit' }, ['card_types']],
    ['an unknown field', { enabled: true, percent_bps: 300, max_percent_bps: 300 }, ['max_percent_bps']],
  ])('refuses %s', (_case, body, expected) => {
    expect(fields(validateSurcharge(body))).toEqual(expected);
  });
});
