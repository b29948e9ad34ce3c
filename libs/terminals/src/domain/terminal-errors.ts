import { DomainError, NotFound } from '../../../platform/src/problem';

/**
 * 404: no such terminal, or one of another partner (both read the same, so ids of other tenants
 * reveal nothing).
 */
export class TerminalNotFound extends NotFound {
  constructor(readonly terminalId: string) {
    super('terminal_not_found', `terminal ${terminalId} does not exist`);
  }
}

/** 400 `validation_error`: values that break a terminal field rule, each named by its wire field. */
export class TerminalInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly { field: string; message: string }[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/**
 * 409: the merchant already has a terminal with this serial number that is not decommissioned
 * (serial numbers compare without regard to case).
 */
export class TerminalSerialNumberTaken extends DomainError {
  readonly code = 'terminal_serial_number_taken';

  constructor(
    readonly serialNumber: string,
    readonly terminalId: string,
  ) {
    super(`serial_number ${serialNumber} is already registered to terminal ${terminalId} of this merchant`);
  }
}
