import { isVaultTokenFormat, vaultTokenFrom, VAULT_TOKEN_PATTERN } from './vault-token';

const bytes = (n: number, fill = 0xfb) => new Uint8Array(n).fill(fill);

describe('vault tokens', () => {
  it.each([
    [18, 24],
    [24, 32],
    [32, 43],
  ])('%i random bytes give cvt_ + %i URL-safe characters', (n, chars) => {
    const token = vaultTokenFrom(bytes(n));
    expect(token.startsWith('cvt_')).toBe(true);
    expect(token.length - 4).toBe(chars);
    expect(token).toMatch(VAULT_TOKEN_PATTERN);
    expect(isVaultTokenFormat(token)).toBe(true);
  });

  it('encodes as base64url without padding (0xfb 0xff → -_ characters)', () => {
    expect(vaultTokenFrom(new Uint8Array(18).fill(0xff))).toBe(`cvt_${'_'.repeat(24)}`);
    expect(vaultTokenFrom(bytes(18))).not.toMatch(/[+/=]/);
  });

  it('different bytes give different tokens', () => {
    const a = vaultTokenFrom(Uint8Array.from({ length: 24 }, (_, i) => i));
    const b = vaultTokenFrom(Uint8Array.from({ length: 24 }, (_, i) => i + 1));
    expect(a).not.toBe(b);
  });

  it('refuses fewer than 18 random bytes', () => {
    expect(() => vaultTokenFrom(bytes(17))).toThrow(/at least 18/);
  });

  it.each([
    ['cvt_', false],
    [`cvt_${'a'.repeat(23)}`, false],
    [`cvt_${'a'.repeat(24)}`, true],
    [`cvt_${'A-_9'.repeat(8)}`, true],
    [`cvx_${'a'.repeat(24)}`, false],
    [`CVT_${'a'.repeat(24)}`, false],
    [`cvt_${'a'.repeat(23)}+`, false],
    [`cvt_${'a'.repeat(23)}=`, false],
    [` cvt_${'a'.repeat(24)}`, false],
    [`cvt_${'a'.repeat(24)}\n`, false],
    [null, false],
    [42, false],
  ])('isVaultTokenFormat(%j) is %s', (value, expected) => {
    expect(isVaultTokenFormat(value)).toBe(expected);
  });
});
