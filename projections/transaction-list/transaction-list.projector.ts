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
 * The command side waits on this projector by its name (read-your-writes after a create).
 */
export class TransactionListProjector {
  readonly name = 'transaction-list';
  readonly eventTypes = TRANSACTION_EVENT_TYPES;
  readonly tables = ['transaction_list', 'transaction_list_counts'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice(TRANSACTION_STREAM_PREFIX.length);
    // A transaction's first event has no row to read (the checkpoint, moved in the same
    // transaction as the rows, never lets an event be applied twice).
    const rows =
      recorded.type === 'TransactionInitiated'
        ? []
        : ((await tx.query('select snapshot, created_position from transaction_list where id = $1', [
            id,
          ])) as { snapshot: Transaction; created_position: string }[]);
    const transaction = evolve(rows[0]?.snapshot ?? null, {
      type: recorded.type,
      data: recorded.data,
    } as TransactionEvent);
    if (!transaction) return;
    const item = toTransactionListItem(transaction, null);
    await tx.query(
      `insert into transaction_list (id, partner_id, merchant_id, type, rail, state, amount_minor, currency,
         gateway_transaction_id, approval_code, decline_code, decline_reason, card_last4, routing_last4,
         account_last4, account_type, customer_id, parent_transaction_id, created_at, created_position,
         version, snapshot, surcharge_minor, convenience_fee_minor, total_minor, refunded_minor, batch_id,
         settled_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
         $21, $22, $23, $24, $25, $26, $27, $28)
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
        item.id,
        transaction.partnerId,
        item.merchant_id,
        item.type,
        item.rail,
        item.state,
        // The minor-unit string itself, never through a float.
        transaction.amountMinor,
        item.currency,
        // Follow-ups the gateway answers without an id of their own record an empty one.
        transaction.gatewayTransactionId || null,
        item.approval_code,
        item.decline_code,
        item.decline_reason,
        item.card_last4,
        item.routing_last4,
        item.account_last4,
        item.account_type,
        item.customer_id,
        transaction.parentTransactionId,
        item.created_at,
        rows[0]?.created_position ?? recorded.globalPosition.toString(),
        transaction.version,
        JSON.stringify(transaction),
        // Minor-unit strings as the aggregate holds them, never through a float.
        transaction.surchargeMinor,
        transaction.convenienceFeeMinor,
        totalMinor(transaction).toString(),
        transaction.refundedMinor,
        transaction.batchId,
        transaction.settledAt,
      ],
    );
    // No row was read above, in this transaction: this event inserted it. Only this projector
    // writes these tables, one batch at a time (under its checkpoint's lock, or a rebuild's own).
    if (!rows[0]) {
      await tx.query(
        `insert into transaction_list_counts (partner_id, merchant_id, count) values ($1, $2, 1), ($1, $3, 1)
         on conflict (partner_id, merchant_id) do update set count = transaction_list_counts.count + 1`,
        [transaction.partnerId, item.merchant_id, ALL_MERCHANTS],
      );
    }
  }
}
