import { Client, Pool } from 'pg';
import { PostgresEventStore } from '../../libs/event-store/src';
import { SystemClock } from '../../libs/platform/src/clock/clock';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import { ProjectionRunner } from '../../libs/projections/src';
import {
  PROJECTORS,
  READ_MODEL_ENTITIES,
  READ_MODEL_MIGRATIONS,
  type ProjectorSettings,
} from '../../projections';
import { createTestDatabase, dropTestDatabase } from './database';

/**
 * Columns that are not a function of the events: what the webhook worker writes while it delivers
 * (attempts, leases, outcomes) and its failure counts. Everything else of every read-model table
 * must be what the events make of it.
 */
const NOT_FROM_EVENTS: Readonly<Record<string, readonly string[]>> = {
  webhook_deliveries: ['state', 'attempts', 'run_attempts', 'next_attempt_at', 'updated_at'],
  webhook_endpoint_health: ['consecutive_failures', 'updated_at'],
  webhook_primary_intents: ['lease_until', 'done_at'],
};

/**
 * Bookkeeping, not read models: each database has its own. `webhook_due` is the delivery worker's
 * queue: the events put a delivery in, its attempts take it out.
 */
const SKIPPED_TABLES = new Set(['projection_checkpoints', 'read_model_migrations', 'webhook_due']);

export interface TableDifference {
  table: string;
  /** Rows the live table has that a fresh projection does not make. */
  extra: unknown[];
  /** Rows a fresh projection makes that the live table lacks. */
  missing: unknown[];
}

async function tablesOf(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((row) => row.name).filter((name) => !SKIPPED_TABLES.has(name));
}

/** Every row of `table` as JSON, the columns that are not from the events left out, in a stable order. */
async function rowsOf(client: Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ row: string }>(
    `select (to_jsonb(t) - $1::text[])::text as row from "${table}" t`,
    [[...(NOT_FROM_EVENTS[table] ?? [])]],
  );
  return rows.map((r) => r.row).sort();
}

/**
 * Waits until every projector of the service on `databaseUrl` has nothing left to apply, then
 * projects every event of its event store afresh, into an empty database of its own, with the
 * same projectors, and answers how each read-model table differs from that fold of the streams.
 * Nothing is written to the service's database. `settings` must be the service's own (its
 * `PUBLIC_BASE_URL` and webhook retry schedule shape what the webhooks projector writes).
 */
export async function readModelDifferences(
  databaseUrl: string,
  settings: ProjectorSettings,
  options: { timeoutMs?: number } = {},
): Promise<TableDifference[]> {
  const live = new Client({ connectionString: databaseUrl });
  await live.connect();
  const eventsPool = new Pool({ connectionString: databaseUrl, max: 2 });
  eventsPool.on('error', () => undefined); // an idle connection lost: the next query opens another
  const freshUrl = await createTestDatabase('fresh_projection');
  const fresh = createDataSource(freshUrl, {
    entities: READ_MODEL_ENTITIES,
    migrations: READ_MODEL_MIGRATIONS,
  });
  try {
    const store = new PostgresEventStore(eventsPool, new SystemClock());
    const projectors = PROJECTORS.map((make) => make(settings));
    await waitUntilCaughtUp(live, projectors, options.timeoutMs ?? 30_000);

    await fresh.initialize();
    await runMigrations(fresh);
    const head = await store.headPosition();
    const runner = new ProjectionRunner({ store, dataSource: fresh, projectors, wakeUp: 'poll' });
    await runner.start();
    const reached = await runner.waitFor(head, runner.names, 60_000);
    await runner.stop();
    if (!reached) throw new Error('the fresh projection did not reach the head of the event store');
    if ((await store.headPosition()) !== head) {
      throw new Error('events were appended while the read models were compared: quiesce the service first');
    }

    const freshClient = new Client({ connectionString: freshUrl });
    await freshClient.connect();
    try {
      const differences: TableDifference[] = [];
      for (const table of await tablesOf(freshClient)) {
        const [liveRows, freshRows] = await Promise.all([rowsOf(live, table), rowsOf(freshClient, table)]);
        const liveSet = new Set(liveRows);
        const freshSet = new Set(freshRows);
        const extra = liveRows.filter((row) => !freshSet.has(row)).map((row) => JSON.parse(row));
        const missing = freshRows.filter((row) => !liveSet.has(row)).map((row) => JSON.parse(row));
        // Duplicated rows count too (a table without a primary key could hold an event twice).
        if (extra.length || missing.length || liveRows.length !== freshRows.length) {
          differences.push({ table, extra, missing });
        }
      }
      return differences;
    } finally {
      await freshClient.end();
    }
  } finally {
    await fresh.destroy().catch(() => undefined);
    await dropTestDatabase(freshUrl);
    await eventsPool.end();
    await live.end();
  }
}

/**
 * Until no projector has events of its types after its checkpoint (the `lag` operators see). The
 * checkpoints are the live ones, read from `projection_checkpoints`.
 */
async function waitUntilCaughtUp(
  live: Client,
  projectors: { name: string; eventTypes: readonly string[] }[],
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { rows } = await live.query<{ name: string; position: string; status: string }>(
      'select name, position::text, status from projection_checkpoints',
    );
    const behind: string[] = [];
    for (const projector of projectors) {
      const row = rows.find((r) => r.name === projector.name);
      if (row?.status === 'failed') throw new Error(`projector ${projector.name} failed`);
      const from = BigInt(row?.position ?? '0');
      const { rows: pending } = await live.query<{ n: string }>(
        `select count(*)::text as n from event_store.events where global_position > $1 and type = any($2::text[])`,
        [from.toString(), [...projector.eventTypes]],
      );
      if (pending[0].n !== '0') behind.push(`${projector.name} (${pending[0].n} events)`);
    }
    if (behind.length === 0) return;
    if (performance.now() > deadline) throw new Error(`read models still behind: ${behind.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
