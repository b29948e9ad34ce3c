import { createServer } from 'node:net';
import * as path from 'node:path';
import type { Logger } from 'pino';
import { resolveOperatorKey, type OperatorKey } from '../../../libs/platform/src/auth/operator-key';
import type { AppConfig } from '../../../libs/platform/src/config/config';
import { resolveVaultKey } from '../../../libs/platform/src/crypto/vault-key';
import type { DatabaseMonitor } from '../../../libs/platform/src/database/database-monitor';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresEvent,
} from '../../../libs/platform/src/database/embedded-postgres';

/** A clear one-line error a person can act on. */
export class StartupError extends Error {}

/**
 * What a start does before the service's own code is needed: the port checked, the keys resolved,
 * the embedded database started. This file loads little, so `npm start` can begin these steps
 * at once and load the service's modules (about a second and a half of CPU) while PostgreSQL
 * boots or `initdb` runs (`whileDatabaseStarts`).
 */
export interface EarlyStart {
  operatorKey: OperatorKey;
  vaultKey: Buffer;
  /** Null when `DATABASE_URL` names a database of its own. */
  embedded: EmbeddedPostgres | null;
  databaseUrl: string;
  /** The database monitor, once the infrastructure has one: the embedded supervisor tells it. */
  watch: { monitor: DatabaseMonitor | null };
}

export async function startEarly(
  config: AppConfig,
  logger: Logger,
  whileDatabaseStarts: () => void = () => undefined,
): Promise<EarlyStart> {
  await assertPortFree(config.host, config.port); // before the database: fail in milliseconds
  // Then: a sandbox's first start prints the generated operator key before anything else.
  const operatorKey = await resolveOperatorKey(config);
  const vaultKey = await resolveVaultKey(config);
  const watch: EarlyStart['watch'] = { monitor: null };
  if (config.databaseUrl) {
    whileDatabaseStarts();
    return { operatorKey, vaultKey, embedded: null, databaseUrl: config.databaseUrl, watch };
  }
  const dir = path.resolve(config.dataDir, 'postgres');
  logger.info({ dir }, 'starting embedded PostgreSQL');
  const pgLog = logger.child({ component: 'postgres' });
  const embedded = await startEmbeddedPostgres({
    dir,
    log: (line) => pgLog.debug(line),
    // Restarted in place, on the same port, so every pool's connection string stays valid.
    restart: true,
    onEvent: (event) => onEmbeddedEvent(event, pgLog, () => watch.monitor),
    whileStarting: whileDatabaseStarts,
  });
  // Over its Unix socket when it has one; a DATABASE_URL is used as it is (TCP when it names a host).
  return { operatorKey, vaultKey, embedded, databaseUrl: embedded.socketUrl ?? embedded.url, watch };
}

async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new StartupError(`port ${port} on ${host} is busy: stop the other process or set PORT`)
          : new StartupError(`cannot listen on ${host}:${port}: ${err.message} (check HOST and PORT)`),
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
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
