import { Pool } from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EventStore } from '../../../libs/event-store/src';
import { connectKurrentDb, PostgresEventStore } from '../../../libs/event-store/src';
import type { OperatorKey } from '../../../libs/platform/src/auth/operator-key';
import { SealedBox } from '../../../libs/platform/src/crypto/sealed-box';
import { Clock, SystemClock } from '../../../libs/platform/src/clock/clock';
import { SandboxClock } from '../../../libs/platform/src/clock/sandbox-clock';
import { SandboxClockStore } from './sandbox/sandbox-clock-store';
import type { AppConfig } from '../../../libs/platform/src/config/config';
import { createDataSource, runMigrations } from '../../../libs/platform/src/database/data-source';
import { DatabaseMonitor } from '../../../libs/platform/src/database/database-monitor';
import type { EmbeddedPostgres } from '../../../libs/platform/src/database/embedded-postgres';
import { IdempotencyStore } from '../../../libs/platform/src/idempotency/idempotency-store';
import { PostgresRateWindows } from '../../../libs/platform/src/auth/rate-windows';
import { PeriodicTask } from '../../../libs/platform/src/scheduling/periodic-task';
import { ProjectionRunner } from '../../../libs/projections/src';
import { DeliveryHandoff, WEBHOOK_QUEUE_GAUGES } from '../../../libs/webhooks/src';
import { recurringGauges } from '../../../libs/recurring/src';
import type { EarlyStart } from './early-start';
import { ServiceMetrics } from './metrics/service-metrics';
import { READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS, PROJECTORS } from '../../../projections';

/** Everything the process owns outside Nest, started in dependency order and stopped in reverse. */
export interface Infrastructure {
  config: AppConfig;
  logger: Logger;
  databaseUrl: string;
  embedded: EmbeddedPostgres | null;
  pool: Pool;
  clock: Clock;
  /** The sandbox clock's persisted offset; null in production. */
  sandboxClock: SandboxClockStore | null;
  eventStore: EventStore;
  dataSource: DataSource;
  projections: ProjectionRunner;
  deliveryHandoff: DeliveryHandoff;
  operatorKey: OperatorKey;
  /** Encryption at rest under the vault key (documents, bank data, card data). */
  vault: SealedBox;
  idempotency: IdempotencyStore;
  /** Whether the database answers: `GET /health` reports it, and requests are refused (503) while it does not. */
  database: DatabaseMonitor;
  /** What `GET /metrics` serves (docs/operations.md, "Metrics"). */
  metrics: ServiceMetrics;
  stopSweepers(): void;
}

/** How often a sandbox process reads advances of the shared clock made by another process. */
export const SANDBOX_CLOCK_REFRESH_MS = 1_000;

/** A pool connection that fails waits for no one: its pool replaces it, requests answer 503. */
export const CONNECT_TIMEOUT_MS = 5_000;

export async function startInfrastructure(
  config: AppConfig,
  logger: Logger,
  /** The port checked, the keys and the database (early-start.ts). */
  early: EarlyStart,
): Promise<Infrastructure> {
  const started: { stop: () => Promise<unknown> }[] = [];
  try {
    const { operatorKey, embedded, databaseUrl, watch } = early;
    const vault = new SealedBox(early.vaultKey);
    if (embedded) started.push(embedded);

    const pool = new Pool({
      connectionString: databaseUrl,
      max: 20,
      application_name: 'partner-payments',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    pool.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection failed'));
    // A connection lost while checked out emits 'error' too; its query already failed (and answers
    // 503), but an unheard 'error' event would end the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    started.push({ stop: () => pool.end() });

    const clock = config.appEnv === 'sandbox' ? new SandboxClock() : new SystemClock();

    let eventStore: EventStore;
    if (config.eventStoreUrl) {
      eventStore = await connectKurrentDb(config.eventStoreUrl, clock);
    } else {
      await PostgresEventStore.migrate(pool);
      eventStore = new PostgresEventStore(pool, clock);
    }
    started.push({ stop: () => eventStore.close() });
    const sandboxClock = clock instanceof SandboxClock ? new SandboxClockStore(clock, eventStore) : null;
    await sandboxClock?.load();
    // Another process on the same database may advance sandbox time: follow it within a second.
    const clockFollow = sandboxClock
      ? setInterval(() => {
          sandboxClock
            .refresh()
            .catch((err: unknown) => logger.debug({ err }, 'sandbox clock refresh failed'));
        }, SANDBOX_CLOCK_REFRESH_MS)
      : null;
    clockFollow?.unref();
    started.push({ stop: async () => clockFollow && clearInterval(clockFollow) });

    await IdempotencyStore.migrate(pool);
    await PostgresRateWindows.migrate(pool);
    await PeriodicTask.migrate(pool);
    // The PostgreSQL event store writes requests' records in its appends' transactions.
    const idempotency = new IdempotencyStore(pool, clock, {
      joinsAppends: eventStore instanceof PostgresEventStore,
    });
    // Records past the 24-hour window are already treated as absent; this only keeps the table small.
    // One purge per interval across every process on the database (docs/operations.md).
    const purge = new PeriodicTask(
      () => idempotency.purgeExpired(),
      10 * 60_000,
      (err: unknown) => logger.warn({ err }, 'idempotency purge failed'),
      { pool, name: 'idempotency-purge' },
    );
    purge.start();
    started.push({ stop: () => purge.stop() });

    const dataSource = createDataSource(databaseUrl, {
      entities: READ_MODEL_ENTITIES,
      migrations: READ_MODEL_MIGRATIONS,
    });
    await dataSource.initialize();
    started.push({ stop: () => dataSource.destroy() });
    await runMigrations(dataSource);

    // Fresh webhook deliveries go from the webhooks projector to this process's worker directly.
    const deliveryHandoff = new DeliveryHandoff();
    const projections = new ProjectionRunner({
      store: eventStore,
      dataSource,
      projectors: PROJECTORS.map((make) => make({ ...config, deliveryHandoff })),
      databaseUrl,
      logger: logger.child({ component: 'projections' }),
    });
    await projections.start();

    const database = new DatabaseMonitor({
      connectionString: databaseUrl,
      logger: logger.child({ component: 'database' }),
    });
    watch.monitor = database;
    database.start();

    const metrics = new ServiceMetrics({
      pool,
      projections,
      gauges: [...WEBHOOK_QUEUE_GAUGES, ...recurringGauges(clock)],
    });

    return {
      config,
      logger,
      databaseUrl,
      embedded,
      pool,
      clock,
      sandboxClock,
      eventStore,
      dataSource,
      projections,
      deliveryHandoff,
      operatorKey,
      vault,
      idempotency,
      database,
      metrics,
      stopSweepers: () => {
        void purge.stop();
        if (clockFollow) clearInterval(clockFollow);
      },
    };
  } catch (error) {
    for (const part of started.reverse()) await part.stop().catch(() => undefined);
    throw error;
  }
}

/** Projectors stop at a checkpoint, then the store, the pools, and the database last. */
export async function stopInfrastructure(infra: Infrastructure): Promise<void> {
  infra.stopSweepers();
  const steps: [string, () => Promise<unknown>][] = [
    // First: the database going away from here on is the shutdown, not an outage.
    ['database monitor', () => infra.database.stop()],
    ['projections', () => infra.projections.stop()],
    ['event store', () => infra.eventStore.close()],
    ['read models', () => infra.dataSource.destroy()],
    ['pool', () => infra.pool.end()],
    ['embedded PostgreSQL', () => infra.embedded?.stop() ?? Promise.resolve()],
  ];
  for (const [name, stop] of steps) {
    try {
      await stop();
    } catch (err) {
      infra.logger.warn({ err }, `stopping ${name} failed`);
    }
  }
}
