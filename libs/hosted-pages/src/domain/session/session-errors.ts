import { DomainError, NotFound } from '../../../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/** `POST /hpp/sessions` with a body that breaks a rule (400 `validation_error`). */
export class HppSessionInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/**
 * 501 `not_implemented`: `capture_mode: authorization` would hold the payer's funds for a later
 * capture, a card AUTHORIZATION, which the spec reserves (POST /transactions answers 501 too).
 * Refused rather than accepted and then captured as a SALE.
 */
export class HppCaptureModeReserved extends DomainError {
  readonly code = 'not_implemented';

  constructor() {
    super('capture_mode authorization is reserved: card AUTHORIZATION is not served; use capture_mode sale');
  }
}

/** No such session, or one of another partner (404 `hpp_session_not_found`). */
export class HppSessionNotFound extends NotFound {
  constructor(readonly sessionId: string) {
    super('hpp_session_not_found', `hpp session ${sessionId} does not exist`);
  }
}

/**
 * A command whose facts contradict the session (a price that does not match its amount, a
 * completion without the card of a card session, an expiry before `expires_at`). These are bugs of
 * the calling handler, never of the partner's request: 422 `hpp_session_command_invalid`.
 */
export class HppSessionCommandInvalid extends DomainError {
  readonly code = 'hpp_session_command_invalid';

  constructor(message: string) {
    super(message);
  }
}
