import 'reflect-metadata';
import { ConfigError, loadConfig } from '../../../libs/platform/src/config/config';
import { EmbeddedPostgresError } from '../../../libs/platform/src/database/embedded-postgres';
import { createLogger } from '../../../libs/platform/src/logging/logger';
import { startEarly, StartupError } from './early-start';
import type { RunningService } from './server';

/** `npm start`: one process serving the API, hosted pages, projectors and workers. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  const logger = createLogger(config.logLevel);

  let service: RunningService;
  try {
    // The service's modules (Nest, the contexts, TypeORM: about a second and a half to load) load
    // while the embedded PostgreSQL boots, not after it.
    let loading: Promise<typeof import('./server')> | undefined;
    const loadService = () => (loading ??= import('./server'));
    const early = await startEarly(config, logger, () => void loadService());
    service = await (await loadService()).startService(config, logger, early);
  } catch (error) {
    if (error instanceof StartupError || error instanceof EmbeddedPostgresError) return fail(error.message);
    logger.fatal({ err: error }, 'start-up failed');
    return fail(`start-up failed: ${(error as Error).message}`);
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    logger.info(
      { signal },
      'shutting down: finishing in-flight requests, stopping projectors at a checkpoint',
    );
    service.stop().then(
      () => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function fail(line: string): void {
  process.stderr.write(`${line}\n`);
  process.exitCode = 2;
}

void main();
