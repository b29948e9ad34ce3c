import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, defer, finalize, from, mergeMap, of, type Observable } from 'rxjs';
import { ProblemException, renderedProblem, toProblem } from '../problem/problem.filter';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/problem';
import { checkIdempotencyKey } from './idempotency-key';
import { IdempotencyStore, fingerprintOf, type StoredResponse } from './idempotency-store';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const KEPT_HEADERS = ['content-type', 'location'];

/** A write that derives its own idempotency key (a hosted-page form post) opts out here. */
export const NO_IDEMPOTENCY_HEADER = 'no-idempotency-header';
export const WithoutIdempotencyHeader = () => SetMetadata(NO_IDEMPOTENCY_HEADER, true);

/** Where a key lives: one partner's keys never meet another's, nor the operator's. */
export function idempotencyScope(request: FastifyRequest): string {
  const principal = request.principal;
  if (!principal) return 'public';
  switch (principal.kind) {
    case 'operator':
      return 'platform';
    case 'partner':
      return `partner:${principal.partnerId}`;
    case 'terminal':
      return `terminal:${principal.terminalId}`;
  }
}

/**
 * Every POST, PUT and PATCH runs at most once per (partner, Idempotency-Key) within the window
 * (spec Limits; ADR 0004). Runs after the auth guard, before validation and the handler.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (!WRITES.has(request.method)) return next.handle();
    const optOut = this.reflector.getAllAndOverride<boolean | undefined>(NO_IDEMPOTENCY_HEADER, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (optOut) return next.handle();

    const check = checkIdempotencyKey(request.headers['idempotency-key']);
    if (!check.ok) {
      const detail = `Idempotency-Key ${check.message}`;
      throw new ProblemException(
        problem(400, check.code, detail, { errors: [{ field: 'Idempotency-Key', message: check.message }] }),
      );
    }
    const key = check.key;
    const scope = idempotencyScope(request);
    const fingerprint = fingerprintOf(request.method, request.url, request.body);

    return from(this.store.begin(scope, key, fingerprint)).pipe(
      mergeMap((outcome) => {
        switch (outcome.kind) {
          case 'replay':
            return of(replay(reply, outcome.response));
          case 'reused':
            throw new ProblemException(
              problem(
                422,
                'idempotency_key_reused',
                'this Idempotency-Key was used with a different request; use a new key for a new request',
              ),
            );
          case 'in_progress':
            // CONTRACT §7: every write answers its running twin alike, a transaction too. A 502
            // would say the gateway's answer was lost, which is not what happened (and would be
            // logged as a failure); the twin is told to come back in about a heartbeat.
            throw new ProblemException(
              problem(
                409,
                'idempotency_key_in_progress',
                'a request with this Idempotency-Key is still running; retry with the SAME key after the Retry-After delay',
                { retryable: true },
              ),
              { 'retry-after': String(outcome.retryAfterSeconds) },
            );
          case 'execute': {
            request.commandId = outcome.commandId;
            request.commandFresh = !outcome.resumed;
            request.idempotencyKey = key;
            // The heartbeat starts with the handler and stops however it ends (answer, error,
            // or the caller going away), so no renewal outlives the run.
            return defer(() => {
              const hold = this.store.hold(scope, key, outcome.lease);
              return next.handle().pipe(
                mergeMap(async (body: unknown) => {
                  await hold.release();
                  await this.store.complete(scope, key, outcome.commandId, {
                    status: reply.statusCode,
                    headers: keptHeaders(reply),
                    body: body ?? null,
                  });
                  return body;
                }),
                catchError(async (error: unknown) => {
                  await hold.release();
                  const { body, headers } = toProblem(error);
                  // 5xx and retryable refusals (a lost race) have no definite answer to keep.
                  if (body.status >= 500 || body.retryable === true) {
                    await this.store.abandon(scope, key, outcome.lease);
                  } else {
                    await this.store.complete(scope, key, outcome.commandId, {
                      status: body.status,
                      headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE },
                      // As the problem filter renders it, so a replay is byte-equal.
                      body: renderedProblem(request, body),
                    });
                  }
                  throw error;
                }),
                finalize(() => void hold.release()),
              );
            });
          }
        }
      }),
    );
  }
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

/**
 * The original answer, byte for byte: same status, kept headers and body (a problem keeps the
 * `request_id` of the request that first received it, the one its logs and events name; this
 * request's own id is in `x-request-id`).
 */
function replay(reply: FastifyReply, stored: StoredResponse): unknown {
  void reply.status(stored.status).headers(stored.headers).header('x-idempotent-replay', 'true');
  if (stored.status === 204) return undefined;
  return stored.body;
}
