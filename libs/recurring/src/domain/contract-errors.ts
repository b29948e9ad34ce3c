import { DomainError, NotFound } from '../../../platform/src/problem';

export interface FieldError {
  field: string;
  message: string;
}

/** 404: a contract that does not exist, or another partner's (the two read the same). */
export class ContractNotFound extends NotFound {
  constructor(readonly contractId: string) {
    super('contract_not_found', `contract ${contractId} was not found`);
  }
}

/** 400 `validation_error`, one entry per field. */
export class ContractInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }
}

/**
 * 422 `recurring_update_not_supported`: a PATCH naming `amount`, `frequency` or `max_retries`
 * (spec "Recurring contracts": such changes need cancel and recreate).
 */
export class RecurringUpdateNotSupported extends DomainError {
  readonly code = 'recurring_update_not_supported';
  override readonly retryable = false;
  readonly errors: readonly FieldError[];

  constructor(fields: readonly string[]) {
    super(`${fields.join(', ')} cannot be changed on a contract; cancel it and create a new one`);
    this.errors = fields.map((field) => ({
      field,
      message: 'cannot be changed; cancel the contract and create a new one',
    }));
  }
}

/** 422: the token's rail is not the `payment_method_type` the body names. */
export class ContractPaymentMethodMismatch extends DomainError {
  readonly code = 'payment_method_mismatch';
  override readonly retryable = false;
  readonly errors: readonly FieldError[];

  constructor(declared: string, held: string) {
    super(`payment_method_type is ${declared}, but the payment_method_token holds a ${held} payment method`);
    this.errors = [
      { field: 'payment_method_type', message: `must be ${held} for this payment_method_token` },
    ];
  }
}

/** 422: a command the application built wrong (a bug, never a partner's input). */
export class ContractCommandInvalid extends DomainError {
  readonly code = 'contract_command_invalid';

  constructor(message: string) {
    super(message);
  }
}
