import { DomainError, NotFound } from '../../../platform/src/problem';

/** An exception id that names no exception, or one of another partner (404). */
export class ReconciliationExceptionNotFound extends NotFound {
  constructor(readonly exceptionId: string) {
    super('reconciliation_exception_not_found', `reconciliation exception ${exceptionId} does not exist`);
  }
}

/** A command the exception refuses for its content (a blank resolution): 422. */
export class ReconciliationExceptionInvalid extends DomainError {
  readonly code = 'reconciliation_exception_invalid';

  constructor(message: string) {
    super(message);
  }
}
