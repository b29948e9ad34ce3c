import { randomBytes } from 'node:crypto';
import { SandboxGateway } from '../../../gateway/src/sandbox/sandbox-gateway';
import { SystemClock } from '../../../platform/src/clock/clock';
import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';
import { VAULT_TOKEN_PATTERN } from '../domain/vault-token';
import { CardVault, VaultInstrumentInvalid, VaultIntegrityError, type VaultInstrument } from './card-vault';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const OTHER_PARTNER = '5a5a5a5a-1b1b-4c4c-8d8d-9e9e9e9e9e9e';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PAN = '4111111111111111';
const ACCOUNT = '000123456789';

describe('CardVault on PostgreSQL', () => {
  let url: string;
  let pool: Pool;
  let vault: CardVault;
  beforeAll(async () => {
    url = await createTestDatabase('vault');
    pool = new Pool({ connectionString: url });
    vault = new CardVault(pool, new SealedBox(randomBytes(32)), new SandboxGateway(new SystemClock()));
    await vault.onModuleInit();
    await vault.onModuleInit(); // the migration is idempotent
  });
  afterAll(async () => {
    await pool.end();
    await dropTestDatabase(url);
  });

  it('stores a card and returns a cvt_ token and display data only', async () => {
    const { token, display } = await vault.store(PARTNER, MERCHANT, {
      kind: 'card',
      pan: '4111 1111 1111 1111',
      expMonth: 12,
      expYear: 2030,
    });
    expect(token).toMatch(VAULT_TOKEN_PATTERN);
    expect(token.length).toBe(4 + 32);
    expect(display).toEqual({
      paymentMethodType: 'card',
      card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030, funding: 'credit' },
      bank: null,
    });
    expect(JSON.stringify(display)).not.toContain(PAN);
    expect(await vault.reveal(PARTNER, token)).toEqual({
      kind: 'card',
      postalCode: null,
      pan: PAN,
      expMonth: 12,
      expYear: 2030,
    });
    expect(await vault.display(PARTNER, token)).toEqual(display);
  });

  it('never seals a CVC, even when one is passed at run time', async () => {
    const withCvc = { kind: 'card', pan: PAN, expMonth: 1, expYear: 2031, cvc: '123' } as VaultInstrument;
    const { token } = await vault.store(PARTNER, MERCHANT, withCvc);
    expect(await vault.reveal(PARTNER, token)).toEqual({
      kind: 'card',
      postalCode: null,
      pan: PAN,
      expMonth: 1,
      expYear: 2031,
    });
  });

  it('round-trips a bank account and shows only the last fours', async () => {
    const ach: VaultInstrument = {
      kind: 'ach',
      routingNumber: '011000015',
      accountNumber: ACCOUNT,
      accountType: 'CHECKING',
    };
    const { token, display } = await vault.store(PARTNER, MERCHANT, ach);
    expect(display).toEqual({
      paymentMethodType: 'ach',
      card: null,
      bank: { routingLast4: '0015', accountLast4: '6789', accountType: 'CHECKING' },
    });
    expect(await vault.reveal(PARTNER, token)).toEqual(ach);
    const { rows } = await pool.query('select kind from platform.vault_entries where token = $1', [token]);
    expect(rows).toEqual([{ kind: 'ach' }]);
  });

  it('gives every entry its own token', async () => {
    const card: VaultInstrument = { kind: 'card', pan: PAN, expMonth: 12, expYear: 2030 };
    const a = await vault.store(PARTNER, MERCHANT, card);
    const b = await vault.store(PARTNER, MERCHANT, card);
    expect(a.token).not.toBe(b.token);
  });

  it("answers another partner's token exactly like an unknown one: null", async () => {
    const { token } = await vault.store(PARTNER, MERCHANT, {
      kind: 'card',
      pan: PAN,
      expMonth: 12,
      expYear: 2030,
    });
    expect(await vault.reveal(OTHER_PARTNER, token)).toBeNull();
    expect(await vault.display(OTHER_PARTNER, token)).toBeNull();
    expect(await vault.reveal(PARTNER, `cvt_${'x'.repeat(32)}`)).toBeNull();
    expect(await vault.reveal(PARTNER, 'not-a-token')).toBeNull();
  });

  it('keeps no plaintext PAN or account number in any column', async () => {
    await vault.store(PARTNER, MERCHANT, { kind: 'card', pan: PAN, expMonth: 12, expYear: 2030 });
    const { rows } = await pool.query('select * from platform.vault_entries');
    expect(rows.length).toBeGreaterThan(0);
    const dump =
      JSON.stringify(rows) +
      rows
        .map((r) => (r.sealed as Buffer).toString('latin1') + (r.sealed as Buffer).toString('utf8'))
        .join('');
    expect(dump).not.toContain(PAN);
    expect(dump).not.toContain('1111111111');
    expect(dump).not.toContain(ACCOUNT);
    // Neither does a plain-text dump of the whole table.
    const text = await pool.query('select t::text as row from platform.vault_entries t');
    expect(text.rows.map((r) => r.row).join('\n')).not.toContain(PAN);
  });

  it('refuses to open tampered bytes or a row moved to another partner', async () => {
    const { token } = await vault.store(PARTNER, MERCHANT, {
      kind: 'card',
      pan: PAN,
      expMonth: 12,
      expYear: 2030,
    });
    // Flip one ciphertext byte.
    await pool.query(
      `update platform.vault_entries
          set sealed = set_byte(sealed, length(sealed) - 1, get_byte(sealed, length(sealed) - 1) # 1)
        where token = $1`,
      [token],
    );
    await expect(vault.reveal(PARTNER, token)).rejects.toThrow(VaultIntegrityError);

    const moved = await vault.store(PARTNER, MERCHANT, {
      kind: 'card',
      pan: PAN,
      expMonth: 12,
      expYear: 2030,
    });
    await pool.query('update platform.vault_entries set partner_id = $2 where token = $1', [
      moved.token,
      OTHER_PARTNER,
    ]);
    await expect(vault.reveal(OTHER_PARTNER, moved.token)).rejects.toThrow(VaultIntegrityError);
    await expect(vault.reveal(OTHER_PARTNER, moved.token)).rejects.not.toThrow(PAN);
  });

  it.each<[string, VaultInstrument, string]>([
    [
      'a PAN failing Luhn',
      { kind: 'card', pan: '4111111111111112', expMonth: 12, expYear: 2030 },
      'card_number',
    ],
    ['month 13', { kind: 'card', pan: PAN, expMonth: 13, expYear: 2030 }, 'exp_month'],
    [
      'a bad routing number',
      { kind: 'ach', routingNumber: '011000016', accountNumber: ACCOUNT, accountType: 'CHECKING' },
      'routing_number',
    ],
  ])('refuses %s without echoing the numbers', async (_label, instrument, field) => {
    const before = await pool.query('select count(*)::int as n from platform.vault_entries');
    const error = await vault.store(PARTNER, MERCHANT, instrument).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultInstrumentInvalid);
    expect(error).toMatchObject({ field });
    expect(String((error as Error).message)).not.toMatch(/4111111111111112|011000016/);
    const after = await pool.query('select count(*)::int as n from platform.vault_entries');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
