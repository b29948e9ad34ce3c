import { formatAmount } from '../../../platform/src/money/amount';
import {
  nextChargeDate,
  remainingInstallments,
  retryCountOf,
  totalAmountMinor,
  type Contract,
} from './contract';

/**
 * The spec's Recurring contract resource, field for field (snake_case, as on the wire), and its
 * list item. Money is a decimal string in `currency`; dates are `YYYY-MM-DD`. Extensions beyond
 * the spec's table (it allows more): `customer_id`, `payment_method_token`, `card`/`bank`
 * (brand and last fours only), `use_type`, `interval`, `number_of_payments`, `hpp_session_id`,
 * `state_reason`, `updated_at`, `version`.
 */
export interface ContractResource {
  id: string;
  partner_id: string;
  merchant_id: string;
  customer_id: string | null;
  state: string;
  payment_method_type: string;
  payment_method_token: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
  bank: { account_type: string; account_last4: string; routing_last4: string } | null;
  use_type: string;
  amount: string;
  currency: string;
  frequency: string;
  interval: number;
  number_of_payments: number | null;
  start_date: string;
  end_date: string | null;
  total_amount: string | null;
  remaining_installments: number | null;
  amount_paid: string;
  last_successful_charge_date: string | null;
  next_charge_date: string | null;
  retry_count: number;
  max_retries: number;
  /** Why it is PAUSED, CANCELLED or FAILED: who, a code when the platform did it, the text. */
  state_reason: { by: string; code: string | null; reason: string | null; at: string } | null;
  hpp_session_id: string | null;
  custom_fields: { name: string; value: string }[];
  level2_data: Record<string, unknown> | null;
  level3_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export function toContractResource(c: Contract): ContractResource {
  const money = (minor: bigint | null) => (minor === null ? null : formatAmount(minor, c.currency));
  const card = c.paymentMethod?.card ?? null;
  const bank = c.paymentMethod?.bank ?? null;
  const reason =
    c.state === 'PAUSED' ? c.pause : c.state === 'CANCELLED' || c.state === 'FAILED' ? c.ending : null;
  return {
    id: c.id,
    partner_id: c.partnerId,
    merchant_id: c.merchantId,
    customer_id: c.customerId,
    state: c.state,
    payment_method_type: c.paymentMethodType,
    payment_method_token: c.paymentMethod?.vaultToken ?? null,
    card: card && { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
    bank: bank && {
      account_type: bank.accountType,
      account_last4: bank.accountLast4,
      routing_last4: bank.routingLast4,
    },
    use_type: c.useType,
    amount: formatAmount(BigInt(c.amountMinor), c.currency),
    currency: c.currency,
    frequency: c.frequency,
    interval: c.interval,
    number_of_payments: c.numberOfPayments,
    start_date: c.startDate,
    end_date: c.endDate,
    total_amount: money(totalAmountMinor(c)),
    remaining_installments: remainingInstallments(c),
    amount_paid: formatAmount(BigInt(c.amountPaidMinor), c.currency),
    last_successful_charge_date: c.lastSuccessfulChargeDate,
    next_charge_date: nextChargeDate(c),
    retry_count: retryCountOf(c),
    max_retries: c.maxRetries,
    state_reason: reason && {
      by: reason.by,
      code: reason.reasonCode,
      reason: reason.reason,
      at: reason.at,
    },
    hpp_session_id: c.hppSessionId,
    custom_fields: c.customFields.map(({ name, value }) => ({ name, value })),
    level2_data: c.level2Data,
    level3_data: c.level3Data,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    version: c.version,
  };
}

/**
 * The spec's contract list item. `amount_per_period` is a JSON number of major units (the spec
 * types it "number"; only the transaction list reports integer minor units), exact for any amount
 * the API takes (at most 999,999.99). Extensions: `merchant_id`, `next_charge_date`.
 */
export interface ContractListItem {
  id: string;
  merchant_id: string;
  merchant_name: string | null;
  rail: string;
  card_last4: string | null;
  amount_per_period: number;
  currency: string;
  period_unit: string;
  total_periods: number | null;
  periods_completed: number;
  state: string;
  next_charge_date: string | null;
}

export function toContractListItem(c: Contract, merchantName: string | null): ContractListItem {
  const remaining = remainingInstallments(c);
  return {
    id: c.id,
    merchant_id: c.merchantId,
    merchant_name: merchantName,
    rail: c.paymentMethodType,
    card_last4: c.paymentMethod?.card?.last4 ?? null,
    amount_per_period: Number(formatAmount(BigInt(c.amountMinor), c.currency)),
    currency: c.currency,
    period_unit: c.frequency,
    total_periods: remaining === null ? null : c.paidCount + remaining,
    periods_completed: c.paidCount,
    state: c.state,
    next_charge_date: nextChargeDate(c),
  };
}
