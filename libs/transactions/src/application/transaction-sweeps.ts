import { CommandBus } from '@nestjs/cqrs';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import { Clock } from '../../../platform/src/clock/clock';
import { PeriodicSweep } from '../../../platform/src/scheduling/periodic-sweep';
import { idFor, systemMetadata } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { ProjectionRunner } from '../../../projections/src';
import { GatewayOutcomeUnknown } from '../domain/transaction-errors';
import { GatewayOutcomes } from './gateway-outcome';
import { RunTransactionCommand } from './transaction-commands';
import { TransactionReader } from './transaction-reader';

export const TRANSACTION_SWEEP_ACTOR = 'system:transaction-sweep';
export const TRANSACTION_SWEEP_INTERVAL_MS = 15_000;
/**
 * A pending answer is left to the request's own retry for this long (the partner was told to
 * retry with the same key) before the sweep asks the gateway itself.
 */
export const PENDING_GRACE_MS = 30_000;
const BATCH_SIZE = 100;

/**
 * SALEs whose gateway outcome is still unknown past the grace period ($1), oldest first. Read off
 * the partial index `transaction_list_initiated`: a pass costs the few rows it finds.
 */
export const OUTCOME_PENDING_SQL = `select id from transaction_list
  where state = 'INITIATED' and (snapshot->>'outcomePending')::boolean
    and (snapshot->>'updatedAt')::timestamptz <= $1
  order by created_position limit ${BATCH_SIZE}`;

/** 3-D Secure challenges expired by $1, oldest first (partial index `transaction_list_three_ds_pending`). */
export const THREE_DS_EXPIRED_SQL = `select id from transaction_list
  where state = 'THREE_DS_PENDING' and (snapshot->'threeDs'->>'expiresAt')::timestamptz <= $1
  order by created_position limit ${BATCH_SIZE}`;

export interface SweepResult {
  resolved: number;
  stillPending: number;
  threeDsTimedOut: number;
}

/**
 * The two background sweeps of the transaction stream (spec Errors; spec state table row 1):
 * 1. Pending gateway answers (502 `gateway_outcome_unknown`): after {@link PENDING_GRACE_MS} the
 *    sweep resolves the transaction on its own through {@link GatewayOutcomes.resolve}, which asks the
 *    gateway about the transaction's reference and re-sends only what the gateway never received,
 *    so the sweep and a partner's retry can race without charging twice.
 * 2. 3DS challenges: a THREE_DS_PENDING transaction past its 15 minutes becomes THREE_DS_FAILED
 *    with `callback_timeout`.
 * Every 15 s, and on demand through {@link sweep}; "now" is the platform Clock (sandbox-movable).
 * Each step's `causation_id` is derived from the transaction and its version, so two sweepers
 * racing record one answer; the loser is refused by the state machine and ignores it.
 */
@Injectable()
export class TransactionSweeps extends PeriodicSweep<SweepResult> {
  constructor(
    private readonly outcomes: GatewayOutcomes,
    private readonly commands: CommandBus,
    private readonly transactions: TransactionReader,
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly projections: ProjectionRunner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(
      {
        name: 'transaction-sweeps',
        intervalMs: TRANSACTION_SWEEP_INTERVAL_MS,
        failure: 'transaction sweep failed',
      },
      pool,
      logger,
    );
  }

  protected async pass(): Promise<SweepResult> {
    const now = this.clock.now();
    // Candidates come from `transaction_list`, which has a write a moment after it answered: let
    // it reach everything written before this pass first (docs/adr/0008-write-path.md).
    await this.projections.waitForHead(['transaction-list']);
    const result: SweepResult = { resolved: 0, stillPending: 0, threeDsTimedOut: 0 };
    const pending = await this.pool.query<{ id: string }>(OUTCOME_PENDING_SQL, [
      new Date(now.getTime() - PENDING_GRACE_MS),
    ]);
    for (const { id } of pending.rows) {
      if (this.isStopped) break;
      const outcome = await this.resolve(id);
      if (outcome === 'resolved') result.resolved += 1;
      if (outcome === 'pending') result.stillPending += 1;
    }
    const challenges = await this.pool.query<{ id: string }>(THREE_DS_EXPIRED_SQL, [now]);
    for (const { id } of challenges.rows) {
      if (this.isStopped) break;
      if (await this.timeOut(id)) result.threeDsTimedOut += 1;
    }
    return result;
  }

  private async resolve(transactionId: string): Promise<'resolved' | 'pending' | 'skipped'> {
    const transaction = await this.transactions.find(transactionId);
    if (!transaction || transaction.state !== 'INITIATED' || !transaction.outcomePending) return 'skipped';
    const commandId = idFor(transactionId, `sweep:${transaction.version}`, () => transactionId);
    try {
      await this.outcomes.resolve(
        { commandId, metadata: systemMetadata(TRANSACTION_SWEEP_ACTOR, transaction.partnerId, commandId) },
        transaction,
      );
      return 'resolved';
    } catch (err) {
      if (err instanceof GatewayOutcomeUnknown) return 'pending';
      if (err instanceof InvalidStateTransition) return 'skipped';
      this.logger.warn({ err, transaction_id: transactionId }, 'pending transaction could not be resolved');
      return 'skipped';
    }
  }

  private async timeOut(transactionId: string): Promise<boolean> {
    const transaction = await this.transactions.find(transactionId);
    if (!transaction) return false;
    const commandId = idFor(transactionId, 'three-ds-timeout', () => transactionId);
    try {
      const result = await this.commands.execute(
        new RunTransactionCommand(
          { type: 'TimeOutThreeDs', transactionId },
          systemMetadata(TRANSACTION_SWEEP_ACTOR, transaction.partnerId, commandId),
        ),
      );
      return !result.alreadyApplied && result.events.length > 0;
    } catch (err) {
      if (err instanceof InvalidStateTransition) return false;
      this.logger.warn({ err, transaction_id: transactionId }, '3DS time-out failed');
      return false;
    }
  }
}
