import { DomainError, NotFound } from '../../../platform/src/problem';

/**
 * A batch the run must never open: no members, a member twice, a member of another currency or
 * of a type that does not settle. The run filters these out first, so this is a guard (422).
 */
export class SettlementBatchInvalid extends DomainError {
  readonly code = 'settlement_batch_invalid';

  constructor(message: string) {
    super(message);
  }
}

/** A batch id that names no batch (404 `settlement_batch_not_found`). */
export class SettlementBatchNotFound extends NotFound {
  constructor(readonly batchId: string) {
    super('settlement_batch_not_found', `settlement batch ${batchId} does not exist`);
  }
}
