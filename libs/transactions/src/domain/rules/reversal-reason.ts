import { plainTextProblem } from '../../../../platform/src/validation/plain-text';
import type { FieldError } from './field-error';
import { codePoints, isAbsent, isPlainObject, unknownKeys } from './shape';

/**
 * The structured `reversal_reason` of an ACH_REVERSAL (CONTRACT §5a). The codes are the
 * erroneous-entry grounds on which Nacha permits a reversing entry; any other reason is a refund
 * or a new entry, not a reversal.
 */
export const REVERSAL_REASON_CODES = [
  'duplicate_entry',
  'wrong_receiver',
  'wrong_amount',
  'wrong_date',
] as const;

export type ReversalReasonCode = (typeof REVERSAL_REASON_CODES)[number];

export interface ReversalReason {
  code: ReversalReasonCode;
  /** Stored without surrounding whitespace; left out when not given. */
  description?: string;
}

export const REVERSAL_DESCRIPTION_MAX = 200;

const KNOWN = ['code', 'description'];

export function isReversalReasonCode(value: unknown): value is ReversalReasonCode {
  return typeof value === 'string' && (REVERSAL_REASON_CODES as readonly string[]).includes(value);
}

/** Required on an ACH_REVERSAL: a missing or null value is reported as required. */
export function validateReversalReason(input: unknown, path = 'reversal_reason'): FieldError[] {
  if (isAbsent(input)) return [{ field: path, message: 'is required' }];
  if (!isPlainObject(input)) return [{ field: path, message: 'must be an object with code and description' }];
  const errors = unknownKeys(input, KNOWN, path);
  const code = codeMessage(input.code);
  if (code) errors.push({ field: `${path}.code`, message: code });
  const description = descriptionMessage(input.description);
  if (description) errors.push({ field: `${path}.description`, message: description });
  return errors;
}

function codeMessage(value: unknown): string | null {
  if (isAbsent(value)) return 'is required';
  return isReversalReasonCode(value) ? null : `must be one of ${REVERSAL_REASON_CODES.join(', ')}`;
}

function descriptionMessage(value: unknown): string | null {
  // CONTRACT §5a gives the reason as `{code, description}`, both parts required.
  if (isAbsent(value)) return 'is required';
  if (typeof value !== 'string') return 'must be a string';
  const trimmed = value.trim();
  if (trimmed === '') return 'must not be blank';
  if (codePoints(trimmed) > REVERSAL_DESCRIPTION_MAX)
    return `must be at most ${REVERSAL_DESCRIPTION_MAX} characters`;
  return plainTextProblem(trimmed);
}

/** The stored form of a value {@link validateReversalReason} accepted. */
export function toReversalReason(input: { code: string; description?: string | null }): ReversalReason {
  if (!isReversalReasonCode(input.code)) throw new RangeError(`not a reversal reason code: ${input.code}`);
  const description = input.description?.trim();
  return description ? { code: input.code, description } : { code: input.code };
}
