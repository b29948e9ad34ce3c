import { checkIdempotencyKey } from './idempotency-key';

describe('checkIdempotencyKey', () => {
  it.each([
    ['a'],
    ['x'.repeat(128)],
    ['order-2026.11.23_a:b'],
    ['Zm9vYmFy_-'], // base64url
  ])('accepts %p', (key) => expect(checkIdempotencyKey(key)).toEqual({ ok: true, key }));

  it.each([
    [undefined, 'validation_error'],
    ['', 'validation_error'],
    ['x'.repeat(129), 'validation_error'],
    ['Zm9vYg==', 'validation_error'], // padded base64
    ['has space', 'validation_error'],
    ['slash/y', 'validation_error'],
    ['ünïcode', 'validation_error'],
    [['a', 'b'], 'validation_error'],
    ['hpp:abc', 'idempotency_key_reserved'],
    ['recurring:1', 'idempotency_key_reserved'],
    ['rb:1', 'idempotency_key_reserved'],
    ['inv-charge:1', 'idempotency_key_reserved'],
    ['inv-installment:1', 'idempotency_key_reserved'],
  ])('refuses %p with %s', (key, code) => {
    expect(checkIdempotencyKey(key as string)).toMatchObject({ ok: false, code });
  });

  it('does not treat a reserved word without its colon as reserved', () => {
    expect(checkIdempotencyKey('hpp-1')).toMatchObject({ ok: true });
  });
});
