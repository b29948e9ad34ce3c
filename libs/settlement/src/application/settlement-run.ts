import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import type { EventMetadata } from '../../../event-store/src';
import { MerchantReader } from '../../../merchants/src';
import { Clock } from '../../../platform/src/clock/clock';
import { idFor } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { ConcurrencyConflict, InvalidStateTransition } from '../../../platform/src/problem';
import { ProjectionRunner } from '../../../projections/src';
import {
  RunTransactionCommand,
  TransactionReader,
  totalMinor,
  type Transaction,
} from '../../../transactions/src';
import type { SettledMemberInput } from '../domain/decide';
import type { SettlementBatch } from '../domain/settlement-batch';
import { isDueForSettlement, SETTLEABLE_STATE, settlementDateOf } from '../domain/settlement-rules';
import { RunSettlementBatchCommand } from './settlement-batch-commands';
import { SettlementBatchReader } from './settlement-batch-reader';

/** The processor a merchant without a provisioned MID settles through (the sandbox gateway's). */
export const DEFAULT_PROCESSOR_KEY = 'SANDBOX_PROCESSOR';

/**
 * How far back a run looks for transactions that an earlier, interrupted run of the same request
 * already settled: the idempotency window (24 h on the clock), the longest a retry with the same
 * `Idempotency-Key` can come after the first run.
 */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Merchants settled at the same time: enough to keep the database busy, few enough to share the pool. */
export const RUN_CONCURRENCY = 4;

/** Candidates read per query: a merchant's book is walked in pages, never loaded whole. */
export const CANDIDATE_PAGE_SIZE = 500;

/** A batch as a run answers it: without its members (they are read page by page elsewhere). */
export type OpenedBatch = Omit<SettlementBatch, 'members'>;

interface CandidateRow {
  id: string;
  partner_id: string;
  created_position: string;
  snapshot: Transaction;
}

/**
 * The rows in a state their rail settles from, as SQL over the constants of the rules (the partial
 * index `transaction_list_settleable` has exactly this predicate, so the planner uses it).
 */
export const SETTLEABLE_SQL = Object.entries(SETTLEABLE_STATE)
  .map(([rail, state]) => `(rail = '${rail}' and state = '${state}')`)
  .join(' or ');

/**
 * The end-of-day settlement run (`POST /platform/settlement/run`, CONTRACT §2): every CAPTURED card
 * transaction and every due SUBMITTED ACH entry (domain/settlement-rules.ts) joins one
 * `gateway_reported` batch per merchant and becomes SETTLED.
 *
 * Per merchant, in this order:
 * 1. The batch id is derived from the request's command id and the merchant id, so a re-run of
 *    the same request (same `Idempotency-Key` after a crash or a 5xx) finds the same batch. If the
 *    batch stream exists, the first run finished that merchant: its batch is the answer.
 * 2. Candidates come from the `transaction_list` read model, a page at a time, and are re-checked
 *    on their streams: each one is settled by the transaction's own state machine (`Settle` with
 *    the batch id; the listed snapshot is handed in as what the stream is believed to hold, so a
 *    settle is one append, and a stale snapshot only costs a re-read). A transaction that moved on
 *    meanwhile (voided, settled by a concurrent run) is refused by its machine and skipped, not
 *    failed. A transaction already carrying this batch id was settled by an earlier, interrupted
 *    run of this request and is a member again.
 * 3. Then the batch is appended with exactly the members that were settled; a merchant with none
 *    gets no batch. If a settle fails unexpectedly, the batch still records what was settled
 *    before the error is passed on, so no settled transaction is left without its batch.
 *
 * Merchants are settled {@link RUN_CONCURRENCY} at a time; memory holds one page of candidates and
 * the members of the batches in progress, never the whole book. The answer waits until
 * `transaction-list` and `settlement-batch-list` show the run (read-your-writes).
 */
@Injectable()
export class SettlementRun {
  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: TransactionReader,
    private readonly batches: SettlementBatchReader,
    private readonly merchants: MerchantReader,
    private readonly projections: ProjectionRunner,
    private readonly pool: Pool,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Runs settlement for every merchant, or for one; returns the batches of this run, by merchant id. */
  async run(metadata: EventMetadata, merchantId: string | null): Promise<OpenedBatch[]> {
    const runAt = this.clock.now();
    // Candidates come from `transaction_list`, which has a write a moment after it answered:
    // first let it reach everything written before this run.
    await this.projections.waitForHead(['transaction-list']);
    const merchants = await this.merchantsToSettle(metadata, runAt, merchantId);
    const opened: (OpenedBatch | null)[] = new Array(merchants.length).fill(null);
    let position: bigint | null = null;
    let failure: unknown = null;
    let next = 0;
    const worker = async () => {
      while (failure === null && next < merchants.length) {
        const index = next++;
        const result = await this.settleMerchant(metadata, merchants[index], runAt);
        if (result.position !== null && (position === null || result.position > position)) {
          position = result.position;
        }
        opened[index] = result.batch;
        if (result.failure !== null && failure === null) failure = result.failure;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(RUN_CONCURRENCY, merchants.length) }, worker));
    } finally {
      if (position !== null) {
        await this.projections.waitFor(position, ['transaction-list', 'settlement-batch-list']);
      }
    }
    if (failure !== null) throw failure;
    return opened.filter((b): b is OpenedBatch => b !== null);
  }

  private async settleMerchant(
    metadata: EventMetadata,
    merchantId: string,
    runAt: Date,
  ): Promise<{ batch: OpenedBatch | null; position: bigint | null; failure: unknown }> {
    const batchId = batchIdFor(metadata, merchantId);
    const existing = await this.batches.find(batchId);
    if (existing) return { batch: withoutMembers(existing), position: null, failure: null };

    const settlementDate = settlementDateOf(runAt);
    const members: SettledMemberInput[] = [];
    let partnerId: string | null = null;
    let currency: string | null = null;
    let position: bigint | null = null;
    let failure: unknown = null;
    let after = '0';
    pages: for (;;) {
      const rows = await this.candidates(merchantId, batchId, after);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].created_position;
      for (const row of rows) {
        const t = row.snapshot;
        if (t.batchId !== batchId && !isDueForSettlement(t, settlementDate)) continue;
        partnerId ??= row.partner_id;
        // One currency per batch; the platform takes USD only, so this splits nothing today.
        currency ??= t.currency;
        if (t.currency !== currency) {
          this.logger.warn(
            { transactionId: row.id, batchId },
            'settlement: transaction of another currency left',
          );
          continue;
        }
        try {
          const settled = await this.settleOne(metadata, t, batchId);
          if (settled.position !== null) position = settled.position;
          if (settled.transaction) members.push(memberOf(batchId, settled.transaction));
        } catch (error) {
          failure = error;
          break pages;
        }
      }
      if (rows.length < CANDIDATE_PAGE_SIZE) break;
    }
    if (members.length === 0 || partnerId === null || currency === null) {
      return { batch: null, position, failure };
    }
    const merchant = await this.merchants.find(merchantId);
    const result = await this.commands.execute(
      new RunSettlementBatchCommand(
        {
          type: 'OpenSettlementBatch',
          batchId,
          merchantId,
          partnerId: merchant?.partnerId ?? partnerId,
          currency,
          processorKey: merchant?.processorMids[0]?.processor ?? DEFAULT_PROCESSOR_KEY,
          runAt,
          members,
        },
        { ...metadata, partner_id: merchant?.partnerId ?? partnerId },
      ),
    );
    return { batch: withoutMembers(result.state), position: result.position, failure };
  }

  /**
   * Settles one transaction into the batch. `listed` is its read-model snapshot: handed to the
   * command path as the stream's believed state, so the append needs no read unless the list was
   * behind. Returns the transaction when it is a member of the batch (settled now, or by an
   * earlier run of this request), null when skipped.
   */
  private async settleOne(
    metadata: EventMetadata,
    listed: Transaction,
    batchId: string,
  ): Promise<{ transaction: Transaction | null; position: bigint | null }> {
    const transactionId = listed.id;
    if (listed.batchId === batchId) return { transaction: listed, position: null };
    const commandId = metadata.causation_id;
    try {
      const result = await this.commands.execute(
        new RunTransactionCommand(
          { type: 'Settle', transactionId, batchId },
          {
            ...metadata,
            partner_id: listed.partnerId,
            causation_id: commandId ? idFor(commandId, `${transactionId}:settle`, randomUUID) : null,
          },
          { known: { state: listed, revision: BigInt(listed.version - 1) } },
        ),
      );
      const ours = result.state.batchId === batchId;
      return { transaction: ours ? result.state : null, position: result.position };
    } catch (error) {
      // It moved on between the read and the write (voided, or settled by a concurrent run).
      if (!(error instanceof InvalidStateTransition) && !(error instanceof ConcurrencyConflict)) throw error;
      const now = await this.transactions.find(transactionId);
      this.logger.info(
        { transactionId, batchId, state: now?.state },
        'settlement: transaction moved on; skipped',
      );
      return { transaction: now?.batchId === batchId ? now : null, position: null };
    }
  }

  /**
   * The merchants with something to settle: those with a row in a state that settles, and those
   * with a row settled within the resume window into this request's batch of that merchant (an
   * interrupted earlier run of the same request).
   */
  private async merchantsToSettle(metadata: EventMetadata, runAt: Date, merchantId: string | null) {
    const [settleable, resumable] = await Promise.all([
      this.pool.query<{ merchant_id: string }>(
        `select distinct merchant_id from transaction_list
          where (${SETTLEABLE_SQL}) and ($1::uuid is null or merchant_id = $1::uuid)`,
        [merchantId],
      ),
      this.pool.query<{ merchant_id: string; batch_id: string }>(
        `select distinct merchant_id, batch_id::text from transaction_list
          where settled_at >= $1 and ($2::uuid is null or merchant_id = $2::uuid)`,
        [new Date(runAt.getTime() - RESUME_WINDOW_MS).toISOString(), merchantId],
      ),
    ]);
    const merchants = new Set(settleable.rows.map((r) => r.merchant_id));
    for (const row of resumable.rows) {
      if (row.batch_id === batchIdFor(metadata, row.merchant_id)) merchants.add(row.merchant_id);
    }
    return [...merchants].sort();
  }

  /**
   * One page of a merchant's candidates, oldest first, after `after` (a created position): rows
   * in the state their rail settles from, and rows already settled into this batch (by an
   * interrupted earlier run of the same request). The due date is checked on the snapshot, then
   * the state again by the transaction's own machine.
   */
  private async candidates(merchantId: string, batchId: string, after: string): Promise<CandidateRow[]> {
    const { rows } = await this.pool.query<CandidateRow>(
      `select id, partner_id, created_position::text, snapshot from transaction_list
        where merchant_id = $1::uuid and created_position > $3::bigint
          and ((${SETTLEABLE_SQL}) or batch_id = $2::uuid)
        order by created_position limit ${CANDIDATE_PAGE_SIZE}`,
      [merchantId, batchId, after],
    );
    return rows;
  }
}

/** The merchant's batch of this request: the same id on every run of the same request. */
function batchIdFor(metadata: EventMetadata, merchantId: string): string {
  return idFor(metadata.causation_id, `batch:${merchantId}`, randomUUID);
}

function withoutMembers(batch: SettlementBatch): OpenedBatch {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped on purpose
  const { members, ...rest } = batch;
  return rest;
}

/** The batch member of a transaction the run settled. */
function memberOf(batchId: string, t: Transaction): SettledMemberInput {
  return {
    memberId: idFor(batchId, `member:${t.id}`, randomUUID),
    transactionId: t.id,
    // Follow-ups the gateway answers without an id of their own record an empty one.
    gatewayTransactionId: t.gatewayTransactionId || null,
    rail: t.rail,
    type: t.type,
    grossAmountMinor: totalMinor(t),
    currency: t.currency,
    settledAt: t.settledAt!,
  };
}
