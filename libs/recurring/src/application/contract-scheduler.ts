import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Pool, type PoolClient } from 'pg';
import { EventStore } from '../../../event-store/src';
import { ProjectionRunner } from '../../../projections/src';
import type { Logger } from 'pino';
import { Clock } from '../../../platform/src/clock/clock';
import { ClockAdvanceHooks } from '../../../platform/src/clock/clock-advance-hooks';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { PeriodicTask } from '../../../platform/src/scheduling/periodic-task';
import { addDays, dateOf, type Contract } from '../domain';
import { ContractBilling, emptyTally, type BillingTally, type Known } from './contract-billing';

/** How often a process looks for contracts to bring up to date (besides every sandbox clock advance). */
export const RECURRING_SWEEP_INTERVAL_MS = 10_000;
/**
 * Contracts brought up to date side by side in one process (each one's installments stay in order).
 * More side by side means more appends per group commit and longer read-model pages: at 32 the
 * 10,000-contract bench spent 6.6–8.1 ms of CPU per charge against 8.8–9.3 at 16 (docs/benchmarks.md).
 * Each worker holds no connection between statements, so API requests still get the pool in turn.
 */
export const RECURRING_WORKERS = 32;
/** A returned ACH installment is looked for this long after its charge (NACHA returns come within 60 days). */
export const RETURN_WINDOW_DAYS = 90;
const BATCH_SIZE = 500;
/** Most contracts a worker claims at once (one statement to claim them, one to release them). */
const CLAIM_CHUNK = 4;
const READ_MODELS = ['transaction-list', 'contract-list'];
/** Longest a pass waits for its read models before it ends anyway. */
const PASS_WAIT_MS = 60_000;

export type PassResult = BillingTally & { contracts: number; skipped: number };

/**
 * The recurring scheduler (docs/recurring.md "Scheduler"): every {@link RECURRING_SWEEP_INTERVAL_MS},
 * after every sandbox clock advance (ClockAdvanceHooks) and on demand, one pass:
 *
 * 1. ACH returns: installments whose transaction `transaction_list` shows RETURNED are recorded on
 *    their contract (a retry for R01, the end of the contract for a hard return code).
 * 2. The contracts that need the platform, from `contract_list`: ACTIVE ones whose
 *    `next_charge_date` has come (the partial index on it), one with a charge in flight, one the
 *    platform paused whose hold may be over, a hosted plan past its activation deadline. Walked in
 *    id order, {@link RECURRING_WORKERS} at a time; each contract is claimed with a session
 *    advisory lock on one connection of the pass (`pg_try_advisory_lock`): a contract another
 *    process is working on is skipped, not waited for, and a process that dies releases its
 *    claims with its connection. Exactly-once does not rest on the lock: the per-installment
 *    key and the contract's own stream make a second charge of one installment impossible; the
 *    lock only keeps two processes from doing the same work.
 * 3. Once, at the end: the wait for `transaction-list` and `contract-list` (the charges skip their
 *    own), so a read after the pass sees what it did.
 */
@Injectable()
export class ContractScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask<PassResult>;

  constructor(
    private readonly billing: ContractBilling,
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    private readonly hooks: ClockAdvanceHooks,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(
      () => this.pass(),
      RECURRING_SWEEP_INTERVAL_MS,
      (err: unknown) => this.logger.warn({ err }, 'recurring pass failed'),
    );
  }

  onApplicationBootstrap(): void {
    this.task.start();
    this.hooks.register('recurring charges', () => this.runNow());
  }

  /** Stops the interval and lets a pass in progress finish before the pools close. */
  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** One full pass now; a call while another pass runs waits for it, then makes its own. */
  runNow(): Promise<PassResult> {
    return this.task.runNow();
  }

  private async pass(): Promise<PassResult> {
    const facts = this.billing.facts();
    const result: PassResult = { ...emptyTally(), contracts: 0, skipped: 0 };
    result.returns = await this.recordReturns();
    let locks: PoolClient | null = null;
    try {
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const due = await this.candidates(after);
        if (due.length === 0) break;
        locks ??= await this.pool.connect();
        const claims = locks;
        let next = 0;
        // A few at a time in a long batch; one at a time in a short one, so that another
        // process's pass still finds some of them to work on.
        const chunkSize = Math.max(
          1,
          Math.min(CLAIM_CHUNK, Math.floor(due.length / (2 * RECURRING_WORKERS))),
        );
        const worker = async () => {
          while (next < due.length && !this.task.isStopped) {
            const chunk = due.slice(next, next + chunkSize);
            next += chunk.length;
            const claimed = await this.claim(
              claims,
              chunk.map((c) => c.id),
            );
            result.skipped += chunk.length - claimed.size;
            try {
              for (const candidate of chunk) {
                if (!claimed.has(candidate.id) || this.task.isStopped) continue;
                try {
                  await this.billing.settle(candidate.id, facts, result, candidate.listed);
                  result.contracts += 1;
                } catch (err) {
                  this.logger.warn(
                    { err, contract_id: candidate.id },
                    'contract could not be brought up to date',
                  );
                }
              }
            } finally {
              await this.unclaim(claims, [...claimed]);
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(RECURRING_WORKERS, due.length) }, worker));
        if (due.length < BATCH_SIZE || this.task.isStopped) break;
        after = due[due.length - 1].id;
      }
    } finally {
      // Closed, not returned to the pool: whatever happened, no claim outlives the pass.
      locks?.release(true);
    }
    if (result.contracts + result.returns > 0) {
      // One wait for the whole pass (charges skip the per-write wait): a list read after a pass
      // (after a sandbox clock advance) shows its transactions and contracts. Up to the last
      // contract write, which follows its charge's transaction writes (the store's head alone may
      // be held back by a read model's own batch in progress), or the head, whichever is later.
      const head = await this.store.headPosition();
      const written = this.billing.lastWrittenPosition;
      await this.projections.waitFor(written > head ? written : head, READ_MODELS, PASS_WAIT_MS);
      this.logger.info({ ...result }, 'recurring pass');
    }
    return result;
  }

  /**
   * The next contracts (by id) that need the platform now, each with the state the list holds
   * (its snapshot and stream revision): the first step of a contract starts from it instead of
   * reading the stream. The list may be behind the stream (another process's writes); a write
   * decided on a stale state is refused by its expected revision and decided again on the stream.
   */
  private async candidates(after: string): Promise<{ id: string; listed: Known }[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ id: string; snapshot: Contract; version: number }>(
      `select id, snapshot, version from contract_list
        where id > $3 and (
          (state = 'ACTIVE' and next_charge_date <= $1)
          or in_flight
          or (state = 'PAUSED' and held_for is not null)
          or (state = 'PENDING_ACTIVATION' and activation_deadline <= $2))
        order by id limit ${BATCH_SIZE}`,
      [dateOf(now), now, after],
    );
    // A contract's version counts its events, so its stream's revision is one less.
    return rows.map((row) => ({
      id: row.id,
      listed: { contract: row.snapshot, revision: BigInt(row.version - 1) },
    }));
  }

  /** ACH installments returned since they were charged, recorded on their contracts. */
  private async recordReturns(): Promise<number> {
    const since = addDays(dateOf(this.clock.now()), -RETURN_WINDOW_DAYS);
    const { rows } = await this.pool.query<{
      contract_id: string;
      transaction_id: string;
      return_code: string;
    }>(
      `select c.contract_id, c.transaction_id, t.snapshot->>'returnCode' as return_code
         from contract_charges c join transaction_list t on t.id = c.transaction_id
        where c.rail = 'ACH' and c.outcome = 'CHARGED' and c.charged_at >= $1 and t.state = 'RETURNED'
        limit ${BATCH_SIZE}`,
      [since],
    );
    let recorded = 0;
    for (const row of rows) {
      try {
        if (await this.billing.recordReturn(row.contract_id, row.transaction_id, row.return_code))
          recorded += 1;
      } catch (err) {
        this.logger.warn({ err, contract_id: row.contract_id }, 'an ACH return could not be recorded');
      }
    }
    return recorded;
  }

  /** The contracts of `ids` this pass claims (those no other process is working on). */
  private async claim(client: PoolClient, ids: string[]): Promise<Set<string>> {
    const { rows } = await client.query<{ id: string }>(
      `select id from unnest($1::uuid[]) as id
        where pg_try_advisory_lock(hashtextextended('contract:' || id, 0))`,
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  private async unclaim(client: PoolClient, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await client.query(
      `select pg_advisory_unlock(hashtextextended('contract:' || id, 0)) from unnest($1::uuid[]) as id`,
      [ids],
    );
  }
}
