import { plainTextProblem } from '../../../platform/src/validation/plain-text';
import { TerminalInvalid } from './terminal-errors';

/**
 * The terminal's field rules (docs/terminals.md). Lengths count Unicode code points.
 *
 * - `serial_number`: the maker's serial as printed on the device: 1 to 64 letters, digits, `.`,
 *   `_` or `-`, starting and ending with a letter or digit (`PAX-A920-0820123456`,
 *   `275-123-456`). Stored as sent; unique per merchant without regard to case.
 * - `model`: the device model as the partner names it (`PAX A920 Pro`): single-line text, 1 to
 *   100 characters, trimmed. The spec shows no value set, so none is imposed.
 * - `firmware_version`: as the terminal reports it (`3.2.1-b45`): single-line text, 1 to 64
 *   characters, trimmed.
 */
export const TERMINAL_LIMITS = { serialNumberMax: 64, modelMax: 100, firmwareVersionMax: 64 } as const;

export const SERIAL_NUMBER = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9])?$/;

type FieldError = { field: string; message: string };

/** The problem with a free-text value (blank, too long, a forbidden character), or null. */
function textProblem(value: string, max: number): string | null {
  if (value.trim() === '') return 'must not be blank';
  if ([...value.trim()].length > max) return `must be at most ${max} characters`;
  return plainTextProblem(value);
}

export function serialNumberProblem(value: string): string | null {
  if (value === '') return 'must not be blank';
  if (SERIAL_NUMBER.test(value)) return null;
  return `must be 1 to ${TERMINAL_LIMITS.serialNumberMax} letters, digits, '.', '_' or '-', starting and ending with a letter or digit`;
}

export const modelProblem = (value: string): string | null => textProblem(value, TERMINAL_LIMITS.modelMax);

export const firmwareVersionProblem = (value: string): string | null =>
  textProblem(value, TERMINAL_LIMITS.firmwareVersionMax);

/** Throws 400 `validation_error` naming every field whose value breaks its rule. */
export function assertTerminalFields(fields: {
  serialNumber?: string;
  model?: string;
  firmwareVersion?: string | null;
}): void {
  const errors: FieldError[] = [];
  const check = (field: string, value: string | null | undefined, problem: (v: string) => string | null) => {
    if (value == null) return;
    const message = problem(value);
    if (message) errors.push({ field, message });
  };
  check('serial_number', fields.serialNumber, serialNumberProblem);
  check('model', fields.model, modelProblem);
  check('firmware_version', fields.firmwareVersion, firmwareVersionProblem);
  if (errors.length > 0) throw new TerminalInvalid(errors);
}

/** How a serial number compares within a merchant: without regard to case. */
export const serialNumberKey = (merchantId: string, serialNumber: string): string =>
  `${merchantId}:${serialNumber.toUpperCase()}`;
