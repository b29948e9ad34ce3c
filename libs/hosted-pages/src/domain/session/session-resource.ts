import { formatAmount } from '../../../../platform/src/money/amount';
import { effectiveState, type HppSession } from './session';
import { z } from 'zod';
import { Money, Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import {
  AMOUNT_MODES,
  CAPTURE_MODES,
  HPP_PAYMENT_METHODS,
  HPP_RECURRING_FREQUENCIES,
  HPP_SESSION_STATES,
  PAGE_PURPOSES,
  RENDERING_MODES,
  TOKENIZATION_OUTCOMES,
} from './session-states';

/**
 * The spec's HPP session resource, field for field (snake_case, as on the wire). Amounts are
 * decimal strings in `currency`; a value the session does not have is null (no `amount` and fees
 * on a customer_entered page until the payer submits, none on a save_payment_method page).
 * `level3_data` is in the spec's read form; sessions take none yet, so it is always null.
 */
const HppRecurringPlanSchema = z.strictObject({
  recurring_amount: Money,
  frequency: z.enum(HPP_RECURRING_FREQUENCIES),
  interval: z.int().min(1),
  number_of_payments: z.int().min(2).nullable(),
  initial_charge_amount: Money.nullable(),
});
export type HppRecurringPlanResource = z.infer<typeof HppRecurringPlanSchema>;

const createShape = {
  id: Uuid,
  merchant_id: Uuid,
  payment_method: z.enum(HPP_PAYMENT_METHODS),
  state: z.enum(HPP_SESSION_STATES),
  hpp_url: z.string().meta({ format: 'uri', description: 'Send the payer here (absolute).' }),
  iframe_url: z.string().meta({ format: 'uri' }),
  rendering_mode: z.enum(RENDERING_MODES),
  capture_mode: z.enum(CAPTURE_MODES).nullable(),
  amount_mode: z.enum(AMOUNT_MODES).nullable(),
  page_purpose: z.enum(PAGE_PURPOSES),
  recurring_plan: HppRecurringPlanSchema.nullable(),
  customer_id: Uuid.nullable(),
  amount: Money.nullable(),
  surcharge_amount: Money.nullable(),
  convenience_fee_amount: Money.nullable(),
  total_amount: Money.nullable(),
  currency: z.string(),
  expires_at: Timestamp,
  created_at: Timestamp,
};

export const HppSessionCreateSchema = z.strictObject(createShape).meta({ id: 'HppSessionCreated' });
export type HppSessionCreateResource = z.infer<typeof HppSessionCreateSchema>;

export const HppSessionSchema = z
  .strictObject({
    ...createShape,
    tokenization_outcome: z.enum(TOKENIZATION_OUTCOMES),
    vault_token: z
      .string()
      .nullable()
      .meta({ description: 'The saved method’s vault token, once completed.' }),
    transaction_id: Uuid.nullable(),
    contract_id: Uuid.nullable().meta({
      description:
        'The contract of the session’s `recurring_plan` (null without a plan, or before the payer’s first submit).',
    }),
    completed_at: Timestamp.nullable(),
    last_attempt: z.strictObject({ at: Timestamp, reason: z.string() }).nullable(),
    card: z
      .strictObject({
        last4: z.string(),
        expiry_month: z.int().min(1),
        expiry_year: z.int(),
        brand: z.string(),
      })
      .nullable(),
    bank: z
      .strictObject({ account_type: z.string(), account_last4: z.string(), routing_last4: z.string() })
      .nullable(),
    token_capture_failure: z.strictObject({ at: Timestamp, reason: z.string() }).nullable(),
    level3_data: z.null(),
  })
  .meta({ id: 'HppSession' });
export type HppSessionResource = z.infer<typeof HppSessionSchema>;

export interface HppSessionUrls {
  /** Absolute (CONTRACT §4). */
  hppUrl: string;
  iframeUrl: string;
}

const money = (minor: string | null, currency: string): string | null =>
  minor === null ? null : formatAmount(BigInt(minor), currency);

/**
 * The create form (`POST /hpp/sessions` answer). With `now`, a PENDING session past `expires_at`
 * shows EXPIRED before the sweeper records it.
 */
export function toSessionCreateResource(
  s: HppSession,
  urls: HppSessionUrls,
  now?: Date,
): HppSessionCreateResource {
  const plan = s.recurringPlan;
  return {
    id: s.id,
    merchant_id: s.merchantId,
    payment_method: s.paymentMethod,
    state: now ? effectiveState(s, now) : s.state,
    hpp_url: urls.hppUrl,
    iframe_url: urls.iframeUrl,
    rendering_mode: s.renderingMode,
    capture_mode: s.captureMode,
    amount_mode: s.amountMode,
    page_purpose: s.pagePurpose,
    recurring_plan: plan && {
      recurring_amount: formatAmount(BigInt(plan.recurringAmountMinor), s.currency),
      frequency: plan.frequency,
      interval: plan.interval,
      number_of_payments: plan.numberOfPayments,
      initial_charge_amount: money(plan.initialChargeAmountMinor, s.currency),
    },
    customer_id: s.customerId,
    amount: money(s.amountMinor, s.currency),
    surcharge_amount: money(s.surchargeMinor, s.currency),
    convenience_fee_amount: money(s.convenienceFeeMinor, s.currency),
    total_amount: money(s.totalMinor, s.currency),
    currency: s.currency,
    expires_at: s.expiresAt,
    created_at: s.createdAt,
  };
}

/** The read form (`GET /hpp/sessions/{id}`, and the cancel answer): the create form and more. */
export function toSessionResource(s: HppSession, urls: HppSessionUrls, now?: Date): HppSessionResource {
  return {
    ...toSessionCreateResource(s, urls, now),
    tokenization_outcome: s.tokenizationOutcome ?? (s.savesPaymentMethod ? 'pending' : 'not_requested'),
    vault_token: s.vaultToken,
    transaction_id: s.transactionId,
    contract_id: s.contractId ?? null,
    completed_at: s.completedAt,
    last_attempt: s.lastAttempt && { ...s.lastAttempt },
    card: s.card && {
      last4: s.card.last4,
      expiry_month: s.card.expMonth,
      expiry_year: s.card.expYear,
      brand: s.card.brand,
    },
    bank: s.bank && {
      account_type: s.bank.accountType,
      account_last4: s.bank.accountLast4,
      routing_last4: s.bank.routingLast4,
    },
    token_capture_failure: s.tokenCaptureFailure && { ...s.tokenCaptureFailure },
    level3_data: null,
  };
}
