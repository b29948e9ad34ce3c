import * as path from 'node:path';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EventStore } from '../../../libs/event-store/src';
import { KurrentDbEventStore, PostgresEventStore } from '../../../libs/event-store/src';
import { OperatorKey, resolveOperatorKey } from '../../../libs/platform/src/auth/operator-key';
import { SealedBox } from '../../../libs/platform/src/crypto/sealed-box';
import { resolveVaultKey } from '../../../libs/platform/src/crypto/vault-key';
import { Clock, SystemClock } from '../../../libs/platform/src/clock/clock';
import { SandboxClock } from '../../../libs/platform/src/clock/sandbox-clock';
import { SandboxClockStore } from './sandbox/sandbox-clock-store';
import type { AppConfig } from '../../../libs/platform/src/config/config';
import { createDataSource, runMigrations } from '../../../libs/platform/src/database/data-source';
import { DatabaseMonitor } from '../../../libs/platform/src/database/database-monitor';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresEvent,
} from '../../../libs/platform/src/database/embedded-postgres';
import { IdempotencyStore } from '../../../libs/platform/src/idempotency/idempotency-store';
import { PostgresRateWindows } from '../../../libs/platform/src/auth/rate-windows';
import { PeriodicTask } from '../../../libs/platform/src/scheduling/periodic-task';
import { ProjectionRunner } from '../../../libs/projections/src';
import { WEBHOOK_QUEUE_GAUGES } from '../../../libs/webhooks/src';
import { recurringGauges } from '../../../libs/recurring/src';
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

export async function startInfrastructure(config: AppConfig, logger: Logger): Promise<Infrastructure> {
  const started: { stop: () => Promise<unknown> }[] = [];
  try {
    // First: a sandbox's first start prints the generated operator key before anything else.
    const operatorKey = await resolveOperatorKey(config);
    const vault = new SealedBox(await resolveVaultKey(config));

    let embedded: EmbeddedPostgres | null = null;
    let database: DatabaseMonitor | null = null;
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const dir = path.resolve(config.dataDir, 'postgres');
      logger.info({ dir }, 'starting embedded PostgreSQL');
      const pgLog = logger.child({ component: 'postgres' });
      embedded = await startEmbeddedPostgres({
        dir,
        log: (line) => pgLog.debug(line),
        // Restarted in place, on the same port, so every pool's connection string stays valid.
        restart: true,
        onEvent: (event) => onEmbeddedEvent(event, pgLog, () => database),
      });
      started.push(embedded);
      // Over its Unix socket when it has one; a DATABASE_URL is used as it is (TCP when it names a host).
      databaseUrl = embedded.socketUrl ?? embedded.url;
    }

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
      eventStore = KurrentDbEventStore.fromConnectionString(config.eventStoreUrl, clock);
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

    const projections = new ProjectionRunner({
      store: eventStore,
      dataSource,
      projectors: PROJECTORS.map((make) => make(config)),
      databaseUrl,
      logger: logger.child({ component: 'projections' }),
    });
    await projections.start();

    database = new DatabaseMonitor({
      connectionString: databaseUrl,
      logger: logger.child({ component: 'database' }),
    });
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

/**
 * What the embedded database's supervisor reports, for operators (docs/operations.md): a crash is
 * logged once with the server's last words, requests answer 503 at once, and the restart is
 * logged when it is back.
 */
function onEmbeddedEvent(
  event: EmbeddedPostgresEvent,
  log: Logger,
  monitor: () => DatabaseMonitor | null,
): void {
  switch (event.type) {
    case 'orphan_stopped':
      log.warn(
        { pid: event.pid, owner_pid: event.ownerPid },
        'stopped the embedded PostgreSQL that a service which died left running on this DATA_DIR',
      );
      return;
    case 'exited': {
      const how = event.signal ? `killed by ${event.signal}` : `exit code ${event.code}`;
      log.error(
        { pid: event.pid, code: event.code, signal: event.signal, output: event.output },
        `embedded PostgreSQL exited unexpectedly (${how}); restarting it`,
      );
      monitor()?.markDown(`the embedded PostgreSQL exited (${how}) and is being restarted`);
      return;
    }
    case 'restart_failed':
      log.warn(
        { attempt: event.attempt, error: event.error, retry_in_ms: event.retryInMs },
        'embedded PostgreSQL did not restart yet; trying again',
      );
      return;
    case 'restarted':
      log.info({ pid: event.pid, attempt: event.attempt }, 'embedded PostgreSQL restarted');
      void monitor()?.probe();
      return;
  }
}
