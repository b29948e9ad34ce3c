import type { FeeEligibility } from './fee-eligibility';
import type { PaymentChannel } from './fee-events';
import { percentOfMinor, priceTransaction, type PricingInput } from './fee-pricing';
import type { ConvenienceFeeProgram, FeesState, SurchargeProgram } from './fees';

const AT = '2026-10-01T09:00:00.000Z';

const surcharge = (percentBps: number | null = 300, enabled = true): SurchargeProgram => ({
  enabled,
  percentBps,
  cardTypes: ['credit'],
  updatedAt: AT,
});

const fixedFee = (overrides: Partial<ConvenienceFeeProgram> = {}): ConvenienceFeeProgram => ({
  enabled: true,
  amountType: 'FIXED',
  currency: 'USD',
  fixedAmountMinor: '250',
  percentBps: null,
  minAmountMinor: null,
  maxAmountMinor: null,
  appliesTo: ['card', 'ach'],
  channels: ['CARD_NOT_PRESENT'],
  updatedAt: AT,
  ...overrides,
});

const percentFee = (overrides: Partial<ConvenienceFeeProgram> = {}): ConvenienceFeeProgram =>
  fixedFee({
    amountType: 'PERCENT',
    fixedAmountMinor: null,
    percentBps: 150,
    minAmountMinor: '100',
    maxAmountMinor: '1000',
    appliesTo: ['ach'],
    ...overrides,
  });

const BOTH: Pick<FeesState, 'convenienceFee' | 'surcharge'> = {
  convenienceFee: fixedFee(),
  surcharge: surcharge(),
};
const NONE: Pick<FeesState, 'convenienceFee' | 'surcharge'> = { convenienceFee: null, surcharge: null };

const CP: PaymentChannel = 'CARD_PRESENT';
const CNP: PaymentChannel = 'CARD_NOT_PRESENT';
const credit = (amountMinor: bigint, channel: PaymentChannel = CP): PricingInput => ({
  amountMinor,
  paymentMethod: 'card',
  cardType: 'credit',
  channel,
});

const eligibility = (
  surchargeEligible: boolean,
  maxPercentBps: number | null,
  convenienceEligible: boolean,
): Pick<FeeEligibility, 'surcharge' | 'convenience_fee'> => ({
  surcharge: { eligible: surchargeEligible, reasons: [], max_percent_bps: maxPercentBps },
  convenience_fee: { eligible: convenienceEligible, reasons: [], channels: convenienceEligible ? [CNP] : [] },
});

describe('percentages, half-up to the cent in bigint', () => {
  it.each<[bigint, number, bigint]>([
    [1n, 300, 0n], // 0.03 cents
    [16n, 300, 0n], // 0.48
    [17n, 300, 1n], // 0.51
    [49n, 100, 0n], // 0.49
    [50n, 100, 1n], // exactly half: up
    [150n, 100, 2n], // 1.5: up, not to even
    [250n, 100, 3n], // 2.5: up, not to even
    [10_000n, 300, 300n],
    [3_333n, 300, 100n], // 99.99
    [16_650n, 300, 500n], // 499.5: up
    [16_649n, 300, 499n], // 499.47
    [0n, 300, 0n],
    [12_345n, 0, 0n],
    [999_999_999_999_999n, 300, 30_000_000_000_000n], // 29,999,999,999,999.97
    [4_611_686_018_427_387_904n, 250, 115_292_150_460_684_698n], // 2^62: beyond float precision
    [123_456_789_012_345_678_901_234_567_890n, 299, 3_691_357_991_469_135_799_146_913_580n],
  ])('%s at %i bps is %s', (amount, bps, expected) => {
    expect(percentOfMinor(amount, bps)).toBe(expected);
  });

  it.each<[bigint, number]>([
    [-1n, 300],
    [100n, -1],
    [100n, 2.5],
    [100n, Number.NaN],
  ])('refuses %s at %p bps', (amount, bps) => {
    expect(() => percentOfMinor(amount, bps)).toThrow(RangeError);
  });
});

describe('pricing a payment', () => {
  it.each<[string, Pick<FeesState, 'convenienceFee' | 'surcharge'>, PricingInput, [bigint, bigint]]>([
    ['surcharges a credit card in person', BOTH, credit(10_000n), [300n, 0n]],
    ['does not surcharge a debit card', BOTH, { ...credit(10_000n), cardType: 'debit' }, [0n, 0n]],
    ['does not surcharge a prepaid card', BOTH, { ...credit(10_000n), cardType: 'prepaid' }, [0n, 0n]],
    [
      'does not surcharge a card of unknown type',
      BOTH,
      { ...credit(10_000n), cardType: undefined },
      [0n, 0n],
    ],
    ['does not surcharge a card of null type', BOTH, { ...credit(10_000n), cardType: null }, [0n, 0n]],
    [
      'charges the flat fee, not the surcharge, on a credit card online',
      BOTH,
      credit(10_000n, CNP),
      [0n, 250n],
    ],
    [
      'charges the flat fee on a debit card online',
      BOTH,
      { ...credit(10_000n, CNP), cardType: 'debit' },
      [0n, 250n],
    ],
    [
      'charges the flat fee on ACH',
      BOTH,
      { amountMinor: 10_000n, paymentMethod: 'ach', channel: CNP },
      [0n, 250n],
    ],
    [
      'never surcharges ACH',
      { ...BOTH, convenienceFee: null },
      { amountMinor: 10_000n, paymentMethod: 'ach', channel: CNP },
      [0n, 0n],
    ],
    [
      'charges no convenience fee in the customary channel',
      { ...BOTH, surcharge: null },
      credit(10_000n, CP),
      [0n, 0n],
    ],
    [
      'charges no convenience fee for a method it does not cover',
      { surcharge: null, convenienceFee: fixedFee({ appliesTo: ['ach'] }) },
      credit(10_000n, CNP),
      [0n, 0n],
    ],
    [
      'surcharges when the convenience-fee program does not cover the card',
      { surcharge: surcharge(), convenienceFee: fixedFee({ appliesTo: ['ach'] }) },
      credit(10_000n, CNP),
      [300n, 0n],
    ],
    [
      'charges nothing for a merchant-initiated payment',
      BOTH,
      { ...credit(10_000n, CNP), merchantInitiated: true },
      [0n, 0n],
    ],
    [
      'charges nothing for a merchant-initiated credit sale in person',
      BOTH,
      { ...credit(10_000n), merchantInitiated: true },
      [0n, 0n],
    ],
    ['charges nothing on a zero amount', BOTH, credit(0n, CNP), [0n, 0n]],
    ['rounds a 1-cent surcharge base down to nothing', BOTH, credit(1n), [0n, 0n]],
    ['charges the flat fee on a 1-cent payment', BOTH, credit(1n, CNP), [0n, 250n]],
    ['rounds half up', { ...BOTH, surcharge: surcharge(100) }, credit(50n), [1n, 0n]],
    ['surcharges a large amount exactly', BOTH, credit(999_999_999_999_999n), [30_000_000_000_000n, 0n]],
    [
      'charges nothing with disabled programs',
      { surcharge: surcharge(300, false), convenienceFee: fixedFee({ enabled: false }) },
      credit(10_000n, CNP),
      [0n, 0n],
    ],
    [
      'charges nothing with a surcharge without a rate',
      { ...NONE, surcharge: surcharge(null) },
      credit(10_000n),
      [0n, 0n],
    ],
    ['charges nothing with no programs', NONE, credit(10_000n), [0n, 0n]],
    [
      'applies the percentage floor',
      { ...NONE, convenienceFee: percentFee() },
      { amountMinor: 5_000n, paymentMethod: 'ach', channel: CNP },
      [0n, 100n],
    ],
    [
      'applies the percentage',
      { ...NONE, convenienceFee: percentFee() },
      { amountMinor: 40_000n, paymentMethod: 'ach', channel: CNP },
      [0n, 600n],
    ],
    [
      'applies the percentage ceiling',
      { ...NONE, convenienceFee: percentFee() },
      { amountMinor: 100_000n, paymentMethod: 'ach', channel: CNP },
      [0n, 1_000n],
    ],
    [
      'rounds the percentage half up without floor or ceiling',
      { ...NONE, convenienceFee: percentFee({ minAmountMinor: null, maxAmountMinor: null }) },
      { amountMinor: 100n, paymentMethod: 'ach', channel: CNP },
      [0n, 2n],
    ],
    [
      'stops a surcharge whose eligibility lapsed',
      BOTH,
      { ...credit(10_000n), eligibility: eligibility(false, null, true) },
      [0n, 0n],
    ],
    [
      'lowers the surcharge to the current cap',
      BOTH,
      { ...credit(10_000n), eligibility: eligibility(true, 200, true) },
      [200n, 0n],
    ],
    [
      'keeps a surcharge below the current cap',
      { ...BOTH, surcharge: surcharge(150) },
      { ...credit(10_000n), eligibility: eligibility(true, 200, true) },
      [150n, 0n],
    ],
    [
      'stops a convenience fee whose eligibility lapsed, and surcharges instead',
      BOTH,
      { ...credit(10_000n, CNP), eligibility: eligibility(true, 300, false) },
      [300n, 0n],
    ],
  ])('%s', (_case, settings, input, [surchargeMinor, convenienceFeeMinor]) => {
    expect(priceTransaction(settings, input)).toEqual({
      baseMinor: input.amountMinor,
      surchargeMinor,
      convenienceFeeMinor,
      totalMinor: input.amountMinor + surchargeMinor + convenienceFeeMinor,
    });
  });

  it('adds up the total exactly', () => {
    expect(priceTransaction(BOTH, credit(12_345n))).toEqual({
      baseMinor: 12_345n,
      surchargeMinor: 370n, // 370.35
      convenienceFeeMinor: 0n,
      totalMinor: 12_715n,
    });
  });

  it('refuses a negative amount', () => {
    expect(() => priceTransaction(BOTH, credit(-100n))).toThrow(RangeError);
  });
});
