import { generateKey, hashKey, KEY_ALPHABET, keyMatches, parseKey, randomAlphanumeric } from './secret-key';

describe('secret keys', () => {
  it('generates keys in the spec format with an 8-character prefix and a 24+ character secret', () => {
    const { key, prefix, hash } = generateKey('csk');
    expect(key).toMatch(/^csk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    expect(parseKey(key)).toMatchObject({ kind: 'csk', prefix });
    expect(hash).toBe(hashKey(key));
    expect(hash).not.toContain(key.slice(13));
  });

  it('generates and parses terminal keys (`ctk_`) in the same shape, a kind of their own', () => {
    const { key, prefix, hash } = generateKey('ctk');
    expect(key).toMatch(/^ctk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    expect(parseKey(key)).toEqual({ kind: 'ctk', prefix, secret: key.slice(13) });
    expect(keyMatches(key, hash)).toBe(true);
    expect(parseKey(`ctx${key.slice(3)}`)).toBeNull();
  });

  it('never puts `_` (or `-`) in a prefix or a secret, so a key splits on `_` into kind, prefix, secret', () => {
    // With base64url, 12% of 8-character prefixes hold a `_`: 2,000 keys would show hundreds.
    for (let i = 0; i < 2000; i++) {
      const { key, prefix } = generateKey(i % 2 ? 'csk' : 'cop');
      expect(prefix).toMatch(/^[A-Za-z0-9]{8}$/);
      const parts = key.split('_');
      expect(parts).toHaveLength(3);
      expect(parts[1]).toBe(prefix);
      expect(parts[2]).toMatch(/^[A-Za-z0-9]{32}$/);
    }
  });

  it('maps the random bytes to letters and digits only, each equally often', () => {
    // A source that cycles through all 256 byte values: every input the generator can meet.
    const everyByte = () => {
      let next = 0;
      return (size: number) => Uint8Array.from({ length: size }, () => next++ % 256);
    };
    // 0..247 are taken (4 × 62), 248..255 dropped: each character exactly 4 times.
    const text = randomAlphanumeric(248, everyByte());
    const counts = new Map<string, number>();
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...KEY_ALPHABET].sort().join(''));
    expect(new Set(counts.values())).toEqual(new Set([4]));

    const source = everyByte();
    for (let i = 0; i < 100; i++)
      expect(generateKey('csk', source).key).toMatch(/^csk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('cop').key));
    expect(keys.size).toBe(200);
  });

  it('parses a prefix that contains an underscore (keys issued before prefixes were alphanumeric)', () => {
    expect(parseKey('csk_ab_cd-EF_0123456789abcdefghijklmn')).toEqual({
      kind: 'csk',
      prefix: 'ab_cd-EF',
      secret: '0123456789abcdefghijklmn',
    });
  });

  it.each([
    ['empty', ''],
    ['wrong kind', 'sk_live_abcdefgh_0123456789abcdefghijklmn'],
    ['short prefix', 'csk_abc_0123456789abcdefghijklmnop'],
    ['short secret', 'csk_abcdefgh_0123456789'],
    ['not url-safe', 'csk_abcdefgh_0123456789abcdefghijklm+/='],
    ['whitespace', 'csk_abcdefgh_0123456789abcdefghijklmn '],
  ])('rejects a malformed key (%s)', (_label, raw) => expect(parseKey(raw)).toBeNull());

  it('matches only the exact key against the stored hash', () => {
    const { key, hash } = generateKey('csk');
    expect(keyMatches(key, hash)).toBe(true);
    expect(keyMatches(`${key}x`, hash)).toBe(false);
    expect(
      keyMatches(
        key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
        hash,
      ),
    ).toBe(false);
    expect(keyMatches(key, 'not-a-hash')).toBe(false);
  });
});
