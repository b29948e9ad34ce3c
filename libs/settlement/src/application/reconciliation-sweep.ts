import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import { EventStore } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { idFor, systemMetadata } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { PeriodicSweep } from '../../../platform/src/scheduling/periodic-sweep';
import { ProjectionRunner } from '../../../projections/src';
import { totalMinor, type Transaction } from '../../../transactions/src';
import { differenceKey } from '../domain/processor-report';
import {
  EXCEPTION_RULES,
  isOutstanding,
  type ExceptionState,
} from '../domain/reconciliation-exception-rules';
import { outstandingExceptions, type SettlementBatch } from '../domain/settlement-batch';
import { settlementBatchStream, type SettlementReportIngested } from '../domain/settlement-batch-events';
import { isMissingReportDecided } from '../domain/decide';
import {
  ACH_CLEARING_BANKING_DAYS,
  achClearingDeadline,
  CARD_PRESENTMENT_BANKING_DAYS,
  cardPresentmentDeadline,
} from '../domain/settlement-rules';
import { exceptionIdFor, Reconciliation, RECONCILIATION_ACTOR } from './reconciliation';
import { ReconciliationExceptionReader } from './reconciliation-exception-reader';
import { SettlementBatchReader } from './settlement-batch-reader';
import { SETTLEMENT_READ_MODELS } from './settlement-read-models';

export const RECONCILIATION_SWEEP_INTERVAL_MS = 30_000;
/** Rows looked at per kind and pass: a pass stays short; the next one takes the rest. */
const BATCH_SIZE = 500;

/**
 * Rules 2 and 3's candidates: transactions of rail $1 still in state $2, created before $5 (the
 * earliest a deadline can have passed), after list position $4; with whether an exception of type
 * $3 is already raised for each. The age is read off the partial index
 * `transaction_list_unsettled_age`, so a pass costs the overdue rows, not every unsettled one.
 */
export const OVERDUE_SQL = `select t.id, t.created_position::text as position, t.snapshot,
       exists (select 1 from reconciliation_exception_list e
                where e.transaction_id = t.id and e.type = $3) as known
  from transaction_list t
 where t.rail = $1 and t.state = $2 and t.created_position > $4::bigint
   and t.created_at < $5
 order by t.created_position limit ${BATCH_SIZE}`;
/** A batch left RECONCILING this long (on the clock) was interrupted: the sweep finishes it. */
export const STUCK_RECONCILING_MS = 60_000;

export interface ReconciliationSweepResult {
  missingReports: number;
  unsettledTransactions: number;
  latePresentments: number;
  autoResolved: number;
  finished: number;
}

/**
 * The exceptions the sweep raises about one transaction, the state each one watches, its deadline,
 * and the fewest days from creation to that deadline (a banking day is at least a calendar day):
 * rows created later cannot be overdue, so the query leaves them out and a pass does not walk a
 * large book of fresh captures.
 */
const WATCHED = {
  UNSETTLED_TRANSACTION: {
    rail: 'ACH',
    state: 'SUBMITTED',
    deadline: achClearingDeadline,
    leadDays: ACH_CLEARING_BANKING_DAYS.latest,
  },
  LATE_PRESENTMENT: {
    rail: 'CARD',
    state: 'CAPTURED',
    deadline: cardPresentmentDeadline,
    leadDays: CARD_PRESENTMENT_BANKING_DAYS,
  },
} as const;
const DAY_MS = 86_400_000;
type Watched = keyof typeof WATCHED;

/**
 * The clock-driven side of reconciliation (docs/reconciliation.md), every 30 s and on demand
 * ({@link sweep}); "now" is the platform Clock, so the sandbox clock drives it:
 * 1. MISSING_BATCH: a PENDING batch past its `expected_by` without a report.
 * 2. UNSETTLED_TRANSACTION: an ACH entry still SUBMITTED past the end of the third banking day
 *    after its submission day.
 * 3. LATE_PRESENTMENT: a card capture still CAPTURED past the end of the banking day after its
 *    capture day.
 * 4. Auto-resolves 2 and 3 once the transaction has left that state (settled, voided, returned).
 * 5. Finishes what a crash interrupted: a batch left RECONCILING (its report's exceptions, then
 *    hold or finish), and a batch in EXCEPTION whose exception was resolved on its own stream
 *    but not yet on the batch's.
 * Every write's causation id is derived from what it acts on, so two sweepers racing write once.
 */
@Injectable()
export class ReconciliationSweep extends PeriodicSweep<ReconciliationSweepResult> {
  constructor(
    private readonly reconciliation: Reconciliation,
    private readonly batches: SettlementBatchReader,
    private readonly exceptions: ReconciliationExceptionReader,
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    private readonly pool: Pool,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(
      {
        name: 'reconciliation-sweep',
        intervalMs: RECONCILIATION_SWEEP_INTERVAL_MS,
        failure: 'reconciliation sweep failed',
      },
      pool,
      logger,
    );
  }

  protected async pass(): Promise<ReconciliationSweepResult> {
    const now = this.clock.now();
    // It reads `transaction_list`, which has a write a moment after it answered: let it reach
    // everything written before this pass first (docs/adr/0008-write-path.md).
    await this.projections.waitForHead(['transaction-list']);
    const result: ReconciliationSweepResult = {
      missingReports: 0,
      unsettledTransactions: 0,
      latePresentments: 0,
      autoResolved: 0,
      finished: 0,
    };
    let position: bigint | null = null;
    const note = (p: bigint | null | undefined) => {
      if (p !== null && p !== undefined && (position === null || p > position)) position = p;
    };

    const overdue = await this.pool.query<{ id: string }>(
      `select id from settlement_batch_list where state = 'PENDING' and expected_by < $1
        order by created_position limit ${BATCH_SIZE}`,
      [now],
    );
    for (const { id } of overdue.rows) {
      if (this.isStopped) break;
      const batch = await this.batches.find(id);
      if (!batch || batch.state !== 'PENDING' || now.toISOString() <= batch.expectedBy) continue;
      if (isMissingReportDecided(batch)) continue;
      const flagged = await this.reconciliation.reportMissing(
        batch,
        this.metadata(batch.partnerId, id, `missing:${batch.version}`),
      );
      note(flagged.position);
      result.missingReports += 1;
    }

    for (const type of Object.keys(WATCHED) as Watched[]) {
      const raised = await this.raiseOverdue(type, now, note);
      if (type === 'UNSETTLED_TRANSACTION') result.unsettledTransactions = raised;
      else result.latePresentments = raised;
    }
    result.autoResolved = await this.autoResolveMoved(note);
    result.finished = await this.finishInterrupted(now, note);

    if (position !== null) await this.projections.waitFor(position, SETTLEMENT_READ_MODELS);
    return result;
  }

  /** Rules 2 and 3: transactions still in the watched state past their deadline, once each. */
  private async raiseOverdue(type: Watched, now: Date, note: (p: bigint | null) => void): Promise<number> {
    const watch = WATCHED[type];
    const rule = EXCEPTION_RULES[type];
    let raised = 0;
    let after = '0';
    for (;;) {
      const { rows } = await this.pool.query<{
        id: string;
        position: string;
        snapshot: Transaction;
        known: boolean;
      }>(OVERDUE_SQL, [
        watch.rail,
        watch.state,
        type,
        after,
        new Date(now.getTime() - watch.leadDays * DAY_MS),
      ]);
      for (const row of rows) {
        const t = row.snapshot;
        const deadline = watch.deadline(t);
        if (row.known || t.outcomePending || now.toISOString() <= deadline) continue;
        const key = differenceKey(type, t.id);
        note(
          await this.reconciliation.open(
            exceptionIdFor(t.id, key, 1),
            {
              batchId: null,
              merchantId: t.merchantId,
              partnerId: t.partnerId,
              transactionId: t.id,
              type,
              key,
              occurrence: 1,
              severity: rule.severity,
              description:
                type === 'UNSETTLED_TRANSACTION'
                  ? `ACH entry ${t.id} is still SUBMITTED after ${deadline}, the end of its third banking day`
                  : `card capture ${t.id} was not presented for settlement by ${deadline}`,
              expectedBy: deadline,
              observedAt: now.toISOString(),
              currency: t.currency,
              expectedAmountMinor: totalMinor(t).toString(),
              observedAmountMinor: null,
            },
            this.metadata(t.partnerId, t.id, type),
          ),
        );
        raised += 1;
      }
      if (rows.length < BATCH_SIZE || this.isStopped) return raised;
      after = rows[rows.length - 1].position;
    }
  }

  /** Rule 4: an outstanding transaction exception whose transaction has left the watched state. */
  private async autoResolveMoved(note: (p: bigint | null) => void): Promise<number> {
    const { rows } = await this.pool.query<{
      id: string;
      transaction_id: string;
      state: string;
      batch_id: string | null;
      partner_id: string;
    }>(
      `select e.id, e.transaction_id, t.state, t.batch_id::text, e.partner_id
         from reconciliation_exception_list e join transaction_list t on t.id = e.transaction_id
        where e.state in ('OPEN', 'ESCALATED') and e.batch_id is null
          and ((e.type = 'UNSETTLED_TRANSACTION' and t.state <> 'SUBMITTED')
            or (e.type = 'LATE_PRESENTMENT' and t.state <> 'CAPTURED'))
        order by e.created_position limit ${BATCH_SIZE}`,
    );
    let resolved = 0;
    for (const row of rows) {
      const resolution =
        row.batch_id !== null
          ? `transaction ${row.transaction_id} settled in batch ${row.batch_id}`
          : `transaction ${row.transaction_id} is now ${row.state}`;
      const position = await this.reconciliation.autoResolve(
        row.id,
        resolution,
        this.metadata(row.partner_id, row.id, 'auto-resolve'),
      );
      note(position);
      if (position !== null) resolved += 1;
    }
    return resolved;
  }

  /** Rule 5: batches a crash left between their own stream and their exceptions' streams. */
  private async finishInterrupted(now: Date, note: (p: bigint | null) => void): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      `select id from settlement_batch_list
        where (state = 'RECONCILING' and updated_at < $1) or state = 'EXCEPTION'
        order by created_position limit ${BATCH_SIZE}`,
      [new Date(now.getTime() - STUCK_RECONCILING_MS)],
    );
    let finished = 0;
    for (const { id } of rows) {
      if (this.isStopped) break;
      const batch = await this.batches.find(id);
      if (!batch) continue;
      if (
        batch.state === 'RECONCILING' &&
        Date.parse(batch.updatedAt) < now.getTime() - STUCK_RECONCILING_MS
      ) {
        const report = await this.lastReport(batch);
        if (!report) continue;
        const done = await this.reconciliation.afterReport(
          batch,
          report,
          this.metadata(batch.partnerId, id, `finish:${batch.version}`),
        );
        note(done.position);
        finished += 1;
      } else if (batch.state === 'EXCEPTION') {
        finished += await this.catchUpOutcomes(batch, note);
      }
    }
    return finished;
  }

  /** Outcomes the exceptions' streams have and the batch does not (an interrupted resolve). */
  private async catchUpOutcomes(batch: SettlementBatch, note: (p: bigint | null) => void): Promise<number> {
    let caught = 0;
    for (const ref of outstandingExceptions(batch)) {
      const exception = await this.exceptions.find(exceptionIdFor(batch.id, ref.key, ref.occurrence));
      if (!exception || isOutstanding(exception.state) || exception.state === (ref.state as ExceptionState))
        continue;
      const recorded = await this.reconciliation.recordOutcome(
        exception,
        this.metadata(batch.partnerId, exception.id, `outcome:${exception.state}`),
      );
      note(recorded?.position ?? null);
      caught += 1;
    }
    return caught;
  }

  private async lastReport(batch: SettlementBatch): Promise<SettlementReportIngested['data'] | null> {
    const events = await this.store.readStream(settlementBatchStream(batch.id));
    const last = events.filter((e) => e.type === 'SettlementReportIngested').at(-1);
    return last ? (last.data as SettlementReportIngested['data']) : null;
  }

  /** The sweep's metadata: its actor, and a causation id derived from what it acts on. */
  private metadata(partnerId: string, subjectId: string, step: string) {
    const causation = idFor(subjectId, `reconciliation-sweep:${step}`, () => subjectId);
    return systemMetadata(RECONCILIATION_ACTOR, partnerId, causation);
  }
}
