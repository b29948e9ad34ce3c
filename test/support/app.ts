import type { Logger } from 'pino';
import { loadConfig } from '../../libs/platform/src/config/config';
import { createLogger } from '../../libs/platform/src/logging/logger';
import { startService, type RunningService } from '../../apps/api/src/server';
import { createTestDatabase, dropTestDatabase } from './database';
import { validatorFor, type OpenApiValidator } from './openapi-validator';

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
  // The document this very service serves: every exchange through `call` is checked against it.
  let document = await fetch(`${service.url}/api/v1/openapi.json`);
  // A database probe that timed out on a busy machine answers 503 for a moment: wait it out.
  for (let tries = 0; document.status === 503 && tries < 20; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    document = await fetch(`${service.url}/api/v1/openapi.json`);
  }
  if (document.status !== 200) {
    await service.stop();
    throw new Error(`GET /api/v1/openapi.json answered ${document.status}: ${await document.text()}`);
  }
  const validator = validatorFor(await document.text());
  return {
    ...service,
    call: callerFor(service.url, validator),
    close: async () => {
      await service.stop();
      await dropTestDatabase(databaseUrl);
    },
  };
}

/**
 * `call(method, path, {body, headers})` against a server at `baseUrl`; a JSON body unless a string.
 * With a validator, each exchange is checked against the OpenAPI document and a mismatch fails the
 * call (and so the test that made it), naming the route, the status and ajv's error path.
 */
export function callerFor(baseUrl: string, validator?: OpenApiValidator): TestService['call'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    if (!validator) return res;
    const final = res.redirected ? new URL(res.url) : null;
    // Only a JSON answer is read (from a clone); an export or a page streams on untouched.
    const json = /^application\/(problem\+)?json/.test(res.headers.get('content-type') ?? '');
    const problems = validator.check({
      method: final ? 'GET' : method,
      path: final ? `${final.pathname}${final.search}` : path,
      requestHeaders: final ? {} : headers,
      requestBody: final ? undefined : options.body,
      status: res.status,
      responseHeaders: res.headers,
      responseText: json ? await res.clone().text() : null,
    });
    if (problems.length > 0) {
      throw new Error(`the exchange does not match the OpenAPI document:\n  ${problems.join('\n  ')}`);
    }
    return res;
  };
}
