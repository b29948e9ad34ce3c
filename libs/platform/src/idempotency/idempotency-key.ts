/**
 * The `Idempotency-Key` header's rules (spec Limits): 1 to 128 characters of letters, digits,
 * `.`, `_`, `:` and `-` (base64url passes, padded base64 does not); keys with the prefixes the
 * platform derives for its own writes are refused so a partner can never collide with them.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]+$/;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
export const RESERVED_IDEMPOTENCY_PREFIXES = ['hpp:', 'recurring:', 'rb:', 'inv-charge:', 'inv-installment:'];

export type IdempotencyKeyCheck =
  | { ok: true; key: string }
  | { ok: false; code: 'validation_error' | 'idempotency_key_reserved'; message: string };

export function checkIdempotencyKey(raw: string | string[] | undefined): IdempotencyKeyCheck {
  if (raw === undefined) {
    return { ok: false, code: 'validation_error', message: 'is required on every POST, PUT and PATCH' };
  }
  if (Array.isArray(raw)) return { ok: false, code: 'validation_error', message: 'must be sent once' };
  if (raw.length < 1 || raw.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return { ok: false, code: 'validation_error', message: 'must be 1 to 128 characters long' };
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    return {
      ok: false,
      code: 'validation_error',
      message: 'may contain only letters, digits, ".", "_", ":" and "-"',
    };
  }
  const reserved = RESERVED_IDEMPOTENCY_PREFIXES.find((prefix) => raw.startsWith(prefix));
  if (reserved) {
    return {
      ok: false,
      code: 'idempotency_key_reserved',
      message: `keys starting with "${reserved}" are reserved for the platform`,
    };
  }
  return { ok: true, key: raw };
}
