/**
 * Vault tokens: `cvt_` + at least 24 URL-safe characters (RFC 4648 base64url alphabet, no
 * padding). A token is opaque and partner-scoped: it says nothing about the card, and a token of
 * another partner is treated exactly like one that does not exist. The randomness arrives from
 * outside (the vault passes `randomBytes`), so this module stays pure.
 */
export const VAULT_TOKEN_PREFIX = 'cvt_';

/** 24 random bytes → 32 characters (192 bits). */
export const VAULT_TOKEN_RANDOM_BYTES = 24;

/** The fewest random bytes accepted: 18 bytes encode to exactly 24 characters. */
export const MIN_VAULT_TOKEN_RANDOM_BYTES = 18;

export const VAULT_TOKEN_PATTERN = /^cvt_[A-Za-z0-9_-]{24,}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (no Buffer: the domain is free of node APIs). */
function base64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (b0 << 16) | (b1 << 8) | b2;
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    if (i + 1 < bytes.length) out += ALPHABET[(n >> 6) & 63];
    if (i + 2 < bytes.length) out += ALPHABET[n & 63];
  }
  return out;
}

/** A token from caller-supplied random bytes (at least 18 of them). */
export function vaultTokenFrom(random: Uint8Array): string {
  if (random.length < MIN_VAULT_TOKEN_RANDOM_BYTES) {
    throw new Error(`a vault token needs at least ${MIN_VAULT_TOKEN_RANDOM_BYTES} random bytes`);
  }
  return VAULT_TOKEN_PREFIX + base64Url(random);
}

/** Whether a string has the shape of a vault token (says nothing about whether it exists). */
export function isVaultTokenFormat(value: unknown): value is string {
  return typeof value === 'string' && VAULT_TOKEN_PATTERN.test(value);
}
