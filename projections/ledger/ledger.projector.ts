import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import type { Projector } from '../../libs/projections/src';
import {
  batchPosting,
  memberShares,
  postingBalance,
  SETTLEMENT_BATCH_STREAM_PREFIX,
  transactionPosting,
  type LedgerBatch,
  type Posting,
  type SettlementBatchEvent,
  type SettlementBatchOpened,
} from '../../libs/settlement/src';
import {
  evolve,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_STREAM_PREFIX,
  type Transaction,
  type TransactionEvent,
} from '../../libs/transactions/src';

/** The batch events the ledger posts from (opening gives the total; reports the fees; finals the payout). */
const BATCH_EVENT_TYPES: readonly SettlementBatchEvent['type'][] = [
  'SettlementBatchOpened',
  'SettlementReportIngested',
  'SettlementBatchReconciled',
  'SettlementBatchClosedWithExceptions',
];

interface BatchRow {
  partner_id: string;
  merchant_id: string;
  currency: string;
  total_minor: string;
  surcharge_minor: string;
  convenience_fee_minor: string;
  fees_posted_minor: string;
}

/**
 * `ledger`: the double-entry ledger (docs/ledger.md). Each event that moves money posts one
 * journal entry, its lines from the pure posting rules (libs/settlement/src/domain/ledger), its id
 * the event's own, so a rebuild from the events writes the same rows. Transactions are folded with
 * their own `evolve` (the posting rules look at the state before and after an event); batches keep
 * their total, their members' shares and the fees posted.
 */
export class LedgerProjector implements Projector {
  readonly name = 'ledger';
  readonly eventTypes = [...TRANSACTION_EVENT_TYPES, ...BATCH_EVENT_TYPES];
  readonly tables = [
    'ledger_entries',
    'ledger_lines',
    'ledger_balances',
    'ledger_transactions',
    'ledger_batches',
  ];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    if (recorded.stream.startsWith(TRANSACTION_STREAM_PREFIX)) return this.transaction(tx, recorded);
    if (recorded.stream.startsWith(SETTLEMENT_BATCH_STREAM_PREFIX)) return this.batch(tx, recorded);
  }

  private async transaction(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice(TRANSACTION_STREAM_PREFIX.length);
    const event = { type: recorded.type, data: recorded.data } as TransactionEvent;
    const rows = (await tx.query('select snapshot from ledger_transactions where id = $1', [id])) as {
      snapshot: Transaction;
    }[];
    const before = rows[0]?.snapshot ?? null;
    const after = evolve(before, event);
    if (!after) return;
    await tx.query(
      `insert into ledger_transactions (id, partner_id, merchant_id, snapshot) values ($1, $2, $3, $4)
       on conflict (id) do update set snapshot = excluded.snapshot`,
      [id, after.partnerId, after.merchantId, JSON.stringify(after)],
    );
    if (event.type === 'TransactionSettled') await this.addMember(tx, event.data.batchId, after);
    const posting = transactionPosting(event, before, after);
    if (posting) await this.post(tx, recorded, after, posting);
  }

  private async batch(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as SettlementBatchEvent;
    const batchId = recorded.stream.slice(SETTLEMENT_BATCH_STREAM_PREFIX.length);
    if (event.type === 'SettlementBatchOpened') {
      const d: SettlementBatchOpened['data'] = event.data;
      await tx.query(
        `insert into ledger_batches (batch_id, partner_id, merchant_id, currency, total_minor) values ($1, $2, $3, $4, $5)
         on conflict (batch_id) do update set total_minor = excluded.total_minor`,
        [batchId, d.partnerId, d.merchantId, d.currency, d.totalAmountMinor],
      );
      return;
    }
    const rows = (await tx.query(
      `select partner_id, merchant_id, currency, total_minor::text, surcharge_minor::text,
              convenience_fee_minor::text, fees_posted_minor::text
         from ledger_batches where batch_id = $1`,
      [batchId],
    )) as BatchRow[];
    const row = rows[0];
    if (!row) return;
    const batch: LedgerBatch = {
      batchId,
      currency: row.currency,
      totalMinor: BigInt(row.total_minor),
      surchargeMinor: BigInt(row.surcharge_minor),
      convenienceFeeMinor: BigInt(row.convenience_fee_minor),
      feesPostedMinor: BigInt(row.fees_posted_minor),
    };
    const posting = batchPosting(event, batch);
    if (event.type === 'SettlementReportIngested') {
      await tx.query('update ledger_batches set fees_posted_minor = $2 where batch_id = $1', [
        batchId,
        event.data.feesMinor,
      ]);
    } else {
      await tx.query('update ledger_batches set paid_out = true where batch_id = $1', [batchId]);
    }
    if (posting)
      await this.post(tx, recorded, { partnerId: row.partner_id, merchantId: row.merchant_id }, posting);
  }

  /** A settled member's shares of the payables, kept on its batch for the payout. */
  private async addMember(tx: EntityManager, batchId: string, t: Transaction): Promise<void> {
    const shares = memberShares(t);
    await tx.query(
      `insert into ledger_batches (batch_id, partner_id, merchant_id, currency, surcharge_minor, convenience_fee_minor)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (batch_id) do update set
         surcharge_minor = ledger_batches.surcharge_minor + excluded.surcharge_minor,
         convenience_fee_minor = ledger_batches.convenience_fee_minor + excluded.convenience_fee_minor`,
      [
        batchId,
        t.partnerId,
        t.merchantId,
        t.currency,
        shares.surchargeMinor.toString(),
        shares.convenienceFeeMinor.toString(),
      ],
    );
  }

  /** The entry, its lines and the balances they move, in the projector's transaction. */
  private async post(
    tx: EntityManager,
    recorded: RecordedEvent,
    owner: { partnerId: string; merchantId: string },
    posting: Posting,
  ): Promise<void> {
    if (postingBalance(posting) !== 0n) {
      throw new Error(`the ${posting.kind} entry of event ${recorded.id} does not balance`);
    }
    const occurredAt = recorded.recordedAt.toISOString();
    await tx.query(
      `insert into ledger_entries (id, position, partner_id, merchant_id, currency, kind, event_type,
         transaction_id, batch_id, description, occurred_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        recorded.id,
        recorded.globalPosition.toString(),
        owner.partnerId,
        owner.merchantId,
        posting.currency,
        posting.kind,
        recorded.type,
        posting.transactionId,
        posting.batchId,
        posting.description,
        occurredAt,
      ],
    );
    const accounts = posting.lines.map((l) => l.account);
    const amounts = posting.lines.map((l) => l.amountMinor.toString());
    await tx.query(
      `insert into ledger_lines (entry_id, line, position, partner_id, merchant_id, currency, account, amount_minor,
         kind, transaction_id, batch_id, occurred_at)
       select $1, u.ord, $2, $3, $4, $5, u.account, u.amount, $6, $7, $8, $9
         from unnest($10::text[], $11::bigint[]) with ordinality as u(account, amount, ord)`,
      [
        recorded.id,
        recorded.globalPosition.toString(),
        owner.partnerId,
        owner.merchantId,
        posting.currency,
        posting.kind,
        posting.transactionId,
        posting.batchId,
        occurredAt,
        accounts,
        amounts,
      ],
    );
    await tx.query(
      `insert into ledger_balances (merchant_id, account, currency, partner_id, balance_minor)
       select $1, u.account, $2, $3, sum(u.amount) from unnest($4::text[], $5::bigint[]) as u(account, amount)
        group by u.account
       on conflict (merchant_id, account, currency) do update
         set balance_minor = ledger_balances.balance_minor + excluded.balance_minor`,
      [owner.merchantId, posting.currency, owner.partnerId, accounts, amounts],
    );
  }
}
