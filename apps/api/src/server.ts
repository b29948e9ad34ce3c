import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../../libs/platform/src/config/config';
import { refuseDefectiveBody, refuseNonJsonBody } from '../../../libs/platform/src/http/content-type';
import { RouteTable } from '../../../libs/platform/src/http/route-table';
import { NestPinoLogger } from '../../../libs/platform/src/logging/logger';
import { ProblemException, sendProblem } from '../../../libs/platform/src/problem/problem.filter';
import { problem } from '../../../libs/platform/src/problem/problem';
import { AppModule } from './app.module';
import { startInfrastructure, stopInfrastructure, type Infrastructure } from './infrastructure';

export interface RunningService {
  app: NestFastifyApplication;
  infra: Infrastructure;
  /** Where the server listens, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Graceful: stop taking requests, finish in-flight ones, then stop the infrastructure. */
  stop(): Promise<void>;
}

/** A clear one-line error a person can act on. */
export class StartupError extends Error {}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

export async function startService(config: AppConfig, logger: Logger): Promise<RunningService> {
  await assertPortFree(config.host, config.port); // before the database: fail in milliseconds
  const infra = await startInfrastructure(config, logger);
  try {
    const adapter = new FastifyAdapter({
      loggerInstance: logger.child({ component: 'http' }),
      // The caller's X-Request-Id when it is sane, else ours: every log line of a request carries it.
      genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      },
      bodyLimit: 1024 * 1024,
      // Path parameters up to 256 characters reach validation (400 problem) instead of a bare 414.
      maxParamLength: 256,
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
    });
    const routes = new RouteTable();
    // Before Nest registers its routes, so the table sees every one of them (for 405 answers).
    adapter.getInstance().addHook('onRoute', (route) => routes.add(route.method, route.url));
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(infra, routes), adapter, {
      logger: new NestPinoLogger(logger.child({ component: 'nest' })),
    });
    app.setGlobalPrefix('api/v1');
    const fastify = app.getHttpAdapter().getInstance();
    // JSON bodies only: any other media type is 415 before its body is read.
    fastify.addHook('onRequest', async (request) => refuseNonJsonBody(request));
    fastify.addHook('preValidation', async (request) => refuseDefectiveBody(request));
    fastify.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    await app.listen(config.port, config.host);
    const address = fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
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
