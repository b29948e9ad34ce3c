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

/** What the ledger keeps of a batch: its owner, and what its payout needs. */
type BatchFacts = LedgerBatch & { partnerId: string; merchantId: string; paidOut: boolean };

/** One posting, ready to write: its event and its owner. */
interface Entry {
  recorded: RecordedEvent;
  partnerId: string;
  merchantId: string;
  posting: Posting;
}

/**
 * What the ledger keeps of a transaction between its events: the aggregate's own state without
 * what no posting reads (card and bank snapshots, custom fields, level 2/3 data, disclosures),
 * which `evolve` only ever copies, so the fold is the same with or without them.
 */
function compact(t: Transaction): Transaction {
  return {
    ...t,
    card: null,
    bank: null,
    customFields: [],
    level2Data: null,
    level3Data: null,
    convenienceFeeDisclosure: null,
    surchargeDisclosure: null,
    vaultToken: null,
  };
}

/**
 * `ledger`: the double-entry ledger (docs/ledger.md). Each event that moves money posts one
 * journal entry, its lines from the pure posting rules (libs/settlement/src/domain/ledger), its id
 * the event's own, so a rebuild from the events writes the same rows. Transactions are folded with
 * their own `evolve` (the posting rules look at the state before and after an event); batches keep
 * their total, their members' shares and the fees posted.
 *
 * Set-based: a page of events is folded in memory over the states it touches (read in two
 * queries), then written in five, whatever the page's size, so the ledger keeps up with a
 * 100,000-transaction end of day.
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

  handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    return this.handleBatch(tx, [recorded]);
  }

  async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
    const transactionIds = new Set<string>();
    const batchIds = new Set<string>();
    for (const e of events) {
      if (e.stream.startsWith(TRANSACTION_STREAM_PREFIX)) {
        transactionIds.add(e.stream.slice(TRANSACTION_STREAM_PREFIX.length));
        if (e.type === 'TransactionSettled') batchIds.add((e.data as { batchId: string }).batchId);
      } else if (e.stream.startsWith(SETTLEMENT_BATCH_STREAM_PREFIX)) {
        batchIds.add(e.stream.slice(SETTLEMENT_BATCH_STREAM_PREFIX.length));
      }
    }
    const transactions = await loadTransactions(tx, [...transactionIds]);
    const batches = await loadBatches(tx, [...batchIds]);
    const touchedTransactions = new Set<string>();
    const touchedBatches = new Set<string>();
    const entries: Entry[] = [];

    for (const recorded of events) {
      if (recorded.stream.startsWith(TRANSACTION_STREAM_PREFIX)) {
        const id = recorded.stream.slice(TRANSACTION_STREAM_PREFIX.length);
        const event = { type: recorded.type, data: recorded.data } as TransactionEvent;
        const before = transactions.get(id) ?? null;
        const after = evolve(before, event);
        if (!after) continue;
        transactions.set(id, compact(after));
        touchedTransactions.add(id);
        if (event.type === 'TransactionSettled') {
          const batch = batchOf(batches, event.data.batchId, after);
          const shares = memberShares(after);
          batch.surchargeMinor += shares.surchargeMinor;
          batch.convenienceFeeMinor += shares.convenienceFeeMinor;
          touchedBatches.add(batch.batchId);
        }
        const posting = transactionPosting(event, before, after);
        if (posting)
          entries.push({ recorded, partnerId: after.partnerId, merchantId: after.merchantId, posting });
      } else if (recorded.stream.startsWith(SETTLEMENT_BATCH_STREAM_PREFIX)) {
        const batchId = recorded.stream.slice(SETTLEMENT_BATCH_STREAM_PREFIX.length);
        const event = { type: recorded.type, data: recorded.data } as SettlementBatchEvent;
        if (event.type === 'SettlementBatchOpened') {
          const d = event.data;
          const batch = batchOf(batches, batchId, d);
          batch.totalMinor = BigInt(d.totalAmountMinor);
          touchedBatches.add(batchId);
          continue;
        }
        const batch = batches.get(batchId);
        if (!batch) continue;
        const posting = batchPosting(event, batch);
        if (event.type === 'SettlementReportIngested') batch.feesPostedMinor = BigInt(event.data.feesMinor);
        else batch.paidOut = true;
        touchedBatches.add(batchId);
        if (posting)
          entries.push({ recorded, partnerId: batch.partnerId, merchantId: batch.merchantId, posting });
      }
    }

    await saveTransactions(
      tx,
      [...touchedTransactions].map((id) => transactions.get(id)!),
    );
    await saveBatches(
      tx,
      [...touchedBatches].map((id) => batches.get(id)!),
    );
    await post(tx, entries);
  }
}

/** The batch's facts, created for a batch the ledger meets first through a settled member. */
function batchOf(
  batches: Map<string, BatchFacts>,
  batchId: string,
  owner: { partnerId: string; merchantId: string; currency: string },
): BatchFacts {
  let batch = batches.get(batchId);
  if (!batch) {
    batch = {
      batchId,
      partnerId: owner.partnerId,
      merchantId: owner.merchantId,
      currency: owner.currency,
      totalMinor: 0n,
      surchargeMinor: 0n,
      convenienceFeeMinor: 0n,
      feesPostedMinor: 0n,
      paidOut: false,
    };
    batches.set(batchId, batch);
  }
  return batch;
}

async function loadTransactions(tx: EntityManager, ids: string[]): Promise<Map<string, Transaction>> {
  if (ids.length === 0) return new Map();
  const rows = (await tx.query('select id, snapshot from ledger_transactions where id = any($1::uuid[])', [
    ids,
  ])) as {
    id: string;
    snapshot: Transaction;
  }[];
  return new Map(rows.map((r) => [r.id, r.snapshot]));
}

async function loadBatches(tx: EntityManager, ids: string[]): Promise<Map<string, BatchFacts>> {
  if (ids.length === 0) return new Map();
  const rows = (await tx.query(
    `select batch_id, partner_id, merchant_id, currency, total_minor::text, surcharge_minor::text,
            convenience_fee_minor::text, fees_posted_minor::text, paid_out
       from ledger_batches where batch_id = any($1::uuid[])`,
    [ids],
  )) as Record<string, string | boolean>[];
  return new Map(
    rows.map((r) => [
      r.batch_id as string,
      {
        batchId: r.batch_id as string,
        partnerId: r.partner_id as string,
        merchantId: r.merchant_id as string,
        currency: r.currency as string,
        totalMinor: BigInt(r.total_minor as string),
        surchargeMinor: BigInt(r.surcharge_minor as string),
        convenienceFeeMinor: BigInt(r.convenience_fee_minor as string),
        feesPostedMinor: BigInt(r.fees_posted_minor as string),
        paidOut: r.paid_out as boolean,
      },
    ]),
  );
}

async function saveTransactions(tx: EntityManager, transactions: Transaction[]): Promise<void> {
  if (transactions.length === 0) return;
  await tx.query(
    `insert into ledger_transactions (id, partner_id, merchant_id, snapshot)
     select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[])
     on conflict (id) do update set snapshot = excluded.snapshot`,
    [
      transactions.map((t) => t.id),
      transactions.map((t) => t.partnerId),
      transactions.map((t) => t.merchantId),
      transactions.map((t) => JSON.stringify(t)),
    ],
  );
}

async function saveBatches(tx: EntityManager, batches: BatchFacts[]): Promise<void> {
  if (batches.length === 0) return;
  const column = <T>(pick: (b: BatchFacts) => T) => batches.map(pick);
  await tx.query(
    `insert into ledger_batches (batch_id, partner_id, merchant_id, currency, total_minor, surcharge_minor,
       convenience_fee_minor, fees_posted_minor, paid_out)
     select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[],
                          $8::bigint[], $9::boolean[])
     on conflict (batch_id) do update set
       total_minor = excluded.total_minor, surcharge_minor = excluded.surcharge_minor,
       convenience_fee_minor = excluded.convenience_fee_minor, fees_posted_minor = excluded.fees_posted_minor,
       paid_out = excluded.paid_out`,
    [
      column((b) => b.batchId),
      column((b) => b.partnerId),
      column((b) => b.merchantId),
      column((b) => b.currency),
      // Minor units as integer strings, never through a float.
      column((b) => b.totalMinor.toString()),
      column((b) => b.surchargeMinor.toString()),
      column((b) => b.convenienceFeeMinor.toString()),
      column((b) => b.feesPostedMinor.toString()),
      column((b) => b.paidOut),
    ],
  );
}

/** The entries, their lines and the balances they move. */
async function post(tx: EntityManager, entries: Entry[]): Promise<void> {
  if (entries.length === 0) return;
  for (const { recorded, posting } of entries) {
    if (postingBalance(posting) !== 0n) {
      throw new Error(`the ${posting.kind} entry of event ${recorded.id} does not balance`);
    }
  }
  const entry = <T>(pick: (e: Entry) => T) => entries.map(pick);
  await tx.query(
    `insert into ledger_entries (id, position, partner_id, merchant_id, currency, kind, event_type, transaction_id,
       batch_id, description, occurred_at)
     select * from unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                          $8::uuid[], $9::uuid[], $10::text[], $11::timestamptz[])`,
    [
      entry((e) => e.recorded.id),
      entry((e) => e.recorded.globalPosition.toString()),
      entry((e) => e.partnerId),
      entry((e) => e.merchantId),
      entry((e) => e.posting.currency),
      entry((e) => e.posting.kind),
      entry((e) => e.recorded.type),
      entry((e) => e.posting.transactionId),
      entry((e) => e.posting.batchId),
      entry((e) => e.posting.description),
      entry((e) => e.recorded.recordedAt.toISOString()),
    ],
  );
  const lines = entries.flatMap((e) =>
    e.posting.lines.map((line, index) => ({ e, line, number: index + 1 })),
  );
  const line = <T>(pick: (l: (typeof lines)[number]) => T) => lines.map(pick);
  await tx.query(
    `insert into ledger_lines (entry_id, line, position, partner_id, merchant_id, currency, account, amount_minor,
       kind, transaction_id, batch_id, occurred_at)
     select * from unnest($1::uuid[], $2::smallint[], $3::bigint[], $4::uuid[], $5::uuid[], $6::text[], $7::text[],
                          $8::bigint[], $9::text[], $10::uuid[], $11::uuid[], $12::timestamptz[])`,
    [
      line((l) => l.e.recorded.id),
      line((l) => l.number),
      line((l) => l.e.recorded.globalPosition.toString()),
      line((l) => l.e.partnerId),
      line((l) => l.e.merchantId),
      line((l) => l.e.posting.currency),
      line((l) => l.line.account),
      line((l) => l.line.amountMinor.toString()),
      line((l) => l.e.posting.kind),
      line((l) => l.e.posting.transactionId),
      line((l) => l.e.posting.batchId),
      line((l) => l.e.recorded.recordedAt.toISOString()),
    ],
  );
  await tx.query(
    `insert into ledger_balances (merchant_id, account, currency, partner_id, balance_minor)
     select merchant_id, account, currency, min(partner_id::text)::uuid, sum(amount)
       from unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::bigint[])
            as u(merchant_id, account, currency, partner_id, amount)
      group by merchant_id, account, currency
     on conflict (merchant_id, account, currency) do update
       set balance_minor = ledger_balances.balance_minor + excluded.balance_minor`,
    [
      line((l) => l.e.merchantId),
      line((l) => l.line.account),
      line((l) => l.e.posting.currency),
      line((l) => l.e.partnerId),
      line((l) => l.line.amountMinor.toString()),
    ],
  );
}
