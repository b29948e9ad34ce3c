import { percentOfMinor, sumMinor } from '../../../../platform/src/money/money';
import type { FeeEligibility } from './fee-eligibility';
import type { CardType, FeePaymentMethod, PaymentChannel } from './fee-events';
import type { FeesState } from './fees';

/**
 * Pricing of one cardholder-initiated payment from the merchant's fee settings: the amounts a
 * transaction or hosted page shows as `surcharge_amount` and `convenience_fee_amount`. Exact
 * integer arithmetic on minor units through dinero.js (`money.ts`), never floats.
 *
 * Rounding: a percentage is rounded half-up to the cent (`percentOfMinor`; amounts are never
 * negative), so $0.50 at 1% is $0.01 and $0.49 at 1% is $0.00.
 *
 * Rules, in order:
 *  1. Merchant-initiated payments (RECURRING, INSTALLMENT, UNSCHEDULED_COF) and zero amounts carry
 *     no fee: they are billed as given (spec, Transactions rule 3).
 *  2. Convenience fee: when the program is enabled, covers the payment method (`applies_to`) and
 *     the payment's channel is one of the program's `channels`: FIXED adds `fixed_amount`;
 *     PERCENT (ACH only) adds the rounded percentage, raised to `min_amount` and lowered to
 *     `max_amount` when set.
 *  3. Surcharge: when the program is enabled, the payment is by card and the card is known to be
 *     `credit`. Never on debit or prepaid cards, on a card of unknown type (fail safe: the BIN
 *     lookup must say credit), or on ACH. The networks forbid charging both a convenience fee and
 *     a surcharge on one payment: a payment the convenience-fee program covers is not surcharged.
 *  4. With `eligibility` (the merchant's current eligibility, recommended): a program whose
 *     eligibility has lapsed (flag switched off, merchant closed) charges nothing, and the
 *     surcharge rate is lowered to the current `max_percent_bps`.
 * Surcharge and convenience fee are computed on `amountMinor` as given (tax included if the
 * partner's amount includes it); total = base + surcharge + convenience fee.
 */
export interface PricingInput {
  amountMinor: bigint;
  paymentMethod: FeePaymentMethod;
  /** From the BIN lookup; card payments only. */
  cardType?: CardType | null;
  channel: PaymentChannel;
  merchantInitiated?: boolean;
  eligibility?: Pick<FeeEligibility, 'surcharge' | 'convenience_fee'>;
}

export interface TransactionPrice {
  baseMinor: bigint;
  surchargeMinor: bigint;
  convenienceFeeMinor: bigint;
  totalMinor: bigint;
}

export { percentOfMinor };

export function priceTransaction(
  settings: Pick<FeesState, 'convenienceFee' | 'surcharge'>,
  input: PricingInput,
): TransactionPrice {
  const base = input.amountMinor;
  if (base < 0n) throw new RangeError('amount must not be negative');
  const price = (surchargeMinor: bigint, convenienceFeeMinor: bigint): TransactionPrice => ({
    baseMinor: base,
    surchargeMinor,
    convenienceFeeMinor,
    totalMinor: sumMinor([base, surchargeMinor, convenienceFeeMinor]),
  });
  if (input.merchantInitiated || base === 0n) return price(0n, 0n);

  const program = settings.convenienceFee;
  const convenienceApplies =
    program !== null &&
    program.enabled &&
    program.appliesTo.includes(input.paymentMethod) &&
    program.channels.includes(input.channel) &&
    (input.eligibility?.convenience_fee.eligible ?? true);
  if (convenienceApplies) return price(0n, convenienceFee(program, base));

  const surcharge = settings.surcharge;
  if (
    surcharge === null ||
    !surcharge.enabled ||
    surcharge.percentBps === null ||
    input.paymentMethod !== 'card' ||
    input.cardType !== 'credit' ||
    input.eligibility?.surcharge.eligible === false
  ) {
    return price(0n, 0n);
  }
  const bps = Math.min(
    surcharge.percentBps,
    input.eligibility?.surcharge.max_percent_bps ?? surcharge.percentBps,
  );
  return price(percentOfMinor(base, bps), 0n);
}

function convenienceFee(program: NonNullable<FeesState['convenienceFee']>, base: bigint): bigint {
  if (program.amountType === 'FIXED' && program.fixedAmountMinor !== null)
    return BigInt(program.fixedAmountMinor);
  if (program.amountType === 'PERCENT' && program.percentBps !== null) {
    let fee = percentOfMinor(base, program.percentBps);
    if (program.minAmountMinor !== null && fee < BigInt(program.minAmountMinor))
      fee = BigInt(program.minAmountMinor);
    if (program.maxAmountMinor !== null && fee > BigInt(program.maxAmountMinor))
      fee = BigInt(program.maxAmountMinor);
    return fee;
  }
  return 0n; // an enabled program always has terms; a malformed one charges nothing
}
