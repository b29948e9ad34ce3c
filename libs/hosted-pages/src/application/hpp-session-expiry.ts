import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import type { EventMetadata } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { PeriodicTask } from '../../../platform/src/scheduling/periodic-task';
import { idFor, systemMetadata } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { RunHppSessionCommand } from './hpp-session-commands';

/** The `actor` of every HppSessionExpired the sweeper records. */
export const HPP_EXPIRY_ACTOR = 'system:hpp-expiry';
/** How often the sweeper looks for lapsed sessions. */
export const HPP_EXPIRY_INTERVAL_MS = 15_000;
const BATCH_SIZE = 100;

interface CandidateRow {
  id: string;
  partner_id: string;
  expires_at: Date;
}

/**
 * The expiry of one session is one command whatever process runs it: its `causation_id` is
 * derived from the session id, so a second sweeper racing the first finds the event already
 * recorded (or, past the append, the session no longer PENDING) and appends nothing.
 */
export function expiryMetadata(sessionId: string, partnerId: string | null): EventMetadata {
  return systemMetadata(HPP_EXPIRY_ACTOR, partnerId, idFor(sessionId, 'hpp_session-expiry', randomUUID));
}

/**
 * Records HppSessionExpired for PENDING sessions whose `expires_at` has passed (CONTRACT §8).
 * Reads and commands already treat such a session as EXPIRED (`effectiveState`); the sweeper makes
 * it a fact in the stream and the read model. Every 15 seconds while the app runs, and on demand
 * through {@link sweep}. "Now" is the platform Clock, so in sandbox an operator's advance of
 * `POST /platform/sandbox/clock` lapses sessions at the next sweep.
 *
 * Candidates come from `hpp_session_list` (index on `(state, expires_at)`); the stream decides:
 * a session cancelled, completed or locked since the read model was written is refused by the
 * state machine (409 InvalidStateTransition), which the sweeper ignores.
 */
@Injectable()
export class HppSessionExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask<number>;

  constructor(
    private readonly commands: CommandBus,
    private readonly pool: Pool,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(
      () => this.pass(),
      HPP_EXPIRY_INTERVAL_MS,
      (err: unknown) => this.logger.warn({ err }, 'hpp session expiry sweep failed'),
      // One pass per interval across every process on the database (docs/operations.md).
      { pool, name: 'hpp-session-expiry' },
    );
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** Stops the interval and lets a pass in progress finish before the pools close. */
  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** One full pass now; a call while another pass runs waits for it, then makes its own. */
  async sweep(): Promise<number> {
    return this.task.runNow();
  }

  private async pass(): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    // Keyset paging over (expires_at, id): a session that cannot be expired is not met again.
    let after: { expiresAt: Date; id: string } | null = null;
    for (;;) {
      const { rows }: { rows: CandidateRow[] } = await this.pool.query<CandidateRow>(
        `select id, partner_id, expires_at from hpp_session_list
          where state = 'PENDING' and expires_at <= $1
            and ($2::timestamptz is null or (expires_at, id) > ($2::timestamptz, $3::uuid))
          order by expires_at, id
          limit ${BATCH_SIZE}`,
        [now, after?.expiresAt ?? null, after?.id ?? null],
      );
      for (const row of rows) {
        if (await this.expire(row.id, row.partner_id)) expired += 1;
      }
      if (rows.length < BATCH_SIZE || this.task.isStopped) return expired;
      const last: CandidateRow = rows[rows.length - 1];
      after = { expiresAt: last.expires_at, id: last.id };
    }
  }

  /** True when this call recorded the expiry. */
  private async expire(sessionId: string, partnerId: string): Promise<boolean> {
    try {
      const result = await this.commands.execute(
        new RunHppSessionCommand(
          { type: 'ExpireHppSession', sessionId },
          expiryMetadata(sessionId, partnerId),
        ),
      );
      return !result.alreadyApplied && result.events.length > 0;
    } catch (err) {
      // Cancelled, completed or locked after the read model was written: nothing to expire.
      if (err instanceof InvalidStateTransition) return false;
      this.logger.warn({ err, session_id: sessionId }, 'hpp session expiry failed');
      return false;
    }
  }
}
