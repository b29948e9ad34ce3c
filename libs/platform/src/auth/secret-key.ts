import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Partner API keys (`csk_<prefix>_<secret>`) and the operator key (`cop_<prefix>_<secret>`).
 * The prefix (8 URL-safe characters) identifies the key in interfaces and logs; the secret (32
 * URL-safe characters, 192 bits) is never stored: only its SHA-256 hash is. A fast hash is
 * sound here because the secret is random and long, unlike a password; the lookup goes by
 * prefix and the comparison of hashes is constant-time.
 */
export type KeyKind = 'csk' | 'cop';

export interface ParsedKey {
  kind: KeyKind;
  prefix: string;
  secret: string;
}

const KEY = /^(csk|cop)_([A-Za-z0-9_-]{8})_([A-Za-z0-9_-]{24,256})$/;

export function parseKey(raw: string): ParsedKey | null {
  // The prefix may itself contain `_`, so the shape is matched as a whole, not split.
  const match = KEY.exec(raw);
  if (!match) return null;
  return { kind: match[1] as KeyKind, prefix: match[2], secret: match[3] };
}

export function generateKey(kind: KeyKind): { key: string; prefix: string; hash: string } {
  const prefix = randomBytes(6).toString('base64url'); // 8 characters
  const secret = randomBytes(24).toString('base64url'); // 32 characters
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
