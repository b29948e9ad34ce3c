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

interface CandidateRow {
  id: string;
  partner_id: string;
  snapshot: Transaction;
}

const SETTLEABLE = Object.entries(SETTLEABLE_STATE);

/**
 * The end-of-day settlement run (`POST /platform/settlement/run`, CONTRACT §2): every CAPTURED card
 * transaction and every due SUBMITTED ACH entry (domain/settlement-rules.ts) joins one
 * `gateway_reported` batch per merchant and becomes SETTLED.
 *
 * Per merchant, in this order:
 * 1. The batch id is derived from the request's command id and the merchant id, so a re-run of
 *    the same request (same `Idempotency-Key` after a crash or a 5xx) finds the same batch. If the
 *    batch stream exists, the first run finished that merchant: its batch is the answer.
 * 2. Candidates come from the `transaction_list` read model and are re-checked on their streams:
 *    each one is settled by the transaction's own state machine (`Settle` with the batch id). A
 *    transaction that moved on meanwhile (voided, settled by a concurrent run) is refused by its
 *    machine and skipped, not failed. A transaction already carrying this batch id was settled by
 *    an earlier, interrupted run of this request and is a member again.
 * 3. Then the batch is appended with exactly the members that were settled; a merchant with none
 *    gets no batch. If a settle fails unexpectedly, the batch still records what was settled
 *    before the error is passed on, so no settled transaction is left without its batch.
 *
 * The answer waits until `transaction-list` shows the SETTLED states (read-your-writes).
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

  /** Runs settlement for every merchant, or for one; returns the batches of this run. */
  async run(metadata: EventMetadata, merchantId: string | null): Promise<SettlementBatch[]> {
    const runAt = this.clock.now();
    // Candidates come from `transaction_list`, which has a write a moment after it answered:
    // first let it reach everything written before this run.
    await this.projections.waitForHead(['transaction-list']);
    const opened: SettlementBatch[] = [];
    let position: bigint | null = null;
    try {
      for (const merchant of await this.merchantsToSettle(metadata, runAt, merchantId)) {
        const result = await this.settleMerchant(metadata, merchant, runAt);
        if (result.position !== null) position = result.position;
        if (result.batch) opened.push(result.batch);
        if (result.failure) throw result.failure;
      }
    } finally {
      if (position !== null) await this.projections.waitFor(position, ['transaction-list']);
    }
    return opened;
  }

  private async settleMerchant(
    metadata: EventMetadata,
    merchantId: string,
    runAt: Date,
  ): Promise<{ batch: SettlementBatch | null; position: bigint | null; failure: unknown }> {
    const batchId = batchIdFor(metadata, merchantId);
    const existing = await this.batches.find(batchId);
    if (existing) return { batch: existing, position: null, failure: null };

    const settlementDate = settlementDateOf(runAt);
    const rows = (await this.candidates(merchantId, batchId)).filter(
      (row) => row.snapshot.batchId === batchId || isDueForSettlement(row.snapshot, settlementDate),
    );
    if (rows.length === 0) return { batch: null, position: null, failure: null };
    const merchant = await this.merchants.find(merchantId);
    const partnerId = merchant?.partnerId ?? rows[0].partner_id;
    // One currency per batch; the platform takes USD only, so this splits nothing today.
    const currency = rows[0].snapshot.currency;

    const members: SettledMemberInput[] = [];
    let position: bigint | null = null;
    let failure: unknown = null;
    for (const row of rows) {
      if (row.snapshot.currency !== currency) {
        this.logger.warn(
          { transactionId: row.id, batchId },
          'settlement: transaction of another currency left',
        );
        continue;
      }
      try {
        const settled = await this.settleOne(metadata, row.id, batchId, settlementDate);
        if (settled.position !== null) position = settled.position;
        if (settled.transaction) members.push(memberOf(batchId, settled.transaction));
      } catch (error) {
        failure = error;
        break;
      }
    }
    if (members.length === 0) return { batch: null, position, failure };

    const result = await this.commands.execute(
      new RunSettlementBatchCommand(
        {
          type: 'OpenSettlementBatch',
          batchId,
          merchantId,
          partnerId,
          currency,
          processorKey: merchant?.processorMids[0]?.processor ?? DEFAULT_PROCESSOR_KEY,
          runAt,
          members,
        },
        { ...metadata, partner_id: partnerId },
      ),
    );
    // `position` is the last settle's: what `transaction-list` must reach before the answer.
    return { batch: result.state, position, failure };
  }

  /**
   * Settles one transaction into the batch, re-checked on its stream. Returns it when it is a
   * member of the batch (settled now, or by an earlier run of this request), null when skipped.
   */
  private async settleOne(
    metadata: EventMetadata,
    transactionId: string,
    batchId: string,
    settlementDate: string,
  ): Promise<{ transaction: Transaction | null; position: bigint | null }> {
    const current = await this.transactions.find(transactionId);
    if (!current) return { transaction: null, position: null };
    if (current.batchId === batchId) return { transaction: current, position: null };
    if (!isDueForSettlement(current, settlementDate)) return { transaction: null, position: null };
    const commandId = metadata.causation_id;
    try {
      const result = await this.commands.execute(
        new RunTransactionCommand(
          { type: 'Settle', transactionId, batchId },
          {
            ...metadata,
            partner_id: current.partnerId,
            causation_id: commandId ? idFor(commandId, `${transactionId}:settle`, randomUUID) : null,
          },
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
          where (rail, state) in (select * from unnest($1::text[], $2::text[]))
            and ($3::uuid is null or merchant_id = $3::uuid)`,
        [...settleableParameters(), merchantId],
      ),
      this.pool.query<{ merchant_id: string; batch_id: string }>(
        `select distinct merchant_id, snapshot->>'batchId' as batch_id from transaction_list
          where snapshot->>'settledAt' >= $1 and ($2::uuid is null or merchant_id = $2::uuid)`,
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
   * One merchant's candidates, oldest first: rows in the state their rail settles from, and rows
   * already settled into this batch (by an interrupted earlier run of the same request). The due
   * date is checked on the snapshot, then everything again on the stream.
   */
  private async candidates(merchantId: string, batchId: string): Promise<CandidateRow[]> {
    const { rows } = await this.pool.query<CandidateRow>(
      `select id, partner_id, snapshot from transaction_list
        where merchant_id = $3::uuid
          and ((rail, state) in (select * from unnest($1::text[], $2::text[])) or snapshot->>'batchId' = $4)
        order by created_position`,
      [...settleableParameters(), merchantId, batchId],
    );
    return rows;
  }
}

/** The merchant's batch of this request: the same id on every run of the same request. */
function batchIdFor(metadata: EventMetadata, merchantId: string): string {
  return idFor(metadata.causation_id, `batch:${merchantId}`, randomUUID);
}

/** `(rail, state)` pairs a transaction settles from, as two parallel arrays for `unnest`. */
function settleableParameters(): [string[], string[]] {
  return [SETTLEABLE.map(([rail]) => rail), SETTLEABLE.map(([, state]) => state)];
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
