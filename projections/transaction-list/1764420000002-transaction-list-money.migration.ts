import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The money and settlement facts of a transaction as columns, so an analyst reconciles in SQL
 * without reading the JSON snapshot: the fees on top of `amount_minor` (the base amount the
 * partner sent), what the payer was charged, what has been refunded of it, and the settlement
 * batch and time. All money is integer minor units of `currency`; follow-ups (refunds, voids,
 * reversals) are rows of their own with positive amounts, their direction given by `type`.
 *
 * Existing rows are filled from their snapshots here, with writers kept out meanwhile. A process
 * still running the previous projector would write the defaults: rebuild `transaction-list` after
 * such a rolling deploy (`npm run ops -- rebuild transaction-list`).
 */
export class TransactionListMoney1764420000002 implements MigrationInterface {
  name = 'TransactionListMoney1764420000002';

  async up(db: QueryRunner): Promise<void> {
    await db.query('lock table transaction_list in share row exclusive mode');
    await db.query(`
      alter table transaction_list
        add column surcharge_minor bigint not null default 0,
        add column convenience_fee_minor bigint not null default 0,
        add column total_minor bigint not null default 0,
        add column refunded_minor bigint not null default 0,
        add column batch_id uuid,
        add column settled_at timestamptz`);
    await db.query(`
      update transaction_list set
        surcharge_minor = coalesce((snapshot->>'surchargeMinor')::bigint, 0),
        convenience_fee_minor = coalesce((snapshot->>'convenienceFeeMinor')::bigint, 0),
        total_minor = amount_minor + coalesce((snapshot->>'surchargeMinor')::bigint, 0)
          + coalesce((snapshot->>'convenienceFeeMinor')::bigint, 0),
        refunded_minor = coalesce((snapshot->>'refundedMinor')::bigint, 0),
        batch_id = (snapshot->>'batchId')::uuid,
        settled_at = (snapshot->>'settledAt')::timestamptz`);
    // A refund's parent, and a batch's members: the two joins reconciliation makes.
    await db.query(
      `create index transaction_list_parent on transaction_list (parent_transaction_id)
         where parent_transaction_id is not null`,
    );
    await db.query(
      'create index transaction_list_batch on transaction_list (batch_id) where batch_id is not null',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop index transaction_list_batch');
    await db.query('drop index transaction_list_parent');
    await db.query(`
      alter table transaction_list
        drop column settled_at, drop column batch_id, drop column refunded_minor,
        drop column total_minor, drop column convenience_fee_minor, drop column surcharge_minor`);
  }
}
