import { DomainError } from '../../../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The HTTP status each code here is meant to answer with. problem-status.ts is the one table
 * (it already has `validation_error` 400 and `invalid_state_transition` 409, and answers 422 for
 * unknown domain codes); these rows belong in it. A CLOSED merchant is the platform's
 * InvalidStateTransition (409). The merchant's absence is the handler's 404 `merchant_not_found`.
 */
export const FEES_PROBLEM_STATUS: Readonly<Record<string, number>> = {
  validation_error: 400,
  invalid_state_transition: 409,
  surcharge_not_eligible: 422,
  surcharge_not_allowed_on_debit: 422,
  surcharge_exceeds_cap: 422,
  convenience_fee_not_eligible: 422,
  convenience_fee_must_be_flat: 422,
};

/** A body that is not well formed (400 `validation_error`); `errors` names every broken rule. */
export class FeeRequestInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/** 422: enabling a surcharge program the merchant is not eligible for; `reasons` as in fee-eligibility. */
export class SurchargeNotEligible extends DomainError {
  readonly code = 'surcharge_not_eligible';
  readonly errors: FieldError[];

  constructor(
    readonly merchantId: string,
    readonly reasons: readonly string[],
  ) {
    super(`merchant ${merchantId} may not surcharge: ${reasons.join(', ')}`);
    this.errors = reasons.map((reason) => ({ field: 'enabled', message: `not eligible: ${reason}` }));
  }
}

/** 422: enabling a convenience-fee program the merchant is not eligible for. */
export class ConvenienceFeeNotEligible extends DomainError {
  readonly code = 'convenience_fee_not_eligible';
  readonly errors: FieldError[];

  constructor(
    readonly merchantId: string,
    readonly reasons: readonly string[],
  ) {
    super(`merchant ${merchantId} may not charge a convenience fee: ${reasons.join(', ')}`);
    this.errors = reasons.map((reason) => ({ field: 'enabled', message: `not eligible: ${reason}` }));
  }
}

/** 422: debit and prepaid cards are never surcharged (network rules; Durbin-regulated debit). */
export class SurchargeNotAllowedOnDebit extends DomainError {
  readonly code = 'surcharge_not_allowed_on_debit';
  readonly errors: FieldError[];

  constructor(readonly cardTypes: readonly string[]) {
    super(`a surcharge may apply to credit cards only, not ${cardTypes.join(', ')}`);
    this.errors = [
      { field: 'card_types', message: `must be ["credit"]; ${cardTypes.join(', ')} cannot be surcharged` },
    ];
  }
}

/**
 * 422: the surcharge rate is above the lowest applicable cap (network maximum, the merchant's
 * cost of acceptance, the US state's cap). Also raised by a fee-profile change that would leave an
 * enabled surcharge above its new cap: lower or disable the surcharge first.
 */
export class SurchargeExceedsCap extends DomainError {
  readonly code = 'surcharge_exceeds_cap';
  readonly errors: FieldError[];

  constructor(
    readonly percentBps: number,
    readonly maxPercentBps: number,
  ) {
    super(`a surcharge of ${percentBps} bps is above the cap of ${maxPercentBps} bps`);
    this.errors = [{ field: 'percent_bps', message: `must be at most ${maxPercentBps}` }];
  }
}

/** 422: card-network rules require a flat convenience fee on cards; PERCENT is for ACH-only programs. */
export class ConvenienceFeeMustBeFlat extends DomainError {
  readonly code = 'convenience_fee_must_be_flat';
  readonly errors: FieldError[] = [
    { field: 'amount_type', message: 'must be FIXED when applies_to includes card' },
  ];

  constructor() {
    super('a convenience fee on card payments must be a flat amount (amount_type FIXED)');
  }
}
