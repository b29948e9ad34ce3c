import { loadConfig } from '../../libs/platform/src/config/config';
import { createLogger } from '../../libs/platform/src/logging/logger';
import { startService, type RunningService } from '../../apps/api/src/server';
import { createTestDatabase, dropTestDatabase } from './database';

export interface TestService extends RunningService {
  /** fetch against the running server: `call('GET', '/api/v1/health')`. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real Nest app on Fastify, listening on a free loopback port, on a fresh database of the
 * test run's embedded PostgreSQL. Everything a partner would touch is real.
 */
export async function startTestService(env: Record<string, string> = {}): Promise<TestService> {
  const databaseUrl = await createTestDatabase('e2e');
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    ...env,
  });
  const service = await startService(config, createLogger(config.logLevel));
  return {
    ...service,
    call: (method, path, options = {}) =>
      fetch(`${service.url}${path}`, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body:
          options.body === undefined
            ? undefined
            : typeof options.body === 'string'
              ? options.body
              : JSON.stringify(options.body),
      }),
    close: async () => {
      await service.stop();
      await dropTestDatabase(databaseUrl);
    },
  };
}
