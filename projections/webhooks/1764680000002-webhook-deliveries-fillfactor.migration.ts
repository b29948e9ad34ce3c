import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `webhook_deliveries` pages keep room for every row's first outcome: `fillfactor` 70 → 40.
 *
 * Why: a delivery row is inserted at about 230 bytes and rewritten by its first outcome at about
 * 290 (its `attempts` array grows). At 70, a page filled with fresh rows lacked room for the new
 * versions of about a third of them (what pruning on the page did not free): those were non-HOT
 * updates, each a new entry in every index of the table (one of them the primary key on a hashed
 * id: a random page). Measured under SALE load with every partner subscribed (`WEBHOOKS=1` of
 * bench/profile-sale.ts): 66% of outcomes were HOT at 70, all of them at 40; the record
 * statement's time per SALE fell from 0.131 to 0.093 ms, and the heap grew by 7% (old versions
 * are pruned on the page, so the room is used again).
 * Applies to pages written from now on.
 */
export class WebhookDeliveriesFillfactor1764680000002 implements MigrationInterface {
  name = 'WebhookDeliveriesFillfactor1764680000002';

  async up(db: QueryRunner): Promise<void> {
    await db.query('alter table webhook_deliveries set (fillfactor = 40)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('alter table webhook_deliveries set (fillfactor = 70)');
  }
}
