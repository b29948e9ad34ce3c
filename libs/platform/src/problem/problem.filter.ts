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
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DatabaseUnavailable,
  isDatabaseUnavailable,
} from '../database/database-unavailable';
import { RouteTable } from '../http/route-table';
import { DomainError } from './domain-error';
import { PROBLEM_CONTENT_TYPE, problem, problemTypeFor, type Problem } from './problem';
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
  // Before DomainError: a lost database is never a 500 (nor a 422), whoever noticed it first.
  if (isDatabaseUnavailable(error)) {
    const detail =
      error instanceof DatabaseUnavailable
        ? error.message
        : 'the service cannot reach its database right now; retry after the Retry-After delay';
    return {
      body: problem(503, 'service_unavailable', detail, { retryable: true }),
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
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
  const log = logger ?? request.log;
  if (body.code === 'service_unavailable') {
    // The outage itself is logged once, by the database monitor, not once per refused request.
    if (isDatabaseUnavailable(error) && outcomeUnknown(request)) {
      body.detail = UNKNOWN_OUTCOME;
      log.warn({ err: error, request_id: request.id }, 'database lost while a write ran: outcome unknown');
    }
  } else if (body.status >= 500) {
    log.error({ err: error, request_id: request.id }, 'request failed');
  }
  void reply
    .status(body.status)
    .headers(headers)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .send(renderedProblem(request, body));
}

/**
 * The body as a client receives it: its `type` an absolute URL of this deployment's explanation
 * page, and the request's id last. The idempotency layer stores exactly this, so a replay is the
 * same bytes.
 */
export function renderedProblem(request: FastifyRequest, body: Problem): Problem {
  return { ...body, type: problemTypeFor(request.server, body.type), request_id: String(request.id) };
}

const UNKNOWN_OUTCOME =
  'the database became unreachable while this request was running, so whether it took effect is unknown: retry it with the SAME Idempotency-Key after the Retry-After delay (it then completes or answers as it did, exactly once); a new key could apply it twice';

/**
 * A write that got past its idempotency check (it holds a command id) may have committed before
 * the connection went: the caller cannot tell success from failure, exactly as with a gateway
 * answer that never came, and the cure is the same (spec Errors: retry with the same key).
 */
function outcomeUnknown(request: FastifyRequest): boolean {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) && Boolean(request.commandId);
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
