import { DomainError, NotFound } from '../../../platform/src/problem';
import type { FieldError } from './rules/field-error';

export type { FieldError };

/** No such transaction, or one of another partner (404 `transaction_not_found`). */
export class TransactionNotFound extends NotFound {
  constructor(readonly transactionId: string) {
    super('transaction_not_found', `transaction ${transactionId} does not exist`);
  }
}

/** A refund above what is left of the original (422 `amount_exceeds_refundable`). */
export class AmountExceedsRefundable extends DomainError {
  readonly code = 'amount_exceeds_refundable';
  override readonly retryable = false;

  constructor(
    readonly requestedMinor: bigint,
    readonly refundableMinor: bigint,
  ) {
    super(`the refund exceeds the refundable remainder of the original transaction`);
  }
}

/** ACH_REVERSAL after the NACHA erroneous-entry window (422 `nacha_reversal_window_expired`). */
export class NachaReversalWindowExpired extends DomainError {
  readonly code = 'nacha_reversal_window_expired';
  override readonly retryable = false;

  constructor(readonly deadline: string) {
    super(`the NACHA reversal window closed at ${deadline} (5 banking days after settlement)`);
  }
}

/** A command whose facts contradict the transaction: a bug of the calling handler (422). */
export class TransactionCommandInvalid extends DomainError {
  readonly code = 'transaction_command_invalid';

  constructor(message: string) {
    super(message);
  }
}

/** 502 `gateway_outcome_unknown`: retry with the same Idempotency-Key, or read the transaction. */
export class GatewayOutcomeUnknown extends DomainError {
  readonly code = 'gateway_outcome_unknown';
  override readonly retryable = true;

  constructor(readonly transactionId: string) {
    super(
      `the gateway's answer for transaction ${transactionId} is not known yet; it is recorded as pending. ` +
        'Retry with the SAME Idempotency-Key (a new key risks a double charge) or read the transaction.',
    );
  }
}

/** 422 `merchant_not_transactable` (CONTRACT §5a). */
export class MerchantNotTransactable extends DomainError {
  readonly code = 'merchant_not_transactable';
  override readonly retryable = false;

  constructor(merchantId: string, state: string, environment: string) {
    super(
      `merchant ${merchantId} is ${state}; it must be ${environment === 'production' ? 'LIVE' : 'ACTIVE or LIVE'} to transact`,
    );
  }
}

/** 422: the vault token is of the other rail (a bank account on SALE, a card on ACH_DEBIT). */
export class PaymentMethodMismatch extends DomainError {
  readonly code = 'payment_method_mismatch';
  override readonly retryable = false;

  constructor(type: string, method: string) {
    super(
      `a ${type} needs a ${type === 'SALE' ? 'card' : 'bank account'} vault token; this one holds a ${method}`,
    );
  }
}

/** 422: `customer_id` names another customer than the one the vault entry belongs to. */
export class CustomerMismatch extends DomainError {
  readonly code = 'customer_mismatch';
  override readonly retryable = false;

  constructor() {
    super('customer_id does not match the customer the vault token belongs to');
  }
}

/** 422 with one entry per field: values that break the merchant's custom-field configuration. */
export class CustomFieldsInvalid extends DomainError {
  readonly code = 'custom_fields_invalid';
  override readonly retryable = false;

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }
}
