import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { EventStore } from '../../../../libs/event-store/src';
import { OperatorRoute } from '../../../../libs/platform/src/auth/access';
import type { AppConfig } from '../../../../libs/platform/src/config/config';
import { APP_CONFIG } from '../../../../libs/platform/src/config/config.token';
import { ClockAdvanceHooks } from '../../../../libs/platform/src/clock/clock-advance-hooks';
import { metadataOf } from '../../../../libs/platform/src/http/request-metadata';
import { queryParam, strictQuery } from '../../../../libs/platform/src/http/strict-query';
import { NotFound } from '../../../../libs/platform/src/problem';
import { ProblemException } from '../../../../libs/platform/src/problem/problem.filter';
import { problem } from '../../../../libs/platform/src/problem/problem';
import { validationProblem } from '../../../../libs/platform/src/validation/validation.pipe';
import { ProjectionRunner, RebuildInProgress, UnknownProjection } from '../../../../libs/projections/src';
import { LOGGER } from '../../../../libs/platform/src/logging/logger.token';
import { SANDBOX_CLOCK, type SandboxClockStore } from '../sandbox/sandbox-clock-store';
import { z } from 'zod';
import { Describe } from '../../../../libs/platform/src/openapi/describe';
import { listOf, Timestamp } from '../../../../libs/platform/src/openapi/wire-schemas';
import { ProjectorStatusResource } from '../../../../libs/projections/src';

class AdvanceClockDto {
  /** Up to ten years at a time; sandbox time only ever moves forward. */
  @IsInt()
  @Min(1)
  @Max(10 * 366 * 24 * 3600)
  advance_seconds!: number;
}

const STREAM_NAME = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * A stream reads from a revision, not by cursor: `from_revision` (default 0) and `limit` (1 to
 * 1000, default 100); anything else, blank or repeated is 400 (strict-query.ts).
 */
const STREAM_EVENTS_QUERY = {
  from_revision: queryParam.wholeNumber(0, Number.MAX_SAFE_INTEGER),
  limit: queryParam.wholeNumber(1, 1000),
};

const StreamEvents = z
  .strictObject({
    stream: z.string(),
    data: z.array(
      z.strictObject({
        revision: z.int().min(0),
        global_position: z.int().min(0),
        type: z.string(),
        data: z.unknown(),
        metadata: z
          .strictObject({
            actor: z.string(),
            partner_id: z.string().nullable(),
            request_id: z.string().nullable(),
            idempotency_key: z.string().nullable(),
            causation_id: z.string().nullable(),
            correlation_id: z.string().nullable(),
          })
          .meta({ description: 'Who caused the event, in which request (docs/events.md).' }),
        recorded_at: Timestamp,
      }),
    ),
    has_more: z.boolean(),
    next_from_revision: z.int().nullable(),
  })
  .meta({ id: 'StreamEvents' });

const SandboxClock = z.strictObject({ now: Timestamp }).meta({ id: 'SandboxClock' });

/**
 * Operator tools over the event store and read models (CONTRACT §2): audit any stream, watch
 * and rebuild projections, and move the sandbox clock.
 */
@OperatorRoute()
@Controller('platform')
export class PlatformOpsController {
  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    @Inject(SANDBOX_CLOCK) private readonly clocks: SandboxClockStore | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly hooks: ClockAdvanceHooks,
  ) {}

  /** A stream's events, oldest first, with their metadata: the audit trail of one record. */
  @Get('streams/:streamName/events')
  @Describe({
    summary: 'A stream’s events, oldest first, with their metadata (the audit trail of one record)',
    description:
      'Streams: `partner-{id}`, `merchant-{id}`, `transaction-{id}`, `customer-{id}`, `hpp_session-{id}`, …',
    response: StreamEvents,
    query: STREAM_EVENTS_QUERY,
  })
  async streamEvents(
    @Param('streamName') streamName: string,
    @Query() query: Record<string, unknown>,
  ): Promise<z.infer<typeof StreamEvents>> {
    if (!STREAM_NAME.test(streamName)) {
      throw validationProblem([{ field: 'streamName', message: 'is not a stream name' }]);
    }
    const params = strictQuery(query, STREAM_EVENTS_QUERY, { paged: false });
    const fromRevision = params.from_revision ?? 0;
    const limit = params.limit ?? 100;
    const events = await this.store.readStream(streamName, {
      fromRevision: BigInt(fromRevision),
      limit: limit + 1,
    });
    if (events.length === 0 && fromRevision === 0) {
      throw new NotFound('stream_not_found', `stream ${streamName} has no events`);
    }
    const shown = events.slice(0, limit);
    return {
      stream: streamName,
      data: shown.map((e) => ({
        revision: Number(e.revision),
        global_position: Number(e.globalPosition),
        type: e.type,
        data: e.data,
        metadata: e.metadata,
        recorded_at: e.recordedAt.toISOString(),
      })),
      has_more: events.length > limit,
      next_from_revision: events.length > limit ? Number(shown[shown.length - 1].revision) + 1 : null,
    };
  }

  @Get('projections')
  @Describe({
    summary: 'Each projector’s state, checkpoint and lag',
    response: listOf(ProjectorStatusResource),
  })
  async listProjections(@Query() query: Record<string, unknown>) {
    strictQuery(query, {}, { paged: false });
    return { data: await this.projections.status() };
  }

  /** 202 at once: the rebuild runs in the background while the old tables keep answering. */
  @Post('projections/:name/rebuild')
  @HttpCode(202)
  @Describe({
    summary: 'Rebuild a read model from the event store (the API keeps answering)',
    response: z.strictObject({ name: z.string(), state: z.literal('rebuilding') }),
    errors: [409],
  })
  async rebuild(@Param('name') name: string) {
    const known = (await this.projections.status()).find((p) => p.name === name);
    if (!known) throw new NotFound('projection_not_found', `there is no projection ${name}`);
    if (known.state === 'rebuilding') throw rebuildRunning(name);
    this.projections.rebuild(name).then(
      () => this.logger.info({ projection: name }, 'projection rebuilt'),
      (err: unknown) => {
        if (err instanceof UnknownProjection) return;
        if (err instanceof RebuildInProgress) return;
        this.logger.error({ err, projection: name }, 'projection rebuild failed');
      },
    );
    return { name, state: 'rebuilding' };
  }

  /** Sandbox time as the whole deployment has it (advances made through another process included). */
  @Get('sandbox/clock')
  @Describe({ summary: 'The sandbox clock', response: SandboxClock, sandboxOnly: true, errors: [404] })
  async sandboxClock(): Promise<z.infer<typeof SandboxClock>> {
    const clocks = this.sandbox();
    await clocks.refresh();
    return { now: clocks.clock.now().toISOString() };
  }

  /**
   * Moves sandbox time forward, then runs the work that fell due with it (recurring charges,
   * ClockAdvanceHooks) before answering, so a read right after sees its effect.
   */
  @Post('sandbox/clock')
  @HttpCode(200)
  @Describe({
    summary: 'Move the sandbox clock forward',
    description: 'TTLs, windows, schedules and idempotency expiry all run on this clock.',
    response: SandboxClock,
    sandboxOnly: true,
    errors: [404],
  })
  async advanceSandboxClock(@Body() body: AdvanceClockDto, @Req() request: FastifyRequest) {
    const now = await this.sandbox().advance(body.advance_seconds, metadataOf(request));
    await this.hooks.notify(now, (hook, err) =>
      this.logger.warn({ err, hook }, 'work due after a sandbox clock advance failed'),
    );
    return { now: now.toISOString() };
  }

  /** Production has no sandbox clock: the route answers as if it did not exist. */
  private sandbox(): SandboxClockStore {
    if (this.config.appEnv !== 'sandbox' || !this.clocks) {
      throw new ProblemException(problem(404, 'not_found', 'there is no sandbox clock in production'));
    }
    return this.clocks;
  }
}

function rebuildRunning(name: string) {
  return new ProblemException(
    problem(409, 'rebuild_in_progress', `projection ${name} is already being rebuilt`, { retryable: true }),
  );
}
