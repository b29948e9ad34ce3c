import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  evolve,
  totalMinor,
  type Transaction,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_STREAM_PREFIX,
  type TransactionEvent,
  toTransactionListItem,
} from '../../libs/transactions/src';

/** `transaction_list_counts.merchant_id` of a partner's count over all its merchants (no merchant has it). */
export const ALL_MERCHANTS = '00000000-0000-0000-0000-000000000000';

/**
 * `transaction_list`: one row per transaction (for `GET /transactions`, its summary and its CSV
 * export), rebuilt by folding the aggregate's own `evolve` over a JSON snapshot, so the list can
 * never disagree with the transaction read. The list-item columns are written from the domain's
 * own `toTransactionListItem`, so the reader only maps columns back to fields one to one.
 *
 * The merchant's name is not copied here: readers join `merchant_list`, so a renamed merchant
 * shows its current name everywhere without rewriting its transactions.
 *
 * `transaction_list_counts` keeps the `total_count` of the unfiltered and merchant-only lists: one
 * more for the partner and one more for the merchant when a transaction's row is inserted, in the
 * same transaction as the row and the checkpoint. Later events update the row and count nothing;
 * rows are never deleted. Both tables are rebuilt from the events and swapped in together.
 *
 * A page of events is applied set-based (`handleBatch`); one event is a page of one.
 *
 * The command side waits on this projector by its name (read-your-writes after a create).
 */
export class TransactionListProjector {
  readonly name = 'transaction-list';
  readonly eventTypes = TRANSACTION_EVENT_TYPES;
  readonly tables = ['transaction_list', 'transaction_list_counts'];

  handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    return this.handleBatch(tx, [recorded]);
  }

  /**
   * Set-based: the page's transactions are read in one query, folded in memory event by event,
   * and written in one upsert, with one upsert of the counts, so a catch-up or an end of day
   * moves at thousands of rows a second instead of two round trips an event.
   */
  async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
    const ids = [...new Set(events.map((e) => e.stream.slice(TRANSACTION_STREAM_PREFIX.length)))];
    // A page of first events only (a stream of creates) has no row to read.
    const rows = events.every((e) => e.type === 'TransactionInitiated')
      ? []
      : ((await tx.query(
          'select id, snapshot, created_position from transaction_list where id = any($1::uuid[])',
          [ids],
        )) as { id: string; snapshot: Transaction; created_position: string }[]);
    const states = new Map(rows.map((r) => [r.id, r.snapshot]));
    const createdAt = new Map(rows.map((r) => [r.id, r.created_position]));
    const inserted = new Set<string>();
    const touched = new Set<string>();
    for (const recorded of events) {
      const id = recorded.stream.slice(TRANSACTION_STREAM_PREFIX.length);
      const transaction = evolve(states.get(id) ?? null, {
        type: recorded.type,
        data: recorded.data,
      } as TransactionEvent);
      if (!transaction) continue;
      states.set(id, transaction);
      touched.add(id);
      // No row was read, in this transaction, and none made earlier in the page: this event inserts it.
      if (!createdAt.has(id)) {
        createdAt.set(id, recorded.globalPosition.toString());
        inserted.add(id);
      }
    }
    if (touched.size === 0) return;
    const written = [...touched].map((id) => ({
      transaction: states.get(id)!,
      item: toTransactionListItem(states.get(id)!, null),
      createdPosition: createdAt.get(id)!,
    }));
    const column = <T>(pick: (w: (typeof written)[number]) => T) => written.map(pick);
    await tx.query(
      `insert into transaction_list (id, partner_id, merchant_id, type, rail, state, amount_minor, currency,
         gateway_transaction_id, approval_code, decline_code, decline_reason, card_last4, routing_last4,
         account_last4, account_type, customer_id, parent_transaction_id, created_at, created_position,
         version, snapshot, surcharge_minor, convenience_fee_minor, total_minor, refunded_minor, batch_id,
         settled_at)
       select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::bigint[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
         $16::text[], $17::uuid[], $18::uuid[], $19::timestamptz[], $20::bigint[], $21::integer[], $22::jsonb[],
         $23::bigint[], $24::bigint[], $25::bigint[], $26::bigint[], $27::uuid[], $28::timestamptz[])
       on conflict (id) do update set
         state = excluded.state, amount_minor = excluded.amount_minor,
         gateway_transaction_id = excluded.gateway_transaction_id, approval_code = excluded.approval_code,
         decline_code = excluded.decline_code, decline_reason = excluded.decline_reason,
         card_last4 = excluded.card_last4, routing_last4 = excluded.routing_last4,
         account_last4 = excluded.account_last4, account_type = excluded.account_type,
         customer_id = excluded.customer_id, version = excluded.version, snapshot = excluded.snapshot,
         surcharge_minor = excluded.surcharge_minor, convenience_fee_minor = excluded.convenience_fee_minor,
         total_minor = excluded.total_minor, refunded_minor = excluded.refunded_minor,
         batch_id = excluded.batch_id, settled_at = excluded.settled_at`,
      [
        column((w) => w.item.id),
        column((w) => w.transaction.partnerId),
        column((w) => w.item.merchant_id),
        column((w) => w.item.type),
        column((w) => w.item.rail),
        column((w) => w.item.state),
        // Minor-unit strings as the aggregate holds them, never through a float.
        column((w) => w.transaction.amountMinor),
        column((w) => w.item.currency),
        // Follow-ups the gateway answers without an id of their own record an empty one.
        column((w) => w.transaction.gatewayTransactionId || null),
        column((w) => w.item.approval_code),
        column((w) => w.item.decline_code),
        column((w) => w.item.decline_reason),
        column((w) => w.item.card_last4),
        column((w) => w.item.routing_last4),
        column((w) => w.item.account_last4),
        column((w) => w.item.account_type),
        column((w) => w.item.customer_id),
        column((w) => w.transaction.parentTransactionId),
        column((w) => w.item.created_at),
        column((w) => w.createdPosition),
        column((w) => w.transaction.version),
        column((w) => JSON.stringify(w.transaction)),
        column((w) => w.transaction.surchargeMinor),
        column((w) => w.transaction.convenienceFeeMinor),
        column((w) => totalMinor(w.transaction).toString()),
        column((w) => w.transaction.refundedMinor),
        column((w) => w.transaction.batchId),
        column((w) => w.transaction.settledAt),
      ],
    );
    // Only this projector writes these tables, one batch at a time (under its checkpoint's lock,
    // or a rebuild's own): one more for the partner and one for the merchant per inserted row.
    const counts = new Map<string, { partnerId: string; merchantId: string; count: number }>();
    for (const id of inserted) {
      const t = states.get(id)!;
      for (const merchantId of [t.merchantId, ALL_MERCHANTS]) {
        const key = `${t.partnerId}:${merchantId}`;
        const entry = counts.get(key) ?? { partnerId: t.partnerId, merchantId, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
    }
    if (counts.size === 0) return;
    const counted = [...counts.values()];
    await tx.query(
      `insert into transaction_list_counts (partner_id, merchant_id, count)
       select * from unnest($1::uuid[], $2::uuid[], $3::bigint[])
       on conflict (partner_id, merchant_id) do update set count = transaction_list_counts.count + excluded.count`,
      [counted.map((c) => c.partnerId), counted.map((c) => c.merchantId), counted.map((c) => c.count)],
    );
  }
}
