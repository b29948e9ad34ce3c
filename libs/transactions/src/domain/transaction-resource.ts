import { formatAmount } from '../../../platform/src/money/amount';
import { refundableAmountMinor, totalMinor, type Transaction } from './transaction';

/**
 * The spec's Transaction resource (create form, and `GET /transactions/{id}`). Money is a decimal
 * string in the transaction's currency. Extensions beyond the spec's table (it allows more):
 * `partner_id`, `rail`, `parent_transaction_id`, `use_type`, `approval_code`, `decline_reason`,
 * `refunded_amount`, `refundable_amount`, `total_amount`, `card`/`bank` (brand and last fours only),
 * `sec_code`, `refund_reason`, `reversal_reason`, `return_code`, `settled_at`, `batch_id`,
 * `outcome_pending`, `updated_at`, `version`.
 */
export function toTransactionResource(t: Transaction) {
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

export type TransactionResource = ReturnType<typeof toTransactionResource>;

/** The spec's list item; `amount` is integer minor units here (the spec says so for the list). */
export function toTransactionListItem(t: Transaction, merchantName: string | null) {
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
