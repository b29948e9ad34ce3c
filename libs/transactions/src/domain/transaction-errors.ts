import { DomainError, NotFound } from '../../../platform/src/problem';

export type { FieldError } from './rules/field-error';

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
