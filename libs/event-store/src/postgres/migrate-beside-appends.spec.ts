import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { FixedClock } from '../../../platform/src/clock/clock';
import { testMetadata } from '../../../../test/support/metadata';
import { PostgresEventStore } from './postgres-event-store';

/**
 * A process that starts beside others (a restart, one more replica) migrates a schema that is
 * already there while their appends run. Were that to need a lock their appends hold, it would
 * wait for them, or deadlock with one that reads the events table before taking its positions
 * (seen in the crash tests: the restarted process died at start-up with `deadlock detected`).
 */
describe('PostgresEventStore.migrate beside appends', () => {
  let url: string;
  let pool: Pool;
  const schema = 'beside_appends';

  beforeAll(async () => {
    url = await createTestDatabase('event_store_migrate');
    pool = new Pool({ connectionString: url, max: 4 });
    await PostgresEventStore.migrate(pool, { schema });
  });
  afterAll(async () => {
    await pool.end();
    await dropTestDatabase(url);
  });

  it('on a current schema takes no lock an append in flight holds: it finishes while the append is open', async () => {
    const appending = await pool.connect();
    try {
      // An append in flight: its transaction holds what append_batch() takes (the events table, the
      // position sequence) until it commits.
      await appending.query('begin');
      const { rows } = await appending.query(`select * from ${schema}.append_batch($1)`, [
        JSON.stringify([
          {
            stream: 'order-1',
            expected: 'any',
            revision: null,
            events: [{ id: randomUUID(), type: 'Placed', data: {} }],
            metadata: testMetadata(),
            recordedAt: new Date().toISOString(),
            record: null,
          },
        ]),
      ]);
      expect(rows.map((r) => r.item_outcome)).toEqual(['appended']);
      const migrated = PostgresEventStore.migrate(pool, { schema }).then(() => 'migrated' as const);
      const waited = new Promise<'still waiting'>((resolve) =>
        setTimeout(() => resolve('still waiting'), 3_000),
      );
      expect(await Promise.race([migrated, waited])).toBe('migrated');
      await appending.query('commit');
    } finally {
      await appending.query('rollback').catch(() => undefined);
      appending.release();
    }
  });

  it('still makes the whole schema on an empty database: positions owned by the table, append-only', async () => {
    await PostgresEventStore.migrate(pool, { schema: 'fresh' });
    await PostgresEventStore.migrate(pool, { schema: 'fresh' });
    const store = new PostgresEventStore(pool, new FixedClock(new Date('2030-01-01T00:00:00Z')), {
      schema: 'fresh',
    });
    try {
      await store.appendToStream('order-1', [{ type: 'Placed', data: {} }], {
        expectedRevision: 'any',
        metadata: testMetadata(),
      });
      await expect(pool.query(`delete from fresh.events`)).rejects.toThrow(/append-only/);
      await expect(pool.query(`truncate fresh.events`)).rejects.toThrow(/append-only/);
      const { rows } = await pool.query(
        `select count(*)::int as n from pg_depend
          where objid = 'fresh.global_position_seq'::regclass and refobjid = 'fresh.events'::regclass
            and deptype = 'a'`,
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await store.close();
    }
  });
});
