import type { FieldError } from './field-error';
import { isAbsent } from './shape';

/**
 * `refund_reason` on a PARTIAL_REFUND (optional; CONTRACT §5a). The spec shows only the sample
 * `customer_requested` and leaves the set open, so it is a closed list rather than free text:
 * reporting can group on it and a typo is refused instead of stored. The list is the spec's
 * sample plus the reasons processors and card schemes commonly distinguish (duplicate charge,
 * fraud, goods not received, goods not as described), and `other` for anything else.
 */
export const REFUND_REASONS = [
  'customer_requested',
  'duplicate',
  'fraudulent',
  'product_not_received',
  'product_unacceptable',
  'other',
] as const;

export type RefundReason = (typeof REFUND_REASONS)[number];

export function isRefundReason(value: unknown): value is RefundReason {
  return typeof value === 'string' && (REFUND_REASONS as readonly string[]).includes(value);
}

/** Optional: absent or null is fine; otherwise one of {@link REFUND_REASONS}, exactly (lower case). */
export function validateRefundReason(input: unknown, path = 'refund_reason'): FieldError[] {
  if (isAbsent(input) || isRefundReason(input)) return [];
  const message =
    typeof input === 'string' ? `must be one of ${REFUND_REASONS.join(', ')}` : 'must be a string';
  return [{ field: path, message }];
}
