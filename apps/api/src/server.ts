import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { Server, ServerOptions } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../../../libs/platform/src/config/config';
import { refuseWhileDatabaseDown } from '../../../libs/platform/src/database/database-gate';
import { refuseDefectiveBody, refuseNonJsonBody } from '../../../libs/platform/src/http/content-type';
import { RouteTable } from '../../../libs/platform/src/http/route-table';
import { registerApiVersion } from '../../../libs/platform/src/http/api-version';
import { compileAllowlist } from '../../../libs/platform/src/net/ip-allowlist';
import { NestPinoLogger } from '../../../libs/platform/src/logging/logger';
import { scrubCardNumbers } from '../../../libs/platform/src/logging/scrub';
import { ProblemException, sendProblem } from '../../../libs/platform/src/problem/problem.filter';
import { PROBLEM_CONTENT_TYPE, problem, setPublicBaseUrl } from '../../../libs/platform/src/problem/problem';
import { AppModule } from './app.module';
import { startEarly, StartupError, type EarlyStart } from './early-start';
import { startInfrastructure, stopInfrastructure, type Infrastructure } from './infrastructure';
import { isPayerPage, PAYER_ERROR_HEADERS, payerErrorPage } from './payer-error-page';
import { clientErrorHandler, refuseExpectation } from './protocol-errors';

export interface RunningService {
  app: NestFastifyApplication;
  infra: Infrastructure;
  /** Where the server listens, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Graceful: stop taking requests, finish in-flight ones, then stop the infrastructure. */
  stop(): Promise<void>;
}

export { StartupError };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's X-Request-Id when it is sane, else ours. One shaped like a card number is not
 * taken: it would be stored in every event's metadata and printed on every log line.
 */
function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) && scrubCardNumbers(given) === given
    ? given
    : randomUUID();
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal would have no problem body. */
function refuseMissingHost(request: FastifyRequest): void {
  if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return;
  throw new ProblemException(
    problem(400, 'validation_error', 'an HTTP/1.1 request must carry a Host header', {
      errors: [{ field: 'host', message: 'is required' }],
    }),
  );
}

/** Fastify's `trustProxy`: a hop is trusted when it is one of the configured proxies. */
function trustedProxies(proxies: readonly string[]): false | ((address: string) => boolean) {
  if (proxies.length === 0) return false;
  const isProxy = compileAllowlist(proxies);
  return (address) => isProxy(address);
}

export async function startService(
  config: AppConfig,
  logger: Logger,
  /** What `npm start` began before loading this module; begun here when absent (tests). */
  early?: EarlyStart,
): Promise<RunningService> {
  const infra = await startInfrastructure(config, logger, early ?? (await startEarly(config, logger)));
  try {
    const httpLog = logger.child({ component: 'http' });
    const options: FastifyServerOptions<Server> & { http: ServerOptions } = {
      loggerInstance: httpLog,
      // Every log line of a request carries its id.
      genReqId: (req: { headers: Record<string, string | string[] | undefined> }) =>
        requestIdOf(req.headers['x-request-id']),
      // No connection is held open by a client that sends nothing or a byte at a time: the
      // headers, the whole request and an idle keep-alive each have a bound (README, Environment).
      requestTimeout: config.httpRequestTimeoutMs,
      keepAliveTimeout: config.httpKeepAliveTimeoutMs,
      http: {
        headersTimeout: config.httpHeadersTimeoutMs,
        requestTimeout: config.httpRequestTimeoutMs,
        // Node looks for expired requests this often (30 s by default, which would let a slow
        // client stay up to 30 s past the bound).
        connectionsCheckingInterval: Math.min(
          1000,
          Math.max(100, Math.floor(config.httpHeadersTimeoutMs / 4)),
        ),
        // Checked in onRequest instead, so the refusal is problem+json like every other.
        requireHostHeader: false,
      },
      // What Node's parser refuses never reaches a route: answered as problem+json (or the
      // payer's HTML page) with Connection: close, instead of Fastify's own JSON.
      clientErrorHandler: clientErrorHandler(httpLog),
      bodyLimit: 1024 * 1024,
      // Behind a proxy (TRUST_PROXY), the client is the first address in X-Forwarded-For that is
      // not one of the proxies; otherwise the socket's peer, and X-Forwarded-For means nothing.
      trustProxy: trustedProxies(config.trustProxy),
      // Path parameters up to 256 characters reach validation (400 problem) instead of a bare 414.
      routerOptions: { maxParamLength: 256 },
      return503OnClosing: true,
      forceCloseConnections: 'idle',
      // Errors Fastify raises before routing (a path that is not valid percent-encoding, a bad
      // content-type header) answer in the API's own problem+json form, with the request id.
      frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
        reply.header('x-request-id', request.id);
        sendProblem(
          reply,
          request,
          new ProblemException(
            problem(400, 'validation_error', `the request is malformed: ${error.message}`, {
              errors: [{ field: 'request', message: error.message }],
            }),
          ),
        );
      },
    };
    const adapter = new FastifyAdapter(options);
    const routes = new RouteTable();
    // Before Nest registers its routes, so the table sees every one of them (for 405 answers).
    adapter.getInstance().addHook('onRoute', (route) => routes.add(route.method, route.url));
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(infra, routes), adapter, {
      logger: new NestPinoLogger(logger.child({ component: 'nest' })),
    });
    app.setGlobalPrefix('api/v1');
    const fastify = app.getHttpAdapter().getInstance();
    // An `Expect` other than 100-continue: 417 problem+json instead of Node's bare 417.
    fastify.server.on('checkExpectation', refuseExpectation);
    // A Host header, and JSON bodies only: any other media type is 415 before its body is read.
    fastify.addHook('onRequest', async (request) => {
      refuseMissingHost(request);
      refuseNonJsonBody(request);
    });
    // While the database is known to be down every request answers 503 at once (docs/operations.md).
    fastify.addHook('onRequest', refuseWhileDatabaseDown(infra.database));
    fastify.addHook('preValidation', async (request) => refuseDefectiveBody(request));
    // Every answer is timed for `GET /metrics`, by route pattern and status.
    infra.metrics.observe(fastify);
    // `Api-Version`: a pinned version is checked; every answer names the version it was built for.
    registerApiVersion(fastify);
    fastify.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-request-id', request.id);
      // A payer's browser gets a page, whatever refused the request (415, 413, 405, a bad path).
      const type = String(reply.getHeader('content-type') ?? '');
      if (isPayerPage(request.url) && type.startsWith(PROBLEM_CONTENT_TYPE)) {
        reply.headers(PAYER_ERROR_HEADERS);
        return payerErrorPage(reply.statusCode);
      }
      return payload;
    });
    await app.listen(config.port, config.host);
    const address = fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // Problem `type` URLs point at this deployment's own explanation pages.
    const publicBase = new URL(config.publicBaseUrl);
    if (publicBase.port === '0') publicBase.port = String(port);
    const base = publicBase.toString().replace(/\/+$/, '');
    setPublicBaseUrl(fastify, base);
    setPublicBaseUrl(fastify.server, base);
    logger.info(
      { url, env: config.appEnv, embedded_database: Boolean(infra.embedded) },
      'partner payments API is listening',
    );

    let stopping: Promise<void> | undefined;
    return {
      app,
      infra,
      url,
      stop: () =>
        (stopping ??= (async () => {
          await app.close(); // stops accepting, lets in-flight requests finish
          await stopInfrastructure(infra);
        })()),
    };
  } catch (error) {
    await stopInfrastructure(infra);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StartupError(
        `port ${config.port} on ${config.host} is busy: stop the other process or set PORT`,
      );
    }
    throw error;
  }
}
