import { DomainError } from '../../../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The HTTP status each code here is meant to answer with. problem-status.ts is the one table and
 * already lists `validation_error` as 400. The merchant's absence (or another partner's merchant)
 * is the handler's 404 `merchant_not_found`, before any decision.
 */
export const CUSTOM_FIELDS_PROBLEM_STATUS: Readonly<Record<string, number>> = {
  validation_error: 400,
};

/**
 * A `PUT /config/custom-fields/merchants/{merchantId}` body whose `fields` break a rule (400
 * `validation_error`), the 10-field limit included: it is a bound of the resource's shape.
 * `errors` names every broken rule, e.g. `fields[2].regEx`.
 */
export class CustomFieldsInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/**
 * `custom_fields` of a transaction, contract or hosted-page checkout that break the merchant's
 * configuration (400 `validation_error`), e.g. `custom_fields[1].value`. For the callers of
 * validateCustomFieldValues; nothing in this folder throws it.
 */
export class CustomFieldValuesInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}
