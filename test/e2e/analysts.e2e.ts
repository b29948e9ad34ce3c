import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { ensureReadOnlyRole, READ_ONLY_ROLE, readOnlyPassword } from '../../apps/api/src/ops/read-only-role';
import { ProjectionRunner } from '../../libs/projections/src';
import { useTestPlatform, type TestPartner } from '../support/api';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';

/**
 * The analysts' SQL (docs/analysts.md) on the real app's database: each documented view queried
 * as the read-only role `npm run ops -- sql` hands out, which can read and never write.
 */
describe('analyst SQL: documented views, read-only access', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let analyst: Client;
  let url: string;
  let dataDir: string;
  const ids: Record<string, string> = {};

  const pay = async (body: Record<string, unknown>) => {
    const res = await partner.client.post('/transactions', { merchant_id: merchantId, ...body });
    expect(res.status).toBe(200);
    return res.body;
  };
  const caughtUp = async () => {
    // Up to the last committed event: the store's visible head can stop below the last write while
    // another transaction (a background sweep's, say) is still open.
    expect(await platform().service.app.get(ProjectionRunner).waitForHead()).toBe(true);
  };
  const query = async (sql: string, params: unknown[] = []) => (await analyst.query(sql, params)).rows;
  /** What `npm run ops -- sql` does: the role made or refreshed, with the password kept in the data directory. */
  const connection = () =>
    ensureReadOnlyRole(
      platform().service.infra.pool,
      platform().service.infra.databaseUrl,
      readOnlyPassword(path.join(dataDir, '.readonly-password')),
    );

  beforeAll(async () => {
    partner = await platform().newPartner();
    await platform().operator.put(`/platform/partners/${partner.id}/feature-flags/ach_payments`, {
      enabled: true,
    });
    merchantId = await activeMerchant(platform().operator, partner, 'Analysed Shop');
    const card = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    const bank = (await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING }))
      .vaultToken;
    const sale = (amount: string) =>
      pay({ type: 'SALE', amount, currency: 'USD', vault_token: card, use_type: 'ONE_TIME_FUTURE' });
    const debit = (amount: string) =>
      pay({ type: 'ACH_DEBIT', amount, currency: 'USD', vault_token: bank, use_type: 'ONE_TIME_FUTURE' });
    ids.sale = (await sale('100.00')).id;
    ids.sale2 = (await sale('50.00')).id;
    const voided = await sale('30.00');
    await pay({ type: 'VOID', parent_transaction_id: voided.id });
    await debit('40.00');
    const returned = await debit('60.00');
    const ret = await platform().operator.post(`/platform/sandbox/transactions/${returned.id}/ach-return`, {
      return_code: 'R01',
    });
    expect(ret.status).toBe(200);
    const run = await platform().operator.post('/platform/settlement/run', { merchant_id: merchantId });
    ids.batch = run.body.data[0].id;
    const report = await platform().operator.post(
      `/platform/settlement/batches/${ids.batch}/processor-report`,
      {
        lines: [
          { transaction_id: ids.sale, amount: '100.00', settled_at: '2026-11-24T01:00:00Z' },
          { transaction_id: ids.sale2, amount: '50.00', settled_at: '2026-11-24T01:00:00Z' },
        ],
        total_amount: '150.00',
        fees: '1.00', // the merchant has no fee profile: it owes nothing, so this is a FEE_MISMATCH
      },
    );
    expect(report.body.state).toBe('EXCEPTION');
    await pay({ type: 'PARTIAL_REFUND', parent_transaction_id: ids.sale, amount: '20.00' });
    await caughtUp();

    dataDir = mkdtempSync(path.join(tmpdir(), 'analyst-'));
    url = await connection();
    analyst = new Client({ connectionString: url });
    // The platform's own teardown drops the database under this connection.
    analyst.on('error', () => undefined);
    await analyst.connect();
  }, 60_000);

  afterAll(async () => {
    await analyst?.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('connects as the read-only role, with a password of its own kept owner-only, never the superuser’s', async () => {
    const superuser = new URL(platform().service.infra.databaseUrl);
    const given = new URL(url);
    expect(given.username).toBe(READ_ONLY_ROLE);
    expect(given.password).not.toBe('');
    expect(url).not.toContain(superuser.password);
    expect(statSync(path.join(dataDir, '.readonly-password')).mode & 0o777).toBe(0o600);
    expect(
      await query('select current_user as who, current_setting($1) as ro', ['default_transaction_read_only']),
    ).toEqual([{ who: READ_ONLY_ROLE, ro: 'on' }]);
    // The same password on the next call.
    expect(await connection()).toBe(url);
  });

  it('can read, never write, and cannot see the platform schema (idempotency records, vault)', async () => {
    await expect(analyst.query(`update transaction_list set amount_minor = 0`)).rejects.toThrow(
      /read-only transaction/,
    );
    // Even a session that asks for a read-write transaction holds SELECT only.
    await analyst.query('begin read write');
    await expect(analyst.query(`delete from transaction_list`)).rejects.toThrow(/permission denied/);
    await analyst.query('rollback');
    await expect(analyst.query('create table analyst.mine (x int)')).rejects.toThrow(
      /read-only transaction|permission denied/,
    );
    await expect(analyst.query('select count(*) from platform.idempotency_records')).rejects.toThrow(
      /permission denied/,
    );
    expect((await query('select count(*)::int as n from event_store.events'))[0].n).toBeGreaterThan(0);
  });

  it('analyst.daily_volume: sales (not voided), refunds and net per merchant and day, in minor units', async () => {
    const rows = await query(
      'select sales_count::int, sales_minor::text, refunds_count::int, refunds_minor::text, net_minor::text from analyst.daily_volume where merchant_id = $1',
      [merchantId],
    );
    expect(rows).toEqual([
      { sales_count: 4, sales_minor: '25000', refunds_count: 1, refunds_minor: '2000', net_minor: '23000' },
    ]);
  });

  it('analyst.settlement_vs_ledger: each batch against the ledger, held and then paid out', async () => {
    const row = async () =>
      (
        await query(
          `select state, total_minor::text, fees_minor::text, ledger_settled_minor::text, ledger_fees_minor::text,
                  ledger_paid_out_minor::text, agrees from analyst.settlement_vs_ledger where batch_id = $1`,
          [ids.batch],
        )
      )[0];
    expect(await row()).toEqual({
      state: 'EXCEPTION',
      total_minor: '15000',
      fees_minor: '100',
      ledger_settled_minor: '15000',
      ledger_fees_minor: '100',
      ledger_paid_out_minor: '0',
      agrees: true,
    });
    const [exception] = (await partner.client.get('/settlement/exceptions?state=OPEN')).body.data;
    expect(exception.type).toBe('FEE_MISMATCH');
    const open = await query(
      'select severity, age, exceptions::int from analyst.open_exceptions where partner_id = $1',
      [partner.id],
    );
    expect(open).toEqual([{ severity: 'LOW', age: '0-1 days', exceptions: 1 }]);

    await platform().operator.post(`/platform/reconciliation-exceptions/${exception.id}/resolve`, {
      state: 'WRITTEN_OFF',
      resolution: 'agreed fee, profile to follow',
    });
    await caughtUp();
    expect(await row()).toMatchObject({
      state: 'CLOSED_WITH_EXCEPTIONS',
      ledger_paid_out_minor: '14900',
      agrees: true,
    });
    expect(await query('select * from analyst.open_exceptions where partner_id = $1', [partner.id])).toEqual(
      [],
    );
  });

  it('analyst.refund_return_ratios: card refunds against sales, ACH returns against debits', async () => {
    expect(
      await query(
        `select card_sales_count::int, card_refunds_count::int, refund_count_ratio::text, refund_amount_ratio::text,
                ach_debits_count::int, ach_returns_count::int, ach_return_ratio::text
           from analyst.refund_return_ratios where merchant_id = $1`,
        [merchantId],
      ),
    ).toEqual([
      {
        card_sales_count: 2,
        card_refunds_count: 1,
        refund_count_ratio: '0.5000',
        refund_amount_ratio: '0.1333',
        ach_debits_count: 2,
        ach_returns_count: 1,
        ach_return_ratio: '0.5000',
      },
    ]);
  });

  it('the views and the role’s access survive a rebuild of the read models under them', async () => {
    const before = await query('select * from analyst.daily_volume where merchant_id = $1', [merchantId]);
    const runner = platform().service.app.get(ProjectionRunner);
    await runner.rebuild('transaction-list');
    await runner.rebuild('ledger');
    expect(await query('select * from analyst.daily_volume where merchant_id = $1', [merchantId])).toEqual(
      before,
    );
    expect(
      (await query('select agrees from analyst.settlement_vs_ledger where batch_id = $1', [ids.batch]))[0],
    ).toEqual({
      agrees: true,
    });
    expect((await query('select count(*)::int as n from transaction_list'))[0].n).toBeGreaterThan(0);
  });
});
