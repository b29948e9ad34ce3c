import {
  ArgumentsHost,
  Catch,
  HttpException,
  NotFoundException,
  Optional,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { RouteTable } from '../http/route-table';
import { DomainError } from './domain-error';
import { PROBLEM_CONTENT_TYPE, problem, type Problem } from './problem';
import { statusForCode } from './problem-status';

/** An error that already knows its problem body (validation errors, auth, idempotency). */
export class ProblemException extends Error {
  constructor(
    readonly body: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.detail);
  }
}

const CODE_FOR_STATUS: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  501: 'not_implemented',
};

/** Turns anything thrown into an `application/problem+json` body (CONTRACT §7). */
export function toProblem(error: unknown): { body: Problem; headers: Record<string, string> } {
  if (error instanceof ProblemException) return { body: error.body, headers: error.headers };
  if (error instanceof DomainError) {
    const body = problem(statusForCode(error.code), error.code, error.message);
    if (error.retryable !== undefined) body.retryable = error.retryable;
    const fieldErrors = (error as { errors?: unknown }).errors;
    if (Array.isArray(fieldErrors)) body.errors = fieldErrors as Problem['errors'];
    // A refusal that knows when a retry can succeed says so (a 429 with `Retry-After`).
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return { body, headers: typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {} };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = CODE_FOR_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'validation_error');
    const response = error.getResponse();
    const detail =
      typeof response === 'object' && response && 'message' in response
        ? String((response as { message: unknown }).message)
        : error.message;
    return { body: requestProblem(status, code, detail), headers: {} };
  }
  // Fastify's own errors (bad JSON, wrong content type, body too large) carry a statusCode.
  // Nest hands them over as an HttpException with Fastify's message; this is the same, unwrapped.
  const fastify = error as { statusCode?: number; code?: string; message?: string };
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const status = fastify.statusCode;
    const code = CODE_FOR_STATUS[status] ?? 'validation_error';
    return { body: requestProblem(status, code, fastify.message ?? 'bad request'), headers: {} };
  }
  return {
    body: problem(500, 'internal_error', 'an unexpected error occurred; it has been logged', {
      retryable: true,
    }),
    headers: {},
  };
}

/**
 * A refusal raised before the handler (Fastify's body parsing, Nest's pipes). A `validation_error`
 * always names what was wrong in `errors` (CONTRACT §7): the body when it could not be read.
 */
function requestProblem(status: number, code: string, message: string): Problem {
  if (code !== 'validation_error') return problem(status, code, message);
  if (/^Body cannot be empty/i.test(message)) {
    return problem(status, code, 'the request body is empty but Content-Type says JSON', {
      errors: [{ field: 'body', message: 'must not be empty' }],
    });
  }
  if (/JSON/.test(message)) {
    return problem(status, code, 'the request body is not valid JSON', {
      errors: [{ field: 'body', message: 'is not valid JSON' }],
    });
  }
  return problem(status, code, message, { errors: [{ field: 'request', message }] });
}

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  error: unknown,
  logger?: Logger,
): void {
  const { body, headers } = toProblem(error);
  if (body.status >= 500)
    (logger ?? request.log).error({ err: error, request_id: request.id }, 'request failed');
  body.request_id = String(request.id);
  void reply.status(body.status).headers(headers).header('content-type', PROBLEM_CONTENT_TYPE).send(body);
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Optional() private readonly routes?: RouteTable) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    sendProblem(http.getResponse<FastifyReply>(), request, this.routeNotFound(error, request) ?? error);
  }

  /** Nest's "no route" becomes 405 with `Allow` when the path exists under other methods. */
  private routeNotFound(error: unknown, request: FastifyRequest): ProblemException | null {
    if (!(error instanceof NotFoundException) || !/^Cannot [A-Z]+ /.test(error.message)) return null;
    const methods = this.routes?.methodsFor(request.url) ?? [];
    if (methods.length > 0 && !methods.includes(request.method)) {
      return new ProblemException(
        problem(
          405,
          'method_not_allowed',
          `${request.method} is not allowed here; use ${methods.join(', ')}`,
        ),
        { allow: methods.join(', ') },
      );
    }
    const path = request.url.split('?')[0];
    return new ProblemException(problem(404, 'not_found', `no endpoint ${request.method} ${path}`));
  }
}
