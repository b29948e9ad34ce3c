import { generateKey, hashKey, keyMatches, parseKey } from './secret-key';

describe('secret keys', () => {
  it('generates keys in the spec format with an 8-character prefix and a 24+ character secret', () => {
    const { key, prefix, hash } = generateKey('csk');
    expect(key).toMatch(/^csk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,}$/);
    expect(parseKey(key)).toMatchObject({ kind: 'csk', prefix });
    expect(hash).toBe(hashKey(key));
    expect(hash).not.toContain(key.slice(13));
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('cop').key));
    expect(keys.size).toBe(200);
  });

  it('parses a prefix that contains an underscore', () => {
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
