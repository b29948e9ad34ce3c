/**
 * The one base class of business-rule failures. It carries only the spec's machine-readable
 * `code`; the HTTP status comes from one table (problem-status.ts), so the domain stays Nest-free.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Whether the same request may succeed if retried unchanged (spec `retryable`). */
  readonly retryable?: boolean;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A move the state machine does not allow (409 `invalid_state_transition`). */
export class InvalidStateTransition extends DomainError {
  readonly code = 'invalid_state_transition';

  constructor(
    readonly aggregate: string,
    readonly from: string,
    readonly action: string,
  ) {
    super(`${aggregate} in ${from} does not allow ${action}`);
  }
}

/** Two writers raced on one stream and the retries ran out (409 `concurrency_conflict`). */
export class ConcurrencyConflict extends DomainError {
  readonly code = 'concurrency_conflict';
  override readonly retryable = true;

  constructor(readonly stream: string) {
    super(`${stream} was changed by another request at the same time; retry the request`);
  }
}

/** A referenced record does not exist or belongs to another partner: the two read the same. */
export class NotFound extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
