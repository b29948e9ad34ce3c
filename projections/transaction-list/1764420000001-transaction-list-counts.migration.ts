import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two changes for `GET /transactions` on large books:
 *
 * - `transaction_list_counts`: how many transactions a partner has, in all (`merchant_id` is the
 *   nil UUID, which no merchant has) and per merchant, so the `total_count` of the unfiltered and
 *   merchant-only lists is one row instead of a count of every row. The projector adds one when it
 *   inserts a transaction's row (never on its later events; rows are never deleted), in the
 *   transaction that moves its checkpoint, and the table is rebuilt and swapped with
 *   `transaction_list`. Existing rows are counted here, with writers kept out meanwhile.
 * - `(partner_id, created_at) include (created_position)` replaces `(partner_id, created_at)`: it
 *   serves the created-range filters as before, and also gives the positions of a created range
 *   from the index alone, which the list turns into a position range on its newest-first index.
 *   `created_position` is carried, not a key column: as a key column, the range's own index would
 *   look cheapest for the page and the planner would sort the whole range instead of reading the
 *   newest-first index.
 */
export class TransactionListCounts1764420000001 implements MigrationInterface {
  name = 'TransactionListCounts1764420000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table transaction_list_counts (
        partner_id uuid not null,
        merchant_id uuid not null,
        count bigint not null,
        primary key (partner_id, merchant_id)
      )`);
    // Until this commits, no projector adds a row the counts below would miss.
    await db.query('lock table transaction_list in share mode');
    await db.query(`
      insert into transaction_list_counts (partner_id, merchant_id, count)
      select partner_id, merchant_id, count(*) from transaction_list group by partner_id, merchant_id
      union all
      select partner_id, '00000000-0000-0000-0000-000000000000', count(*) from transaction_list group by partner_id`);
    await db.query(
      `create index transaction_list_partner_created_at_position
         on transaction_list (partner_id, created_at) include (created_position)`,
    );
    await db.query('drop index transaction_list_partner_created_at');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'create index transaction_list_partner_created_at on transaction_list (partner_id, created_at)',
    );
    await db.query('drop index transaction_list_partner_created_at_position');
    await db.query('drop table transaction_list_counts');
  }
}
