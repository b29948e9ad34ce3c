import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../libs/platform/src/database/data-source';
import { OVERDUE_SQL } from '../libs/settlement/src/application/reconciliation-sweep';
import {
  OUTCOME_PENDING_SQL,
  THREE_DS_EXPIRED_SQL,
} from '../libs/transactions/src/application/transaction-sweeps';
import { PRUNE_HORIZON_SQL } from '../libs/webhooks/src/application/delivery-queue';
import { createTestDatabase, dropTestDatabase } from '../test/support/database';
import { READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS } from '.';

/**
 * The periodic sweeps run every 30–60 s on every process, whatever the load: each must cost what
 * it finds, not the size of its table. Here each runs over thousands of rows it must pass over
 * (fresh, settled, or in another state) and the few it must find; its answer is checked, and the
 * pages its execution touched (EXPLAIN ANALYZE, BUFFERS).
 */
const BULK = 3000;
const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY_MS = 86_400_000;
/**
 * An index's root and leaf and a heap page or two. Reading the whole table or a whole index of it
 * takes 50–140 pages here (measured without the sweeps' partial indexes).
 */
const MOST_PAGES = 4;

interface Plan {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

describe('periodic sweeps read what they find, not their whole table', () => {
  let url: string;
  let db: DataSource;

  /** The sweep's answer, and how many pages (of tables and indexes) its execution touched. */
  async function explained(sql: string, params: unknown[]) {
    const [row] = (await db.query(`explain (analyze, buffers, format json) ${sql}`, params)) as {
      'QUERY PLAN': { Plan: Plan }[];
    }[];
    const plan = row['QUERY PLAN'][0].Plan;
    const answer = (await db.query(sql, params)) as Record<string, unknown>[];
    return { pages: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'], answer };
  }

  async function insertTransactions(
    rows: { state: string; rail: string; createdAt: Date; snapshot: Record<string, unknown> }[],
  ): Promise<string[]> {
    const ids = rows.map(() => randomUUID());
    await db.query(
      `insert into transaction_list (id, partner_id, merchant_id, type, rail, state, amount_minor, currency,
         created_at, created_position, version, snapshot)
       select r.id, gen_random_uuid(), gen_random_uuid(), 'SALE', r.rail, r.state, 1000, 'USD', r.created_at,
              nextval('sweep_positions'), 1, r.snapshot
         from jsonb_to_recordset($1::jsonb) as r(id uuid, rail text, state text, created_at timestamptz, snapshot jsonb)`,
      [
        JSON.stringify(
          rows.map((r, i) => ({
            id: ids[i],
            rail: r.rail,
            state: r.state,
            created_at: r.createdAt,
            snapshot: r.snapshot,
          })),
        ),
      ],
    );
    return ids;
  }

  beforeAll(async () => {
    url = await createTestDatabase('sweep_plans');
    db = createDataSource(url, { entities: READ_MODEL_ENTITIES, migrations: READ_MODEL_MIGRATIONS });
    await db.initialize();
    await runMigrations(db);
    await db.query('create sequence sweep_positions');
    // The bulk: fresh captures (the book of a busy day), settled ones, and a pending SALE and an
    // open challenge that are not due yet.
    const fresh = new Date(NOW.getTime() - 60_000);
    await insertTransactions([
      ...Array.from({ length: BULK }, () => ({
        state: 'CAPTURED',
        rail: 'CARD',
        createdAt: fresh,
        snapshot: {},
      })),
      ...Array.from({ length: BULK }, () => ({
        state: 'SETTLED',
        rail: 'CARD',
        createdAt: new Date(NOW.getTime() - 40 * DAY_MS),
        snapshot: {},
      })),
    ]);
    await db.query('analyze transaction_list');
  });

  afterAll(async () => {
    await db?.destroy();
    await dropTestDatabase(url);
  });

  it('the pending-outcome sweep reads only INITIATED transactions', async () => {
    const [due] = await insertTransactions([
      {
        state: 'INITIATED',
        rail: 'CARD',
        createdAt: NOW,
        snapshot: { outcomePending: true, updatedAt: new Date(NOW.getTime() - 120_000).toISOString() },
      },
      {
        state: 'INITIATED',
        rail: 'CARD',
        createdAt: NOW,
        snapshot: { outcomePending: true, updatedAt: NOW.toISOString() },
      },
    ]);
    const { pages, answer } = await explained(OUTCOME_PENDING_SQL, [new Date(NOW.getTime() - 60_000)]);
    expect(answer).toEqual([{ id: due }]);
    expect(pages).toBeLessThanOrEqual(MOST_PAGES);
  });

  it('the 3-D Secure sweep reads only open challenges', async () => {
    const [expired] = await insertTransactions([
      {
        state: 'THREE_DS_PENDING',
        rail: 'CARD',
        createdAt: NOW,
        snapshot: { threeDs: { expiresAt: new Date(NOW.getTime() - 1000).toISOString() } },
      },
      {
        state: 'THREE_DS_PENDING',
        rail: 'CARD',
        createdAt: NOW,
        snapshot: { threeDs: { expiresAt: new Date(NOW.getTime() + 600_000).toISOString() } },
      },
    ]);
    const { pages, answer } = await explained(THREE_DS_EXPIRED_SQL, [NOW]);
    expect(answer).toEqual([{ id: expired }]);
    expect(pages).toBeLessThanOrEqual(MOST_PAGES);
  });

  it('the reconciliation sweep reads only unsettled transactions old enough to be overdue', async () => {
    const [old] = await insertTransactions([
      { state: 'CAPTURED', rail: 'CARD', createdAt: new Date(NOW.getTime() - 5 * DAY_MS), snapshot: {} },
    ]);
    const { pages, answer } = await explained(OVERDUE_SQL, [
      'CARD',
      'CAPTURED',
      'LATE_PRESENTMENT',
      '0',
      new Date(NOW.getTime() - 2 * DAY_MS),
    ]);
    expect(answer.map((row) => row.id)).toEqual([old]);
    expect(answer[0].known).toBe(false);
    expect(pages).toBeLessThanOrEqual(MOST_PAGES);
  });

  it("the webhook retention pass's horizon reads only envelopes past the retention", async () => {
    const fresh = NOW.getTime() - 60_000;
    await db.query(
      `insert into webhook_events (id, partner_id, merchant_id, type, created_at, position_key, body)
       select gen_random_uuid(), gen_random_uuid(), null, 'transaction.created',
              case when g <= 3 then $2::timestamptz else $1::timestamptz end, g, '{}'
         from generate_series(1, $3::int) g`,
      [new Date(fresh), new Date(NOW.getTime() - 40 * DAY_MS), BULK],
    );
    await db.query('analyze webhook_events');
    const before = new Date(NOW.getTime() - 30 * DAY_MS);
    const { pages, answer } = await explained(PRUNE_HORIZON_SQL, [before]);
    expect(answer).toEqual([{ key: '3' }]);
    expect(pages).toBeLessThanOrEqual(MOST_PAGES);
    // With nothing to prune.
    const none = await explained(PRUNE_HORIZON_SQL, [new Date(NOW.getTime() - 50 * DAY_MS)]);
    expect(none.answer).toEqual([{ key: null }]);
    expect(none.pages).toBeLessThanOrEqual(MOST_PAGES);
  });
});
