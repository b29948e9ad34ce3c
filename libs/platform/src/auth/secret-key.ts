import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Partner API keys (`csk_<prefix>_<secret>`), the operator key (`cop_<prefix>_<secret>`) and
 * terminal keys (`ctk_<prefix>_<secret>`, one per provisioned terminal, docs/terminals.md).
 * The prefix (8 characters) identifies the key in interfaces and logs; the secret (32
 * characters, 190 bits) is never stored: only its SHA-256 hash is. A fast hash is sound here
 * because the secret is random and long, unlike a password; the lookup goes by prefix and the
 * comparison of hashes is constant-time.
 *
 * New keys use letters and digits only, so a client that splits a key on `_` gets exactly kind,
 * prefix and secret, and a double click selects the whole key. Keys issued earlier may hold `_`
 * or `-` in prefix and secret (base64url); they are still parsed and accepted.
 */
export type KeyKind = 'csk' | 'cop' | 'ctk';

export interface ParsedKey {
  kind: KeyKind;
  prefix: string;
  secret: string;
}

const KEY = /^(csk|cop|ctk)_([A-Za-z0-9_-]{8})_([A-Za-z0-9_-]{24,256})$/;

export function parseKey(raw: string): ParsedKey | null {
  // The prefix of an older key may itself contain `_`: the shape is matched as a whole, by the
  // prefix's fixed length, never split on `_`.
  const match = KEY.exec(raw);
  if (!match) return null;
  return { kind: match[1] as KeyKind, prefix: match[2], secret: match[3] };
}

export const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PREFIX_LENGTH = 8;
export const SECRET_LENGTH = 32;

/** Random bytes; injectable so a test can drive generation through every byte value. */
export type RandomSource = (size: number) => Uint8Array;

/**
 * `length` characters of {@link KEY_ALPHABET}, uniformly: bytes of 248 and above are dropped
 * (248 = 4 × 62), so no character is likelier than another.
 */
export function randomAlphanumeric(length: number, random: RandomSource = randomBytes): string {
  const limit = 256 - (256 % KEY_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte >= limit) continue;
      out += KEY_ALPHABET[byte % KEY_ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateKey(
  kind: KeyKind,
  random: RandomSource = randomBytes,
): { key: string; prefix: string; hash: string } {
  const prefix = randomAlphanumeric(PREFIX_LENGTH, random); // 47.6 bits: a lookup id, not a secret
  const secret = randomAlphanumeric(SECRET_LENGTH, random); // 190.5 bits
  const key = `${kind}_${prefix}_${secret}`;
  return { key, prefix, hash: hashKey(key) };
}

/** The stored form: hex SHA-256 of the whole key string. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
