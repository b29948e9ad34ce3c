import { z } from 'zod';
import { formatAmount } from '../../../platform/src/money/amount';
import { CustomFieldValue, Money, Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { USE_TYPES } from '../../../vault/src/domain';
import { RAILS, THREE_DS_FAILURE_REASONS, TRANSACTION_STATES, TRANSACTION_TYPES } from './transaction-states';
import { refundableAmountMinor, totalMinor, type Transaction } from './transaction';

/**
 * The spec's Transaction resource (create form, and `GET /transactions/{id}`). Money is a decimal
 * string in the transaction's currency. Extensions beyond the spec's table (it allows more):
 * `partner_id`, `rail`, `parent_transaction_id`, `use_type`, `approval_code`, `decline_reason`,
 * `refunded_amount`, `refundable_amount`, `total_amount`, `card`/`bank` (brand and last fours only),
 * `sec_code`, `refund_reason`, `reversal_reason`, `return_code`, `settled_at`, `batch_id`,
 * `outcome_pending`, `updated_at`, `version`.
 */
const text = z.string().nullable();
const money = Money.nullable();

export const TransactionResourceSchema = z
  .strictObject({
    id: Uuid,
    transaction_id: Uuid.meta({ description: 'The same as `id`.' }),
    merchant_id: Uuid,
    partner_id: Uuid,
    type: z.enum(TRANSACTION_TYPES),
    rail: z.enum(RAILS),
    state: z.enum(TRANSACTION_STATES),
    amount: money,
    currency: z.string(),
    entry_mode: z.string(),
    surcharge_amount: money,
    surcharge_reversed_amount: money,
    convenience_fee_amount: money,
    convenience_fee_disclosure_acknowledged_at: Timestamp.nullable(),
    convenience_fee_disclosure_channel: text,
    surcharge_disclosure_acknowledged_at: Timestamp.nullable(),
    surcharge_disclosure_channel: text,
    tax_amount: money,
    total_amount: Money,
    refunded_amount: money,
    refundable_amount: Money,
    approval_code: text,
    decline_code: text.meta({ description: 'Why a charge FAILED: `insufficient_funds`, `card_declined`, …' }),
    decline_reason: text,
    avs_response_code: text,
    cv_response_code: text,
    three_ds: z
      .strictObject({
        challenge_url: z.string().meta({ format: 'uri' }),
        acs_transaction_id: z.string(),
        version: z.string(),
        expires_at: Timestamp,
      })
      .nullable(),
    three_ds_failure_reason: z.enum(THREE_DS_FAILURE_REASONS).nullable(),
    custom_fields: z.array(CustomFieldValue),
    level2_data: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: '`po_number`, `merchant_zip`.' }),
    level3_data: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'As sent, with each line item’s `extended_amount` and `tax_included`.' }),
    use_type: z.enum(USE_TYPES).nullable(),
    parent_transaction_id: Uuid.nullable(),
    customer_id: Uuid.nullable(),
    card: z
      .strictObject({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.int(),
        exp_year: z.int(),
        funding: z.string().meta({ description: 'credit, debit, prepaid or unknown' }),
      })
      .nullable(),
    bank: z
      .strictObject({
        account_type: z.enum(['CHECKING', 'SAVINGS']),
        account_last4: z.string(),
        routing_last4: z.string(),
      })
      .nullable(),
    sec_code: text,
    refund_reason: text,
    reversal_reason: z.strictObject({ code: z.string(), description: text }).nullable(),
    return_code: text,
    return_description: text,
    settled_at: Timestamp.nullable(),
    batch_id: Uuid.nullable(),
    outcome_pending: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'Transaction' });

export type TransactionResource = z.infer<typeof TransactionResourceSchema>;

/** The spec's list item: `amount` is integer minor units here (the spec's one asymmetry). */
export const TransactionListItemSchema = z
  .strictObject({
    id: Uuid,
    merchant_id: Uuid,
    merchant_name: text,
    type: z.enum(TRANSACTION_TYPES),
    rail: z.enum(RAILS),
    amount: z.int().meta({ description: 'Integer minor units (cents), unlike every other amount.' }),
    currency: z.string(),
    state: z.enum(TRANSACTION_STATES),
    approval_code: text,
    decline_code: text,
    decline_reason: text,
    card_last4: text,
    routing_last4: text,
    account_last4: text,
    account_type: text,
    customer_id: Uuid.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'TransactionListItem' });

export type TransactionListItem = z.infer<typeof TransactionListItemSchema>;

export function toTransactionResource(t: Transaction): TransactionResource {
  const money = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), t.currency));
  const total = totalMinor(t);
  return {
    id: t.id,
    transaction_id: t.id,
    merchant_id: t.merchantId,
    partner_id: t.partnerId,
    type: t.type,
    rail: t.rail,
    state: t.state,
    amount: money(t.amountMinor),
    currency: t.currency,
    entry_mode: t.entryMode,
    surcharge_amount: money(t.surchargeMinor),
    surcharge_reversed_amount: money(t.surchargeReversedMinor),
    convenience_fee_amount: money(t.convenienceFeeMinor),
    convenience_fee_disclosure_acknowledged_at: t.convenienceFeeDisclosure?.acknowledgedAt ?? null,
    convenience_fee_disclosure_channel: t.convenienceFeeDisclosure?.channel ?? null,
    surcharge_disclosure_acknowledged_at: t.surchargeDisclosure?.acknowledgedAt ?? null,
    surcharge_disclosure_channel: t.surchargeDisclosure?.channel ?? null,
    tax_amount: money(t.taxMinor),
    total_amount: formatAmount(total, t.currency),
    refunded_amount: money(t.refundedMinor),
    refundable_amount: formatAmount(refundableAmountMinor(t), t.currency),
    approval_code: t.approvalCode,
    decline_code: t.declineCode,
    decline_reason: t.declineReason,
    avs_response_code: t.avsResponseCode,
    cv_response_code: t.cvResponseCode,
    three_ds: t.threeDs && {
      challenge_url: t.threeDs.challengeUrl,
      acs_transaction_id: t.threeDs.acsTransactionId,
      version: t.threeDs.version,
      expires_at: t.threeDs.expiresAt,
    },
    three_ds_failure_reason: t.threeDsFailureReason,
    custom_fields: t.customFields.map(({ name, value }) => ({ name, value })),
    level2_data: t.level2Data,
    level3_data: t.level3Data,
    use_type: t.useType,
    parent_transaction_id: t.parentTransactionId,
    customer_id: t.customerId,
    card: t.card && {
      brand: t.card.brand,
      last4: t.card.last4,
      exp_month: t.card.expMonth,
      exp_year: t.card.expYear,
      funding: t.card.funding,
    },
    bank: t.bank && {
      account_type: t.bank.accountType,
      account_last4: t.bank.accountLast4,
      routing_last4: t.bank.routingLast4,
    },
    sec_code: t.secCode,
    refund_reason: t.refundReason,
    reversal_reason: t.reversalReason,
    return_code: t.returnCode,
    return_description: t.returnDescription,
    settled_at: t.settledAt,
    batch_id: t.batchId,
    outcome_pending: t.outcomePending,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    version: t.version,
  };
}

/** The spec's list item; `amount` is integer minor units here (the spec says so for the list). */
export function toTransactionListItem(t: Transaction, merchantName: string | null): TransactionListItem {
  return {
    id: t.id,
    merchant_id: t.merchantId,
    merchant_name: merchantName,
    type: t.type,
    rail: t.rail,
    amount: Number(t.amountMinor),
    currency: t.currency,
    state: t.state,
    approval_code: t.approvalCode,
    decline_code: t.declineCode,
    decline_reason: t.declineReason,
    card_last4: t.card?.last4 ?? null,
    routing_last4: t.bank?.routingLast4 ?? null,
    account_last4: t.bank?.accountLast4 ?? null,
    account_type: t.bank?.accountType ?? null,
    customer_id: t.customerId,
    created_at: t.createdAt,
  };
}
