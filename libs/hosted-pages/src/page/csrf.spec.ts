import { CSRF_MAX_CLOCK_SKEW_MS, issueCsrfToken, verifyCsrfToken } from './csrf';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const SESSION = '5d8e2a10-3c4b-4f6a-9b7c-1d2e3f405162';
const OTHER_SESSION = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const MAX_AGE = 30 * 60 * 1000;
const at = (ms: number) => new Date(T0.getTime() + ms);

/** The same token with one character changed at `index` (to another base64url character). */
function flip(token: string, index: number): string {
  const replacement = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

describe('CSRF token', () => {
  const token = issueCsrfToken(KEY, SESSION, T0);

  it('is URL- and form-safe text of fixed length', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{54}$/);
  });

  it('carries its issue time in the clear and a MAC after it', () => {
    const bytes = Buffer.from(token, 'base64url');
    expect(bytes).toHaveLength(40);
    expect(Number(bytes.readBigUInt64BE(0))).toBe(T0.getTime());
  });

  it('round-trips for the same key and session', () => {
    expect(verifyCsrfToken(KEY, SESSION, token, T0, MAX_AGE)).toBe(true);
    expect(verifyCsrfToken(KEY, SESSION, token, at(MAX_AGE - 1), MAX_AGE)).toBe(true);
  });

  it('is refused for another session', () => {
    expect(verifyCsrfToken(KEY, OTHER_SESSION, token, T0, MAX_AGE)).toBe(false);
  });

  it('is refused under another key', () => {
    expect(verifyCsrfToken(OTHER_KEY, SESSION, token, T0, MAX_AGE)).toBe(false);
  });

  it('is refused when any character is changed (issue time or MAC)', () => {
    for (let i = 0; i < token.length - 1; i++) {
      expect(verifyCsrfToken(KEY, SESSION, flip(token, i), T0, MAX_AGE)).toBe(false);
    }
  });

  it('is refused when re-dated: a new time under the old MAC', () => {
    const bytes = Buffer.from(token, 'base64url');
    bytes.writeBigUInt64BE(BigInt(T0.getTime() + 1000), 0);
    expect(verifyCsrfToken(KEY, SESSION, bytes.toString('base64url'), T0, MAX_AGE)).toBe(false);
  });

  it('expires at maxAgeMs (the boundary instant is expired)', () => {
    expect(verifyCsrfToken(KEY, SESSION, token, at(MAX_AGE), MAX_AGE)).toBe(false);
    expect(verifyCsrfToken(KEY, SESSION, token, at(MAX_AGE + 60_000), MAX_AGE)).toBe(false);
  });

  it('tolerates a clock up to 60 s behind the issuer, not more', () => {
    expect(verifyCsrfToken(KEY, SESSION, token, at(-CSRF_MAX_CLOCK_SKEW_MS), MAX_AGE)).toBe(true);
    expect(verifyCsrfToken(KEY, SESSION, token, at(-CSRF_MAX_CLOCK_SKEW_MS - 1), MAX_AGE)).toBe(false);
  });

  it('refuses a validly signed token dated far in the future', () => {
    const future = issueCsrfToken(KEY, SESSION, at(10 * 60 * 1000));
    expect(verifyCsrfToken(KEY, SESSION, future, T0, MAX_AGE)).toBe(false);
  });

  it.each([
    ['not a string', 12345],
    ['an array', ['a', 'b']],
    ['empty', ''],
    ['too short', 'abc'],
    ['padded', `${'A'.repeat(54)}==`],
    ['standard base64 characters', `${'A'.repeat(52)}+/`],
    ['whitespace', `${'A'.repeat(53)} `],
  ])('refuses a malformed token: %s', (_label, value) => {
    expect(verifyCsrfToken(KEY, SESSION, value, T0, MAX_AGE)).toBe(false);
  });

  it('refuses a non-canonical spelling of the right bytes', () => {
    // 40 bytes need 53⅓ characters: the last one carries 4 unused bits Node's decoder ignores.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(token[53]);
    const variant =
      token.slice(0, 53) + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1];
    expect(Buffer.from(variant, 'base64url').equals(Buffer.from(token, 'base64url'))).toBe(true);
    expect(verifyCsrfToken(KEY, SESSION, variant, T0, MAX_AGE)).toBe(false);
  });

  it('refuses a key shorter than 32 bytes on both sides', () => {
    expect(() => issueCsrfToken(Buffer.alloc(16), SESSION, T0)).toThrow('at least 32 bytes');
    expect(() => verifyCsrfToken(Buffer.alloc(0), SESSION, token, T0, MAX_AGE)).toThrow('at least 32 bytes');
  });

  it('refuses a non-positive maxAgeMs as a programming error', () => {
    expect(() => verifyCsrfToken(KEY, SESSION, token, T0, 0)).toThrow('maxAgeMs');
  });

  it('differs per session and per issue time', () => {
    expect(issueCsrfToken(KEY, OTHER_SESSION, T0)).not.toBe(token);
    expect(issueCsrfToken(KEY, SESSION, at(1))).not.toBe(token);
  });
});
