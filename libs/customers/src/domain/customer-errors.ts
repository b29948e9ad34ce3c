import { DomainError, NotFound } from '../../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * 404: no such customer, a deleted one, or one of another merchant or partner (all read the
 * same, so ids of other tenants reveal nothing).
 */
export class CustomerNotFound extends NotFound {
  constructor(readonly customerId: string) {
    super('customer_not_found', `customer ${customerId} does not exist`);
  }
}

/**
 * 400 `validation_error`: a create or PATCH whose values break a customer rule (email format,
 * display_name length, E.164 phone, a complete address, address with clear_address). `errors`
 * names every broken rule by its wire path, e.g. `address.country`.
 */
export class CustomerInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}
