import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import { PROJECTION_ENGINE_ENTITIES, PROJECTION_ENGINE_MIGRATIONS } from '../../libs/projections/src';
import {
  TRANSACTION_EVENT_TYPES,
  transactionStream,
  type TransactionEvent,
  type TransactionInitiated,
} from '../../libs/transactions/src/domain/transaction-events';
import { createTestDatabase, dropTestDatabase } from '../../test/support/database';
import { projectorFeed } from '../../test/support/projector-feed';
import { ALL_MERCHANTS as LIST_ALL_MERCHANTS } from '../../libs/transactions/src/application/transaction-list-sql';
import { TransactionList1764420000000 } from './1764420000000-transaction-list.migration';
import { TransactionListCounts1764420000001 } from './1764420000001-transaction-list-counts.migration';
import { TransactionListMoney1764420000002 } from './1764420000002-transaction-list-money.migration';
import { ALL_MERCHANTS, TransactionListProjector } from './transaction-list.projector';

const PARTNER = '11111111-1111-4111-8111-111111111111';
const MERCHANT = '22222222-2222-4222-8222-222222222222';
const CUSTOMER = '33333333-3333-4333-8333-333333333333';
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-01T10:00:01.000Z';
const T2 = '2026-11-02T23:00:00.000Z';

function initiated(id: string, overrides: Partial<TransactionInitiated['data']> = {}): TransactionEvent {
  return {
    type: 'TransactionInitiated',
    data: {
      transactionId: id,
      partnerId: PARTNER,
      merchantId: MERCHANT,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '1050',
      currency: 'USD',
      surchargeMinor: '0',
      convenienceFeeMinor: '0',
      taxMinor: null,
      entryMode: 'KEYED',
      useType: 'ONE_TIME_FUTURE',
      storedCredentialId: null,
      vaultToken: null,
      customerId: CUSTOMER,
      parentTransactionId: null,
      card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030, funding: 'credit' },
      bank: null,
      secCode: null,
      customFields: [],
      level2Data: null,
      level3Data: null,
      refundReason: null,
      reversalReason: null,
      convenienceFeeDisclosure: null,
      surchargeDisclosure: null,
      source: 'api',
      initiatedAt: T0,
      ...overrides,
    },
  };
}

describe('transaction-list projector', () => {
  let url: string;
  let db: DataSource;
  const projector = new TransactionListProjector();
  const feed = projectorFeed(() => db, projector, transactionStream, new Date(T0));
  const apply = (id: string, event: TransactionEvent, revision: bigint) => feed.apply(id, event, revision);

  const row = async (id: string) =>
    (
      await db.query(
        `select id, partner_id, merchant_id, type, rail, state, amount_minor::text as amount_minor, currency,
                gateway_transaction_id, approval_code, decline_code, decline_reason, card_last4, routing_last4,
                account_last4, account_type, customer_id, parent_transaction_id, created_at,
                created_position::text as created_position, version, snapshot
           from transaction_list where id = $1`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    url = await createTestDatabase('transaction_list');
    db = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [
        ...PROJECTION_ENGINE_MIGRATIONS,
        TransactionList1764420000000,
        TransactionListCounts1764420000001,
        TransactionListMoney1764420000002,
      ],
    });
    await db.initialize();
    await runMigrations(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await dropTestDatabase(url);
  });

  it('is named transaction-list, handles every transaction event and owns transaction_list and its counts', () => {
    expect(projector.name).toBe('transaction-list');
    expect([...projector.eventTypes].sort()).toEqual([...TRANSACTION_EVENT_TYPES].sort());
    expect(projector.tables).toEqual(['transaction_list', 'transaction_list_counts']);
    // The list reads the partner's count under the same merchant id.
    expect(ALL_MERCHANTS).toBe(LIST_ALL_MERCHANTS);
  });

  it('an initiated card sale becomes an INITIATED row with every list column', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000001';
    await apply(id, initiated(id), 0n);
    const r = await row(id);
    expect(r).toMatchObject({
      id,
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      type: 'SALE',
      rail: 'CARD',
      state: 'INITIATED',
      amount_minor: '1050',
      currency: 'USD',
      gateway_transaction_id: null,
      approval_code: null,
      card_last4: '1111',
      routing_last4: null,
      account_last4: null,
      account_type: null,
      customer_id: CUSTOMER,
      parent_transaction_id: null,
      created_position: String(feed.position),
      version: 1,
    });
    expect(new Date(r.created_at).toISOString()).toBe(T0);
    expect(r.snapshot).toMatchObject({ id, state: 'INITIATED', amountMinor: '1050', version: 1 });
  });

  it('the approval sets state, approval code and gateway id, and keeps the row’s place', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000002';
    await apply(id, initiated(id), 0n);
    const createdAt = feed.position;
    await apply(
      id,
      {
        type: 'TransactionApproved',
        data: {
          transactionId: id,
          approvalCode: 'A1B2C3',
          gatewayTransactionId: 'sbx_0123456789abcdef01234567',
          avsResponseCode: 'Y',
          cvResponseCode: 'M',
          effectiveDate: null,
          at: T1,
        },
      },
      1n,
    );
    await apply(
      id,
      { type: 'TransactionSettled', data: { transactionId: id, batchId: MERCHANT, settledAt: T2 } },
      2n,
    );
    expect(await row(id)).toMatchObject({
      state: 'SETTLED',
      approval_code: 'A1B2C3',
      gateway_transaction_id: 'sbx_0123456789abcdef01234567',
      created_position: String(createdAt),
      version: 3,
      snapshot: { state: 'SETTLED', settledAt: T2 },
    });
  });

  it('keeps the money and settlement facts as columns: fees, total, refunded, batch, settled at', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-00000000000f';
    const batch = 'bbbbbbbb-0000-4000-8000-000000000001';
    const money = async () =>
      (
        await db.query(
          `select amount_minor::text as amount, surcharge_minor::text as surcharge,
                  convenience_fee_minor::text as fee, total_minor::text as total,
                  refunded_minor::text as refunded, batch_id, settled_at
             from transaction_list where id = $1`,
          [id],
        )
      )[0];
    await apply(
      id,
      initiated(id, { amountMinor: '10000', surchargeMinor: '250', convenienceFeeMinor: '75' }),
      0n,
    );
    expect(await money()).toEqual({
      amount: '10000',
      surcharge: '250',
      fee: '75',
      total: '10325',
      refunded: '0',
      batch_id: null,
      settled_at: null,
    });
    await apply(
      id,
      {
        type: 'TransactionApproved',
        data: {
          transactionId: id,
          approvalCode: 'A1',
          gatewayTransactionId: 'sbx_1',
          avsResponseCode: 'Y',
          cvResponseCode: 'M',
          effectiveDate: null,
          at: T1,
        },
      },
      1n,
    );
    await apply(
      id,
      { type: 'TransactionSettled', data: { transactionId: id, batchId: batch, settledAt: T2 } },
      2n,
    );
    await apply(
      id,
      {
        type: 'TransactionRefunded',
        data: {
          transactionId: id,
          refundTransactionId: 'aaaaaaaa-0000-4000-8000-0000000000f1',
          amountMinor: '4000',
          surchargeReversedMinor: '100',
          at: T2,
        },
      },
      3n,
    );
    expect(await money()).toEqual({
      amount: '10000',
      surcharge: '250',
      fee: '75',
      total: '10325',
      refunded: '4000',
      batch_id: batch,
      settled_at: new Date(T2),
    });
  });

  it('the money migration fills the columns of the rows already there from their snapshots', async () => {
    const columns = `select id, surcharge_minor::text, convenience_fee_minor::text, total_minor::text,
                            refunded_minor::text, batch_id, settled_at from transaction_list order by id`;
    const before = await db.query(columns);
    expect(before.length).toBeGreaterThan(0);
    const migration = new TransactionListMoney1764420000002();
    const runner = db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      await migration.up(runner);
      expect(await runner.query(columns)).toEqual(before);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
  });

  it('an ACH debit declined keeps its bank last fours and the decline', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000003';
    await apply(
      id,
      initiated(id, {
        type: 'ACH_DEBIT',
        rail: 'ACH',
        card: null,
        bank: { accountType: 'SAVINGS', accountLast4: '6789', routingLast4: '0015' },
        secCode: 'WEB',
        customerId: null,
      }),
      0n,
    );
    await apply(
      id,
      {
        type: 'TransactionDeclined',
        data: {
          transactionId: id,
          declineCode: 'insufficient_funds',
          declineReason: 'Insufficient funds',
          avsResponseCode: null,
          cvResponseCode: null,
          at: T1,
        },
      },
      1n,
    );
    expect(await row(id)).toMatchObject({
      rail: 'ACH',
      state: 'FAILED',
      decline_code: 'insufficient_funds',
      decline_reason: 'Insufficient funds',
      card_last4: null,
      routing_last4: '0015',
      account_last4: '6789',
      account_type: 'SAVINGS',
      customer_id: null,
    });
  });

  it('a follow-up records its parent; an empty gateway id is stored as none', async () => {
    const parent = 'aaaaaaaa-0000-4000-8000-000000000002';
    const id = 'aaaaaaaa-0000-4000-8000-000000000004';
    await apply(id, initiated(id, { type: 'VOID', parentTransactionId: parent, amountMinor: '1050' }), 0n);
    await apply(
      id,
      {
        type: 'TransactionApproved',
        data: {
          transactionId: id,
          approvalCode: null,
          gatewayTransactionId: '',
          avsResponseCode: null,
          cvResponseCode: null,
          effectiveDate: null,
          at: T1,
        },
      },
      1n,
    );
    expect(await row(id)).toMatchObject({
      type: 'VOID',
      state: 'VOIDED',
      parent_transaction_id: parent,
      gateway_transaction_id: null,
    });
  });

  it('an event for a transaction it never saw created changes nothing', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000005';
    await apply(id, { type: 'TransactionOutcomeUnknown', data: { transactionId: id, at: T1 } }, 1n);
    expect(await row(id)).toBeUndefined();
  });

  it('indexes every filter; the gateway-id search uses a trigram index', async () => {
    const indexes = (await db.query(
      `select indexname, indexdef from pg_indexes where tablename = 'transaction_list' order by indexname`,
    )) as { indexname: string; indexdef: string }[];
    expect(indexes.map((i) => i.indexname)).toEqual([
      'transaction_list_batch',
      'transaction_list_gateway_id_trgm',
      'transaction_list_parent',
      'transaction_list_partner_account_last4',
      'transaction_list_partner_amount',
      'transaction_list_partner_created_at_position',
      'transaction_list_partner_merchant_position',
      'transaction_list_partner_position',
      'transaction_list_partner_rail_position',
      'transaction_list_partner_routing_last4',
      'transaction_list_partner_state_position',
      'transaction_list_partner_type_position',
      'transaction_list_pkey',
    ]);
    expect(indexes.find((i) => i.indexname === 'transaction_list_gateway_id_trgm')?.indexdef).toMatch(
      /USING gin \(gateway_transaction_id gin_trgm_ops\)/,
    );
    expect(
      indexes.find((i) => i.indexname === 'transaction_list_partner_created_at_position')?.indexdef,
    ).toMatch(/\(partner_id, created_at\) INCLUDE \(created_position\)$/);
  });

  const counts = async (query: (sql: string) => Promise<unknown> = (sql) => db.query(sql)) =>
    Object.fromEntries(
      (
        (await query(
          'select partner_id, merchant_id, count::int as count from transaction_list_counts order by 1, 2',
        )) as { partner_id: string; merchant_id: string; count: number }[]
      ).map((c) => [`${c.partner_id}/${c.merchant_id}`, c.count]),
    );
  /** What the counts must be: the rows, per partner and merchant and per partner. */
  const countedRows = async () =>
    Object.fromEntries(
      (
        (await db.query(
          `select partner_id, merchant_id, count(*)::int as count from transaction_list group by 1, 2
           union all
           select partner_id, $1::uuid, count(*)::int from transaction_list group by 1
           order by 1, 2`,
          [ALL_MERCHANTS],
        )) as { partner_id: string; merchant_id: string; count: number }[]
      ).map((c) => [`${c.partner_id}/${c.merchant_id}`, c.count]),
    );

  it('counts a transaction once per partner and merchant, when its row is inserted, not on its later events', async () => {
    expect(await counts()).toEqual(await countedRows());
    expect((await counts())[`${PARTNER}/${ALL_MERCHANTS}`]).toBe(5);
    const before = await counts();
    const other = '44444444-4444-4444-8444-444444444444';
    const id = 'aaaaaaaa-0000-4000-8000-000000000006';
    await apply(id, initiated(id, { merchantId: other }), 0n);
    await apply(
      id,
      {
        type: 'TransactionDeclined',
        data: {
          transactionId: id,
          declineCode: 'insufficient_funds',
          declineReason: 'Insufficient funds',
          avsResponseCode: null,
          cvResponseCode: null,
          at: T1,
        },
      },
      1n,
    );
    await apply(id, { type: 'TransactionOutcomeUnknown', data: { transactionId: id, at: T1 } }, 2n);
    expect(await counts()).toEqual({
      ...before,
      [`${PARTNER}/${ALL_MERCHANTS}`]: before[`${PARTNER}/${ALL_MERCHANTS}`] + 1,
      [`${PARTNER}/${other}`]: 1,
    });
    expect(await counts()).toEqual(await countedRows());
  });

  it('a page applied at once gives the rows and counts of the same events applied one by one', async () => {
    const before = await counts();
    const ids = ['aaaaaaaa-0000-4000-8000-0000000000a1', 'aaaaaaaa-0000-4000-8000-0000000000a2'];
    const recorded = feed.recorded;
    const approved = (id: string): TransactionEvent => ({
      type: 'TransactionApproved',
      data: {
        transactionId: id,
        approvalCode: 'P1',
        gatewayTransactionId: `gw_${id.slice(-2)}`,
        avsResponseCode: null,
        cvResponseCode: null,
        effectiveDate: null,
        at: T1,
      },
    });
    const page = [
      recorded(ids[0], initiated(ids[0]), 0n),
      recorded(ids[1], initiated(ids[1], { amountMinor: '700' }), 0n),
      recorded(ids[0], approved(ids[0]), 1n),
      recorded(
        ids[0],
        { type: 'TransactionSettled', data: { transactionId: ids[0], batchId: MERCHANT, settledAt: T2 } },
        2n,
      ),
      recorded(ids[1], approved(ids[1]), 1n),
    ];
    await feed.applyPage(page);
    expect(await row(ids[0])).toMatchObject({
      state: 'SETTLED',
      version: 3,
      approval_code: 'P1',
      created_position: page[0].globalPosition.toString(),
    });
    expect(await row(ids[1])).toMatchObject({
      state: 'CAPTURED',
      amount_minor: '700',
      version: 2,
      created_position: page[1].globalPosition.toString(),
    });
    expect(await counts()).toEqual({
      ...before,
      [`${PARTNER}/${ALL_MERCHANTS}`]: before[`${PARTNER}/${ALL_MERCHANTS}`] + 2,
      [`${PARTNER}/${MERCHANT}`]: before[`${PARTNER}/${MERCHANT}`] + 2,
    });
    expect(await counts()).toEqual(await countedRows());
  });

  it('the migration counts the rows already there', async () => {
    const before = await counts();
    const migration = new TransactionListCounts1764420000001();
    const runner = db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      await migration.up(runner);
      expect(await counts((sql) => runner.query(sql))).toEqual(before);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
    expect(await counts()).toEqual(before);
  });
});
