import type { Logger } from 'pino';
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
export async function startTestService(
  env: Record<string, string> = {},
  /** Where the service logs (a test that reads its logs passes its own); silent by default. */
  options: { logger?: Logger } = {},
): Promise<TestService> {
  const databaseUrl = await createTestDatabase('e2e');
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    ...env,
  });
  const service = await startService(config, options.logger ?? createLogger(config.logLevel));
  return {
    ...service,
    call: callerFor(service.url),
    close: async () => {
      await service.stop();
      await dropTestDatabase(databaseUrl);
    },
  };
}

/** `call(method, path, {body, headers})` against a server at `baseUrl`; a JSON body unless a string. */
export function callerFor(baseUrl: string): TestService['call'] {
  return (method, path, options = {}) =>
    fetch(`${baseUrl}${path}`, {
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
    });
}
