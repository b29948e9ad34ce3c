import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { catchError, defer, finalize, from, lastValueFrom, mergeMap, of, type Observable } from 'rxjs';
import { ProblemException, renderedProblem, toProblem } from '../problem/problem.filter';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/problem';
import { checkIdempotencyKey } from './idempotency-key';
import {
  IdempotencyStore,
  canonicalJson,
  fingerprintOf,
  type BeginOutcome,
  type LookupOutcome,
  type StoredResponse,
} from './idempotency-store';
import { IdempotencyRecordTaken, RequestRecord } from './request-record';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const KEPT_HEADERS = ['content-type', 'location'];

/**
 * A route whose first effect is an event append through the command path (nothing before it
 * writes, calls out or stores anything): its idempotency record may wait for that append and be
 * written in the same commit (docs/adr/0008-write-path.md). Other routes write the record first.
 */
export const RECORD_WITH_FIRST_APPEND = 'record-with-first-append';
export const RecordWithFirstAppend = () => SetMetadata(RECORD_WITH_FIRST_APPEND, true);

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

    const running: Running = { request, reply, next, scope, key, fingerprint };
    const deferred =
      this.store.joinsAppends &&
      this.reflector.getAllAndOverride<boolean | undefined>(RECORD_WITH_FIRST_APPEND, [
        context.getHandler(),
        context.getClass(),
      ]) === true;
    if (deferred) {
      // Read, don't write: the record goes with the request's first append (one commit for both).
      return from(this.store.lookup(scope, key, fingerprint)).pipe(
        mergeMap((found) => {
          if (found.kind === 'absent') {
            return this.execute(
              running,
              { commandId: randomUUID(), resumed: false, lease: randomUUID() },
              false,
            );
          }
          if (found.kind === 'take_over') return this.begin(running);
          return this.answerFor(reply, found);
        }),
      );
    }
    return this.begin(running);
  }

  /** Writes the record first (its own commit), then runs the request, or answers for the record. */
  private begin(r: Running): Observable<unknown> {
    return from(this.store.begin(r.scope, r.key, r.fingerprint)).pipe(
      mergeMap((outcome) =>
        outcome.kind === 'execute' ? this.execute(r, outcome, true) : this.answerFor(r.reply, outcome),
      ),
    );
  }

  /** The answer a record gives a request that may not run: its replay, or why not (422, 409). */
  private answerFor(
    reply: FastifyReply,
    found: Exclude<LookupOutcome, { kind: 'absent' }> | Exclude<BeginOutcome, { kind: 'execute' }>,
  ): Observable<unknown> {
    switch (found.kind) {
      case 'replay':
        return of(replay(reply, found.response));
      case 'reused':
        throw new ProblemException(
          problem(
            422,
            'idempotency_key_reused',
            'this Idempotency-Key was used with a different request; use a new key for a new request',
          ),
        );
      case 'in_progress':
      case 'take_over':
        // CONTRACT §7: every write answers its running twin alike, a transaction too. A 502
        // would say the gateway's answer was lost, which is not what happened (and would be
        // logged as a failure); the twin is told to come back in about a heartbeat. (A dead run's
        // record seen only after a race: the retry takes it over.)
        throw new ProblemException(
          problem(
            409,
            'idempotency_key_in_progress',
            'a request with this Idempotency-Key is still running; retry with the SAME key after the Retry-After delay',
            { retryable: true },
          ),
          { 'retry-after': String(found.kind === 'in_progress' ? found.retryAfterSeconds : 1) },
        );
    }
  }

  /** After a twin took the key while this run appended nothing: answer as its record says. */
  private async answerAsRecorded(r: Running): Promise<unknown> {
    const found = await this.store.lookup(r.scope, r.key, r.fingerprint);
    if (found.kind === 'absent') return lastValueFrom(this.answerFor(r.reply, { kind: 'take_over' }));
    return lastValueFrom(this.answerFor(r.reply, found));
  }

  private execute(
    r: Running,
    run: { commandId: string; resumed: boolean; lease: string },
    inserted: boolean,
  ): Observable<unknown> {
    const { request, reply, scope, key } = r;
    request.commandId = run.commandId;
    request.commandFresh = !run.resumed;
    request.idempotencyKey = key;
    const record = new RequestRecord(
      this.store,
      scope,
      key,
      run.commandId,
      r.fingerprint,
      run.lease,
      inserted,
      (body) => ({ status: reply.statusCode, headers: keptHeaders(reply), body }),
    );
    // The heartbeat starts with the handler and stops however it ends (answer, error, or the
    // caller going away), so no renewal outlives the run. Until the record is written (with the
    // first append) a renewal finds nothing to renew.
    return defer(() => {
      const hold = this.store.hold(scope, key, run.lease);
      return record
        .run(() => r.next.handle())
        .pipe(
          mergeMap(async (body: unknown) => {
            await hold.release();
            const response = { status: reply.statusCode, headers: keptHeaders(reply), body: body ?? null };
            if (await this.keep(record, response)) return body;
            return this.answerAsRecorded(r);
          }),
          catchError(async (error: unknown) => {
            await hold.release();
            // This run's first append found the key taken by a twin: it wrote nothing.
            if (error instanceof IdempotencyRecordTaken) return this.answerAsRecorded(r);
            const { body, headers } = toProblem(error);
            // 5xx and retryable refusals (a lost race) have no definite answer to keep.
            if (body.status >= 500 || body.retryable === true) {
              if (record.written) await this.store.abandon(scope, key, run.lease);
            } else {
              const kept = await this.keep(record, {
                status: body.status,
                headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE },
                // As the problem filter renders it, so a replay is byte-equal.
                body: renderedProblem(request, body),
              });
              if (!kept) return this.answerAsRecorded(r);
            }
            throw error;
          }),
          finalize(() => void hold.release()),
        );
    });
  }

  /**
   * Stores the answer; false when it cannot, because a twin took the key while this run wrote
   * nothing. An answer its last append stored already (the same one) is not written again.
   */
  private async keep(record: RequestRecord, response: StoredResponse): Promise<boolean> {
    const { scope, key, commandId } = record;
    if (record.storedAnswer && sameResponse(record.storedAnswer, response)) return true;
    if (record.written) {
      await this.store.complete(scope, key, commandId, response);
      return true;
    }
    return this.store.insertCompleted(scope, key, commandId, record.fingerprint, response);
  }
}

interface Running {
  request: FastifyRequest;
  reply: FastifyReply;
  next: CallHandler;
  scope: string;
  key: string;
  fingerprint: string;
}

function sameResponse(a: StoredResponse, b: StoredResponse): boolean {
  return (
    a.status === b.status &&
    canonicalJson(a.headers) === canonicalJson(b.headers) &&
    JSON.stringify(a.body) === JSON.stringify(b.body)
  );
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
