import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The hosted form's CSRF token: stateless, signed, bound to one session.
 *
 * Why a signed token and not a cookie: in iframe mode the page is framed by the partner's site,
 * so to the browser it is a third-party document, and third-party cookies are blocked or
 * partitioned (Safari, Firefox, Chrome with tracking protection). A session or double-submit
 * cookie would then never come back with the post and every payer would be refused. A token in
 * the form itself travels with the post whatever the cookie policy, and its HMAC lets the
 * server check it without storing anything.
 *
 * Token = base64url( issuedAt (ms since epoch, 8 bytes big-endian) ‖ HMAC-SHA256(key, message) ),
 * message = `hpp-csrf-v1|{sessionId}|{issuedAt}`. The fixed prefix keeps these MACs apart from
 * any other use of the same key. A token may be posted more than once while it is fresh: the
 * session itself limits attempts and completes only once.
 */

/** A token dated more than this ahead of the server's clock is refused (clocks drift; forgers don't). */
export const CSRF_MAX_CLOCK_SKEW_MS = 60_000;
/** HMAC-SHA256 keys shorter than its output weaken it; a short key is a configuration bug. */
export const CSRF_KEY_MIN_BYTES = 32;

const ISSUED_AT_BYTES = 8;
const MAC_BYTES = 32;
const TOKEN_BYTES = ISSUED_AT_BYTES + MAC_BYTES;
/** Unpadded base64url of 40 bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{54}$/;

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length < CSRF_KEY_MIN_BYTES) {
    throw new Error(`CSRF key must be at least ${CSRF_KEY_MIN_BYTES} bytes`);
  }
}

function mac(key: Buffer, sessionId: string, issuedAt: number): Buffer {
  return createHmac('sha256', key).update(`hpp-csrf-v1|${sessionId}|${issuedAt}`, 'utf8').digest();
}

export function issueCsrfToken(key: Buffer, sessionId: string, now: Date): string {
  assertKey(key);
  const issuedAt = now.getTime();
  if (!Number.isSafeInteger(issuedAt) || issuedAt < 0)
    throw new Error('CSRF issue time must be a valid date');
  const head = Buffer.alloc(ISSUED_AT_BYTES);
  head.writeBigUInt64BE(BigInt(issuedAt));
  return Buffer.concat([head, mac(key, sessionId, issuedAt)]).toString('base64url');
}

/**
 * True only for a token this key issued for this session, at most `maxAgeMs` old (a token exactly
 * `maxAgeMs` old is expired) and not dated more than {@link CSRF_MAX_CLOCK_SKEW_MS} ahead of `now`.
 * Anything else, including a token that is not a string, is false; only a bad key throws.
 */
export function verifyCsrfToken(
  key: Buffer,
  sessionId: string,
  token: unknown,
  now: Date,
  maxAgeMs: number,
): boolean {
  assertKey(key);
  if (!Number.isFinite(maxAgeMs) || maxAgeMs <= 0) throw new Error('CSRF maxAgeMs must be positive');
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return false;
  const bytes = Buffer.from(token, 'base64url');
  // Node's decoder ignores stray bits; only the one canonical spelling of the bytes is accepted.
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token) return false;
  const issuedAtBig = bytes.readBigUInt64BE(0);
  if (issuedAtBig > BigInt(Number.MAX_SAFE_INTEGER)) return false;
  const issuedAt = Number(issuedAtBig);
  const age = now.getTime() - issuedAt;
  if (!(age >= -CSRF_MAX_CLOCK_SKEW_MS && age < maxAgeMs)) return false;
  // issuedAt is not secret, so checking it first leaks nothing; the MAC is compared in constant time.
  return timingSafeEqual(bytes.subarray(ISSUED_AT_BYTES), mac(key, sessionId, issuedAt));
}
