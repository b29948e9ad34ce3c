import { formatAmount } from '../../../../platform/src/money/amount';
import { effectiveState, type HppSession } from './session';
import type { TokenizationOutcome } from './session-states';

/**
 * The spec's HPP session resource, field for field (snake_case, as on the wire). Amounts are
 * decimal strings in `currency`; a value the session does not have is null (no `amount` and fees
 * on a customer_entered page until the payer submits, none on a save_payment_method page).
 * `level3_data` is in the spec's read form; sessions take none yet, so it is always null.
 */
export interface HppRecurringPlanResource {
  recurring_amount: string;
  frequency: string;
  interval: number;
  number_of_payments: number | null;
  initial_charge_amount: string | null;
}

export interface HppSessionCreateResource {
  id: string;
  merchant_id: string;
  payment_method: string;
  state: string;
  hpp_url: string;
  iframe_url: string;
  rendering_mode: string;
  capture_mode: string | null;
  amount_mode: string | null;
  page_purpose: string;
  recurring_plan: HppRecurringPlanResource | null;
  customer_id: string | null;
  amount: string | null;
  surcharge_amount: string | null;
  convenience_fee_amount: string | null;
  total_amount: string | null;
  currency: string;
  expires_at: string;
  created_at: string;
}

export interface HppSessionResource extends HppSessionCreateResource {
  tokenization_outcome: TokenizationOutcome;
  vault_token: string | null;
  transaction_id: string | null;
  /** The contract of the session's `recurring_plan` (null without a plan, or before the payer's first submit). */
  contract_id: string | null;
  completed_at: string | null;
  last_attempt: { at: string; reason: string } | null;
  card: { last4: string; expiry_month: number; expiry_year: number; brand: string } | null;
  bank: { account_type: string; account_last4: string; routing_last4: string } | null;
  token_capture_failure: { at: string; reason: string } | null;
  level3_data: null;
}

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
