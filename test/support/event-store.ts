import { Pool } from 'pg';
import { PostgresEventStore } from '../../libs/event-store/src/postgres/postgres-event-store';
import type { Clock } from '../../libs/platform/src/clock/clock';
import { createTestDatabase, dropTestDatabase } from './database';

/**
 * A real PostgreSQL event store on a fresh database for one describe block: created before
 * its tests, closed and dropped after them. Read `store`/`pool` inside tests, not at definition.
 */
export function useTestEventStore(
  label: string,
  clock: Clock,
): { readonly store: PostgresEventStore; readonly pool: Pool } {
  let url = '';
  let pool: Pool | undefined;
  let store: PostgresEventStore | undefined;
  beforeAll(async () => {
    url = await createTestDatabase(label);
    pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    store = new PostgresEventStore(pool, clock);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await dropTestDatabase(url);
  });
  return {
    get store() {
      if (!store) throw new Error('the test event store is available inside tests only');
      return store;
    },
    get pool() {
      if (!pool) throw new Error('the test pool is available inside tests only');
      return pool;
    },
  };
}
