import type { Logger } from 'pino';
import { loadConfig } from '../../libs/platform/src/config/config';
import { createLogger } from '../../libs/platform/src/logging/logger';
import { startService, type RunningService } from '../../apps/api/src/server';
import { createTestDatabase, dropTestDatabase } from './database';
import { checkExchangesWith, documentOf, exchange, registeredAt } from './checked-fetch';
import type { OpenApiValidator } from './openapi-validator';

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
  let checked: { validator: OpenApiValidator; forget: () => void };
  try {
    checked = await checkAgainstItsDocument(service);
  } catch (error) {
    await service.stop();
    throw error;
  }
  const { validator, forget } = checked;
  return {
    ...service,
    call: callerFor(service.url, validator),
    stop: () => {
      forget();
      return service.stop();
    },
    close: async () => {
      forget();
      await service.stop();
      await dropTestDatabase(databaseUrl);
    },
  };
}

/**
 * The document this very service serves: from now on every exchange with it (`call`,
 * `checkedFetch`) is checked against it, until `forget()`.
 */
export async function checkAgainstItsDocument(
  service: RunningService,
): Promise<{ validator: OpenApiValidator; forget: () => void }> {
  const validator = await documentOf(service.url);
  // Compiling the validators holds this process (the service's too) for a moment: a database
  // probe due meanwhile times out and the service answers 503 until the next one. Ask again now.
  for (let tries = 0; (await service.infra.database.probe()) !== 'up' && tries < 20; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { validator, forget: checkExchangesWith(service.url, validator) };
}

/**
 * `call(method, path, {body, headers})` against a server at `baseUrl`; a JSON body unless a string.
 * Each exchange is checked against the OpenAPI document (`validator`, or that of the service known
 * at `baseUrl`: test/support/checked-fetch.ts) and a mismatch fails the call (and so the test that
 * made it), naming the method, the route, the status and ajv's error path.
 */
export function callerFor(baseUrl: string, validator?: OpenApiValidator): TestService['call'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const url = new URL(`${baseUrl}${path}`);
    return exchange(validator ?? registeredAt(url), url, { method, headers, body }, options.body);
  };
}
