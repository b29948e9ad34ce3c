import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { FixedClock } from '../../../platform/src/clock/clock';
import { describeEventStore } from '../contract/event-store.contract';
import { PostgresEventStore } from './postgres-event-store';

describeEventStore('postgres', async () => {
  const url = await createTestDatabase('event_store_contract');
  const pool = new Pool({ connectionString: url, max: 10 });
  await PostgresEventStore.migrate(pool);
  const clock = new FixedClock(new Date('2030-01-01T00:00:00Z'));
  const store = new PostgresEventStore(pool, clock, { pollIntervalMs: 100 });
  return {
    store,
    clock,
    teardown: async () => {
      await store.close();
      await pool.end();
      await dropTestDatabase(url);
    },
  };
});
