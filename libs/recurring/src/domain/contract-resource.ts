import { z } from 'zod';
import { formatAmount } from '../../../platform/src/money/amount';
import {
  CustomFieldValue,
  DateOnly,
  Money,
  Timestamp,
  Uuid,
} from '../../../platform/src/openapi/wire-schemas';
import { CONTRACT_FREQUENCIES } from './contract-calendar';
import { CONTRACT_ACTORS, CONTRACT_RAILS, CONTRACT_USE_TYPES } from './contract-events';
import { CONTRACT_STATES } from './contract-states';
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
 * `state_reason`, `updated_at`, `version`. The schema is the document's (docs/adr/0007); the
 * mapper is typed by it.
 */
export const ContractResourceSchema = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    merchant_id: Uuid,
    customer_id: Uuid.nullable(),
    state: z.enum(CONTRACT_STATES),
    payment_method_type: z.enum(CONTRACT_RAILS),
    payment_method_token: z.string().nullable().meta({ description: 'The vault token charged (`cvt_…`).' }),
    card: z
      .strictObject({ brand: z.string(), last4: z.string(), exp_month: z.int(), exp_year: z.int() })
      .nullable(),
    bank: z
      .strictObject({ account_type: z.string(), account_last4: z.string(), routing_last4: z.string() })
      .nullable(),
    use_type: z.enum(CONTRACT_USE_TYPES),
    amount: Money,
    currency: z.string(),
    frequency: z.enum(CONTRACT_FREQUENCIES),
    interval: z.int().min(1),
    number_of_payments: z.int().min(1).nullable(),
    start_date: DateOnly,
    end_date: DateOnly.nullable(),
    total_amount: Money.nullable().meta({ description: 'Null for an open-ended contract.' }),
    remaining_installments: z.int().min(0).nullable(),
    amount_paid: Money,
    last_successful_charge_date: DateOnly.nullable(),
    next_charge_date: DateOnly.nullable(),
    retry_count: z.int().min(0),
    max_retries: z.int().min(0),
    state_reason: z
      .strictObject({
        by: z.enum(CONTRACT_ACTORS),
        code: z
          .string()
          .nullable()
          .meta({ description: 'Set when the platform did it (a hold, a decline).' }),
        reason: z.string().nullable(),
        at: Timestamp,
      })
      .nullable()
      .meta({ description: 'Why it is PAUSED, CANCELLED or FAILED.' }),
    hpp_session_id: Uuid.nullable(),
    custom_fields: z.array(CustomFieldValue),
    level2_data: z.record(z.string(), z.unknown()).nullable(),
    level3_data: z.record(z.string(), z.unknown()).nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: z.int().min(1),
  })
  .meta({ id: 'Contract' });
export type ContractResource = z.infer<typeof ContractResourceSchema>;

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
export const ContractListItemSchema = z
  .strictObject({
    id: Uuid,
    merchant_id: Uuid,
    merchant_name: z.string().nullable(),
    rail: z.enum(CONTRACT_RAILS),
    card_last4: z.string().nullable(),
    amount_per_period: z.number().meta({ description: 'Major units as a JSON number (spec: "number").' }),
    currency: z.string(),
    period_unit: z.enum(CONTRACT_FREQUENCIES),
    total_periods: z.int().min(0).nullable(),
    periods_completed: z.int().min(0),
    state: z.enum(CONTRACT_STATES),
    next_charge_date: DateOnly.nullable(),
  })
  .meta({ id: 'ContractListItem' });
export type ContractListItem = z.infer<typeof ContractListItemSchema>;

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
