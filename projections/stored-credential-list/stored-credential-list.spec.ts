import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import { PROJECTION_ENGINE_ENTITIES, PROJECTION_ENGINE_MIGRATIONS } from '../../libs/projections/src';
import type { StoredCredentialEvent } from '../../libs/vault/src/domain/stored-credential-events';
import { storedCredentialStream } from '../../libs/vault/src/domain/stored-credential-stream';
import { createTestDatabase, dropTestDatabase } from '../../test/support/database';
import { projectorFeed } from '../../test/support/projector-feed';
import { StoredCredentialList1764310000000 } from './1764310000000-stored-credential-list.migration';
import { StoredCredentialListProjector } from './stored-credential-list.projector';

const PARTNER = '11111111-1111-4111-8111-111111111111';
const MERCHANT = '22222222-2222-4222-8222-222222222222';
const CUSTOMER = '33333333-3333-4333-8333-333333333333';
const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-02T00:00:00.000Z';

const token = (n: number) => `cvt_${String(n).padStart(32, 'A')}`;

function created(
  id: string,
  vaultToken: string,
  customerId: string | null = CUSTOMER,
): StoredCredentialEvent {
  return {
    type: 'StoredCredentialCreated',
    data: {
      storedCredentialId: id,
      vaultToken,
      partnerId: PARTNER,
      merchantId: MERCHANT,
      customerId,
      processor: 'sandbox',
      paymentMethodType: 'card',
      card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030, funding: 'credit' },
      bank: null,
      allowedUseTypes: ['RECURRING'],
      consent: { capturedAt: T0, channel: 'hpp', text: 'Save my card.' },
      enrollmentTerms: null,
      createdAt: T0,
    },
  };
}

function revoked(id: string, reason: string | null): StoredCredentialEvent {
  return {
    type: 'StoredCredentialRevoked',
    data: { storedCredentialId: id, merchantId: MERCHANT, partnerId: PARTNER, reason, revokedAt: T1 },
  };
}

describe('stored-credential-list projector', () => {
  let url: string;
  let db: DataSource;
  const projector = new StoredCredentialListProjector();
  const feed = projectorFeed(() => db, projector, storedCredentialStream, new Date(T0));
  const apply = (id: string, event: StoredCredentialEvent, revision: bigint) =>
    feed.apply(id, event, revision);

  const row = async (id: string) =>
    (
      await db.query(
        `select id, vault_token, partner_id, merchant_id, customer_id, state, created_at,
                created_position::text as created_position, version, snapshot
           from stored_credential_list where id = $1`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    url = await createTestDatabase('stored_credential_list');
    db = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, StoredCredentialList1764310000000],
    });
    await db.initialize();
    await runMigrations(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await dropTestDatabase(url);
  });

  it('handles exactly the stored-credential events and owns stored_credential_list', () => {
    expect(projector.name).toBe('stored-credential-list');
    expect([...projector.eventTypes].sort()).toEqual(['StoredCredentialCreated', 'StoredCredentialRevoked']);
    expect(projector.tables).toEqual(['stored_credential_list']);
  });

  it('a created credential becomes an ACTIVE row with its columns and the folded snapshot', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000001';
    await apply(id, created(id, token(1)), 0n);
    const r = await row(id);
    expect(r).toMatchObject({
      id,
      vault_token: token(1),
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      customer_id: CUSTOMER,
      state: 'ACTIVE',
      created_position: String(feed.position),
      version: 1,
    });
    expect(new Date(r.created_at).toISOString()).toBe(T0);
    expect(r.snapshot).toMatchObject({ id, vaultToken: token(1), state: 'ACTIVE', version: 1 });
  });

  it('a revocation updates state, version and snapshot, and keeps the row’s place in the list', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000002';
    await apply(id, created(id, token(2), null), 0n);
    const createdAt = feed.position;
    await apply(id, revoked(id, 'asked by the payer'), 1n);
    expect(await row(id)).toMatchObject({
      customer_id: null,
      state: 'REVOKED',
      version: 2,
      created_position: String(createdAt),
      snapshot: { state: 'REVOKED', revocationReason: 'asked by the payer', revokedAt: T1, version: 2 },
    });
  });

  it('a revocation without a known credential changes nothing', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000003';
    await apply(id, revoked(id, null), 1n);
    expect(await row(id)).toBeUndefined();
  });

  it('a vault token names one credential only', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000004';
    await expect(apply(id, created(id, token(1)), 0n)).rejects.toMatchObject({
      code: '23505',
      constraint: 'stored_credential_list_vault_token_key',
    });
  });
});
