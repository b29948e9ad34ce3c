import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import { SnapshotListProjector, type Projector } from '../../libs/projections/src';
import {
  evolve,
  SETTLEMENT_BATCH_EVENT_TYPES,
  SETTLEMENT_BATCH_STREAM_PREFIX,
  type SettlementBatch,
  type SettlementBatchEvent,
  type SettlementBatchOpened,
  type SettlementReportIngested,
} from '../../libs/settlement/src';

/** Members are inserted this many to a statement. */
const MEMBERS_PER_INSERT = 500;

/**
 * `settlement_batch_list`: one row per batch, the batch's own `evolve` folded over a snapshot kept
 * without its members; `settlement_batch_members`: one row per member, inserted when the batch
 * opens and updated with each report's match. Both are rebuilt and swapped together.
 */
export class SettlementBatchListProjector implements Projector {
  readonly name = 'settlement-batch-list';
  readonly eventTypes = SETTLEMENT_BATCH_EVENT_TYPES;
  readonly tables = ['settlement_batch_list', 'settlement_batch_members'];

  private readonly list = new SnapshotListProjector<SettlementBatch>({
    name: this.name,
    table: 'settlement_batch_list',
    eventTypes: this.eventTypes,
    streamPrefix: SETTLEMENT_BATCH_STREAM_PREFIX,
    evolve: (state, event) => evolve(state, event as SettlementBatchEvent),
    snapshot: (batch) => ({ ...batch, members: [] }),
    columns: (b) => ({
      partner_id: b.partnerId,
      merchant_id: b.merchantId,
      state: b.state,
      reporting_basis: b.reportingBasis,
      currency: b.currency,
      settlement_date: b.settlementDate,
      expected_by: b.expectedBy,
      transaction_count: b.transactionCount,
      total_minor: b.totalAmountMinor,
      fees_minor: b.feesMinor,
      net_minor: b.netAmountMinor,
      reconciled_at: b.reconciledAt,
      created_at: b.createdAt,
      updated_at: b.updatedAt,
      version: b.version,
    }),
  });

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    await this.list.handle(tx, recorded);
    if (recorded.type === 'SettlementBatchOpened') {
      await insertMembers(tx, recorded.data as SettlementBatchOpened['data']);
    } else if (recorded.type === 'SettlementReportIngested') {
      await matchMembers(tx, recorded.data as SettlementReportIngested['data']);
    }
  }
}

async function insertMembers(tx: EntityManager, batch: SettlementBatchOpened['data']): Promise<void> {
  for (let start = 0; start < batch.members.length; start += MEMBERS_PER_INSERT) {
    const chunk = batch.members.slice(start, start + MEMBERS_PER_INSERT);
    const column = <T>(pick: (m: (typeof chunk)[number], i: number) => T) => chunk.map(pick);
    await tx.query(
      `insert into settlement_batch_members (batch_id, ordinal, member_id, transaction_id, partner_id,
         merchant_id, gateway_transaction_id, rail, type, amount_minor, currency, settled_at, match_state)
       select $1, o, m, t, $2, $3, g, r, ty, a, $4, s, 'RECORDED'
         from unnest($5::int[], $6::uuid[], $7::uuid[], $8::text[], $9::text[], $10::text[], $11::bigint[],
                     $12::timestamptz[]) as u(o, m, t, g, r, ty, a, s)
       on conflict (batch_id, ordinal) do nothing`,
      [
        batch.batchId,
        batch.partnerId,
        batch.merchantId,
        batch.currency,
        column((_, i) => start + i),
        column((m) => m.memberId),
        column((m) => m.transactionId),
        column((m) => m.gatewayTransactionId),
        column((m) => m.rail),
        column((m) => m.type),
        // Minor-unit strings as the event holds them, never through a float.
        column((m) => m.amountMinor),
        column((m) => m.settledAt),
      ],
    );
  }
}

async function matchMembers(tx: EntityManager, report: SettlementReportIngested['data']): Promise<void> {
  if (report.memberMatches.length === 0) return;
  await tx.query(
    `update settlement_batch_members m set match_state = u.state, reported_amount_minor = u.amount
       from unnest($2::uuid[], $3::text[], $4::bigint[]) as u(member_id, state, amount)
      where m.batch_id = $1 and m.member_id = u.member_id`,
    [
      report.batchId,
      report.memberMatches.map((m) => m.memberId),
      report.memberMatches.map((m) => m.matchState),
      report.memberMatches.map((m) => m.reportedAmountMinor),
    ],
  );
}
